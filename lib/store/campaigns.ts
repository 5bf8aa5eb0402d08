import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Call } from '../domain/call.js';
import type { Campaign, CampaignStatus, CampaignTarget, CallOutcome, SkipReason } from '../domain/campaign.js';
import type { Page } from '../domain/common.js';
import { NotFoundError } from '../domain/errors.js';
import { getRecord, insertCounted, listCounted, type CollectionSpec } from './collection.js';
import { batchGetItems, queryPage, transact, type Db, type PageRequest } from './dynamo.js';
import { ENTITY, GSI1, TABLE_SCHEMA_VERSION, fromItem, key } from './model.js';

/**
 * Campaigns and their targets (docs/campaigns.md). The scheduler's every step is a conditional write, so
 * any number of scheduler runs at once (overlapping Lambda invocations, a restarted `npm start`) dial each
 * contact once per attempt and never exceed a campaign's concurrency.
 */

const CAMPAIGNS: CollectionSpec = { entity: 'campaign', label: 'Campaign', itemKey: key.campaign };
type TransactItem = Parameters<typeof transact>[1][number];

const campaignItem = (c: Campaign) => ({
  ...key.campaign(c.workspaceId, c._id),
  entity: ENTITY.campaign,
  v: TABLE_SCHEMA_VERSION,
  ...c,
});

const targetKey = (t: Pick<CampaignTarget, 'workspaceId' | 'campaignId' | 'contactId'>) => key.campaignTarget(t.workspaceId, t.campaignId, t.contactId);

const targetItem = (t: CampaignTarget) => ({
  ...targetKey(t),
  entity: ENTITY.campaignTarget,
  v: TABLE_SCHEMA_VERSION,
  ...(t.state === 'pending' && t.nextAttemptAt ? key.dueTargetIndex(t.campaignId, t.nextAttemptAt, t.contactId) : {}),
  ...t,
});

/** DynamoDB's BatchWriteItem limit. */
const BATCH = 25;

/**
 * Writes a new campaign: its targets first (in batches), then the campaign with its counter, so a campaign
 * that exists always has all its targets; a crash in between leaves only unreachable targets.
 */
export async function putNewCampaign(db: Db, campaign: Campaign, targets: readonly CampaignTarget[]): Promise<void> {
  for (let i = 0; i < targets.length; i += BATCH) {
    let requests: Record<string, unknown>[] | undefined = targets.slice(i, i + BATCH).map((t) => ({ PutRequest: { Item: targetItem(t) } }));
    for (let attempt = 0; requests && requests.length > 0; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1_000, 20 * 2 ** attempt)));
      const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.table]: requests as never } }));
      requests = out.UnprocessedItems?.[db.table] as Record<string, unknown>[] | undefined;
    }
  }
  await insertCounted(db, CAMPAIGNS, campaign.workspaceId, campaignItem(campaign));
}

/** A campaign of the workspace (strongly consistent), or a 404. */
export async function getCampaign(db: Db, ws: string, id: string): Promise<Campaign> {
  const found = await getRecord<Campaign>(db, CAMPAIGNS, ws, id);
  if (!found) throw new NotFoundError(CAMPAIGNS.label);
  return found;
}

/** A page of the workspace's campaigns, newest first. */
export const listCampaigns = (db: Db, ws: string, req: PageRequest): Promise<Page<Campaign>> => listCounted<Campaign>(db, CAMPAIGNS, ws, req);

/** Runs a conditional UpdateItem; undefined when its condition did not hold. */
async function conditionalUpdate(db: Db, input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<Record<string, unknown> | undefined> {
  try {
    const out = await db.doc.send(new UpdateCommand({ ...input, ReturnValues: 'ALL_NEW' }));
    return out.Attributes;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/**
 * Moves a campaign from one of `from` to `to` (with a reason, or none). Entering an active status puts it
 * in the scheduler's index; the scheduler itself takes it out once it has ended and nothing is in flight.
 */
export async function transitionCampaign(
  db: Db,
  ws: string,
  id: string,
  change: { from: readonly CampaignStatus[]; to: CampaignStatus; reason?: string; now: string },
): Promise<Campaign | undefined> {
  const values: Record<string, unknown> = { ':to': change.to, ':now': change.now, ...Object.fromEntries(change.from.map((s, i) => [`:f${i}`, s])) };
  const index = key.activeCampaignIndex(ws, id);
  const sets = ['#st = :to', 'updatedAt = :now', 'gsi1pk = :gpk', 'gsi1sk = :gsk'];
  Object.assign(values, { ':gpk': index.gsi1pk, ':gsk': index.gsi1sk });
  if (change.reason) {
    sets.push('statusReason = :reason');
    values[':reason'] = change.reason;
  }
  const item = await conditionalUpdate(db, {
    TableName: db.table,
    Key: key.campaign(ws, id),
    UpdateExpression: `SET ${sets.join(', ')}${change.reason ? '' : ' REMOVE statusReason'}`,
    ConditionExpression: `attribute_exists(pk) AND #st IN (${change.from.map((_, i) => `:f${i}`).join(', ')})`,
    ExpressionAttributeNames: { '#st': 'status' },
    ExpressionAttributeValues: values,
  });
  return item && fromItem<Campaign>(item);
}

/** Takes an ended campaign with nothing in flight out of the scheduler's index. */
export async function retireCampaign(db: Db, ws: string, id: string): Promise<void> {
  await conditionalUpdate(db, {
    TableName: db.table,
    Key: key.campaign(ws, id),
    UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
    ConditionExpression: 'attribute_exists(pk) AND inFlight = :zero AND #st IN (:done, :cancelled)',
    ExpressionAttributeNames: { '#st': 'status' },
    ExpressionAttributeValues: { ':zero': 0, ':done': 'completed', ':cancelled': 'cancelled' },
  });
}

/** Every campaign the scheduler must look at, of every workspace (one index partition; eventually consistent). */
export async function activeCampaigns(db: Db): Promise<Campaign[]> {
  const found: Campaign[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(
      new QueryCommand({ TableName: db.table, IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': 'CAMPAIGNS#ACTIVE' }, ExclusiveStartKey: start }),
    );
    for (const item of out.Items ?? []) found.push(fromItem<Campaign>(item));
    start = out.LastEvaluatedKey;
  } while (start);
  return found;
}

/** Up to `limit` targets of the index partition `pk` whose sort key is at most `upTo`, earliest first. */
async function targetsIn(db: Db, pk: string, upTo: string, limit: number): Promise<CampaignTarget[]> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.table,
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :upTo',
      ExpressionAttributeValues: { ':pk': pk, ':upTo': upTo },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => fromItem<CampaignTarget>(i));
}

/** Pending targets due at `now` (ISO 8601), earliest first (the index is eventually consistent: claims re-check). */
export const dueTargets = (db: Db, campaignId: string, now: string, limit: number) => targetsIn(db, `CDUE#${campaignId}`, `${now}#\uffff`, limit);

/** The next pending targets whatever their time, earliest first (progress). */
export const upcomingTargets = (db: Db, campaignId: string, limit: number) => targetsIn(db, `CDUE#${campaignId}`, '\uffff', limit);

/** Targets with a call in flight. */
export const flightTargets = (db: Db, campaignId: string, limit: number) => targetsIn(db, `CFLIGHT#${campaignId}`, '\uffff', limit);

/** A page of a campaign's targets, in contact order; with `state`, only those in it. */
export async function listTargets(db: Db, c: Pick<Campaign, 'workspaceId' | '_id' | 'total'>, req: PageRequest & { state?: string }): Promise<Page<CampaignTarget>> {
  const input = {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `WS#${c.workspaceId}`, ':prefix': `CTARGET#${c._id}#`, ...(req.state ? { ':state': req.state } : {}) },
    ...(req.state ? { FilterExpression: '#state = :state', ExpressionAttributeNames: { '#state': 'state' } } : {}),
  };
  if (!req.state) {
    const items = await queryPage(db, input, req);
    return { data: items.map((i) => fromItem<CampaignTarget>(i)), total: c.total, page: req.page, limit: req.limit };
  }
  // A filtered page counts every match: a campaign holds at most 10,000 targets.
  const matches: CampaignTarget[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(new QueryCommand({ ...input, TableName: db.table, ScanIndexForward: false, ExclusiveStartKey: start }));
    for (const item of out.Items ?? []) matches.push(fromItem<CampaignTarget>(item));
    start = out.LastEvaluatedKey;
  } while (start);
  const from = (req.page - 1) * req.limit;
  return { data: matches.slice(from, from + req.limit), total: matches.length, page: req.page, limit: req.limit };
}

/**
 * The live calls of these ids (a missing one is simply absent), strongly consistent; a placeholder written by
 * {@link tombstoneCall} is `'tombstone'`, never a call.
 */
export async function callsById(db: Db, ws: string, callIds: readonly string[]): Promise<Map<string, Call | 'tombstone'>> {
  const items = await batchGetItems(db, callIds.map((id) => key.liveCall(ws, id)));
  return new Map(items.map((item) => [String(item._id), item.tombstone === true ? 'tombstone' : fromItem<Call>(item)]));
}

export type ClaimOutcome = 'claimed' | 'campaign' | 'taken' | 'do_not_call' | 'locked' | 'rate';

export interface ClaimInput {
  readonly target: CampaignTarget;
  readonly callId: string;
  readonly now: string;
  /** Epoch seconds after which the number's lock no longer holds (a call that outlived its limit). */
  readonly lockExpiresAt: number;
  /** The account's dials-per-second window this dial counts in. */
  readonly rate: { readonly partition: string; readonly startMs: number; readonly limit: number };
}

/**
 * Claims one dial, in ONE transaction: a slot of the campaign's concurrency (only while it runs), the
 * target (only while pending and due), the number not on the do-not-call list, the number's lock (no
 * other campaign call in flight to it) and a place in the account's dials-per-second window. Nothing is
 * written unless all of it holds; the outcome names the first condition that failed.
 */
export async function claimDial(db: Db, input: ClaimInput): Promise<ClaimOutcome> {
  const { target: t, callId, now } = input;
  const flight = key.flightTargetIndex(t.campaignId, now, t.contactId);
  const items: TransactItem[] = [
    {
      Update: {
        TableName: db.table,
        Key: key.campaign(t.workspaceId, t.campaignId),
        UpdateExpression: 'SET inFlight = inFlight + :one, dials = dials + :one, updatedAt = :now',
        ConditionExpression: '#st = :running AND inFlight < concurrency',
        ExpressionAttributeNames: { '#st': 'status' },
        ExpressionAttributeValues: { ':one': 1, ':running': 'running', ':now': now },
      },
    },
    {
      Update: {
        TableName: db.table,
        Key: targetKey(t),
        UpdateExpression: 'SET #state = :dialing, callId = :call, claimedAt = :now, attempts = attempts + :one, callIds = list_append(callIds, :calls), gsi1pk = :gpk, gsi1sk = :gsk REMOVE nextAttemptAt',
        ConditionExpression: '#state = :pending AND nextAttemptAt <= :now',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':dialing': 'dialing', ':pending': 'pending', ':call': callId, ':now': now, ':one': 1, ':calls': [callId], ':gpk': flight.gsi1pk, ':gsk': flight.gsi1sk },
      },
    },
    { ConditionCheck: { TableName: db.table, Key: key.dnc(t.workspaceId, t.phoneNumber), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: db.table,
        Item: { ...key.dialLock(t.workspaceId, t.phoneNumber), entity: ENTITY.dialLock, v: TABLE_SCHEMA_VERSION, callId, ttl: input.lockExpiresAt },
        ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :nowSeconds',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':nowSeconds': Math.floor(Date.parse(now) / 1000) },
      },
    },
    {
      Update: {
        TableName: db.table,
        Key: key.rateWindow('dial-cps', input.rate.partition, input.rate.startMs),
        UpdateExpression: 'ADD #n :one SET #ttl = if_not_exists(#ttl, :ttl), entity = :e, v = :v',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :limit',
        ExpressionAttributeNames: { '#n': 'n', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':limit': input.rate.limit, ':ttl': Math.floor(input.rate.startMs / 1000) + 120, ':e': ENTITY.rateWindow, ':v': TABLE_SCHEMA_VERSION },
      },
    },
  ];
  const { failedIndex } = await transact(db, items);
  const outcomes: ClaimOutcome[] = ['campaign', 'taken', 'do_not_call', 'locked', 'rate'];
  return failedIndex === undefined ? 'claimed' : outcomes[failedIndex]!;
}

/** Releases the number's lock, only if it is still this call's. */
async function releaseLock(db: Db, t: Pick<CampaignTarget, 'workspaceId' | 'phoneNumber'>, callId: string): Promise<void> {
  await db.doc
    .send(
      new DeleteCommand({
        TableName: db.table,
        Key: key.dialLock(t.workspaceId, t.phoneNumber),
        ConditionExpression: 'callId = :call',
        ExpressionAttributeValues: { ':call': callId },
      }),
    )
    .catch((error: unknown) => {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    });
}

/** The campaign counter moves of a dial that ended (or never started). */
function campaignCounters(t: CampaignTarget, change: { outcome?: CallOutcome; final: boolean; now: string }): TransactItem {
  const sets = ['inFlight = inFlight - :one', 'updatedAt = :now'];
  const names: Record<string, string> = {};
  if (change.outcome) {
    names['#o'] = change.outcome;
    sets.push('attempts.#o = attempts.#o + :one');
    if (change.final) sets.push('outcomes.#o = outcomes.#o + :one', '#open = #open - :one');
  }
  if (change.final) names['#open'] = 'open';
  return {
    Update: {
      TableName: '',
      Key: key.campaign(t.workspaceId, t.campaignId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: { ':one': 1, ':now': change.now },
    },
  };
}

/**
 * Ends a target's dial with the outcome of its call: pending again at `nextAt` (a retry) or done; the
 * campaign's slot is freed and its counters moved, in one transaction conditioned on the target still
 * dialing that call (a second scheduler reading the same ended call changes nothing). Then the lock goes.
 */
export async function finishDial(
  db: Db,
  t: CampaignTarget,
  callId: string,
  result: { outcome: CallOutcome; nextAt?: string; now: string },
): Promise<boolean> {
  const tries = (t.tries[result.outcome] ?? 0) + 1;
  const due = result.nextAt ? key.dueTargetIndex(t.campaignId, result.nextAt, t.contactId) : undefined;
  const counters = campaignCounters(t, { outcome: result.outcome, final: !result.nextAt, now: result.now });
  const { failedIndex } = await transact(db, [
    {
      Update: {
        TableName: db.table,
        Key: targetKey(t),
        UpdateExpression: due
          ? 'SET #state = :pending, nextAttemptAt = :next, lastOutcome = :o, tries.#o = :tries, gsi1pk = :gpk, gsi1sk = :gsk REMOVE callId, claimedAt'
          : 'SET #state = :done, lastOutcome = :o, tries.#o = :tries REMOVE callId, claimedAt, gsi1pk, gsi1sk',
        ConditionExpression: '#state = :dialing AND callId = :call',
        ExpressionAttributeNames: { '#state': 'state', '#o': result.outcome },
        ExpressionAttributeValues: {
          ':dialing': 'dialing',
          ':call': callId,
          ':o': result.outcome,
          ':tries': tries,
          ...(due ? { ':pending': 'pending', ':next': result.nextAt, ':gpk': due.gsi1pk, ':gsk': due.gsi1sk } : { ':done': 'done' }),
        },
      },
    },
    { Update: { ...counters.Update!, TableName: db.table } },
  ]);
  if (failedIndex !== undefined) return false;
  await releaseLock(db, t, callId);
  return true;
}

/**
 * Gives a claimed dial back without a call (credits ran out, or the call was never written): the target is
 * pending again at `nextAt` with its attempt uncounted, the campaign's slot freed, the lock released.
 */
export async function unclaimDial(db: Db, t: CampaignTarget, callId: string, nextAt: string, now: string): Promise<boolean> {
  const due = key.dueTargetIndex(t.campaignId, nextAt, t.contactId);
  const counters = campaignCounters(t, { final: false, now });
  const remaining = t.callIds.filter((id) => id !== callId);
  const { failedIndex } = await transact(db, [
    {
      Update: {
        TableName: db.table,
        Key: targetKey(t),
        UpdateExpression: 'SET #state = :pending, nextAttemptAt = :next, attempts = attempts - :one, callIds = :calls, gsi1pk = :gpk, gsi1sk = :gsk REMOVE callId, claimedAt',
        ConditionExpression: '#state = :dialing AND callId = :call',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':pending': 'pending', ':dialing': 'dialing', ':call': callId, ':next': nextAt, ':one': 1, ':calls': remaining, ':gpk': due.gsi1pk, ':gsk': due.gsi1sk },
      },
    },
    { Update: { ...counters.Update!, TableName: db.table } },
  ]);
  if (failedIndex !== undefined) return false;
  await releaseLock(db, t, callId);
  return true;
}

/** Moves a pending target's due time (its calling hours are closed, or its number is busy in another call). */
export async function deferTarget(db: Db, t: CampaignTarget, nextAt: string): Promise<void> {
  const due = key.dueTargetIndex(t.campaignId, nextAt, t.contactId);
  await conditionalUpdate(db, {
    TableName: db.table,
    Key: targetKey(t),
    UpdateExpression: 'SET nextAttemptAt = :next, gsi1pk = :gpk, gsi1sk = :gsk',
    ConditionExpression: '#state = :pending AND nextAttemptAt = :was',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':pending': 'pending', ':next': nextAt, ':was': t.nextAttemptAt, ':gpk': due.gsi1pk, ':gsk': due.gsi1sk },
  });
}

/** Skips a pending target for good (on the do-not-call list, variables missing, no calling hours). */
export async function skipTarget(db: Db, t: CampaignTarget, reason: SkipReason, now: string, missing?: readonly string[]): Promise<void> {
  // A target no longer pending (claimed meanwhile) fails the condition and nothing is written.
  await transact(db, [
    {
      Update: {
        TableName: db.table,
        Key: targetKey(t),
        UpdateExpression: `SET #state = :skipped, skipReason = :reason${missing ? ', missingVariables = :missing' : ''} REMOVE nextAttemptAt, gsi1pk, gsi1sk`,
        ConditionExpression: '#state = :pending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':skipped': 'skipped', ':pending': 'pending', ':reason': reason, ...(missing ? { ':missing': missing } : {}) },
      },
    },
    {
      Update: {
        TableName: db.table,
        Key: key.campaign(t.workspaceId, t.campaignId),
        UpdateExpression: 'SET skipped = skipped + :one, #open = #open - :one, updatedAt = :now',
        ExpressionAttributeNames: { '#open': 'open' },
        ExpressionAttributeValues: { ':one': 1, ':now': now },
      },
    },
  ]);
}

/**
 * Writes an ended, settled placeholder under a call id that a crashed scheduler claimed but never created,
 * so a late writer of that call fails its condition and can never dial it. False when the call or a
 * placeholder exists.
 */
export async function tombstoneCall(db: Db, ws: string, callId: string, now: string): Promise<boolean> {
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...key.liveCall(ws, callId), entity: ENTITY.liveCall, v: TABLE_SCHEMA_VERSION, _id: callId, workspaceId: ws, status: 'failed', endReason: 'error', reserved: 0, settledAt: now, createdAt: now, updatedAt: now, tombstone: true },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** A campaign read fresh, or undefined when it is gone. */
export async function findCampaign(db: Db, ws: string, id: string): Promise<Campaign | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.campaign(ws, id), ConsistentRead: true }));
  return out.Item ? fromItem<Campaign>(out.Item) : undefined;
}
