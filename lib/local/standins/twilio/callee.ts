import { rms } from '../../../vendors/shared/pcm.js';
import { mulawToPcm } from '../../../vendors/shared/mulaw.js';
import { SimulatedCaller, tone, type ReceivedMessage } from '../../callers/simulated-caller.js';
import { DtmfDetector } from './dtmf-detector.js';

/**
 * The callee's side of a simulated call's Media Stream: a person saying scripted lines between the agent's
 * turns, a voicemail box, or an IVR listening for keypad tones. Each gets only the line it is on.
 */

/**
 * One step of a callee's script: a line said after the agent has finished speaking; hanging up once the
 * agent's next utterance has played this long (a caller who has heard enough and puts the phone down while
 * the agent is still talking: the call ends at Twilio, the stream gets `stop`, the status callback says
 * `completed`); listening through one more agent turn without a word (a caller who waits on hold for
 * what the agent says next); a pause of this many milliseconds (silence keeps flowing) before the next
 * step; or keys pressed on the keypad (Twilio's `dtmf` stream messages, one per key).
 */
export type CalleeLine =
  | string
  /** A line in a language (ISO 639-1): espeak-ng's voice for it, and what a detecting recognizer reports. */
  | { readonly say: string; readonly language: string }
  | { readonly hangUpAfterAgentMs: number }
  | { readonly listen: true }
  | { readonly pauseMs: number }
  | { readonly press: string };

/** How the callee at a number behaves. */
export type CalleeBehaviour =
  | {
      readonly kind: 'answer';
      /** The callee's script, in order; after the last step it waits for the agent's turn and hangs up. */
      readonly lines?: readonly CalleeLine[];
      /** `AnsweredBy` reported with answering-machine detection. */
      readonly answeredBy?: string;
    }
  | {
      /**
       * A voicemail box: plays its greeting, then a beep, then records what it hears until the call is
       * ended (or the agent falls quiet). With asynchronous AMD it is reported as Twilio reports one:
       * `machine_start` once recognised (`Enable`), `machine_end_beep` after the beep (`DetectMessageEnd`).
       */
      readonly kind: 'machine';
      readonly greeting?: string;
    }
  | {
      /**
       * An IVR: says its prompt, then listens to the call's audio for DTMF tones (Goertzel, as a real IVR
       * does) and says the menu entry of the keys it recognised.
       */
      readonly kind: 'ivr';
      readonly prompt: string;
      /** Keys (one or more, in order) to what the IVR says when they are pressed. */
      readonly menu: Readonly<Record<string, string>>;
    }
  | {
      /**
       * Someone asked to take a transferred call (a warm transfer's second leg): hears our TwiML's `<Say>`
       * summary and answers its `<Gather>` with `press` (nothing: lets it time out).
       */
      readonly kind: 'transfer-target';
      readonly press?: string;
      /** Rings this long before answering (a person walking to the phone). */
      readonly ringMs?: number;
    }
  | { readonly kind: 'busy' }
  | { readonly kind: 'no-answer' }
  | { readonly kind: 'failed' };

export const DEFAULT_LINES = ['Hi, yes, speaking.', 'That works for me, thank you. Goodbye.'];
export const DEFAULT_GREETING = 'Hi, you have reached Sam. I cannot take your call right now. Please leave a message after the tone.';
/** A voicemail beep: 1 kHz for 400 ms, as most mailboxes play it. */
const BEEP = tone(400, 1_000, 10_000);

/** The line a callee is on: the stream, and what it may do to the call. */
export interface OnTheLine {
  readonly caller: SimulatedCaller;
  /** Says `text` into the call (speech the recognizer stand-ins know as that text), in `language` (default English); resolves once sent. */
  say(text: string, language?: string): Promise<void>;
  /** Plays a sound that is not speech (a beep): the recognizer stand-ins hear no words in it. */
  sound(mulaw: Uint8Array): Promise<void>;
  /** Longest wait for the agent to finish a turn before the callee acts anyway. */
  readonly agentTurnTimeoutMs: number;
  /** Puts the phone down: the call ends at Twilio first, then the stream gets its `stop`. */
  hangUp(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Tracks whether the streaming service has closed the stream. */
function closedFlag(caller: SimulatedCaller): () => boolean {
  let closed = false;
  void caller.closed.then(() => {
    closed = true;
  });
  return () => closed;
}

/** The callee's side of a conversation: each line after the agent's turn, then hang up. */
export async function converse(line: OnTheLine, lines: readonly CalleeLine[]): Promise<void> {
  const { caller, agentTurnTimeoutMs } = line;
  const closed = closedFlag(caller);
  let first = true;
  for (const step of lines) {
    if (closed()) return;
    // A person who picks up and hears nothing says their first line anyway (an agent that waits for the caller).
    const firstAudioMs = first ? Math.min(PICKUP_SILENCE_MS, agentTurnTimeoutMs) : agentTurnTimeoutMs;
    first = false;
    if (typeof step !== 'string' && 'listen' in step) {
      await agentTurn(caller, agentTurnTimeoutMs);
      continue;
    }
    if (typeof step !== 'string' && 'pauseMs' in step) {
      await caller.pause(step.pauseMs);
      continue;
    }
    if (typeof step !== 'string' && 'press' in step) {
      for (const key of step.press) caller.press(key);
      continue;
    }
    if (typeof step !== 'string' && 'say' in step) {
      await agentTurn(caller, agentTurnTimeoutMs, firstAudioMs);
      if (closed()) return;
      await line.say(step.say, step.language);
      continue;
    }
    if (typeof step !== 'string') {
      await agentHeardFor(caller, step.hangUpAfterAgentMs, agentTurnTimeoutMs);
      if (!closed()) line.hangUp();
      return;
    }
    await agentTurn(caller, agentTurnTimeoutMs, firstAudioMs);
    if (closed()) return;
    await line.say(step);
  }
  if (!closed()) {
    await agentTurn(caller, agentTurnTimeoutMs);
    line.hangUp();
  }
}

/**
 * A voicemail box: greeting, (verdict), beep, (verdict), then it records until hung up or quiet.
 * `verdict` posts an asynchronous AMD result at the moment Twilio would (the caller decides whether the
 * call asked for it).
 */
export async function voicemailBox(
  line: OnTheLine,
  greeting: string,
  machineDetection: string | null,
  verdict: (answeredBy: string, detectionMs: number) => Promise<void>,
): Promise<void> {
  const { caller } = line;
  const closed = closedFlag(caller);
  const started = performance.now();
  await line.say(greeting);
  if (machineDetection === 'Enable') await verdict('machine_start', Math.round(performance.now() - started));
  if (closed()) return;
  await line.sound(BEEP);
  if (machineDetection === 'DetectMessageEnd') await verdict('machine_end_beep', Math.round(performance.now() - started));
  if (closed()) return;
  await Promise.race([caller.closed, agentTurn(caller, line.agentTurnTimeoutMs)]);
  if (!closed()) line.hangUp();
}

/** An IVR: its prompt, then DTMF detection on what it hears until a menu entry matches; returns the keys heard. */
export async function ivr(line: OnTheLine, menu: Extract<CalleeBehaviour, { kind: 'ivr' }>): Promise<string> {
  const { caller, agentTurnTimeoutMs } = line;
  const closed = closedFlag(caller);
  await line.say(menu.prompt);
  const detector = new DtmfDetector();
  let fed = 0;
  const until = performance.now() + agentTurnTimeoutMs * 2;
  while (!closed() && performance.now() < until) {
    for (; fed < caller.heard.length; fed += 1) detector.push(caller.heard[fed]!);
    const keys = detector.digits.join('');
    const entry = Object.keys(menu.menu).find((k) => keys.endsWith(k));
    if (entry !== undefined) {
      await line.say(menu.menu[entry]!);
      if (!closed()) await agentTurn(caller, agentTurnTimeoutMs);
      if (!closed()) line.hangUp();
      return keys;
    }
    // Looks again after one media frame's worth (20 ms) of audio.
    await sleep(20);
  }
  if (!closed()) line.hangUp();
  return detector.digits.join('');
}

/**
 * Waits until the agent's next utterance (audio arriving after now) has played for `ms`, or the timeout
 * passes: the moment a caller mid-way through the agent's words hangs up.
 */
async function agentHeardFor(caller: SimulatedCaller, ms: number, timeoutMs: number): Promise<void> {
  const played = () => caller.heard.reduce((n, chunk) => n + chunk.length, 0);
  const start = caller.received.length;
  try {
    await caller.waitForNext((m) => m.event === 'media', timeoutMs, start);
  } catch {
    return;
  }
  const from = played();
  const until = performance.now() + timeoutMs;
  // 8 bytes of mu-law per millisecond of played audio.
  while (played() - from < ms * 8 && performance.now() < until) await sleep(10);
}

/**
 * How long a person who has picked up waits for the agent to speak before saying their first line: an
 * agent that waits for the caller (`first_message_mode: wait_for_caller`) hears "hello" as it would on a real
 * line, well before its own prompt for silence (10 s).
 */
const PICKUP_SILENCE_MS = 4_000;
/** How long the agent's voice must have stopped before the callee takes its turn as over. */
const AGENT_QUIET_MS = 600;
/** How often the callee looks at the line while it waits. */
const LOOK_MS = 20;
/**
 * A line has a background bed when some of its audio is this much below its loudest, and then audio within
 * this much of the loudest is the agent's voice, the rest the bed. A person tells a voice from a room by far
 * more than level; a level is what the stand-in has. The voice over the bed at the default volume (0.3) is
 * about five times its level; a bed near the voice's own level (volume 1) is taken for the voice, and the
 * person then waits for the turn's timeout rather than talk over the agent.
 */
const VOICE_WITHIN = 2.2;
/** The quietest and loudest media messages of each call so far (each message's RMS). */
const levels = new WeakMap<SimulatedCaller, { quietest: number; loudest: number }>();

/** The RMS of a media message's audio. */
function mediaRms(m: ReceivedMessage): number {
  const payload = (m.raw.media as { payload?: unknown } | undefined)?.payload;
  return typeof payload === 'string' ? rms(mulawToPcm(new Uint8Array(Buffer.from(payload, 'base64')))) : 0;
}

/**
 * Waits for the agent's next turn to end: its audio arrived, played out and no more came for
 * {@link AGENT_QUIET_MS} (the agent's phrases arrive with shorter gaps). On a line with an ambience bed the
 * far end's buffer never empties and the bed keeps arriving, as a person on a real line hears the room
 * through the pauses: there the turn is over once no audio loud enough to be the voice came for that long
 * and what did has played. A stream that sends nothing within the timeout lets the callee speak anyway (a
 * silent agent must not hang the script).
 */
async function agentTurn(caller: SimulatedCaller, timeoutMs: number, firstAudioMs = timeoutMs): Promise<void> {
  const start = caller.received.length;
  const media = (m: { event: string }) => m.event === 'media';
  try {
    await caller.waitForNext(media, firstAudioMs, start);
  } catch {
    return;
  }
  const until = performance.now() + timeoutMs;
  const line = levels.get(caller) ?? { quietest: Number.POSITIVE_INFINITY, loudest: 0 };
  levels.set(caller, line);
  let scanned = start;
  let lastMediaAt = 0;
  let drainedAt: number | undefined;
  let voiceAt = 0;
  let voicePlayedAt = 0;
  let quietAfterVoice = false;
  for (;;) {
    const now = performance.now();
    let heardVoice = false;
    for (; scanned < caller.received.length; scanned += 1) {
      const m = caller.received[scanned]!;
      if (!media(m)) continue;
      lastMediaAt = m.atMs;
      const level = mediaRms(m);
      line.quietest = Math.min(line.quietest, level);
      line.loudest = Math.max(line.loudest, level);
      const bed = line.quietest * VOICE_WITHIN < line.loudest;
      if (!bed || level * VOICE_WITHIN >= line.loudest) {
        heardVoice = true;
        voiceAt = now;
        quietAfterVoice = false;
      } else {
        quietAfterVoice = voiceAt > 0;
      }
    }
    const buffered = caller.bufferedMs;
    if (heardVoice) voicePlayedAt = now + buffered;
    // When the far end last ran dry with nothing new after it.
    drainedAt = buffered > 0 ? undefined : drainedAt === undefined || lastMediaAt > drainedAt ? now : drainedAt;
    // No bed: everything played, and nothing more came since.
    if (drainedAt !== undefined && now - drainedAt >= AGENT_QUIET_MS) return;
    // A bed: only the bed since the voice, and the voice has played.
    if (quietAfterVoice && now - voiceAt >= AGENT_QUIET_MS && now >= voicePlayedAt) return;
    if (now > until) return;
    await sleep(LOOK_MS);
  }
}
