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
  llmRequestAtMs?: number;
  llmFirstTokenAtMs?: number;
  /** The splitter completed the first phrase (enough text to start speech). */
  llmFirstPhraseAtMs?: number;
  ttsRequestAtMs?: number;
  ttsFirstByteAtMs?: number;
  firstAudioAtMs?: number;
  /** A filler was said because the model was slow to start (llm-chain.ts): the first audio was the filler. */
  fillerAtMs?: number;
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
  // After a filler the first audio and the first TTS request are the filler's, not the answer's: the shares
  // do not add up to our own time.
  const overheadMs =
    l.fillerAtMs === undefined && total !== null && llmFirstTokenMs !== null && llmFirstPhraseMs !== null && ttsFirstByteMs !== null
      ? r1(total - llmFirstTokenMs - llmFirstPhraseMs - ttsFirstByteMs)
      : null;
  return { sttMs: l.sttMs === undefined ? null : r1(l.sttMs), llmFirstTokenMs, llmFirstPhraseMs, ttsFirstByteMs, overheadMs };
}
