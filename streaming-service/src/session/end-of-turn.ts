import type { TurnTakingConfig } from '../../../lib/domain/agent.js';
import { PHRASES } from '../call/phrases.js';

/**
 * Whether a caller turn the recognizer ended is really over (pure). The vendor's endpointing ends a turn
 * after ~300 ms of silence, and its utterance-end fallback after ~1 s; a caller who stops to think in the
 * middle of a sentence ("I'd like to book a table for ... two") pauses longer than either. Answering the
 * fragment is the complaint: the agent talks over the rest of the sentence, then answers it twice.
 *
 * Like LiveKit Agents' endpointing delay and Pipecat's smart turn, but from the words alone: a fragment that
 * ends on a word no sentence ends on — a conjunction, an article or determiner, a preposition, a filler —
 * or on a comma, dash or ellipsis gets a longer wait (`unfinished_wait_ms`, 2 s). A fragment ending in `?`
 * or `!` is over whatever its last word ("Where are you from?"); a final `.` is not trusted, since
 * recognizers that punctuate put one at every end of speech. A fragment without these signs ends at once,
 * as before: missing punctuation alone is no sign, because some recognizers (AssemblyAI unformatted) never
 * punctuate.
 */
export interface TurnTakingSettings {
  readonly unfinishedWaitMs: number;
  readonly continuationWords: ReadonlySet<string>;
  /** Whether the model starts ahead of a turn that looks complete (preemption.ts). */
  readonly preemptive: boolean;
}

export const DEFAULT_UNFINISHED_WAIT_MS = 2_000;

/** English words a sentence does not end on (call/phrases.ts has the other languages'). */
export const DEFAULT_CONTINUATION_WORDS: readonly string[] = PHRASES.en.continuationWords;

/** The agent's `turn_taking` over the defaults; `language` is the call's list (call/phrases.ts) when the agent sets none. */
export function turnTakingSettings(config: TurnTakingConfig = {}, language: readonly string[] = DEFAULT_CONTINUATION_WORDS): TurnTakingSettings {
  return {
    unfinishedWaitMs: config.unfinished_wait_ms ?? DEFAULT_UNFINISHED_WAIT_MS,
    continuationWords: new Set(config.continuation_words ?? language),
    preemptive: config.preemptive_generation ?? true,
  };
}

/** Whether `text` stops where a sentence cannot end (see the module comment). */
export function looksUnfinished(text: string, words: ReadonlySet<string>): boolean {
  const t = text.trim();
  if (!t || /[?!]$/.test(t)) return false;
  if (/(\.\.\.|…|[,\-–—])$/.test(t)) return true;
  const last = t.replace(/[.;:]+$/, '').split(/\s+/).at(-1)?.toLowerCase() ?? '';
  return words.has(last);
}

/** How long to wait before answering a turn that ended with `text`: 0 when it looks finished. */
export function endOfTurnWaitMs(text: string, settings: TurnTakingSettings): number {
  return looksUnfinished(text, settings.continuationWords) ? settings.unfinishedWaitMs : 0;
}
