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
}

/** The figures kept on the history record per turn (milliseconds, rounded to 0.1). */
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
  const overheadMs = total !== null && llmWaitMs !== null && ttsFirstByteMs !== null ? r1(total - llmWaitMs - ttsFirstByteMs) : null;
  return { sttMs: l.sttMs === undefined ? null : r1(l.sttMs), llmFirstTokenMs, llmFirstPhraseMs, ttsFirstByteMs, overheadMs };
}
