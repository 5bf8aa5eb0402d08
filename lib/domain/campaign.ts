import * as z from 'zod';
import { BodyWorkspaceId, Name, Timestamp } from './common.js';
import { AgentVersionPin } from './agent-pin.js';
import { DEFAULT_WINDOW, isTimeZone, WEEKDAYS, type CallingWindow } from './calling-window.js';
import type { Call } from './call.js';
import { CallVariables, type VariableValue } from './template.js';

/**
 * Campaigns: one agent calling a list of contacts within their local hours, with retries per outcome, a
 * do-not-call list and a concurrency limit (docs/campaigns.md). Schemas, the lifecycle and the rules that
 * need no store.
 */

/** The most contacts one campaign takes: its targets are written when it is created, in the request. */
export const MAX_CAMPAIGN_CONTACTS = 10_000;
/** Calls in flight at once; Twilio accounts start at 1 call per second, so more is rarely useful. */
export const MAX_CONCURRENCY = 1_000;

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** What one dial came to, from the call it made (see {@link outcomeOfCall}). */
export const CALL_OUTCOMES = ['answered', 'voicemail', 'busy', 'no_answer', 'failed'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];
/** Outcomes that may be retried, and their keys in `retry`. */
export const RETRIED_OUTCOMES = ['no_answer', 'busy', 'voicemail', 'failed'] as const;
export type RetriedOutcome = (typeof RETRIED_OUTCOMES)[number];

/** Why a contact is never dialed. */
export const SKIP_REASONS = ['do_not_call', 'missing_variables', 'invalid_number', 'no_calling_hours'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM, for example 09:00');
const TimeZone = z.string().max(64).refine(isTimeZone, 'an IANA time zone, for example America/New_York');

export const CallingWindowInput = z
  .strictObject({
    start: HHMM.default(DEFAULT_WINDOW.start),
    end: HHMM.default(DEFAULT_WINDOW.end),
    days: z.array(z.enum(WEEKDAYS)).min(1).max(7).default([...DEFAULT_WINDOW.days]),
    timeZone: TimeZone.optional().describe("Read the window in this zone for every contact; by default each contact's own (its timeZone field, else its number's country)"),
  })
  .refine((w) => w.start < w.end, { message: 'end must be after start', path: ['end'] });

const RetryRule = z.strictObject({
  retries: z.number().int().min(0).max(10).describe('how many more times a contact is called after this outcome'),
  delayMinutes: z.number().int().min(1).max(7 * 24 * 60).describe('minutes before the next try'),
});
export type RetryRule = z.infer<typeof RetryRule>;

/** By default: try a missed call twice more an hour apart, a busy line sooner, a machine once more later. */
export const DEFAULT_RETRY: Readonly<Record<RetriedOutcome, RetryRule>> = {
  no_answer: { retries: 2, delayMinutes: 60 },
  busy: { retries: 2, delayMinutes: 15 },
  voicemail: { retries: 1, delayMinutes: 240 },
  failed: { retries: 1, delayMinutes: 30 },
};

const RetryPolicy = z.strictObject({
  no_answer: RetryRule.default(DEFAULT_RETRY.no_answer),
  busy: RetryRule.default(DEFAULT_RETRY.busy),
  voicemail: RetryRule.default(DEFAULT_RETRY.voicemail),
  failed: RetryRule.default(DEFAULT_RETRY.failed),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

const Id = z.string().min(1).max(64);
/** Whom to call: listed contacts, the contacts a search matches, or the rows one import wrote. */
export const ContactSelection = z.union([
  z.strictObject({ contactIds: z.array(Id).min(1).max(MAX_CAMPAIGN_CONTACTS) }),
  z.strictObject({ search: z.string().trim().min(1).max(200) }),
  z.strictObject({ importId: Id }),
]);
export type ContactSelection = z.infer<typeof ContactSelection>;

export const CampaignCreate = z
  .strictObject({
    name: Name,
    agentId: Id,
    /** Every call runs this published version of the agent; absent: its latest at each dial (docs/agent-versions.md). */
    agent_version: AgentVersionPin,
    phoneNumberIds: z.array(Id).min(1).max(20).describe('numbers to call from, used in turn'),
    contacts: ContactSelection,
    schedule: z
      .strictObject({ startAt: Timestamp.optional(), endAt: Timestamp.optional() })
      .refine((s) => !s.startAt || !s.endAt || s.startAt < s.endAt, { message: 'endAt must be after startAt', path: ['endAt'] })
      .default({}),
    callingWindow: CallingWindowInput.default({ ...DEFAULT_WINDOW, days: [...DEFAULT_WINDOW.days] }),
    concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).default(5),
    retry: RetryPolicy.default({ ...DEFAULT_RETRY }),
    /** Defaults for the agent's `{{variables}}`; each contact's own fields (its columns) win (docs/calls.md). */
    variables: CallVariables.optional(),
    workspaceId: BodyWorkspaceId,
  })
  .meta({ id: 'CampaignCreate' });
export type CampaignCreate = z.infer<typeof CampaignCreate>;

export type OutcomeCounts = Record<CallOutcome, number>;
export const zeroCounts = (): OutcomeCounts => ({ answered: 0, voicemail: 0, busy: 0, no_answer: 0, failed: 0 });

/** The stored campaign: its settings, its status and the counters its targets move. */
export interface Campaign {
  _id: string;
  workspaceId: string;
  name: string;
  agentId: string;
  /** The pinned published version of the agent; absent: its latest at each dial. */
  agent_version?: number;
  phoneNumberIds: string[];
  contacts: ContactSelection;
  schedule: { startAt?: string; endAt?: string };
  callingWindow: CallingWindow & { timeZone?: string };
  concurrency: number;
  retry: RetryPolicy;
  /** Default `{{variables}}` of every call; a contact's fields win. */
  variables?: Record<string, VariableValue>;
  status: CampaignStatus;
  /** Why it is paused or ended when not by a person: `insufficient_credits`, `schedule_ended`. */
  statusReason?: string;
  /** Contacts taken in. */
  total: number;
  /** Contacts not yet final (pending or in flight). */
  open: number;
  skipped: number;
  inFlight: number;
  /** Every dial's outcome. */
  attempts: OutcomeCounts;
  /** Each finished contact's last outcome. */
  outcomes: OutcomeCounts;
  /** Dials so far (picks the number to call from, in turn). */
  dials: number;
  createdAt: string;
  updatedAt: string;
}

export type TargetState = 'pending' | 'dialing' | 'done' | 'skipped';

/** One contact of a campaign: where it stands, the calls it got and when it is next due. */
export interface CampaignTarget {
  campaignId: string;
  workspaceId: string;
  contactId: string;
  contactName: string;
  phoneNumber: string;
  externalFields: Record<string, string | number | boolean>;
  /** The zones its calling window is read in. */
  zones: string[];
  state: TargetState;
  /** When it may be dialed next (ISO 8601), while pending. */
  nextAttemptAt?: string;
  attempts: number;
  /** Tries per outcome so far, against the retry policy. */
  tries: Partial<Record<CallOutcome, number>>;
  callIds: string[];
  /** The call in flight, while dialing. */
  callId?: string;
  claimedAt?: string;
  lastOutcome?: CallOutcome;
  skipReason?: SkipReason;
  missingVariables?: string[];
}

/** Which statuses a request moves a campaign from, and to. */
export const TRANSITIONS = {
  start: { from: ['draft'], to: 'scheduled' },
  pause: { from: ['scheduled', 'running'], to: 'paused' },
  resume: { from: ['paused'], to: 'scheduled' },
  cancel: { from: ['draft', 'scheduled', 'running', 'paused'], to: 'cancelled' },
} as const satisfies Record<string, { from: readonly CampaignStatus[]; to: CampaignStatus }>;
export type CampaignAction = keyof typeof TRANSITIONS;

/** Statuses the scheduler looks at (a paused campaign still has calls in flight to account for). */
export const ACTIVE_STATUSES: readonly CampaignStatus[] = ['scheduled', 'running', 'paused'];

/**
 * What a finished call came to. Only settled calls are read (every ending path settles the reservation),
 * so the end reason is final.
 */
export function outcomeOfCall(call: Pick<Call, 'endReason' | 'status' | 'streamStartedAt' | 'answeredBy'>): CallOutcome {
  switch (call.endReason) {
    case 'voicemail':
      return 'voicemail';
    case 'busy':
      return 'busy';
    case 'no_answer':
      return 'no_answer';
    case 'failed':
    case 'canceled':
    case 'telephony_failed':
      return 'failed';
    // A vendor failure after the line connected was a call answered (and billed); before it, a failed dial.
    case 'error':
    case 'tts_voice_not_found':
    case 'tts_auth_failed':
    case 'tts_unavailable':
    case 'stt_auth_failed':
    case 'stt_unavailable':
    case 'llm_auth_failed':
    case 'llm_rate_limited':
    case 'llm_unavailable':
      return call.streamStartedAt ? 'answered' : 'failed';
    default:
      return 'answered';
  }
}

/** When to dial again after `outcome`, or undefined when the contact is finished. */
export function retryAfter(retry: RetryPolicy, outcome: CallOutcome, triesOfOutcome: number, nowMs: number): number | undefined {
  if (outcome === 'answered') return undefined;
  const rule = retry[outcome];
  return triesOfOutcome <= rule.retries ? nowMs + rule.delayMinutes * 60_000 : undefined;
}

/** Every `{{variable}}` the texts name with no default, once each (lib/domain/template.ts). */
export { requiredVariables as variablesIn, missingVariables } from './template.js';

// ----- Views -----

const Count = z.number().int();
const Counts = z.object({ answered: Count, voicemail: Count, busy: Count, no_answer: Count, failed: Count });

const RetryView = z.object({ retries: z.number().int(), delayMinutes: z.number().int() });

export const CampaignView = z
  .object({
    _id: z.string(),
    name: z.string(),
    agentId: z.string(),
    /** The pinned published version of the agent (docs/agent-versions.md); absent: its latest at each dial. */
    agent_version: z.number().int().optional(),
    phoneNumberIds: z.array(z.string()),
    contacts: ContactSelection,
    schedule: z.object({ startAt: Timestamp.optional(), endAt: Timestamp.optional() }),
    callingWindow: z.object({ start: z.string(), end: z.string(), days: z.array(z.enum(WEEKDAYS)), timeZone: z.string().optional() }),
    concurrency: z.number().int(),
    retry: z.object({ no_answer: RetryView, busy: RetryView, voicemail: RetryView, failed: RetryView }),
    variables: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    status: z.enum(CAMPAIGN_STATUSES),
    statusReason: z.string().optional(),
    workspaceId: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Campaign' });

export const CampaignListItem = CampaignView.pick({ _id: true, name: true, agentId: true, status: true, statusReason: true, workspaceId: true, createdAt: true }).meta({
  id: 'CampaignListItem',
});

export const CampaignProgress = z
  .object({
    status: z.enum(CAMPAIGN_STATUSES),
    statusReason: z.string().optional(),
    contacts: z.object({ total: z.number().int(), pending: z.number().int(), inFlight: z.number().int(), finished: z.number().int(), skipped: z.number().int() }),
    outcomes: Counts.describe("each finished contact's last outcome"),
    attempts: Counts.describe("every dial's outcome"),
    nextAttempts: z.array(z.object({ contactId: z.string(), at: Timestamp })).describe('the next contacts due, earliest first (at most 10)'),
  });

export const CampaignResult = z
  .object({
    contactId: z.string(),
    contactName: z.string(),
    phoneNumber: z.string(),
    state: z.enum(['pending', 'dialing', 'done', 'skipped']),
    attempts: z.number().int(),
    lastOutcome: z.enum(CALL_OUTCOMES).optional(),
    callIds: z.array(z.string()),
    nextAttemptAt: Timestamp.optional(),
    skipReason: z.enum(SKIP_REASONS).optional(),
    missingVariables: z.array(z.string()).optional(),
  })
  .meta({ id: 'CampaignResult' });

export const CampaignResultsQuery = z.object({ state: z.enum(['pending', 'dialing', 'done', 'skipped']).optional() });

/** A campaign as GET and create answer it: its settings and where it stands. */
export const CampaignDetail = CampaignView.extend({ progress: CampaignProgress }).meta({ id: 'CampaignDetail' });
