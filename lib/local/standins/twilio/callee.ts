import { SimulatedCaller, tone } from '../../callers/simulated-caller.js';
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
  for (const step of lines) {
    if (closed()) return;
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
      await agentTurn(caller, agentTurnTimeoutMs);
      if (closed()) return;
      await line.say(step.say, step.language);
      continue;
    }
    if (typeof step !== 'string') {
      await agentHeardFor(caller, step.hangUpAfterAgentMs, agentTurnTimeoutMs);
      if (!closed()) line.hangUp();
      return;
    }
    await agentTurn(caller, agentTurnTimeoutMs);
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
 * Waits for the agent to take its turn and finish it: some agent audio arrives, then nothing is left to
 * play and no new audio has come for a moment. A stream that sends nothing within the timeout lets the
 * callee speak anyway (a silent agent must not hang the script).
 */
async function agentTurn(caller: SimulatedCaller, timeoutMs: number): Promise<void> {
  const start = caller.received.length;
  const media = (m: { event: string }) => m.event === 'media';
  try {
    await caller.waitForNext(media, timeoutMs, start);
  } catch {
    return;
  }
  // Quiet for 600 ms after the buffer drains: the agent's phrases arrive with gaps shorter than that.
  for (;;) {
    await caller.whenIdle(timeoutMs);
    const seen = caller.received.length;
    await sleep(600);
    if (caller.received.slice(seen).every((m) => !media(m)) && caller.bufferedMs === 0) return;
  }
}
