/**
 * The single-table model: every entity's key layout in one place. The CDK table, DynamoDB Local's table and
 * every access pattern are built from these definitions, so they cannot disagree.
 *
 * Layout (pk / sk):
 *   WS#<ws>        / WORKSPACE              workspace profile
 *   WS#<ws>        / CREDITS                credit balance
 *   WS#<ws>        / LEDGER#<ledgerId>      one credit movement
 *   WS#<ws>        / COUNT#<entity>         record count kept in the same transaction as each write
 *   WS#<ws>        / KEY#<keyId>            API key listing entry (no secret)
 *   APIKEY#<sha256> / APIKEY                API key lookup by hash
 *   WS#<ws>        / AGENT#<id>             agent          (ids are ULIDs: newest-first by sk)
 *   WS#<ws>        / AGENTVER#<id>#<n>      a published version of the agent (n zero-padded)
 *   WS#<ws>        / TOOL#<id>              tool           (header values encrypted)
 *   WS#<ws>        / CONTACT#<id>           contact
 *   WS#<ws>        / PHONE#<e164>           contact phone uniqueness guard
 *   WS#<ws>        / CALL#<id>              call history record; gsi1 = WS#<ws>#CALLTYPE#<type> / <id>
 *   WS#<ws>        / TIMELINE#<id>          the call's event timeline (at most MAX_CALL_EVENTS events), beside
 *                                           its record so history lists never read it
 *   WS#<ws>        / NUMBER#<id>            phone number of the workspace (BYOT auth token sealed)
 *   NUMBER#<e164>  / OWNER                  which workspace holds a phone number (at most one; webhook lookup)
 *   WS#<ws>        / LIVECALL#<callId>      a call's live state and credit reservation (docs/calls.md);
 *                                           while its stream is live and unsettled (sparse):
 *                                           gsi1 = LIVESTREAM#<shard> / <streamSeenAt ISO>;
 *                                           once dialed, before any stream, while unsettled (sparse):
 *                                           gsi1 = DIALED#<shard> / <dialedAt or last checked ISO>;
 *                                           while the call is not over (sparse, GET /api/calls):
 *                                           gsi2 = LIVECALLS#<ws> / <callId> (a ULID: sorts as time)
 *   PROVIDERCALL#<sid> / CALL               which call an inbound provider call became (one per sid; expires: ttl)
 *   WS#<ws>        / IDEMPOTENCY#<sha256>   first answer to a request with that Idempotency-Key (expires: ttl)
 *   MEETING#<callId> / TOKEN                 a meeting link's hashed single-use token (expires: ttl)
 *   RATE#<policy>#<partition> / WINDOW#<startMs>  requests counted in one rate-limit window (expires: ttl)
 *   WIDGETKEY#<hash> / LEASE#<callId>       a widget session open on that key, until it ends (expires: ttl)
 *   WS#<ws>        / WEBHOOK#<id>           webhook endpoint (signing secrets sealed)
 *   WS#<ws>        / PROVIDERKEY#<vendor>   the workspace's own key at a voice vendor (sealed; docs/provider-keys.md)
 *   WS#<ws>        / EVENT#<evtId>          an event as sent, kept for replay (expires: ttl)
 *   WS#<ws>        / DELIVERY#<endpointId>#<dlvId>  one event's delivery to one endpoint, with its attempts
 *                                           (expires: ttl); newest first per endpoint by sk
 *   USER#<sub>     / PROFILE                a dashboard user (id = the Cognito subject; docs/dashboard.md)
 *   USER#<sub>     / MEMBER#<ws>            the user's membership of a workspace (role, the workspace's name)
 *   WS#<ws>        / MEMBER#<sub>           the same membership seen from the workspace (members list)
 *   USER#<sub>     / SESSION#<id>           a session key of the user (its hash, for sign-out; expires: ttl)
 *   SIGNUP#<email> / PENDING                a sign-up waiting for its confirmation (workspace name; expires: ttl)
 *   INVITE#<sha256> / INVITE                an invitation to a workspace by its hashed token (expires: ttl)
 *   APIKEY#<sha256> / APIKEY also holds session keys (`session: true`, user, role; expires: ttl)
 *   WS#<ws>        / CAMPAIGN#<id>          campaign (settings, status, counters); while it may still dial or
 *                                           has calls in flight (sparse): gsi1 = CAMPAIGNS#ACTIVE / <ws>#<id>
 *   WS#<ws>        / CTARGET#<cmp>#<contactId>  one contact of a campaign; sparse gsi1 while pending:
 *                                           CDUE#<cmp> / <nextAttemptAt ISO>#<contactId>; while dialing:
 *                                           CFLIGHT#<cmp> / <claimedAt ISO>#<contactId>
 *   WS#<ws>        / DNC#<e164>             do-not-call entry
 *   WS#<ws>        / DIALLOCK#<e164>        the one campaign call in flight to a number (expires: ttl)
 *   WS#<ws>        / KB#<kbId>              knowledge base (docs/knowledge.md; its index lives in the bucket)
 *   WS#<ws>        / KBDOC#<kbId>#<docId>   one document of a knowledge base: status, revision, sizes
 *   WS#<ws>        / ATEST#<id>             an agent-test scenario (docs/agent-tests.md)
 *   WS#<ws>        / ATRUN#<id>             an agent-test run with its per-scenario results
 */
export const TABLE_SCHEMA_VERSION = 1;

export const KEYS = { pk: 'pk', sk: 'sk', gsi1pk: 'gsi1pk', gsi1sk: 'gsi1sk', gsi2pk: 'gsi2pk', gsi2sk: 'gsi2sk' } as const;

/**
 * GSI1, overloaded: history by agent type, so the most common history filter reads exactly one page; and the
 * live streams by last heartbeat, so the sweep of abandoned streams reads only the stale ones (the index
 * holds a live call only while its stream is claimed and unsettled).
 */
export const GSI1 = 'gsi1';

/**
 * GSI2: the calls of a workspace that are not over, newest first (`GET /api/calls`). Its own index because a
 * live call's GSI1 keys already belong to the sweeps (live stream, dialed call). Sparse: a call enters when
 * it is placed, rung or joined and leaves when it reaches a terminal state or is settled, so a read costs
 * the workspace's live calls, never its history.
 */
export const GSI2 = 'gsi2';

export interface TableDefinition {
  readonly partitionKey: string;
  readonly sortKey: string;
  readonly globalIndexes: readonly { name: string; partitionKey: string; sortKey: string; projection: 'ALL' }[];
  /** Epoch seconds after which DynamoDB may delete an item (readers still check it: deletion lags). */
  readonly ttlAttribute?: string;
}

export const TABLE: TableDefinition = {
  partitionKey: KEYS.pk,
  sortKey: KEYS.sk,
  globalIndexes: [
    { name: GSI1, partitionKey: KEYS.gsi1pk, sortKey: KEYS.gsi1sk, projection: 'ALL' },
    { name: GSI2, partitionKey: KEYS.gsi2pk, sortKey: KEYS.gsi2sk, projection: 'ALL' },
  ],
  ttlAttribute: 'ttl',
};

export const ENTITY = {
  workspace: 'workspace',
  credits: 'credits',
  ledger: 'ledger',
  counter: 'counter',
  apiKey: 'apiKey',
  apiKeyRef: 'apiKeyRef',
  agent: 'agent',
  agentVersion: 'agentVersion',
  tool: 'tool',
  contact: 'contact',
  contactPhone: 'contactPhone',
  call: 'call',
  callTimeline: 'callTimeline',
  phoneNumber: 'phoneNumber',
  numberOwner: 'numberOwner',
  liveCall: 'liveCall',
  idempotency: 'idempotency',
  meetingToken: 'meetingToken',
  providerCall: 'providerCall',
  rateWindow: 'rateWindow',
  widgetLease: 'widgetLease',
  webhookEndpoint: 'webhookEndpoint',
  event: 'event',
  delivery: 'delivery',
  providerKey: 'providerKey',
  user: 'user',
  membership: 'membership',
  member: 'member',
  sessionRef: 'sessionRef',
  pendingSignUp: 'pendingSignUp',
  invitation: 'invitation',
  campaign: 'campaign',
  campaignTarget: 'campaignTarget',
  dnc: 'dnc',
  dialLock: 'dialLock',
  knowledgeBase: 'knowledgeBase',
  knowledgeDocument: 'knowledgeDocument',
  agentTest: 'agentTest',
  agentTestRun: 'agentTestRun',
} as const;

export type CountedEntity = 'agent' | 'tool' | 'contact' | 'call' | 'phoneNumber' | 'webhookEndpoint' | 'campaign' | 'dnc' | 'agentTest' | 'agentTestRun';

/** Key builders, one per item kind. */
export const key = {
  workspace: (ws: string) => ({ pk: `WS#${ws}`, sk: 'WORKSPACE' }),
  credits: (ws: string) => ({ pk: `WS#${ws}`, sk: 'CREDITS' }),
  ledger: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `LEDGER#${id}` }),
  counter: (ws: string, entity: CountedEntity) => ({ pk: `WS#${ws}`, sk: `COUNT#${entity}` }),
  apiKeyRef: (ws: string, keyId: string) => ({ pk: `WS#${ws}`, sk: `KEY#${keyId}` }),
  apiKey: (hash: string) => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' }),
  agent: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `AGENT#${id}` }),
  /** Not under `AGENT#`, so the agents list never reads versions; zero-padded so versions sort by number. */
  agentVersion: (ws: string, agentId: string, n: number) => ({ pk: `WS#${ws}`, sk: `${agentVersionsOf(agentId)}${String(n).padStart(7, '0')}` }),
  tool: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `TOOL#${id}` }),
  contact: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `CONTACT#${id}` }),
  contactPhone: (ws: string, e164: string) => ({ pk: `WS#${ws}`, sk: `PHONE#${e164}` }),
  call: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `CALL#${id}` }),
  callTimeline: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `TIMELINE#${id}` }),
  callTypeIndex: (ws: string, type: string, id: string) => ({ gsi1pk: `WS#${ws}#CALLTYPE#${type}`, gsi1sk: id }),
  /** A live stream's index entry, sorted by its last heartbeat (ISO 8601 UTC sorts as time). */
  liveStreamIndex: (callId: string, seenAt: string) => ({ gsi1pk: liveStreamShard(liveStreamShardOf(callId)), gsi1sk: seenAt }),
  /**
   * A dialed call's index entry until it streams (the claim moves it to the live-stream index) or settles
   * (settlement removes it), sorted by when it was dialed or last found live: the lost-callback reconciliation's.
   */
  dialedCallIndex: (callId: string, at: string) => ({ gsi1pk: dialedCallShard(liveStreamShardOf(callId)), gsi1sk: at }),
  /** A call that is not over, in its workspace's live-call index, sorted by its id (a ULID: creation time). */
  liveCallIndex: (ws: string, callId: string) => ({ gsi2pk: liveCallsOf(ws), gsi2sk: callId }),
  phoneNumber: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `NUMBER#${id}` }),
  numberOwner: (e164: string) => ({ pk: `NUMBER#${e164}`, sk: 'OWNER' }),
  liveCall: (ws: string, callId: string) => ({ pk: `WS#${ws}`, sk: `LIVECALL#${callId}` }),
  idempotency: (ws: string, keyHash: string) => ({ pk: `WS#${ws}`, sk: `IDEMPOTENCY#${keyHash}` }),
  meetingToken: (callId: string) => ({ pk: `MEETING#${callId}`, sk: 'TOKEN' }),
  providerCall: (callSid: string) => ({ pk: `PROVIDERCALL#${callSid}`, sk: 'CALL' }),
  rateWindow: (policy: string, partition: string, startMs: number) => ({ pk: `RATE#${policy}#${partition}`, sk: `WINDOW#${startMs}` }),
  widgetLease: (keyHash: string, callId: string) => ({ pk: `WIDGETKEY#${keyHash}`, sk: `LEASE#${callId}` }),
  webhookEndpoint: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `WEBHOOK#${id}` }),
  event: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `EVENT#${id}` }),
  delivery: (ws: string, endpointId: string, id: string) => ({ pk: `WS#${ws}`, sk: `DELIVERY#${endpointId}#${id}` }),
  providerKey: (ws: string, vendor: string) => ({ pk: `WS#${ws}`, sk: `PROVIDERKEY#${vendor}` }),
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  membership: (userId: string, ws: string) => ({ pk: `USER#${userId}`, sk: `MEMBER#${ws}` }),
  member: (ws: string, userId: string) => ({ pk: `WS#${ws}`, sk: `MEMBER#${userId}` }),
  sessionRef: (userId: string, sessionId: string) => ({ pk: `USER#${userId}`, sk: `SESSION#${sessionId}` }),
  pendingSignUp: (email: string) => ({ pk: `SIGNUP#${email}`, sk: 'PENDING' }),
  invitation: (tokenHash: string) => ({ pk: `INVITE#${tokenHash}`, sk: 'INVITE' }),
  campaign: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `CAMPAIGN#${id}` }),
  /** A campaign the scheduler must look at (scheduled, running, paused, or with calls still in flight). */
  activeCampaignIndex: (ws: string, id: string) => ({ gsi1pk: 'CAMPAIGNS#ACTIVE', gsi1sk: `${ws}#${id}` }),
  campaignTarget: (ws: string, campaignId: string, contactId: string) => ({ pk: `WS#${ws}`, sk: `CTARGET#${campaignId}#${contactId}` }),
  /** A pending target, by when it is due (ISO 8601 UTC sorts as time). */
  dueTargetIndex: (campaignId: string, at: string, contactId: string) => ({ gsi1pk: `CDUE#${campaignId}`, gsi1sk: `${at}#${contactId}` }),
  /** A target with a call in flight, by when it was claimed. */
  flightTargetIndex: (campaignId: string, at: string, contactId: string) => ({ gsi1pk: `CFLIGHT#${campaignId}`, gsi1sk: `${at}#${contactId}` }),
  dnc: (ws: string, e164: string) => ({ pk: `WS#${ws}`, sk: `DNC#${e164}` }),
  dialLock: (ws: string, e164: string) => ({ pk: `WS#${ws}`, sk: `DIALLOCK#${e164}` }),
  knowledgeBase: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `KB#${id}` }),
  knowledgeDocument: (ws: string, kbId: string, id: string) => ({ pk: `WS#${ws}`, sk: `KBDOC#${kbId}#${id}` }),
  agentTest: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `ATEST#${id}` }),
  agentTestRun: (ws: string, id: string) => ({ pk: `WS#${ws}`, sk: `ATRUN#${id}` }),
} as const;

/**
 * Live streams are spread over this many index partitions: every heartbeat rewrites its entry, and one
 * partition takes about 1,000 writes a second; eight hold well over 100,000 concurrent calls at one
 * heartbeat each per 30 s. The sweep queries each shard.
 */
export const LIVE_STREAM_SHARDS = 8;

/** The index partition of live-stream shard `n`. */
export const liveStreamShard = (n: number): string => `LIVESTREAM#${n}`;

/** The live-call index partition of a workspace (GSI2). */
/** The sort-key prefix of an agent's published versions. */
export const agentVersionsOf = (agentId: string): string => `AGENTVER#${agentId}#`;
export const liveCallsOf = (ws: string): string => `LIVECALLS#${ws}`;

/** The index partition of dialed-call shard `n` (the same shards and hash as the live streams). */
export const dialedCallShard = (n: number): string => `DIALED#${n}`;

/** A call's fixed shard: a hash of its id (the ULID's random tail), so it never moves. */
export function liveStreamShardOf(callId: string): number {
  let h = 0;
  for (let i = 0; i < callId.length; i++) h = (h * 31 + callId.charCodeAt(i)) >>> 0;
  return h % LIVE_STREAM_SHARDS;
}

/** Sort-key prefixes of the listable collections inside a workspace partition. */
export const COLLECTION = { agent: 'AGENT#', tool: 'TOOL#', contact: 'CONTACT#', call: 'CALL#', phoneNumber: 'NUMBER#', webhookEndpoint: 'WEBHOOK#', campaign: 'CAMPAIGN#', dnc: 'DNC#', agentTest: 'ATEST#', agentTestRun: 'ATRUN#' } as const;

const META_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'entity', 'v', 'searchText'] as const;

/** The stored item without its key and bookkeeping attributes. */
export function fromItem<T>(item: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...item };
  for (const a of META_ATTRIBUTES) delete out[a];
  return out as T;
}
