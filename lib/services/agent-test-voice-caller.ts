import { WebSocket } from 'ws';
import type { ScriptLine, SeenToolCall } from '../domain/agent-test.js';
import { dbfsToRms, splitSentence, type VoiceConditions } from '../domain/agent-test-voice.js';
import { MessageLog, SimulatedMicrophone, SimulatedPlayback } from '../media/far-end.js';
import { GaussianNoise } from '../media/noise.js';
import { WIDEBAND_AUDIO, bytesPerMs } from '../vendors/shared/audio-format.js';
import { linear16ToPcm, pcmToLinear16 } from '../vendors/shared/pcm.js';
import type * as z from 'zod';

/**
 * The caller's side of a voice agent test (docs/agent-tests.md, "Voice scenarios"): a client of the
 * streaming service's browser transport (`/web-stream`, docs/meeting.md), as a meeting page is. It sends
 * 20 ms PCM16 16 kHz frames in real time (silence between lines, as a live microphone never goes quiet),
 * the script's lines in the audio `speak` makes (our TTS), with the scenario's acoustic conditions mixed in;
 * it "plays" the agent's audio in real time and echoes its marks, so the agent's transcript keeps what was
 * heard and barge-in works as on a real page.
 */

export interface VoiceScriptOptions {
  /** The longest wait for `ready` after `hello` (the service admits within its own 10 s hello window). */
  readonly readyTimeoutMs: number;
  /** The longest wait for the agent's reply to start after a line: a model with retries and tool rounds. */
  readonly replyTimeoutMs: number;
  /** The longest wait for the agent to finish speaking once it started (a long answer, then its marks). */
  readonly speakingTimeoutMs: number;
  /** How long to listen for a greeting the agent may say first. */
  readonly greetingTimeoutMs: number;
}

export const DEFAULT_VOICE_SCRIPT_OPTIONS = { readyTimeoutMs: 10_000, replyTimeoutMs: 60_000, speakingTimeoutMs: 120_000, greetingTimeoutMs: 15_000 } as const satisfies VoiceScriptOptions;

/** Offsets of the sounds the conditions put over the agent, from its reply's first audio. */
const BACKCHANNEL_AFTER_MS = 1_000;
const COUGH_AFTER_MS = 600;
const HANG_UP_AFTER_MS = 500;
const TALK_OVER_AFTER_MS = 300;
const BACKCHANNEL = 'uh-huh';
/** A cough: a burst of loud noise too short for a word (a recognizer's onset is 250 ms). */
const COUGH_MS = 150;
const COUGH_RMS = 6_000;

const FRAME_MS = 20;
const BYTES_PER_MS = bytesPerMs(WIDEBAND_AUDIO);
const FRAME_BYTES = FRAME_MS * BYTES_PER_MS;

/** Audio for `text` as PCM16 little-endian at 16 kHz (our TTS speaking the caller). */
export type Speak = (text: string) => Promise<Uint8Array>;

/** What the caller heard and saw of the call. */
export interface VoicePlayed {
  /** Final captions (`user`: as the recognizer heard the caller; `agent`: what played), in order. */
  readonly lines: readonly { role: 'user' | 'agent'; text: string }[];
  readonly toolCalls: readonly SeenToolCall[];
  readonly handoff: boolean;
  /** The `ended` reason, or `customer_hangup` when the script ended the call. */
  readonly endReason: string;
  /** Per line said: ms from the end of its audio to the agent's reply's first audio (null: no reply). */
  readonly firstAudioMs: readonly (number | null)[];
  /** Milliseconds of audio the caller's script is: its lines, pauses and delays (the bench's baseline). */
  readonly scriptAudioMs: number;
  /** What went wrong on the way: no reply, a socket closed early. */
  readonly errors: readonly string[];
}

type Message = { readonly atMs: number; readonly type: string; readonly raw: Record<string, unknown> };

export async function playVoiceScript(
  streamUrl: string,
  credential: string,
  lines: readonly z.infer<typeof ScriptLine>[],
  conditions: VoiceConditions,
  speak: Speak,
  agentSpeaksFirst: boolean,
  options: Partial<VoiceScriptOptions> = {},
): Promise<VoicePlayed> {
  const opts = { ...DEFAULT_VOICE_SCRIPT_OPTIONS, ...options };
  const log = new MessageLog<Message>();
  const ws = new WebSocket(streamUrl);
  const noise = conditions.noiseDbfs === undefined ? undefined : { rms: dbfsToRms(conditions.noiseDbfs), source: new GaussianNoise(0x5eed) };
  const send = (frame: Uint8Array) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(noise ? withNoise(frame, noise.rms, noise.source) : frame);
  };
  const microphone = new SimulatedMicrophone(FRAME_BYTES, 0, send);
  const playback = new SimulatedPlayback(BYTES_PER_MS, 2, 1, (name) => sendJson({ type: 'mark', name }));
  const sendJson = (m: unknown) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m));
  };
  let state = 'listening';
  let lastAudioAt = 0;
  let endReason: string | undefined;
  let closed = false;
  /** Set while a reply is awaited: its first audio is the first after a `thinking` (the caller's turn ended). */
  let awaiting: { thinking: boolean; resolve: (atMs: number) => void } | undefined;
  const toolCalls: SeenToolCall[] = [];
  const shown: { role: 'user' | 'agent'; text: string }[] = [];
  let handoff = false;

  ws.on('message', (data, isBinary) => {
    const now = performance.now();
    if (isBinary) {
      lastAudioAt = now;
      playback.pushAudio(new Uint8Array(data as Buffer));
      if (awaiting?.thinking) {
        awaiting.resolve(now);
        awaiting = undefined;
      }
      return;
    }
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(data.toString()) as Record<string, unknown>;
    } catch {
      return;
    }
    const type = String(raw.type);
    if (type === 'mark' && typeof raw.name === 'string') playback.pushMark(raw.name);
    else if (type === 'clear') playback.clear();
    else if (type === 'state') {
      state = String(raw.state);
      if (state === 'thinking' && awaiting) awaiting.thinking = true;
    } else if (type === 'caption' && raw.final === true && typeof raw.text === 'string') shown.push({ role: raw.role === 'agent' ? 'agent' : 'user', text: raw.text });
    else if (type === 'tool_call' && typeof raw.name === 'string') toolCalls.push({ name: raw.name, arguments: (raw.arguments as Record<string, unknown> | undefined) ?? {} });
    else if (type === 'agent') handoff = true;
    else if (type === 'ended') endReason = String(raw.reason);
    log.add({ atMs: now, type, raw });
  });
  const closedAt = new Promise<void>((resolve) => {
    ws.on('close', () => {
      closed = true;
      microphone.stop();
      playback.stop();
      resolve();
    });
  });
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'hello', credential, format: { encoding: 'linear16', sampleRate: 16_000 } }));
  const ready = await log.waitFor((m) => m.type === 'ready' || m.type === 'error', opts.readyTimeoutMs).catch(() => undefined);
  if (ready?.type !== 'ready') {
    ws.close();
    throw new Error(`the call did not open: ${ready ? String(ready.raw.code) : 'no answer'}`);
  }
  microphone.start();

  const over = () => endReason !== undefined || closed;
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  /** Until the agent is quiet: not speaking, and everything it sent has played (marks echoed). */
  const agentDone = async (timeoutMs: number) => {
    const until = performance.now() + timeoutMs;
    while (!over() && performance.now() < until && !(state === 'listening' && playback.idle && performance.now() - lastAudioAt > 100)) await sleep(FRAME_MS);
  };
  /** The reply's first audio from now (a `thinking` first), or null after the wait. */
  const replyAudio = (timeoutMs: number) =>
    new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        awaiting = undefined;
        resolve(null);
      }, timeoutMs);
      awaiting = {
        thinking: state === 'thinking',
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
      void closedAt.then(() => {
        clearTimeout(timer);
        resolve(null);
      });
    });
  const errors: string[] = [];
  const firstAudioMs: (number | null)[] = [];
  let scriptAudioMs = 0;
  let coughed = false;
  const say = async (audio: Uint8Array) => {
    scriptAudioMs += audio.length / BYTES_PER_MS;
    await microphone.play(audio);
  };
  /** Sounds over the reply that starts at `startedAt` (performance.now()). */
  const overReply = (startedAt: number, last: boolean) => {
    const at = (ms: number, act: () => void) => setTimeout(() => !over() && act(), Math.max(0, startedAt + ms - performance.now()));
    if (conditions.cough && !coughed) {
      coughed = true;
      at(COUGH_AFTER_MS, () => void microphone.play(cough()));
    }
    if (conditions.backchannels) {
      at(BACKCHANNEL_AFTER_MS, () => {
        if (state !== 'speaking' || playback.idle) return;
        void speak(BACKCHANNEL).then(
          (audio) => (over() ? undefined : microphone.play(audio)),
          () => undefined,
        );
      });
    }
    if (last && conditions.hangUpMidReply) at(HANG_UP_AFTER_MS, () => sendJson({ type: 'hangup' }));
  };

  if (agentSpeaksFirst) {
    const started = await waitUntil(() => lastAudioAt > 0 || over(), opts.greetingTimeoutMs);
    if (started && !over()) {
      if (conditions.talkOverGreeting) await sleep(TALK_OVER_AFTER_MS);
      else await agentDone(opts.speakingTimeoutMs);
    }
  }
  for (const [i, line] of lines.entries()) {
    if (over()) break;
    const paused = conditions.pauseMidSentence?.line === i + 1 ? conditions.pauseMidSentence.ms : undefined;
    const parts = paused === undefined ? [line.text] : splitSentence(line.text);
    // Synthesized just before it is said (the recognizer knows a line for a while after it was made).
    const audio = Promise.all(parts.map((p) => speak(p)));
    if (line.delayMs > 0) await sleep(line.delayMs);
    scriptAudioMs += line.delayMs;
    const [first, second] = await audio;
    await say(first!);
    if (second) {
      await sleep(paused!);
      scriptAudioMs += paused!;
      await say(second);
    }
    if (over()) break;
    const endedAt = performance.now();
    const replied = await replyAudio(opts.replyTimeoutMs);
    firstAudioMs.push(replied === null ? null : replied - endedAt);
    if (replied === null) {
      if (!over()) errors.push(`no reply within ${opts.replyTimeoutMs} ms`);
      continue;
    }
    overReply(replied, i === lines.length - 1);
    await agentDone(opts.speakingTimeoutMs);
  }
  if (!over()) sendJson({ type: 'hangup' });
  await Promise.race([log.waitFor((m) => m.type === 'ended', opts.readyTimeoutMs).catch(() => undefined), closedAt]);
  microphone.stop();
  playback.stop();
  ws.close();
  if (!endReason) errors.push('the call ended without saying why');
  return { lines: shown, toolCalls, handoff, endReason: endReason ?? 'error', firstAudioMs, scriptAudioMs: Math.round(scriptAudioMs), errors };
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() >= until) return false;
    await new Promise((r) => setTimeout(r, FRAME_MS));
  }
  return true;
}

/** `frame` (PCM16 LE) with the next 20 ms of background noise added. */
function withNoise(frame: Uint8Array, rms: number, source: GaussianNoise): Uint8Array {
  const pcm = linear16ToPcm(frame);
  for (let i = 0; i < pcm.length; i += 1) pcm[i] = Math.max(-32768, Math.min(32767, pcm[i]! + Math.round(source.next() * rms)));
  return pcmToLinear16(pcm);
}

/** A cough at 16 kHz: a noise burst with a fast attack and decay. */
function cough(): Uint8Array {
  const n = (COUGH_MS * WIDEBAND_AUDIO.sampleRate) / 1_000;
  const source = new GaussianNoise(0xc0c0);
  const pcm = new Int16Array(n);
  for (let i = 0; i < n; i += 1) pcm[i] = Math.max(-32768, Math.min(32767, Math.round(source.next() * COUGH_RMS * Math.exp((-4 * i) / n))));
  return pcmToLinear16(pcm);
}
