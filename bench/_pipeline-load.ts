/**
 * The load side of bench/pipeline.ts, in its own process so that the process measured (event-loop lag, CPU)
 * is the streaming server's alone: the vendor stand-ins (fixed delays) and N simulated Twilio callers, each
 * playing real-time mu-law audio. Driven over the fork IPC channel:
 *
 *   parent -> { type: 'standins', stt, llm, tts }   child -> { type: 'env', env }
 *   parent -> { type: 'level', url, calls, ... }    child -> { type: 'level-done', stats }
 *   parent -> { type: 'stop' }
 */
import { WebSocket } from 'ws';
import { loadConfig } from '../lib/config.js';
import { SimulatedCaller, tone } from '../lib/local/callers/simulated-caller.js';
import { startLlmStandins, type LlmScript } from '../lib/local/standins/llm.js';
import { startSttStandins, type SttScript, type SttStandinControl } from '../lib/local/standins/stt.js';
import type { TtsStandin } from '../lib/local/standins/tts-audio.js';
import { QUALITY_NOISE_MS } from './_pipeline-settings.js';
import { startTtsStandins, type TtsScript } from '../lib/local/standins/tts.js';
import { startRealtimeStandins } from './_pipeline-realtime.js';

/** What the caller says, in a cycle: a question, a request for a long answer, the interruption. */
export const CALLER_LINES = ['What time do you open?', 'Tell me everything about the menu.', 'Stop, thanks.'] as const;
/** The long answer the caller talks over; its first phrase is short so the first audio comes early. */
export const LONG_REPLY =
  'Sure. We have a seasonal menu with a mushroom risotto, a grilled sea bass with lemon butter, a slow ' +
  'roasted lamb shoulder, three salads, and for dessert a lemon tart, a chocolate mousse and a cheese board.';
export const SHORT_REPLY = 'Sure. We open at nine every day.';
/**
 * What the recognizer hears from the demanding caller of the quality level, per utterance in a cycle: the
 * request for the long answer, then over it an "uh-huh" and a second of noise (no words). The cough between
 * them (120 ms) is shorter than the recognizer stand-ins' minimum speech (250 ms, `DEFAULT_VAD.onsetMs`):
 * no utterance there, as a real recognizer finds no words in it.
 */
export const QUALITY_LINES = ['Tell me everything about the menu.', 'Uh-huh.', ''] as const;
/** What the fault level's caller says; every word of it must reach the model across an STT socket drop. */
export const FAULT_LINE = 'I would like to book a table for two tomorrow at seven please.';
/**
 * The voice-to-voice caller, per utterance in a cycle: a question with a short answer, one whose answer
 * opens with a 23-word sentence, and a sentence broken by a pause after a word no sentence ends on.
 */
export const TURN_LINES = ['What time do you open?', 'What is on the menu?', 'I would like a table for', 'two people tonight.'] as const;
/** The answer whose first sentence is 23 words long. */
export const TURN_LONG_REPLY =
  'Our seasonal menu has a mushroom risotto, a grilled sea bass with lemon butter, a slow roasted lamb shoulder and three fresh salads. ' +
  'For dessert there is a lemon tart.';

/**
 * Which caller the level runs: `load` (question, long answer interrupted, the capacity figures), `quality`
 * (backchannels, coughs and noise over the long answer), `faults` (one call at a time, its STT socket cut
 * while the caller talks and its TTS socket cut mid-answer).
 */
export type LevelMode = 'load' | 'quality' | 'faults' | 'turns';
let mode: LevelMode = 'load';
const LINES: Record<Exclude<LevelMode, 'faults'>, readonly string[]> = { load: CALLER_LINES, quality: QUALITY_LINES, turns: TURN_LINES };
const transcriptFor = (utterance: number): string => (mode === 'faults' ? FAULT_LINE : LINES[mode][utterance % LINES[mode].length]!);

/** Messages of the IPC protocol. */
export type ToChild =
  | {
      type: 'standins';
      stt: Partial<SttScript>;
      llm: Pick<LlmScript, 'ttftMs' | 'tokensPerSecond'>;
      tts: Partial<TtsScript>;
      /** Also the OpenAI Realtime and Gemini Live stand-ins, at their default script (bench/_pipeline-realtime.ts). */
      realtime?: boolean;
    }
  | {
      type: 'level';
      mode: LevelMode;
      url: string;
      /** `listenUrl`: one listener on the call's listen socket for as long as it runs (the listened level). */
      calls: { callSid: string; token: string; listenUrl?: string }[];
      durationMs: number;
      staggerMs: number;
      playbackSpeed: number;
      /** The agent plays an ambience bed: the callers tell its voice from the bed by level ({@link agentVoice}). */
      ambience?: boolean;
    }
  | { type: 'stop' };
export type FromChild =
  | { type: 'env'; env: Record<string, string> }
  | { type: 'level-done'; stats: LevelStats };

/** What the callers saw in one level. */
export interface LevelStats {
  readonly connected: number;
  readonly failed: number;
  readonly bargeIns: number;
  readonly clearsReceived: number;
  readonly errors: string[];
  /** load: callers whose script failed before the level's end (each stopped talking and hung up). */
  readonly stopped?: number;
  /** quality: sounds played over the agent that must not stop it (uh-huh, cough, noise). */
  readonly overAgentSounds?: number;
  /** quality: caller-perceived silence from the end of a wordless noise to the agent's audio again (ms). */
  readonly resumeSilenceMs?: number[];
  /** listened: listeners that received the call's `start`, and the bytes they received in all. */
  readonly listeners?: number;
  readonly listenedBytes?: number;
  /** faults: sockets the stand-ins cut (their fault knobs). */
  readonly sttDrops?: number;
  readonly ttsDrops?: number;
  /** turns: end of the caller's audio to the first agent audio received, for the short and the long answer (ms). */
  readonly voiceToVoiceShortMs?: number[];
  readonly voiceToVoiceLongMs?: number[];
  /** turns: sentences broken by a pause after "for", and how many of them the agent answered in the pause. */
  readonly fragments?: number;
  readonly fragmentAnswers?: number;
}

const send = (m: FromChild) => process.send?.(m);
let stopStandins: (() => Promise<void>) | undefined;
let faultKnobs: { stt: SttStandinControl; tts: TtsStandin } | undefined;

process.on('message', (raw) => {
  const m = raw as ToChild;
  if (m.type === 'standins') void standins(m).catch(fatal);
  else if (m.type === 'level') void level(m).catch(fatal);
  else if (m.type === 'stop') void (stopStandins?.() ?? Promise.resolve()).finally(() => process.exit(0));
});
// The parent's death must not leave callers running.
process.on('disconnect', () => process.exit(0));

function fatal(error: unknown): never {
  process.stderr.write(`pipeline load process: ${String(error)}\n`);
  process.exit(1);
}

async function standins(m: Extract<ToChild, { type: 'standins' }>): Promise<void> {
  const config = loadConfig();
  const [stt, llm, tts] = await Promise.all([
    startSttStandins(config, { ...m.stt, transcripts: ({ utterance }) => transcriptFor(utterance) }),
    startLlmStandins(config, {
      ...m.llm,
      reply: (req) => {
        if (/summar/i.test(req.messages.system)) return { text: 'Summary.' };
        const last = req.messages.turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';
        return { text: /everything/i.test(last) ? LONG_REPLY : /menu/i.test(last) ? TURN_LONG_REPLY : SHORT_REPLY };
      },
    }),
    startTtsStandins(config, m.tts),
  ]);
  const realtime = m.realtime ? await startRealtimeStandins(({ utterance }) => transcriptFor(utterance)) : undefined;
  faultKnobs = { stt: stt.control.deepgram!, tts: tts.control.elevenlabs! };
  stopStandins = async () => {
    await Promise.all([stt.stop(), llm.stop(), tts.stop(), realtime?.stop()]);
  };
  send({ type: 'env', env: { ...stt.env, ...llm.env, ...tts.env, ...realtime?.env } });
}

/**
 * Whether a message is the agent speaking. Without ambience, any media is; with a bed, media flows all call
 * long, and the voice is told by level: the TTS stand-in's tones are RMS ~5,000 in their 20 ms frames, the
 * bench's bed (call_center at 0.3, no clicks) ~1,000 (-20 dBFS x 0.3, lib/domain/ambience.ts).
 */
/**
 * How long a caller waits after the agent's audio stops before it takes the answer as finished: longer than
 * the gap between two phrases, so a caller never speaks in the pause after "Sure." and over the rest.
 */
const ANSWER_QUIET_MS = 600;

function agentVoice(ambience: boolean | undefined): (msg: { event: string; raw: Record<string, any> }) => boolean {
  if (!ambience) return (msg) => msg.event === 'media';
  // Lean callers log each media message's loudest frame in place of its payload.
  return (msg) => msg.event === 'media' && Number(msg.raw.media?.peakRms) > 3_000;
}

async function level(m: Extract<ToChild, { type: 'level' }>): Promise<void> {
  mode = m.mode;
  if (m.mode === 'quality') return qualityLevel(m);
  if (m.mode === 'faults') return faultsLevel(m);
  if (m.mode === 'turns') return turnsLevel(m);
  const errors: string[] = [];
  const voice = agentVoice(m.ambience);
  let connected = 0;
  let failed = 0;
  let bargeIns = 0;
  let clears = 0;
  let stopped = 0;
  const until = performance.now() + m.staggerMs + m.durationMs;
  const speech = tone(500);
  const interruption = tone(700);

  let listeners = 0;
  let listenedBytes = 0;
  const oneCall = async (call: { callSid: string; token: string; listenUrl?: string }, index: number) => {
    // Calls arrive spread over the stagger window, as a campaign's calls would, not in one burst.
    await sleep((m.staggerMs * index) / Math.max(1, m.calls.length));
    let caller: SimulatedCaller;
    try {
      caller = await SimulatedCaller.connect({ url: m.url, callSid: call.callSid, customParameters: { token: call.token }, playbackSpeed: m.playbackSpeed, lean: true });
    } catch (error) {
      failed += 1;
      if (errors.length < 5) errors.push(String(error));
      return;
    }
    connected += 1;
    const listener = call.listenUrl
      ? listen(call.listenUrl, (bytes) => (listenedBytes += bytes)).then((ok) => {
          if (ok) listeners += 1;
        })
      : undefined;
    try {
      await caller.waitFor((msg) => msg.event === 'mark', 15_000);
      await caller.whenAnswered(voice, ANSWER_QUIET_MS, 15_000, m.ambience === true);
      while (performance.now() < until) {
        // A question, answered in full.
        await sleep(300);
        let from = caller.received.length;
        await caller.play(speech);
        await caller.waitForNext((msg) => msg.event === 'mark', 15_000, from);
        await caller.whenAnswered(voice, ANSWER_QUIET_MS, 15_000, m.ambience === true);
        if (performance.now() >= until) break;
        // A request for the long answer, interrupted once its audio is flowing.
        await sleep(300);
        from = caller.received.length;
        await caller.play(speech);
        await caller.waitForNext(voice, 15_000, from);
        await sleep(400);
        const before = caller.received.length;
        bargeIns += 1;
        await caller.play(interruption);
        await caller.waitForNext((msg) => msg.event === 'clear', 15_000, before);
        clears += 1;
        // The interruption is a turn of its own: wait for its (short) answer to play.
        await caller.waitForNext((msg) => msg.event === 'mark', 15_000, caller.received.length);
        await caller.whenAnswered(voice, ANSWER_QUIET_MS, 15_000, m.ambience === true);
      }
    } catch (error) {
      stopped += 1;
      if (errors.length < 5) errors.push(String(error));
    } finally {
      caller.hangUp();
      await Promise.race([caller.closed, sleep(5_000)]);
      await listener;
    }
  };

  await Promise.all(m.calls.map((c, i) => oneCall(c, i)));
  const listened = m.calls.some((c) => c.listenUrl) ? { listeners, listenedBytes } : {};
  send({ type: 'level-done', stats: { connected, failed, bargeIns, clearsReceived: clears, errors, stopped, ...listened } });
}

/**
 * One listener on a call's listen socket until the call ends (its socket closes); true once it got the
 * call's `start`. The call's session is set up a moment after its stream starts: a `not_found` refusal
 * before that is retried.
 */
async function listen(url: string, received: (bytes: number) => void): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const ws = new WebSocket(url);
    let started = false;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary && !started) started = String(data).includes('"type":"start"');
      received(data.length);
    });
    await new Promise<void>((resolve) => {
      ws.on('close', () => resolve());
      ws.on('error', () => resolve());
    });
    if (started) return true;
    await sleep(100);
  }
  return false;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Connects one benchmark caller (after its stagger slot); undefined when it could not. */
async function connect(m: Extract<ToChild, { type: 'level' }>, call: { callSid: string; token: string }, errors: string[]): Promise<SimulatedCaller | undefined> {
  try {
    return await SimulatedCaller.connect({ url: m.url, callSid: call.callSid, customParameters: { token: call.token }, playbackSpeed: m.playbackSpeed, lean: true });
  } catch (error) {
    if (errors.length < 5) errors.push(String(error));
    return undefined;
  }
}

async function hangUp(caller: SimulatedCaller): Promise<void> {
  caller.hangUp();
  await Promise.race([caller.closed, sleep(5_000)]);
}

/**
 * The demanding caller: asks for the long answer, then over it says "uh-huh" (350 ms), coughs (120 ms) and
 * makes a second of noise; none has words, so the agent should finish its answer. Real-time playback, so
 * the service's playhead estimate and the caller's agree.
 */
async function qualityLevel(m: Extract<ToChild, { type: 'level' }>): Promise<void> {
  const errors: string[] = [];
  const voice = agentVoice(m.ambience);
  let connected = 0;
  let failed = 0;
  let sounds = 0;
  let clears = 0;
  const resumeSilenceMs: number[] = [];
  const until = performance.now() + m.staggerMs + m.durationMs;
  const request = tone(500);
  const overAgent = [tone(350), tone(120), tone(QUALITY_NOISE_MS)];
  const oneCall = async (call: { callSid: string; token: string }, index: number) => {
    await sleep((m.staggerMs * index) / Math.max(1, m.calls.length));
    const caller = await connect(m, call, errors);
    if (!caller) return void (failed += 1);
    connected += 1;
    try {
      await caller.waitFor((msg) => msg.event === 'mark', 15_000);
      await caller.whenAnswered(voice, ANSWER_QUIET_MS, 15_000, m.ambience === true);
      while (performance.now() < until) {
        await sleep(300);
        const from = caller.received.length;
        await caller.play(request);
        await caller.waitForNext(voice, 15_000, from);
        for (const sound of overAgent) {
          await sleep(600);
          const before = caller.received.length;
          sounds += 1;
          await caller.play(sound);
          const endedAt = performance.now();
          const clear = caller.received.slice(before).find((msg) => msg.event === 'clear');
          if (!clear) continue;
          // The agent paused: time until its audio comes back (a false interruption resumed).
          clears += 1;
          // (The baseline never resumes: nothing comes back, and that is not a silence to measure.)
          const back = await caller.waitForNext(voice, 4_000, caller.received.indexOf(clear) + 1).catch(() => undefined);
          if (back) resumeSilenceMs.push(back.atMs - endedAt);
        }
        await caller.waitForNext((msg) => msg.event === 'mark', 30_000, from);
        await caller.whenAnswered(voice, ANSWER_QUIET_MS, 30_000, m.ambience === true);
      }
    } catch (error) {
      if (errors.length < 5) errors.push(String(error));
    } finally {
      await hangUp(caller);
    }
  };
  await Promise.all(m.calls.map((c, i) => oneCall(c, i)));
  send({ type: 'level-done', stats: { connected, failed, bargeIns: 0, clearsReceived: clears, errors, overAgentSounds: sounds, resumeSilenceMs } });
}

/**
 * One call at a time (so each injected fault lands on that call): the STT socket is cut half a second into
 * the caller's sentence, then the TTS socket a second into the answer. The parent checks the sentence reached
 * the model whole and that no call ended as `error`.
 */
async function faultsLevel(m: Extract<ToChild, { type: 'level' }>): Promise<void> {
  const errors: string[] = [];
  const voice = agentVoice(m.ambience);
  let connected = 0;
  let failed = 0;
  let sttDrops = 0;
  let ttsDrops = 0;
  const knobs = faultKnobs!;
  const sentence = tone(2_500);
  for (const call of m.calls) {
    const caller = await connect(m, call, errors);
    if (!caller) {
      failed += 1;
      continue;
    }
    connected += 1;
    try {
      await caller.waitFor((msg) => msg.event === 'mark', 15_000);
      await caller.whenAnswered(voice, ANSWER_QUIET_MS, 15_000, m.ambience === true);
      const sttBefore = knobs.stt.midStreamDrops;
      const ttsBefore = knobs.tts.midStreamDrops;
      knobs.stt.dropMidStream(4_000);
      const from = caller.received.length;
      const played = caller.play(sentence);
      // Cut the TTS socket once the answer's audio flows.
      await caller.waitForNext(voice, 15_000, from);
      knobs.tts.dropMidStream(12_000);
      await played;
      await caller.waitForNext((msg) => msg.event === 'mark', 30_000, from);
      await caller.whenAnswered(voice, ANSWER_QUIET_MS, 30_000, m.ambience === true);
      sttDrops += knobs.stt.midStreamDrops - sttBefore;
      ttsDrops += knobs.tts.midStreamDrops - ttsBefore;
    } catch (error) {
      if (errors.length < 5) errors.push(String(error));
    } finally {
      await hangUp(caller);
    }
  }
  send({ type: 'level-done', stats: { connected, failed, bargeIns: 0, clearsReceived: 0, errors, sttDrops, ttsDrops } });
}

/**
 * The voice-to-voice caller: asks, and times from the end of its audio to the first agent audio it
 * receives (what a caller hears as the agent's delay), for the short answer and the long one; then says a
 * sentence broken by a 700 ms pause after "for" and counts an answer that came inside the pause.
 */
async function turnsLevel(m: Extract<ToChild, { type: 'level' }>): Promise<void> {
  const errors: string[] = [];
  let connected = 0;
  let failed = 0;
  let fragments = 0;
  let fragmentAnswers = 0;
  const voiceToVoiceShortMs: number[] = [];
  const voiceToVoiceLongMs: number[] = [];
  const until = performance.now() + m.staggerMs + m.durationMs;
  const oneCall = async (call: { callSid: string; token: string }, index: number) => {
    await sleep((m.staggerMs * index) / Math.max(1, m.calls.length));
    const caller = await connect(m, call, errors);
    if (!caller) return void (failed += 1);
    connected += 1;
    const voice = agentVoice(false);
    const answered = async (from: number) => {
      await caller.waitForNext((msg) => msg.event === 'mark', 30_000, from);
      await caller.whenAnswered(voice, ANSWER_QUIET_MS, 30_000, m.ambience === true);
    };
    try {
      await caller.waitFor((msg) => msg.event === 'mark', 15_000);
      await caller.whenAnswered(voice, ANSWER_QUIET_MS, 15_000, m.ambience === true);
      while (performance.now() < until) {
        for (const into of [voiceToVoiceShortMs, voiceToVoiceLongMs]) {
          await sleep(500);
          const from = caller.received.length;
          await caller.play(tone(900));
          const endedAt = performance.now();
          const first = await caller.waitForNext((msg) => msg.event === 'media', 15_000, from);
          into.push(first.atMs - endedAt);
          await answered(from);
        }
        await sleep(500);
        const from = caller.received.length;
        await caller.play(tone(900));
        await sleep(700);
        fragments += 1;
        if (caller.received.slice(from).some((msg) => msg.event === 'media')) fragmentAnswers += 1;
        await caller.play(tone(700));
        await answered(from);
      }
    } catch (error) {
      if (errors.length < 5) errors.push(String(error));
    } finally {
      await hangUp(caller);
    }
  };
  await Promise.all(m.calls.map((c, i) => oneCall(c, i)));
  send({ type: 'level-done', stats: { connected, failed, bargeIns: 0, clearsReceived: 0, errors, voiceToVoiceShortMs, voiceToVoiceLongMs, fragments, fragmentAnswers } });
}
