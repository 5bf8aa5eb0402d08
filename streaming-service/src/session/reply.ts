import type { LlmToolCall } from '../../../lib/vendors/llm/port.js';
import type { ToolAction } from '../tools/registry.js';
import { parseArguments } from '../tools/http.js';
import { sendDtmf } from './send-dtmf.js';
import type { CallSession } from './call-session.js';
import type { AgentRound, Entry } from '../conversation/conversation.js';
import { PhraseSplitter } from './phrase-splitter.js';
import type { Speaker } from './speaker.js';
import type { SpeechHandle } from './speech-handle.js';
import { runTurn, type TurnChannel } from '../conversation/turn-loop.js';
import type { TurnLatency } from '../call/latency.js';

/**
 * The goodbye or the words before a transfer get this long to play; marks that never come back (a caller
 * who already left) must not hold the call open.
 */
const PLAYOUT_CAP_MS = 15_000;

/**
 * One spoken agent reply: the shared turn loop (turn-loop.ts) with its text streamed phrase by phrase into
 * TTS. The handle's signal aborts the LLM stream and TTS on a barge-in.
 */
export async function runReply(session: CallSession, handle: SpeechHandle, entry: Extract<Entry, { type: 'agent' }>, latency: TurnLatency): Promise<void> {
  const speaker = await session.speakerFor(handle);
  if (!speaker) return;
  const voice = new VoiceChannel(session, handle, speaker, latency);
  try {
    latency.llmRequestAtMs ??= performance.now();
    await runTurn(session, voice, entry.rounds);
  } finally {
    speaker.end();
    await handle.whenSettled();
    latency.ttsRequestAtMs = speaker.timings.firstPhraseAtMs;
    latency.ttsFirstByteAtMs = speaker.timings.firstByteAtMs;
  }
}

const withCap = (p: Promise<void>) => Promise.race([p, new Promise<void>((r) => setTimeout(r, PLAYOUT_CAP_MS).unref?.())]);
const withCapValue = <T>(p: Promise<T>) =>
  Promise.race([p, new Promise<{ error: string }>((r) => setTimeout(() => r({ error: 'the keys did not finish playing' }), PLAYOUT_CAP_MS).unref?.())]);

/** The next phrase of `phrases` in turn across the call. */
function nextPhrase(session: CallSession, kind: 'filler' | 'stillWorking'): string | undefined {
  const phrases = kind === 'filler' ? session.options.fillerPhrases : session.options.stillWorkingPhrases;
  if (phrases.length === 0) return undefined;
  const said = session.waitingPhrasesSaid[kind]++;
  return phrases[said % phrases.length];
}

/** A call's side of a turn: text into phrases into speech; fillers while tools run; a line to hang up or transfer. */
class VoiceChannel implements TurnChannel {
  private splitter = new PhraseSplitter();
  private quiet: () => void = () => undefined;

  constructor(
    private readonly session: CallSession,
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

  toolsStart(round: number): () => void {
    const sayWaiting = (kind: 'filler' | 'stillWorking') => () => {
      const phrase = this.handle.interrupted ? undefined : nextPhrase(this.session, kind);
      if (phrase) this.speaker.say(phrase, round);
    };
    // A caller hearing nothing for more than a second wonders whether the line dropped; a few seconds
    // later they need to hear that we are still on it.
    const timers = [
      setTimeout(sayWaiting('filler'), this.session.options.fillerAfterMs),
      setTimeout(sayWaiting('stillWorking'), this.session.options.stillWorkingAfterMs),
    ];
    this.quiet = () => timers.forEach(clearTimeout);
    return this.quiet;
  }

  async builtIn(action: Exclude<ToolAction, { kind: 'http' }>, call: LlmToolCall, r: AgentRound, round: number): Promise<{ content: string; stop?: boolean }> {
    const { session, handle } = this;
    if (action.kind === 'transfer' && !session.services.telephony) {
      // A browser call has no phone line to hand over; the model hears why and can offer another way.
      return { content: JSON.stringify({ error: 'this call is in a web browser, not on a phone line, so it cannot be transferred' }) };
    }
    if (action.kind === 'opt_out') {
      // Written before the model's confirmation is spoken: a caller who hangs up on it is still opted out.
      const content = await session.services.optOut!().then(
        () => JSON.stringify({ opted_out: true, note: 'confirm to the caller that they will not be called again' }),
        () => JSON.stringify({ error: 'the request could not be recorded; apologise and say a person will take them off the list' }),
      );
      return { content };
    }
    this.quiet();
    if (action.kind === 'transfer') {
      // Never cached: a transfer that worked ends the session, and one that failed should be tried again.
      await withCap(handle.whenQuiet());
      const summary = String(parseArguments(call.arguments).summary ?? '');
      const result = await session.transfer(action.to, action.mode, summary);
      const content = JSON.stringify(
        result.ok ? { transferred: true } : { transferred: false, outcome: result.outcome, error: `the transfer did not happen: ${result.reason}` },
      );
      return { content, stop: result.ok };
    }
    if (action.kind === 'send_dtmf') {
      // The words before the keys play first: an IVR listens for tones only once its prompt is over.
      await withCap(handle.whenQuiet());
      return { content: JSON.stringify(await withCapValue(sendDtmf(session, handle, String(parseArguments(call.arguments).digits ?? ''), round))) };
    }
    if (!r.generated.trim()) this.speaker.say(session.options.goodbyePhrase, round);
    await withCap(handle.whenQuiet());
    session.end('agent_hangup');
    return { content: JSON.stringify({ ended: true }), stop: true };
  }
}
