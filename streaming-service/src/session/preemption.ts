import type { LlmRequest } from '../../../lib/vendors/llm/port.js';
import type { Conversation, Utterance } from '../conversation/conversation.js';
import { Prefetch, wordsOf, type Stream } from '../conversation/prefetch.js';
import type { TurnHost } from '../conversation/turn-loop.js';
import { looksUnfinished, type TurnTakingSettings } from './end-of-turn.js';

/**
 * When a call starts its model ahead of the turn (docs/voice-pipeline.md, "Preemptive generation"). The
 * recognizer confirms a turn some 450-550 ms after the caller's last word (its endpointing silence, then its
 * final); the model's first token takes ~300 ms more. Once the caller has been silent for
 * {@link PREEMPT_AFTER_MS} on our own level meter, the recognizer has given words after hearing some of that
 * silence ({@link WORDS_AFTER_VOICE_MS}: its interim results have caught up), and they look like a complete
 * sentence (end-of-turn.ts), the turn's first request starts on them, so its first token is there about when
 * the turn is confirmed. conversation/prefetch.ts keeps it unspoken until then, reuses it when the final
 * transcript has the same words, and throws it away when not. New words of the caller throw it away at once.
 *
 * Like LiveKit Agents' preemptive generation (on by default there too); `turn_taking.preemptive_generation:
 * false` turns it off per agent. Agents whose knowledge is searched before every turn (`auto`) do not
 * start ahead: the search runs on the confirmed words.
 */
export const PREEMPT_AFTER_MS = 200;
/**
 * Words count as the recognizer's view of the whole utterance only when they came this long after the
 * caller's last voiced audio: it had heard the silence by then. Words that left it with the last syllable
 * in flight are often a word or two short ("Nothing" of "Nothing else."), and a request on them is waste.
 */
export const WORDS_AFTER_VOICE_MS = 100;

export interface PreemptionContext {
  readonly prefetch: Prefetch;
  /** Whether a request may start ahead now: the agent is listening, with nothing of its own in flight. */
  idle(): boolean;
  /** The model the turn would be asked of (a handoff changes it). */
  llm(): Stream;
  /** The turn's first request if it ended now with `text`. */
  request(text: string): Omit<LlmRequest, 'model'>;
  /** Whether `text` stops where a sentence cannot (end-of-turn.ts): such a turn is not answered at once. */
  unfinished(text: string): boolean;
}

export class Preemption {
  /** The words last started on: one request per set of words, whatever became of it. */
  private started: string | undefined;
  /** When the turn's words last came: a request starts only on words the recognizer gave after the caller's last voiced audio. */
  private wordsAtMs = 0;

  constructor(
    private readonly ctx: PreemptionContext,
    private readonly afterMs = PREEMPT_AFTER_MS,
  ) {}

  /** A caller audio frame at `atMs`, the last voiced one at `lastVoicedAtMs`, and the turn's words so far. */
  onAudio(atMs: number, lastVoicedAtMs: number, text: string): void {
    if (!text || atMs - lastVoicedAtMs < this.afterMs || this.wordsAtMs - lastVoicedAtMs < WORDS_AFTER_VOICE_MS) return;
    const words = wordsOf(text);
    if (!words || words === this.started || !this.ctx.idle() || this.ctx.unfinished(text)) return;
    this.started = words;
    this.ctx.prefetch.start(this.ctx.llm(), this.ctx.request(text), text);
  }

  /** The turn's words at `atMs` (a transcript that did not end it): a request on other words is thrown away. */
  onWords(text: string, atMs: number): void {
    this.wordsAtMs = atMs;
    const ahead = this.ctx.prefetch.words;
    if (ahead !== undefined && ahead !== wordsOf(text)) this.ctx.prefetch.cancel();
  }

  close(): void {
    this.ctx.prefetch.cancel();
  }
}

/**
 * A call's preemption: on unless the agent turned it off or searches its knowledge before every turn;
 * `idle` says when the agent is listening with nothing in flight.
 */
export function preemptionOf(settings: TurnTakingSettings, host: TurnHost, conversation: Conversation<Utterance>, idle: () => boolean): Preemption {
  const prefetch = host.prefetch ?? new Prefetch();
  return new Preemption({
    prefetch,
    idle: () => settings.preemptive && host.prefetch === prefetch && host.knowledge?.mode !== 'auto' && idle(),
    // A handoff replaces the model chain and the tools: the request is built from the host as it is now.
    llm: () => host.llm,
    request: (text) => ({ messages: conversation.messagesWith(text), tools: host.tools.specs }),
    unfinished: (text) => looksUnfinished(text, settings.continuationWords),
  });
}
