import { END_CALL_TOOL, runHttpAction } from '../tools/registry.js';
import { parseArguments } from '../tools/http.js';
import { sendDtmf } from './send-dtmf.js';
import type { CallSession } from './call-session.js';
import type { AgentRound, Entry } from './conversation.js';
import { PhraseSplitter } from './phrase-splitter.js';
import type { Speaker } from './speaker.js';
import type { SpeechHandle } from './speech-handle.js';

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
  const overheadMs =
    total !== null && llmFirstTokenMs !== null && llmFirstPhraseMs !== null && ttsFirstByteMs !== null
      ? r1(total - llmFirstTokenMs - llmFirstPhraseMs - ttsFirstByteMs)
      : null;
  return { sttMs: l.sttMs === undefined ? null : r1(l.sttMs), llmFirstTokenMs, llmFirstPhraseMs, ttsFirstByteMs, overheadMs };
}

/**
 * Tool rounds per reply: a model that keeps calling tools is cut off after four, so one confused reply
 * cannot keep the caller waiting indefinitely.
 */
const MAX_ROUNDS = 4;

/**
 * The goodbye or the words before a transfer get this long to play; marks that never come back (a caller
 * who already left) must not hold the call open.
 */
const PLAYOUT_CAP_MS = 15_000;

/**
 * One agent reply: LLM rounds streamed phrase by phrase into TTS, with tool calls between rounds. The
 * handle's signal aborts the LLM stream and TTS on a barge-in; tool calls the model already completed are
 * still executed exactly once and their results kept in the conversation, so nothing is lost or repeated
 * when the caller speaks again.
 */
export async function runReply(session: CallSession, handle: SpeechHandle, entry: Extract<Entry, { type: 'agent' }>, latency: TurnLatency): Promise<void> {
  const speaker = await session.speakerFor(handle);
  if (!speaker) return;
  try {
    for (let round = 0; round < MAX_ROUNDS && !handle.interrupted; round += 1) {
      const r: AgentRound = { generated: '', toolCalls: [], results: new Map() };
      const messages = session.conversation.messages();
      entry.rounds.push(r);
      const splitter = new PhraseSplitter();
      latency.llmRequestAtMs ??= performance.now();
      // The agent's model, retried once, then its fallback models (llm-chain.ts).
      const stream = session.llm.stream({ messages, tools: session.tools.specs }, handle.signal);
      for await (const event of stream) {
        if (event.type === 'text') {
          latency.llmFirstTokenAtMs ??= event.atMs;
          r.generated += event.delta;
          if (handle.interrupted) continue;
          for (const phrase of splitter.push(event.delta)) {
            latency.llmFirstPhraseAtMs ??= performance.now();
            speaker.say(phrase, round);
          }
        } else if (event.type === 'tool_call') {
          r.toolCalls.push(event.call);
        } else if (event.usage) {
          session.llmUsage.inputTokens += event.usage.inputTokens;
          session.llmUsage.outputTokens += event.usage.outputTokens;
        }
      }
      const rest = splitter.flush();
      if (rest && !handle.interrupted) {
        latency.llmFirstPhraseAtMs ??= performance.now();
        speaker.say(rest, round);
      }
      if (r.toolCalls.length === 0) break;
      if ((await runTools(session, handle, speaker, r, round)) === 'stop') break;
    }
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

/** Runs one round's tool calls (in parallel); `stop` when the call is being transferred or hung up. */
async function runTools(session: CallSession, handle: SpeechHandle, speaker: Speaker, r: AgentRound, round: number): Promise<'continue' | 'stop'> {
  let stop = false;
  const sayWaiting = (kind: 'filler' | 'stillWorking') => () => {
    const phrase = handle.interrupted ? undefined : nextPhrase(session, kind);
    if (phrase) speaker.say(phrase, round);
  };
  // A caller hearing nothing for more than a second wonders whether the line dropped; a few seconds
  // later they need to hear that we are still on it.
  const timers = [
    setTimeout(sayWaiting('filler'), session.options.fillerAfterMs),
    setTimeout(sayWaiting('stillWorking'), session.options.stillWorkingAfterMs),
  ];
  const quiet = () => timers.forEach(clearTimeout);
  const { toolTimeoutMs } = session.options;
  const httpOptions = { ...session.services.httpTools, ...(toolTimeoutMs ? { timeoutMs: toolTimeoutMs } : {}) };
  try {
    await Promise.all(
      r.toolCalls.map(async (call) => {
        if (session.executedToolCalls.has(call.id)) return;
        session.executedToolCalls.add(call.id);
        const action = session.tools.byName.get(call.name);
        let content: string;
        if (!action) {
          content = JSON.stringify({ error: `no tool named ${call.name}` });
        } else if (action.kind === 'http') {
          // Idempotent within the call (tools/idempotency.ts); an unexpected failure is still an answer
          // the model can speak about, never a silent reply.
          content = await session.toolCache
            .run(call.name, call.arguments, () => runHttpAction(action, call.arguments, (id) => session.services.loadTool(id), httpOptions))
            .then(
              (outcome) => outcome.content,
              () => JSON.stringify({ error: 'the tool failed; the request may not have been sent' }),
            );
        } else if (action.kind === 'transfer' && !session.services.telephony) {
          // A browser call has no phone line to hand over; the model hears why and can offer another way.
          content = JSON.stringify({ error: 'this call is in a web browser, not on a phone line, so it cannot be transferred' });
        } else if (action.kind === 'transfer') {
          // Never cached: a transfer that worked ends the session, and one that failed should be tried again.
          quiet();
          await withCap(handle.whenQuiet());
          const summary = String(parseArguments(call.arguments).summary ?? '');
          const result = await session.transfer(action.to, action.mode, summary);
          content = JSON.stringify(
            result.ok ? { transferred: true } : { transferred: false, outcome: result.outcome, error: `the transfer did not happen: ${result.reason}` },
          );
          if (result.ok) stop = true;
        } else if (action.kind === 'opt_out') {
          // Written before the model's confirmation is spoken: a caller who hangs up on it is still opted out.
          content = await session.services.optOut!().then(
            () => JSON.stringify({ opted_out: true, note: 'confirm to the caller that they will not be called again' }),
            () => JSON.stringify({ error: 'the request could not be recorded; apologise and say a person will take them off the list' }),
          );
        } else if (action.kind === 'send_dtmf') {
          // The words before the keys play first: an IVR listens for tones only once its prompt is over.
          quiet();
          await withCap(handle.whenQuiet());
          content = JSON.stringify(await withCapValue(sendDtmf(session, handle, String(parseArguments(call.arguments).digits ?? ''), round)));
        } else {
          quiet();
          if (!r.generated.trim()) speaker.say(session.options.goodbyePhrase, round);
          await withCap(handle.whenQuiet());
          session.end('agent_hangup');
          content = JSON.stringify({ ended: true });
          stop = true;
        }
        r.results.set(call.id, { name: call.name === END_CALL_TOOL ? END_CALL_TOOL : call.name, content });
      }),
    );
  } finally {
    quiet();
  }
  return stop ? 'stop' : 'continue';
}
