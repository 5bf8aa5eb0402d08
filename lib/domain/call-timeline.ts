import * as z from 'zod';
import type { VendorFailureReason } from './call-end.js';
import { CallerWait } from './caller-wait.js';

/**
 * Why a call failed and what happened in it, as the record keeps them (docs/calls.md, "Why a call
 * failed" and "Event timeline"): the `callError` of a call a vendor ended, and the per-call timeline the
 * streaming service records. Neither holds a secret: messages are vendor errors already scrubbed of
 * anything key-shaped (lib/vendors/shared/errors.ts) and of the call's own keys, and capped in length.
 */

export const CALL_STAGES = ['stt', 'tts', 'llm', 'telephony', 'tool'] as const;
export type CallStage = (typeof CALL_STAGES)[number];

/** A shown message is at most this long: enough for a vendor's sentence, not for a body it echoed. */
export const MAX_SHOWN_MESSAGE = 300;

/** The vendor failure that ended a call. */
export const CallError = z
  .object({
    stage: z.enum(CALL_STAGES),
    /** The vendor that failed (`elevenlabs`, `deepgram`, `openai`, `twilio`, ...). */
    vendor: z.string(),
    /** The vendor's own error code when it sent one (`voice_not_found`, `invalid_api_key`), else null. */
    code: z.string().nullable(),
    /** What the vendor said, safe to show: no keys, no signed URLs. */
    message: z.string(),
    /** Seconds from the call's start to the failure. */
    atSecond: z.number(),
  })
  .meta({
    id: 'CallError',
    examples: [{ stage: 'tts', vendor: 'elevenlabs', code: 'voice_not_found', message: 'elevenlabs answered HTTP 404: A voice with voice_id voice-1 does not exist.', atSecond: 0.2 }],
  });
export type CallError = z.infer<typeof CallError>;

/** A call's failure: the end reason and the error behind it. */
export interface CallFailure {
  readonly reason: VendorFailureReason;
  readonly error: CallError;
}

/** Turn latency figures as a `turn` event carries them (ms; null where a point was not reached). */
const TurnFiguresView = {
  sttMs: z.number().nullable(),
  llmFirstTokenMs: z.number().nullable(),
  llmFirstPhraseMs: z.number().nullable(),
  ttsFirstByteMs: z.number().nullable(),
  overheadMs: z.number().nullable(),
  callerWait: CallerWait.nullable().optional(),
};

const at = { atMs: z.number().describe('Milliseconds from the call start') };

/** One event of a call's timeline. */
export const CallEvent = z
  .discriminatedUnion('type', [
    z.object({ ...at, type: z.literal('vendor_connected'), stage: z.enum(['stt', 'tts']), vendor: z.string() }),
    /** A vendor failed and the agent's fallback took over: the call went on. */
    z.object({ ...at, type: z.literal('vendor_fallback'), stage: z.enum(['stt', 'tts', 'llm', 'realtime']), vendor: z.string(), to: z.string(), code: z.string().nullable(), message: z.string() }),
    /** A caller turn the agent answered, with its latencies (docs/voice-pipeline.md, "Latency figures"). */
    z.object({ ...at, type: z.literal('turn'), ...TurnFiguresView }),
    z.object({ ...at, type: z.literal('interruption') }),
    z.object({ ...at, type: z.literal('tool_call'), name: z.string(), status: z.enum(['ok', 'error']), durationMs: z.number() }),
    z.object({ ...at, type: z.literal('transfer'), destination: z.string(), mode: z.enum(['cold', 'warm']), outcome: z.string() }),
    /** A vendor error: `fatal` when it ended the call (then it is the record's `callError`). */
    z.object({ ...at, type: z.literal('error'), stage: z.enum(CALL_STAGES), vendor: z.string(), code: z.string().nullable(), message: z.string(), fatal: z.boolean() }),
    /** The agent's custom ambience file could not be had (refused, unreachable, not a WAV): the call went on without a bed. */
    z.object({ ...at, type: z.literal('ambience_unavailable'), message: z.string() }),
    z.object({ ...at, type: z.literal('ended'), reason: z.string() }),
  ])
  .meta({ id: 'CallEvent', examples: [{ atMs: 6420, type: 'turn', sttMs: 310.2, llmFirstTokenMs: 402.5, llmFirstPhraseMs: 88.1, ttsFirstByteMs: 121.7, overheadMs: 9.4, callerWait: { totalMs: 932, endOfTurnMs: 310, llmFirstTokenMs: 403, llmFirstPhraseMs: 88, ttsFirstByteMs: 122, otherMs: 9 } }] });
export type CallEvent = z.infer<typeof CallEvent>;

/**
 * A call keeps at most this many events: a half-hour call of short turns makes ~300 (a turn, a tool call,
 * an interruption each), and 500 small events stay far under DynamoDB's 400 KB item limit. Past it, the
 * first events are kept and `truncated` says some were dropped (the end is recorded regardless).
 */
export const MAX_CALL_EVENTS = 500;

export const CallEventsView = z
  .object({
    callId: z.string(),
    data: z.array(CallEvent),
    /** True when the call had more than `limit` events and the later ones were not kept. */
    truncated: z.boolean(),
    limit: z.number(),
  })
  .meta({ id: 'CallEvents' });
export type CallEventsView = z.infer<typeof CallEventsView>;

/** A message cut to what may be shown. */
export const shownMessage = (text: string): string => (text.length > MAX_SHOWN_MESSAGE ? `${text.slice(0, MAX_SHOWN_MESSAGE - 1)}…` : text);
