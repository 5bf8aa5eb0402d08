import * as z from 'zod';
import { AGENT_TYPES, CALL_END_REASONS } from './call-end.js';
import { CALL_STATES, TERMINAL_CALL_STATES, type Call, type CallState } from './call.js';
import { Timestamp } from './common.js';
import { LiveTranscriptEntry, type LiveCommandResult } from './live-control.js';

/**
 * A call as it runs: what `GET /api/calls` lists (the calls not over yet) and `GET /api/calls/{id}` shows
 * (live or ended, with where its history record is once written). Built from the live call record
 * (lib/domain/call.ts); names shared with the history record (`agentId`, `createdAt`) are the same.
 */

/** The states of a call that is not over. */
export const LIVE_CALL_STATES: readonly CallState[] = CALL_STATES.filter((s) => !TERMINAL_CALL_STATES.has(s));

export const LiveCallQuery = z.object({
  /** Calls of this agent only. */
  agentId: z.string().trim().min(1).max(100).optional(),
});
export type LiveCallQuery = z.infer<typeof LiveCallQuery>;

const liveFields = {
  id: z.string(),
  agentId: z.string(),
  /** The call's channel, as history's `agentType`: `voice` (phone or widget voice), `video` (meeting), `chat`. */
  type: z.enum(AGENT_TYPES),
  /** `inbound` for a call someone rang one of our numbers with; every call we place or open is `outbound`. */
  direction: z.enum(['outbound', 'inbound']),
  state: z.enum(CALL_STATES),
  /** Our number (the one called from, or the one rung); null for browser calls and chats. */
  from: z.string().nullable(),
  /** The other party: the destination, the caller, or the contact's number; empty when unknown. */
  to: z.string(),
  createdAt: Timestamp,
  /** Null until the call was answered (a web session or chat: joined). */
  answeredAt: Timestamp.nullable(),
};

export const LiveCall = z.object(liveFields).meta({ id: 'LiveCall' });
export type LiveCall = z.infer<typeof LiveCall>;

export const CallView = z
  .object({
    ...liveFields,
    /** Null while the call is live. */
    endedAt: Timestamp.nullable(),
    /** Why it ended (history's `callEndReason`); null while live. */
    endReason: z.enum(CALL_END_REASONS).nullable(),
    /** The history record's id (`GET /api/history/{id}`) once it is written; null until then. */
    historyId: z.string().nullable(),
    /**
     * While the call is connected (docs/live-calls.md): the agent's state (`listening`, `thinking`, `speaking`,
     * `transferring`, `ending`), the transcript so far (the agent's lines as far as the caller heard them) and
     * the agent talking. Null before the call connects, once it is over, and while its task cannot be reached.
     */
    agentState: z.string().nullable(),
    transcript: z.array(LiveTranscriptEntry).nullable(),
    agent: z.object({ id: z.string(), name: z.string() }).nullable(),
  })
  .meta({ id: 'CallView' });
export type CallView = z.infer<typeof CallView>;

/** True while a call is not over. */
export const isCallLive = (call: Pick<Call, 'status'>): boolean => !TERMINAL_CALL_STATES.has(call.status);

export function liveCallOf(call: Call): LiveCall {
  return {
    id: call._id,
    agentId: call.agentId,
    type: call.agentType,
    direction: call.direction === 'inbound' ? 'inbound' : 'outbound',
    state: call.status,
    from: call.from || null,
    to: call.to,
    createdAt: call.createdAt,
    answeredAt: call.answeredAt ?? null,
  };
}

/** One call, live or ended; `hasHistory` says whether its history record exists yet; `now` is its task's live state. */
export function callViewOf(call: Call, hasHistory: boolean, now?: LiveCommandResult): CallView {
  const live = isCallLive(call);
  return {
    ...liveCallOf(call),
    endedAt: live ? null : (call.endedAt ?? call.settledAt ?? call.updatedAt),
    endReason: live ? null : (call.endReason ?? null),
    historyId: hasHistory ? call._id : null,
    agentState: now?.agentState ?? null,
    transcript: now?.transcript ?? null,
    agent: now?.agent ?? null,
  };
}
