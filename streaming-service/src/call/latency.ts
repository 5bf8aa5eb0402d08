import type { CallerWaitFigures } from '../../../lib/domain/caller-wait.js';

/**
 * Latency points of one turn (performance.now() values), from the caller's end of turn to the first agent
 * audio sent to Twilio.
 */
export interface TurnLatency {
  readonly handleId: string;
  /** The STT event that ended the caller's turn arrived. */
  readonly sttFinalAtMs: number;
  /** From the last voiced caller audio (local energy) to that event: the STT's endpointing and finalization. */
  readonly sttMs?: number;
  /** When the turn's first model request started: before the STT event when it was started ahead (`preempted`). */
  llmRequestAtMs?: number;
  /** The first request was started before the turn was confirmed, and used (conversation/prefetch.ts). */
  preempted?: boolean;
  llmFirstTokenAtMs?: number;
  /** The splitter completed the first phrase (enough text to start speech). */
  llmFirstPhraseAtMs?: number;
  ttsRequestAtMs?: number;
  ttsFirstByteAtMs?: number;
  firstAudioAtMs?: number;
  /** A filler was said because the model was slow to start (llm-chain.ts): the first audio was the filler. */
  fillerAtMs?: number;
}

/** The figures kept on the history record per turn (milliseconds, rounded to 0.1; `callerWait` in whole ms). */
export interface TurnFigures {
  readonly sttMs: number | null;
  readonly llmFirstTokenMs: number | null;
  readonly llmFirstPhraseMs: number | null;
  readonly ttsFirstByteMs: number | null;
  /**
   * Our own share: time from the STT final to the first outbound audio frame minus the vendors' shares
   * (LLM time to first token, LLM time from first token to first complete phrase, TTS first byte). What
   * is left is queueing, scheduling and encoding in this service.
   */
  readonly overheadMs: number | null;
  /** The caller's view of the turn, or null when no agent audio followed it (see {@link callerWait}). */
  readonly callerWait: CallerWaitFigures | null;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

export function turnFigures(l: TurnLatency): TurnFigures {
  const d = (a?: number, b?: number) => (a !== undefined && b !== undefined ? r1(b - a) : null);
  const llmFirstTokenMs = d(l.llmRequestAtMs, l.llmFirstTokenAtMs);
  const llmFirstPhraseMs = d(l.llmFirstTokenAtMs, l.llmFirstPhraseAtMs);
  const ttsFirstByteMs = d(l.ttsRequestAtMs, l.ttsFirstByteAtMs);
  const total = d(l.sttFinalAtMs, l.firstAudioAtMs);
  // The model's share is what the turn waited on it after the STT event: a request started ahead of the
  // turn may have had its first phrase before it (then none).
  const llmWaitMs = l.llmRequestAtMs !== undefined && l.llmFirstPhraseAtMs !== undefined ? Math.max(0, l.llmFirstPhraseAtMs - Math.max(l.llmRequestAtMs, l.sttFinalAtMs)) : null;
  // After a filler the first audio and the first TTS request are the filler's, not the answer's: the shares
  // do not add up to our own time.
  const overheadMs = l.fillerAtMs === undefined && total !== null && llmWaitMs !== null && ttsFirstByteMs !== null ? r1(total - llmWaitMs - ttsFirstByteMs) : null;
  return { sttMs: l.sttMs === undefined ? null : r1(l.sttMs), llmFirstTokenMs, llmFirstPhraseMs, ttsFirstByteMs, overheadMs, callerWait: callerWait(l) };
}

/**
 * What the caller waited, in whole milliseconds: from the end of their speech (the last voiced audio before
 * the turn ended) to the first agent audio sent, and the shares of that wait spent on each stage. The
 * stages are laid on the wait in order (end of turn, model first token, first phrase, TTS first byte), each
 * counted from where the one before it ended, so the parts never overlap and add up to `totalMs` with
 * `otherMs` (this service's own time, and tool runs). A stage whose points were not reached is null; one
 * the caller did not wait on is 0: over before the turn ended (a reply started early), or over only after
 * the first audio (a model whose first words came after a filler was already playing). Null as a whole
 * when no audio followed the turn (interrupted before it spoke, or it never spoke) or when the end of the
 * caller's speech is not known (no voiced audio was heard).
 */
export function callerWait(l: TurnLatency): CallerWaitFigures | null {
  if (l.sttMs === undefined || l.firstAudioAtMs === undefined) return null;
  const speechEndAtMs = l.sttFinalAtMs - l.sttMs;
  const audioAtMs = l.firstAudioAtMs;
  if (audioAtMs < speechEndAtMs) return null;
  // Positions on the wait, rounded once each: parts are differences of rounded positions, so they are whole
  // milliseconds that never sum past the rounded total.
  const at = (t: number) => Math.round(t - speechEndAtMs);
  let cursor = speechEndAtMs;
  const share = (from?: number, to?: number): number | null => {
    if (from === undefined || to === undefined) return null;
    // A stage that ended after the first audio did not keep the caller waiting: they were already hearing the agent.
    if (to > audioAtMs) return 0;
    const start = Math.max(from, cursor);
    if (to <= start) return 0;
    cursor = to;
    return at(to) - at(start);
  };
  const endOfTurnMs = share(speechEndAtMs, l.sttFinalAtMs);
  const llmFirstTokenMs = share(l.llmRequestAtMs, l.llmFirstTokenAtMs);
  const llmFirstPhraseMs = share(l.llmFirstTokenAtMs, l.llmFirstPhraseAtMs);
  const ttsFirstByteMs = share(l.ttsRequestAtMs, l.ttsFirstByteAtMs);
  const totalMs = at(audioAtMs);
  const otherMs = totalMs - [endOfTurnMs, llmFirstTokenMs, llmFirstPhraseMs, ttsFirstByteMs].reduce<number>((sum, part) => sum + (part ?? 0), 0);
  return { totalMs, endOfTurnMs: endOfTurnMs ?? 0, llmFirstTokenMs, llmFirstPhraseMs, ttsFirstByteMs, otherMs };
}
