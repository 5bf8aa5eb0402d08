import { twilioSignature } from '../../../vendors/telephony/twilio-webhook.js';
import { DtmfDetector } from './dtmf-detector.js';
import { SimulatedCaller, tone } from '../../callers/simulated-caller.js';
import type { CallHooks, StandinAccount, StandinCall, StandinCallStatus, TwilioStandin } from './standin.js';

/**
 * What the Twilio stand-in does with a call placed through its REST API, the way Twilio would: signed
 * status callbacks (initiated, ringing, answered, completed: only the events the call asked for), the
 * TwiML fetched from the call's `Url` with a signed POST, and for `<Connect><Stream>` a Media Streams
 * WebSocket opened to the stream URL with the `<Parameter>`s as `customParameters`. On it a simulated
 * callee (lib/local/callers/simulated-caller.ts) listens to the agent and says its scripted lines, then hangs up.
 * Rules per destination number make it busy, unanswered or failing instead (no TwiML is fetched then).
 *
 * It plugs into the stand-in through its {@link CallHooks} seam.
 */

/**
 * One step of a callee's script: a line said after the agent has finished speaking, or hanging up once the
 * agent's next utterance has played this long (a caller who has heard enough and puts the phone down while
 * the agent is still talking: the call ends at Twilio, the stream gets `stop`, the status callback says
 * `completed`).
 */
export type CalleeLine = string | { readonly hangUpAfterAgentMs: number };

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

export interface CallSimulatorOptions {
  /** Used for numbers without a rule. */
  readonly defaultBehaviour?: CalleeBehaviour;
  /**
   * Ring time before answering (or before `no-answer`). Twilio rings for up to `Timeout` (60 s); a
   * simulated phone needs only long enough for the `ringing` callback to be seen first.
   */
  readonly ringMs?: number;
  /** Longest wait for the agent to finish a turn before the callee speaks anyway. */
  readonly agentTurnTimeoutMs?: number;
  /** Agent audio plays this many times faster than real time (tests). */
  readonly playbackSpeed?: number;
  /** How long a call stays up after a `<Dial>` moved it elsewhere (the conversation after a transfer). */
  readonly transferredCallMs?: number;
}

/** What happened to one simulated call. */
export interface SimulatedCallResult {
  readonly callSid: string;
  readonly status: StandinCallStatus;
  /** The TwiML our voice webhook answered, when it was fetched. */
  readonly twiml?: string;
  /** The stream's `customParameters` (the stream token among them). */
  readonly streamParameters?: Record<string, string>;
  /** Status callbacks posted, in order, with our answer's HTTP status. */
  readonly callbacks: readonly { status: string; httpStatus: number }[];
  /** Media Streams messages the callee received from the streaming service. */
  readonly receivedEvents: readonly string[];
  /** Asynchronous AMD verdicts posted, in order, with our answer's HTTP status. */
  readonly amdCallbacks: readonly { answeredBy: string; httpStatus: number }[];
  /** TwiML the call was redirected to while live (REST `Twiml`), in order. */
  readonly redirects: readonly string[];
  /** Text Twilio spoke into the call from `<Say>` (after a redirect, or a `Twiml` call's own). */
  readonly said: readonly string[];
  /** Where a `<Dial>` sent the call (a number, SIP URI, or `conference:<name>`). */
  readonly dialed?: string;
  /** Keys the IVR recognised in the agent's audio. */
  readonly detectedDigits?: string;
  readonly error?: string;
}

export interface CallSimulator {
  /** Give these to `startTwilioStandin({ hooks })`. */
  readonly hooks: CallHooks;
  /** Connects the simulator to the stand-in it serves (call state lives there). */
  attach(standin: TwilioStandin): void;
  /** How calls to `number` (E.164) behave from now on. */
  setRule(number: string, behaviour: CalleeBehaviour): void;
  clearRules(): void;
  /** Resolves when the call has ended and its last callback was posted. */
  finished(callSid: string): Promise<SimulatedCallResult>;
  /** Every call placed so far, by sid. */
  readonly calls: ReadonlyMap<string, Promise<SimulatedCallResult>>;
  /** Waits for calls in flight (stopping the platform). */
  drain(): Promise<void>;
}

const DEFAULT_LINES = ['Hi, yes, speaking.', 'That works for me, thank you. Goodbye.'];
const DEFAULTS = { ringMs: 50, agentTurnTimeoutMs: 15_000, playbackSpeed: 4, transferredCallMs: 2_000 } as const;

/** The `<Stream url>` and its `<Parameter>`s from `<Connect><Stream>` TwiML; undefined for any other TwiML. */
const unescape = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** What `<Say>` verbs speak, in order. */
const saysIn = (twiml: string) => [...twiml.matchAll(/<Say\b[^>]*>([\s\S]*?)<\/Say>/g)].map((m) => unescape(m[1]!.trim()));

/** Where a `<Dial>` goes: its number, SIP URI or `conference:<name>`. */
export function dialTarget(twiml: string): string | undefined {
  const dial = /<Dial\b[^>]*>([\s\S]*?)<\/Dial>/.exec(twiml)?.[1];
  if (dial === undefined) return undefined;
  const conference = /<Conference\b[^>]*>([\s\S]*?)<\/Conference>/.exec(dial)?.[1];
  if (conference !== undefined) return `conference:${unescape(conference.trim())}`;
  const inner = /<(?:Number|Sip)\b[^>]*>([\s\S]*?)<\/(?:Number|Sip)>/.exec(dial)?.[1];
  return unescape((inner ?? dial).trim());
}

/** A voicemail beep: 1 kHz for 400 ms, as most mailboxes play it. */
const BEEP = tone(400, 1_000, 10_000);
const DEFAULT_GREETING = 'Hi, you have reached Sam. I cannot take your call right now. Please leave a message after the tone.';

export function parseStreamTwiml(twiml: string): { url: string; parameters: Record<string, string> } | undefined {
  const attr = (tag: string, name: string) => {
    const m = new RegExp(`\\b${name}="([^"]*)"`).exec(tag);
    return m ? unescape(m[1]!) : undefined;
  };
  const stream = /<Connect>\s*<Stream\b([^>]*)>([\s\S]*?)<\/Stream>|<Connect>\s*<Stream\b([^>]*)\/>/.exec(twiml);
  if (!stream) return undefined;
  const url = attr(stream[1] ?? stream[3] ?? '', 'url');
  if (!url) return undefined;
  const parameters: Record<string, string> = {};
  for (const p of (stream[2] ?? '').matchAll(/<Parameter\b([^>]*)\/?>/g)) {
    const name = attr(p[1]!, 'name');
    const value = attr(p[1]!, 'value');
    if (name !== undefined && value !== undefined) parameters[name] = value;
  }
  return { url, parameters };
}

export function createCallSimulator(options: CallSimulatorOptions = {}): CallSimulator {
  const settings = { ...DEFAULTS, ...options };
  const rules = new Map<string, CalleeBehaviour>();
  const calls = new Map<string, Promise<SimulatedCallResult>>();
  /** Live media streams by call sid: ending the call through the REST API ends its stream, as on Twilio. */
  const streams = new Map<string, SimulatedCaller>();
  /** TwiML a live call was redirected to, by call sid (Twilio runs it once the stream has ended). */
  const redirects = new Map<string, string[]>();
  let standin: TwilioStandin | undefined;

  async function run(call: StandinCall, account: StandinAccount): Promise<SimulatedCallResult> {
    const callbacks: { status: string; httpStatus: number }[] = [];
    const receivedEvents: string[] = [];
    const behaviour = rules.get(call.to) ?? settings.defaultBehaviour ?? { kind: 'answer' };
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    const params = (status: string, extra: Record<string, string> = {}): Record<string, string> => ({
      AccountSid: account.sid,
      ApiVersion: '2010-04-01',
      CallSid: call.sid,
      CallStatus: status,
      Called: call.to,
      Caller: call.from,
      Direction: call.direction,
      From: call.from,
      To: call.to,
      ...extra,
    });

    /** A signed form POST, exactly as Twilio signs webhooks: the full URL plus the sorted parameters. */
    const post = async (url: string, form: Record<string, string>) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(account.authToken, url, form),
        },
        body: new URLSearchParams(form).toString(),
      });
      return { status: res.status, text: await res.text() };
    };

    let sequence = 0;
    /** Posts a status callback if the call subscribed to its event (`completed` also carries failures). */
    const callback = async (event: 'initiated' | 'ringing' | 'answered' | 'completed', status: string, extra: Record<string, string> = {}) => {
      const subscribed = call.statusCallbackEvents.length === 0 ? event === 'completed' : call.statusCallbackEvents.includes(event);
      if (!call.statusCallback || !subscribed) return;
      const form = params(status, { SequenceNumber: String(sequence++), Timestamp: new Date().toUTCString(), CallbackSource: 'call-progress-events', ...extra });
      const res = await post(call.statusCallback, form).catch(() => ({ status: 0, text: '' }));
      callbacks.push({ status, httpStatus: res.status });
    };

    const setStatus = (status: StandinCallStatus) => standin?.setCallStatus(call.sid, status);
    /** The callee hangs up: the call is over at Twilio first, then the stream gets its `stop`. */
    const hangUp = (caller: SimulatedCaller) => {
      setStatus('completed');
      caller.hangUp();
    };
    const finish = async (status: StandinCallStatus, extra: Record<string, string> = {}, more: Partial<SimulatedCallResult> = {}) => {
      // The call may have been ended through the REST API meanwhile (hang-up by the agent).
      const current = standin?.call(call.sid);
      const final = current && ['completed', 'busy', 'failed', 'no-answer', 'canceled'].includes(current.status) ? current.status : status;
      const ended = setStatus(final);
      await callback('completed', final, { CallDuration: String(ended?.duration ?? 0), ...extra });
      return { callSid: call.sid, status: final, callbacks, receivedEvents, amdCallbacks, redirects: redirects.get(call.sid) ?? [], said, ...more };
    };

    const amdCallbacks: { answeredBy: string; httpStatus: number }[] = [];
    const said: string[] = [];
    /** Posts the asynchronous AMD verdict with exactly the fields Twilio documents for it. */
    const postAmd = async (answeredBy: string, detectionMs: number) => {
      if (!call.asyncAmdStatusCallback || !call.machineDetection) return;
      const form = { AccountSid: account.sid, CallSid: call.sid, AnsweredBy: answeredBy, MachineDetectionDuration: String(detectionMs) };
      const res = await post(call.asyncAmdStatusCallback, form).catch(() => ({ status: 0, text: '' }));
      amdCallbacks.push({ answeredBy, httpStatus: res.status });
    };

    /** A voicemail box: greeting, (verdict), beep, (verdict), then it records until hung up or quiet. */
    const voicemailBox = async (caller: SimulatedCaller, greeting: string) => {
      let closed = false;
      void caller.closed.then(() => {
        closed = true;
      });
      const started = performance.now();
      await caller.say(greeting);
      if (call.machineDetection === 'Enable') await postAmd('machine_start', Math.round(performance.now() - started));
      if (closed) return;
      await caller.play(BEEP);
      if (call.machineDetection === 'DetectMessageEnd') await postAmd('machine_end_beep', Math.round(performance.now() - started));
      if (closed) return;
      await Promise.race([caller.closed, agentTurn(caller, settings.agentTurnTimeoutMs)]);
      if (!closed) hangUp(caller);
    };

    /** An IVR: its prompt, then DTMF detection on what it hears until a menu entry matches. */
    const ivr = async (caller: SimulatedCaller, menu: Extract<CalleeBehaviour, { kind: 'ivr' }>): Promise<string> => {
      let closed = false;
      void caller.closed.then(() => {
        closed = true;
      });
      await caller.say(menu.prompt);
      const detector = new DtmfDetector();
      let fed = 0;
      const until = performance.now() + settings.agentTurnTimeoutMs * 2;
      while (!closed && performance.now() < until) {
        for (; fed < caller.heard.length; fed += 1) detector.push(caller.heard[fed]!);
        const keys = detector.digits.join('');
        const entry = Object.keys(menu.menu).find((k) => keys.endsWith(k));
        if (entry !== undefined) {
          await caller.say(menu.menu[entry]!);
          if (!closed) await agentTurn(caller, settings.agentTurnTimeoutMs);
          if (!closed) hangUp(caller);
          return keys;
        }
        await sleep(20);
      }
      if (!closed) hangUp(caller);
      return detector.digits.join('');
    };

    /**
     * Runs TwiML that is not a stream: `<Say>` is heard, a `<Gather>` is answered with the callee's keys
     * (posted to its `action`, whose TwiML runs next), `<Dial>` records where the call went.
     */
    const runTwiml = async (twiml: string, who: CalleeBehaviour, depth = 0): Promise<Partial<SimulatedCallResult>> => {
      const gather = /<Gather\b([^>]*)>([\s\S]*?)<\/Gather>([\s\S]*)$/.exec(twiml);
      if (gather) {
        said.push(...saysIn(gather[2]!));
        const action = /\baction="([^"]*)"/.exec(gather[1]!)?.[1];
        const press = who.kind === 'transfer-target' ? who.press : undefined;
        if (press && action && depth < 3) {
          const res = await post(unescape(action), params('in-progress', { Digits: press, FinishedOnKey: '' }));
          return runTwiml(res.text, who, depth + 1);
        }
        twiml = gather[3]!;
      }
      said.push(...saysIn(twiml));
      const dialed = dialTarget(twiml);
      return dialed ? { dialed } : {};
    };

    await callback('initiated', 'initiated');
    setStatus('ringing');
    await callback('ringing', 'ringing');
    await sleep(behaviour.kind === 'transfer-target' ? (behaviour.ringMs ?? settings.ringMs) : settings.ringMs);
    // Ended through the REST API while ringing (Status=canceled or completed): never answered.
    if (standin?.call(call.sid)?.status !== 'ringing') return finish('canceled');
    if (behaviour.kind === 'busy') return finish('busy');
    if (behaviour.kind === 'no-answer') return finish('no-answer');
    if (behaviour.kind === 'failed') return finish('failed');

    setStatus('in-progress');
    const verdict = behaviour.kind === 'machine' ? 'machine_start' : behaviour.kind === 'answer' ? (behaviour.answeredBy ?? 'human') : 'human';
    // Synchronous AMD reports the verdict with the answer; asynchronous AMD posts it later, on its own.
    const answeredBy: Record<string, string> = call.machineDetection && !call.asyncAmdStatusCallback ? { AnsweredBy: verdict } : {};
    await callback('answered', 'in-progress', answeredBy);
    if (!call.url && call.twiml) {
      const ran = await runTwiml(call.twiml, behaviour);
      if (ran.dialed) await sleep(settings.transferredCallMs);
      return finish('completed', {}, ran);
    }
    if (!call.url) return finish('completed');
    let twiml: string;
    try {
      const res = await post(call.url, params('in-progress', answeredBy));
      twiml = res.text;
      if (res.status !== 200) return finish('completed', {}, { twiml, error: `voice webhook answered ${res.status}` });
    } catch (error) {
      return finish('completed', {}, { error: `voice webhook unreachable: ${String(error)}` });
    }
    const stream = parseStreamTwiml(twiml);
    if (!stream) return finish('completed', {}, { twiml });

    let caller: SimulatedCaller;
    try {
      caller = await SimulatedCaller.connect({
        url: stream.url,
        customParameters: stream.parameters,
        callSid: call.sid,
        accountSid: account.sid,
        playbackSpeed: settings.playbackSpeed,
      });
    } catch (error) {
      return finish('completed', {}, { twiml, streamParameters: stream.parameters, error: `stream refused: ${String(error)}` });
    }
    streams.set(call.sid, caller);
    // Twilio cuts the call at TimeLimit; so does the simulated line.
    const limit = setTimeout(() => hangUp(caller), (call.timeLimitSeconds ?? 4 * 3600) * 1000);
    let closedByService = false;
    void caller.closed.then(() => {
      closedByService = true;
    });
    let more: Partial<SimulatedCallResult> = {};
    try {
      if (behaviour.kind === 'machine') await voicemailBox(caller, behaviour.greeting ?? DEFAULT_GREETING);
      else if (behaviour.kind === 'ivr') more = { detectedDigits: await ivr(caller, behaviour) };
      else {
        if (call.asyncAmdStatusCallback) void postAmd('human', 1_200);
        await converse(caller, behaviour.kind === 'answer' ? (behaviour.lines ?? DEFAULT_LINES) : DEFAULT_LINES, () => closedByService, () => hangUp(caller));
      }
      await caller.closed;
    } catch (error) {
      caller.hangUp();
      return finish('completed', {}, { twiml, streamParameters: stream.parameters, error: String(error) });
    } finally {
      clearTimeout(limit);
      streams.delete(call.sid);
      receivedEvents.push(...caller.received.map((m) => m.event));
    }
    // A redirect ended the stream: Twilio runs the new TwiML (the voicemail message, a transfer's <Dial>).
    const next = redirects.get(call.sid)?.at(-1);
    if (next) more = { ...more, ...(await runTwiml(next, behaviour)) };
    // A call that was dialed onwards goes on there for a while (the transferred conversation), as on Twilio.
    if (more.dialed) await sleep(settings.transferredCallMs);
    return finish('completed', {}, { twiml, streamParameters: stream.parameters, ...more });
  }

  /** The callee's side of a conversation: each line after the agent's turn, then hang up. */
  async function converse(caller: SimulatedCaller, lines: readonly CalleeLine[], closed: () => boolean, hangUp: () => void): Promise<void> {
    for (const line of lines) {
      if (closed()) return;
      if (typeof line !== 'string') {
        await agentHeardFor(caller, line.hangUpAfterAgentMs, settings.agentTurnTimeoutMs);
        if (!closed()) hangUp();
        return;
      }
      await agentTurn(caller, settings.agentTurnTimeoutMs);
      if (closed()) return;
      await caller.say(line);
    }
    if (!closed()) {
      await agentTurn(caller, settings.agentTurnTimeoutMs);
      hangUp();
    }
  }


  return {
    hooks: {
      onCreate(call, account) {
        if (call.direction !== 'outbound-api') return;
        const result = run(call, account).catch(
          (error: unknown): SimulatedCallResult => ({
            callSid: call.sid,
            status: 'failed',
            callbacks: [],
            receivedEvents: [],
            amdCallbacks: [],
            redirects: [],
            said: [],
            error: String(error),
          }),
        );
        calls.set(call.sid, result);
      },
      onUpdate(call, change) {
        if (change.status === 'completed' || change.status === 'canceled') streams.get(call.sid)?.hangUp();
        // New TwiML ends a live call's <Connect><Stream> (the stream gets `stop`), then runs.
        if (change.twiml !== undefined) {
          redirects.set(call.sid, [...(redirects.get(call.sid) ?? []), change.twiml]);
          streams.get(call.sid)?.hangUp();
        }
      },
    },
    attach(s) {
      standin = s;
    },
    setRule(number, behaviour) {
      rules.set(number, behaviour);
    },
    clearRules() {
      rules.clear();
    },
    finished(callSid) {
      const found = calls.get(callSid);
      if (!found) return Promise.reject(new Error(`No simulated call ${callSid}`));
      return found;
    },
    calls,
    async drain() {
      await Promise.allSettled([...calls.values()]);
    },
  };
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
  while (played() - from < ms * 8 && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
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
    await new Promise((r) => setTimeout(r, 600));
    if (caller.received.slice(seen).every((m) => !media(m)) && caller.bufferedMs === 0) return;
  }
}
