import type { LlmToolCall } from '../../../lib/vendors/llm/port.js';
import type { BuiltInAction } from '../tools/registry.js';
import { parseArguments } from '../tools/http.js';
import type { ActionContext } from './action-context.js';
import { sendDtmf } from './send-dtmf.js';
import type { AgentRound, Entry } from '../conversation/conversation.js';
import { PhraseSplitter } from './phrase-splitter.js';
import type { Speaker } from './speaker.js';
import type { SpeechHandle } from './speech-handle.js';
import { runTurn, type TurnChannel, type TurnHost } from '../conversation/turn-loop.js';
import type { TurnLatency } from '../call/latency.js';

/**
 * The goodbye or the words before a transfer get this long to play; marks that never come back (a caller
 * who already left) must not hold the call open.
 */
const PLAYOUT_CAP_MS = 15_000;

/** What a spoken reply may use of its call: the turn loop's host, a voice, the waiting phrases, the actions. */
export interface ReplyContext extends ActionContext {
  /** The conversation's model chain, tools and their bookkeeping (turn-loop.ts). */
  readonly turns: TurnHost;
  /** A speaker for the reply's utterance, or undefined when speech is down (the call is then failing). */
  speakerFor(handle: SpeechHandle): Promise<Speaker | undefined>;
  readonly waiting: WaitingPhrases;
  /** Said when the model hangs up without a word of its own. */
  readonly goodbyePhrase: string;
  /** Takes a handoff tool (session/handoff.ts): resolves, switches once `quiet` (the words before it played). */
  handOff?(action: Extract<BuiltInAction, { kind: 'handoff' }>, call: LlmToolCall, handle: SpeechHandle, quiet: Promise<void>): Promise<{ content: string; stop?: boolean }>;
}

/**
 * One spoken agent reply: the shared turn loop (turn-loop.ts) with its text streamed phrase by phrase into
 * TTS. The handle's signal aborts the LLM stream and TTS on a barge-in.
 */
export async function runReply(ctx: ReplyContext, handle: SpeechHandle, entry: Extract<Entry<SpeechHandle>, { type: 'agent' }>, latency: TurnLatency): Promise<void> {
  const speaker = await ctx.speakerFor(handle);
  if (!speaker) return;
  const voice = new VoiceChannel(ctx, handle, speaker, latency);
  try {
    latency.llmRequestAtMs ??= performance.now();
    await runTurn(ctx.turns, voice, entry.rounds);
  } finally {
    speaker.end();
    await handle.whenSettled();
    latency.ttsRequestAtMs = speaker.timings.firstPhraseAtMs;
    latency.ttsFirstByteAtMs = speaker.timings.firstByteAtMs;
  }
}

/** When a slow tool round gets its waiting phrases, and which ones (see SessionOptions). */
export interface WaitingPhraseOptions {
  readonly fillerAfterMs: number;
  readonly fillerPhrases: readonly string[];
  readonly stillWorkingAfterMs: number;
  readonly stillWorkingPhrases: readonly string[];
}

/** The filler and "still working" phrases, each taken in turn across the call so none repeats soon. */
export class WaitingPhrases {
  private readonly said = { filler: 0, stillWorking: 0 };

  constructor(readonly options: WaitingPhraseOptions) {}

  next(kind: 'filler' | 'stillWorking'): string | undefined {
    const phrases = kind === 'filler' ? this.options.fillerPhrases : this.options.stillWorkingPhrases;
    if (phrases.length === 0) return undefined;
    return phrases[this.said[kind]++ % phrases.length];
  }
}

const withCap = (p: Promise<void>) => Promise.race([p, new Promise<void>((r) => setTimeout(r, PLAYOUT_CAP_MS).unref?.())]);
const withCapValue = <T>(p: Promise<T>) =>
  Promise.race([p, new Promise<{ error: string }>((r) => setTimeout(() => r({ error: 'the keys did not finish playing' }), PLAYOUT_CAP_MS).unref?.())]);

/** A call's side of a turn: text into phrases into speech; fillers while tools run or the model is slow; a line to hang up or transfer. */
class VoiceChannel implements TurnChannel {
  private splitter = new PhraseSplitter();
  private quiet: () => void = () => undefined;

  constructor(
    private readonly ctx: ReplyContext,
    private readonly handle: SpeechHandle,
    private readonly speaker: Speaker,
    private readonly latency: TurnLatency,
  ) {}

  get signal(): AbortSignal {
    return this.handle.signal;
  }

  get interrupted(): boolean {
    return this.handle.interrupted;
  }

  preempted(startedAtMs: number): void {
    this.latency.llmRequestAtMs = startedAtMs;
    this.latency.preempted = true;
  }

  text(delta: string, round: number, atMs: number): void {
    this.latency.llmFirstTokenAtMs ??= atMs;
    for (const phrase of this.splitter.push(delta)) this.say(phrase, round);
  }

  roundEnd(round: number): void {
    const rest = this.splitter.flush();
    this.splitter = new PhraseSplitter();
    if (rest) this.say(rest, round);
  }

  private say(phrase: string, round: number): void {
    this.latency.llmFirstPhraseAtMs ??= performance.now();
    this.speaker.say(phrase, round);
  }

  /** Says the next waiting phrase of `kind`, unless the reply was cut; whether one was said. */
  private sayWaiting(kind: 'filler' | 'stillWorking', round: number): () => boolean {
    return () => {
      const phrase = this.handle.interrupted ? undefined : this.ctx.waiting.next(kind);
      if (phrase) this.speaker.say(phrase, round);
      return phrase !== undefined;
    };
  }

  toolsStart(round: number): () => void {
    // A caller hearing nothing for more than a second wonders whether the line dropped; a few seconds
    // later they need to hear that we are still on it.
    const { fillerAfterMs, stillWorkingAfterMs } = this.ctx.waiting.options;
    const timers = [setTimeout(this.sayWaiting('filler', round), fillerAfterMs), setTimeout(this.sayWaiting('stillWorking', round), stillWorkingAfterMs)];
    this.quiet = () => timers.forEach(clearTimeout);
    return this.quiet;
  }

  /**
   * The model is slow to start (its first-token budget passed, llm-chain.ts): a filler now, and a "still
   * working" phrase as long after it as a slow tool's. The answer follows in the same utterance. A greeting
   * the model writes gets none: nobody has asked anything yet.
   */
  modelSilent(round: number): () => void {
    if (this.handle.purpose === 'greeting') return () => undefined;
    // Before any of the answer was said, the filler is the turn's first audio (call/latency.ts).
    if (this.sayWaiting('filler', round)() && this.latency.llmFirstPhraseAtMs === undefined) this.latency.fillerAtMs ??= performance.now();
    const { fillerAfterMs, stillWorkingAfterMs } = this.ctx.waiting.options;
    const timer = setTimeout(this.sayWaiting('stillWorking', round), Math.max(0, stillWorkingAfterMs - fillerAfterMs));
    return () => clearTimeout(timer);
  }

  async builtIn(action: BuiltInAction, call: LlmToolCall, r: AgentRound, round: number): Promise<{ content: string; stop?: boolean }> {
    const { ctx, handle } = this;
    if (action.kind === 'transfer' && !ctx.hasPhoneLine) {
      // A browser call has no phone line to hand over; the model hears why and can offer another way.
      return { content: JSON.stringify({ error: 'this call is in a web browser, not on a phone line, so it cannot be transferred' }) };
    }
    if (action.kind === 'opt_out') {
      // Written before the model's confirmation is spoken: a caller who hangs up on it is still opted out.
      const content = await ctx.optOut!().then(
        () => JSON.stringify({ opted_out: true, note: 'confirm to the caller that they will not be called again' }),
        () => JSON.stringify({ error: 'the request could not be recorded; apologise and say a person will take them off the list' }),
      );
      return { content };
    }
    this.quiet();
    if (action.kind === 'handoff') {
      if (!ctx.handOff) return { content: JSON.stringify({ error: 'handoffs are not available on this call' }) };
      return ctx.handOff(action, call, handle, withCap(handle.whenQuiet()));
    }
    if (action.kind === 'transfer') {
      // Never cached: a transfer that worked ends the session, and one that failed should be tried again.
      await withCap(handle.whenQuiet());
      const summary = String(parseArguments(call.arguments).summary ?? '');
      const result = await ctx.transfer(action.to, action.mode, summary);
      const content = JSON.stringify(
        result.ok ? { transferred: true } : { transferred: false, outcome: result.outcome, error: `the transfer did not happen: ${result.reason}` },
      );
      return { content, stop: result.ok };
    }
    if (action.kind === 'send_dtmf') {
      // The words before the keys play first: an IVR listens for tones only once its prompt is over.
      await withCap(handle.whenQuiet());
      return { content: JSON.stringify(await withCapValue(sendDtmf(ctx, handle, String(parseArguments(call.arguments).digits ?? ''), round))) };
    }
    if (!r.generated.trim()) this.speaker.say(ctx.goodbyePhrase, round);
    await withCap(handle.whenQuiet());
    ctx.hangUp();
    return { content: JSON.stringify({ ended: true }), stop: true };
  }
}
