import * as z from 'zod';
import { BodyWorkspaceId, WorkspaceIdField } from './common.js';
import { ConversationVersionPin } from './agent-pin.js';
import type { AgentType, CallEndReason } from './call-end.js';
import { CALL_CAPABILITIES, type CallCapability, type PriceShares } from './provider-key.js';
import { StandInNotice } from './stand-ins.js';
import { CallVariables, type VariableValue } from './template.js';
import { CallMetadata } from './call-metadata.js';
import { AgentOverrides } from './agent-overrides.js';

/**
 * Calls: the live record of one outbound phone call or video session, from the API request to its end.
 * The history record (lib/domain/history.ts) is what remains afterwards; both share the call id.
 * docs/calls.md explains the state machine, the credit rules and who settles a call.
 */

/**
 * Every state a call passes through. `initiated` is what the API answers; `dialing` is ours (the dispatcher
 * claimed the queue message and is asking the provider to place the call); the rest are Twilio's call
 * statuses. The last five are terminal.
 */
export const CALL_STATES = [
  'initiated',
  'dialing',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
] as const;
export type CallState = (typeof CALL_STATES)[number];

/** The states a call ends in: a history record's `callStatus`. */
export const TERMINAL_CALL_STATUSES = ['completed', 'busy', 'no-answer', 'failed', 'canceled'] as const satisfies readonly CallState[];
export type TerminalCallStatus = (typeof TERMINAL_CALL_STATUSES)[number];
export const TERMINAL_CALL_STATES: ReadonlySet<CallState> = new Set(TERMINAL_CALL_STATUSES);
export const isTerminalStatus = (status: CallState): status is TerminalCallStatus => TERMINAL_CALL_STATES.has(status);

/**
 * How far along a state is. A transition is allowed only to a higher rank, so late or duplicated status
 * callbacks (Twilio retries, and does not promise order) can never move a call backwards, and a terminal
 * state is final.
 */
export const CALL_STATE_RANK: Readonly<Record<CallState, number>> = {
  initiated: 0,
  dialing: 1,
  ringing: 2,
  'in-progress': 3,
  completed: 4,
  busy: 4,
  'no-answer': 4,
  failed: 4,
  canceled: 4,
};

/** The states a call may be in for a move to `next` to be accepted (every state of lower rank). */
export function statesBefore(next: CallState): CallState[] {
  return CALL_STATES.filter((s) => CALL_STATE_RANK[s] < CALL_STATE_RANK[next]);
}

/** The end reason recorded for a call that ended in a terminal provider state without a conversation. */
export const END_REASON_OF_STATE: Readonly<Partial<Record<CallState, CallEndReason>>> = {
  busy: 'busy',
  'no-answer': 'no_answer',
  failed: 'failed',
  canceled: 'canceled',
};

/** Twilio's call statuses mapped onto ours (`queued` and `initiated` say nothing new once we are dialing). */
export function stateOfProviderStatus(status: string): CallState | undefined {
  switch (status) {
    case 'ringing':
    case 'in-progress':
    case 'completed':
    case 'busy':
    case 'no-answer':
    case 'failed':
    case 'canceled':
      return status;
    default:
      return undefined;
  }
}

/**
 * A transfer as the history record shows it: where to, cold or warm, and what happened. `accepted` and
 * `transferred` end the call with `transferred`; the others leave the caller with the agent.
 */
export interface CallTransfer {
  readonly destination: string;
  readonly mode: 'cold' | 'warm';
  readonly outcome: 'transferred' | 'accepted' | 'declined' | 'no-answer' | 'busy' | 'failed';
}

/** The stored call. */
export interface Call {
  /** `call_<ULID>`; also the `_id` of the call's history record. */
  _id: string;
  workspaceId: string;
  agentId: string;
  agentType: AgentType;
  status: CallState;
  /**
   * The other party: the destination of an outbound call, the caller of an inbound one, or the contact's
   * number when known (video); E.164 or empty.
   */
  to: string;
  /** Our number: the one an outbound call is placed from, or an inbound call rang (voice only). */
  from?: string;
  /** Set on calls someone rang us on (they reserve at the voice webhook); absent for calls we place. */
  direction?: 'inbound';
  phoneNumberId?: string;
  contactId?: string;
  /** The name shown in history: the contact's, or the `contactName` given. */
  contactName: string;
  /** Credits held for this call until it is settled. */
  reserved: number;
  /** The longest the call may last; the provider hangs up after it (`TimeLimit`). */
  maxDurationSeconds: number;
  /** The provider's id of the placed call (Twilio CA…), once dialed. */
  providerCallSid?: string;
  /** Which SQS receive of the dispatch message claimed the call (1 = first delivery). */
  dispatchAttempt?: number;
  /** The tokens of the dispatch's and the stream's claims: the same claim resent by the SDK is still its own. */
  dispatchClaim?: string;
  streamClaim?: string;
  endReason?: CallEndReason;
  /** The provider's answering-machine verdict (`human`, `machine_end_beep`, ...), when detection ran. */
  answeredBy?: string;
  /**
   * Set once, when the streaming service admits the call's one media stream (the stream token's single
   * use). From then until settlement the stream is live: only its end may settle the call.
   */
  streamStartedAt?: string;
  streamSid?: string;
  /**
   * The stream's last heartbeat (set at the claim, then every {@link STREAM_HEARTBEAT_MS} while it runs).
   * A stream unseen for {@link STREAM_ABANDONED_AFTER_MS} is taken for dead and swept: billed up to here.
   */
  streamSeenAt?: string;
  /**
   * The internal address (`http://10.0.1.23:8080`) of the streaming task that holds the stream: control
   * requests and listeners reaching another task are forwarded there (docs/live-calls.md). Never returned.
   */
  streamHost?: string;
  /** When the call was answered: the provider's in-progress status, its stream's start, or a web session's claim. */
  answeredAt?: string;
  /** When the call reached a terminal state. */
  endedAt?: string;
  /** Set once, when the reservation is settled; `cost` is what was charged for `billedSeconds`. */
  settledAt?: string;
  cost?: number;
  billedSeconds?: number;
  /** The widget key a widget session was started with (its hash): its lease is released when it ends. */
  widgetKeyHash?: string;
  /**
   * A widget session's first socket must claim it before this instant, while its pending lease holds its
   * place (docs/widget.md, abuse limits); later, the claim is refused.
   */
  widgetClaimBy?: string;
  /** The parts of `cost` (docs/provider-keys.md), set with it by settlements that priced them. */
  costBreakdown?: CostBreakdown;
  /** The campaign that placed the call (docs/campaigns.md). */
  campaignId?: string;
  /**
   * Runs of the lost-callback reconciliation in a row that could not ask Twilio about this call (an error
   * from Twilio or the store, or no account left to ask with); back to 0 once Twilio answers.
   */
  reconcileFailures?: number;
  /** The call's own `{{variables}}` (the request's, or a campaign's defaults and the contact's columns); docs/calls.md. */
  variables?: Record<string, VariableValue>;
  /** The caller's own object, echoed on the history record and in webhooks (docs/calls.md, "Metadata"). */
  metadata?: CallMetadata;
  /** Agent fields for this call only (docs/calls.md, "Agent overrides"). */
  agentOverrides?: AgentOverrides;
  /** The published version of the agent the call runs (docs/agent-versions.md); absent: the agent record. */
  agentVersion?: number;
  /** The agent-test run and scenario this conversation plays (docs/agent-tests.md). */
  agentTest?: { runId: string; scenarioId: string };
  createdAt: string;
  updatedAt: string;
}

const E164Input = z.string().trim().min(1).max(40);


/** POST /api/optimus/phone-call (and /api/optimus/call). */
export const PhoneCallRequest = z
  .strictObject({
    /** The agent that speaks. */
    assistantId: z.string().trim().min(1).max(64),
    /** Destination, E.164. */
    phoneNumber: E164Input,
    /** One of the workspace's active numbers, to call from. */
    phoneNumberId: z.string().trim().min(1).max(64),
    contactName: z.string().trim().min(1).max(200).optional(),
    workspaceId: BodyWorkspaceId,
    /**
     * The caller vouches that the person agreed to this call: a destination on the workspace's do-not-call
     * list is called anyway. Otherwise such a call is refused (409 `do_not_call`, docs/calls.md).
     */
    consentedCall: z
      .boolean()
      .optional()
      .describe("true: the person agreed to this call, so it is placed even if the number is on the workspace's do-not-call list (otherwise 409 do_not_call)"),
    variables: CallVariables.optional(),
    metadata: CallMetadata.optional(),
    agent_overrides: AgentOverrides.optional(),
    agent_version: ConversationVersionPin,
  })
  .meta({ id: 'PhoneCallRequest' });
export type PhoneCallRequest = z.infer<typeof PhoneCallRequest>;

/** The call start result. */
export const CallStarted = z
  .object({ call_id: z.string(), status: z.literal('initiated') })
  .meta({ id: 'CallStarted' });
export type CallStarted = z.infer<typeof CallStarted>;

/** POST /api/optimus/meeting-link. */
export const MeetingLinkRequest = z
  .strictObject({
    assistantId: z.string().trim().min(1).max(64),
    contactName: z.string().trim().min(1).max(200).optional(),
    /** Looks the contact up; E.164. */
    phoneNumber: E164Input.optional(),
    workspaceId: WorkspaceIdField.optional(),
    variables: CallVariables.optional(),
    metadata: CallMetadata.optional(),
    agent_overrides: AgentOverrides.optional(),
    agent_version: ConversationVersionPin,
  })
  .meta({ id: 'MeetingLinkRequest' });
export type MeetingLinkRequest = z.infer<typeof MeetingLinkRequest>;

export const MeetingLinkResult = z
  .object({ call_id: z.string(), room_url: z.string() })
  .meta({ id: 'MeetingLinkResult' });
export type MeetingLinkResult = z.infer<typeof MeetingLinkResult>;

/** The call-dispatch queue message: just the ids; everything else is read from the call record. */
export const DispatchMessage = z.strictObject({
  callId: z.string().min(1).max(64),
  workspaceId: z.string().min(1).max(64),
});
export type DispatchMessage = z.infer<typeof DispatchMessage>;

/** The `Idempotency-Key` header: printable ASCII, as Stripe and the IETF draft allow. */
export const IdempotencyKey = z.string().regex(/^[\x21-\x7e]{1,255}$/, 'Idempotency-Key is 1 to 255 printable ASCII characters');

/** Call pricing; the numbers come from config (docs/calls.md). */
export interface CallPricing {
  /** Credits per minute of call, billed per started second. */
  readonly creditsPerMinute: number;
  /** The longest call the platform places; agents have no own limit yet. */
  readonly maxDurationSeconds: number;
  /**
   * The parts of the price that pay each capability's vendor (docs/provider-keys.md); none when absent, so
   * the whole price is the platform's.
   */
  readonly shares?: PriceShares;
}

/**
 * What a call was charged, part by part (the history record's `callCostBreakdown`): the platform's own
 * share, and each capability's vendor share, 0 for the capabilities that ran on the workspace's own keys
 * (named in `workspaceKeys`). The parts add up to the cost.
 */
export interface CostBreakdown {
  readonly platform: number;
  readonly stt: number;
  readonly llm: number;
  readonly tts: number;
  /** A speech-to-speech call: the realtime model's tokens at the vendor's price (docs/realtime.md, "Billing"). */
  readonly realtime?: number;
  readonly workspaceKeys: readonly CallCapability[];
}

/** Credit amounts are kept to 4 decimals so decimal arithmetic in DynamoDB and in JS agree. */
export const roundCredits = (n: number): number => Math.round(n * 10_000) / 10_000;

/** What a call holds while it runs: the price of its longest possible duration. */
export const reservationFor = (p: CallPricing): number => roundCredits((p.creditsPerMinute * p.maxDurationSeconds) / 60);

/**
 * The seconds a call of this length is billed for: every started second counts, up to the maximum duration
 * (the session and the provider both end a call there). History shows this number as `callDuration`.
 */
export const billedSecondsFor = (p: CallPricing, durationSeconds: number): number =>
  Math.min(Math.max(0, Math.ceil(durationSeconds)), p.maxDurationSeconds);

/** What a call of this length costs, leaving out the shares of the capabilities on the workspace's keys. */
export function costFor(p: CallPricing, durationSeconds: number, onWorkspaceKeys: readonly CallCapability[] = []): number {
  return costBreakdownFor(p, durationSeconds, onWorkspaceKeys).total;
}

/**
 * The cost of a call of this length and its parts. The total is rounded once (so a call on the platform's
 * keys costs exactly what it did before shares existed); each vendor part is rounded and the platform's part
 * takes the remainder, so the parts always add up to the total.
 */
export function costBreakdownFor(p: CallPricing, durationSeconds: number, onWorkspaceKeys: readonly CallCapability[] = []): CostBreakdown & { total: number } {
  const fullPrice = (p.creditsPerMinute * billedSecondsFor(p, durationSeconds)) / 60;
  const vendorPart = (c: CallCapability) => (onWorkspaceKeys.includes(c) ? 0 : roundCredits(fullPrice * (p.shares?.[c] ?? 0)));
  const waived = onWorkspaceKeys.reduce((sum, c) => sum + (p.shares?.[c] ?? 0), 0);
  const total = roundCredits(fullPrice * (1 - waived));
  const [stt, llm, tts] = [vendorPart('stt'), vendorPart('llm'), vendorPart('tts')];
  const workspaceKeys = CALL_CAPABILITIES.filter((c) => onWorkspaceKeys.includes(c));
  return { total, platform: Math.max(0, roundCredits(total - stt - llm - tts)), stt, llm, tts, workspaceKeys };
}

/**
 * How often the streaming service tells the table a stream is still running. 30 s: one small write per
 * call every half minute is noise next to the call's own cost, and a dead container's call is billed at
 * most this much less than it ran.
 */
export const STREAM_HEARTBEAT_MS = 30_000;

/**
 * A stream unseen for this long is abandoned (its container died) and the sweep settles it. Three missed
 * heartbeats: one slow or throttled write, or a retry, never makes a live call look dead.
 */
export const STREAM_ABANDONED_AFTER_MS = 3 * STREAM_HEARTBEAT_MS;

/**
 * How often the sweep runs (an EventBridge rate on AWS, a timer in `npm start`; whole minutes, as rates
 * are). With the grace above, a dead container's calls are settled within about three and a half minutes,
 * and an idle platform pays for 720 short runs a day.
 */
export const STREAM_SWEEP_EVERY_MS = 2 * 60_000;

/**
 * How long Twilio rings an outbound call before giving up: its default `Timeout`, which dispatch does not
 * change (lib/services/dispatch.ts). The lost-callback reconciliation waits at least this long.
 */
export const PROVIDER_RING_TIMEOUT_MS = 60_000;

/**
 * A dialed call that never streamed and is still unsettled this long after it was dialed may have lost its
 * final status callback (a 429 or 5xx Twilio does not retry): the reconciliation asks Twilio for its status.
 * The ring timeout plus two minutes, so a callback merely late (Twilio's own queue, a slow answer) arrives
 * first; a call found still live is asked again after the same wait. docs/calls.md, "Lost status callbacks".
 */
export const LOST_CALLBACK_AFTER_MS = PROVIDER_RING_TIMEOUT_MS + 2 * 60_000;

/**
 * A call the reconciliation failed to ask about this many runs in a row (one run a quiet period, so about
 * nine minutes) is stuck, not unlucky: its run ends in an error, which the scheduled functions' error alarm
 * reports (docs/calls.md, "Lost status callbacks"). Its credits stay reserved until someone looks.
 */
export const STUCK_AFTER_FAILED_ASKS = 3;

/** GET /api/history/{id}/recording-url: a presigned download and when it stops working. */
export const RecordingUrl = z
  .object({ url: z.string(), expiresAt: z.iso.datetime({ offset: true }) })
  .meta({ id: 'RecordingUrl' });
export type RecordingUrl = z.infer<typeof RecordingUrl>;

/** GET /meeting/{callId} path and query. */
export const MeetingParams = z.object({ callId: z.string().min(1).max(64) });
export const MeetingQuery = z.object({ token: z.string().max(512).optional() });

/**
 * POST /meeting/{callId}/join with `Accept: application/json`: the web session the page starts its call
 * with (docs/meeting.md). A form post gets a page instead.
 */
export const MeetingJoined = z
  .object({
    callId: z.string(),
    agentName: z.string(),
    /** The streaming service's browser transport (WEB_STREAM_URL). */
    streamUrl: z.string(),
    /** The tab's `wss1` web session credential: keep it in sessionStorage, send it in `hello`. */
    credential: z.string(),
    expiresAt: z.string().meta({ format: 'date-time' }),
    /** Present only when part of the agent runs on a simulated vendor: what, and how to make it real. */
    standIns: StandInNotice.optional(),
  })
  .meta({ id: 'MeetingJoined' });
