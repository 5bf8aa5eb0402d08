import { twilioSignature } from '../vendors/telephony/twilio-webhook.js';
import { SimulatedCaller } from './simulated-caller.js';
import type { CallHooks, StandinAccount, StandinCall, StandinCallStatus, TwilioStandin } from './twilio-standin.js';

/**
 * What the Twilio stand-in does with a call placed through its REST API, the way Twilio would: signed
 * status callbacks (initiated, ringing, answered, completed: only the events the call asked for), the
 * TwiML fetched from the call's `Url` with a signed POST, and for `<Connect><Stream>` a Media Streams
 * WebSocket opened to the stream URL with the `<Parameter>`s as `customParameters`. On it a simulated
 * callee (lib/local/simulated-caller.ts) listens to the agent and says its scripted lines, then hangs up.
 * Rules per destination number make it busy, unanswered or failing instead (no TwiML is fetched then).
 *
 * It plugs into the stand-in through its {@link CallHooks} seam.
 */

/** How the callee at a number behaves. */
export type CalleeBehaviour =
  | {
      readonly kind: 'answer';
      /** Lines the callee says, each after the agent has finished speaking. */
      readonly lines?: readonly string[];
      /** `AnsweredBy` reported with answering-machine detection. */
      readonly answeredBy?: string;
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
const DEFAULTS = { ringMs: 50, agentTurnTimeoutMs: 15_000, playbackSpeed: 4 } as const;

/** The `<Stream url>` and its `<Parameter>`s from `<Connect><Stream>` TwiML; undefined for any other TwiML. */
export function parseStreamTwiml(twiml: string): { url: string; parameters: Record<string, string> } | undefined {
  const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
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
    const finish = async (status: StandinCallStatus, extra: Record<string, string> = {}, more: Partial<SimulatedCallResult> = {}) => {
      // The call may have been ended through the REST API meanwhile (hang-up by the agent).
      const current = standin?.call(call.sid);
      const final = current && ['completed', 'busy', 'failed', 'no-answer', 'canceled'].includes(current.status) ? current.status : status;
      const ended = setStatus(final);
      await callback('completed', final, { CallDuration: String(ended?.duration ?? 0), ...extra });
      return { callSid: call.sid, status: final, callbacks, receivedEvents, ...more };
    };

    await callback('initiated', 'initiated');
    setStatus('ringing');
    await callback('ringing', 'ringing');
    await sleep(settings.ringMs);
    if (behaviour.kind === 'busy') return finish('busy');
    if (behaviour.kind === 'no-answer') return finish('no-answer');
    if (behaviour.kind === 'failed') return finish('failed');

    setStatus('in-progress');
    const answeredBy: Record<string, string> = call.machineDetection ? { AnsweredBy: behaviour.answeredBy ?? 'human' } : {};
    await callback('answered', 'in-progress', answeredBy);
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
    const limit = setTimeout(() => caller.hangUp(), (call.timeLimitSeconds ?? 4 * 3600) * 1000);
    let closedByService = false;
    void caller.closed.then(() => {
      closedByService = true;
    });
    try {
      const lines = behaviour.lines ?? DEFAULT_LINES;
      for (const line of lines) {
        if (closedByService) break;
        await agentTurn(caller, settings.agentTurnTimeoutMs);
        if (closedByService) break;
        await caller.say(line);
      }
      if (!closedByService) {
        await agentTurn(caller, settings.agentTurnTimeoutMs);
        caller.hangUp();
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
    return finish('completed', {}, { twiml, streamParameters: stream.parameters });
  }

  return {
    hooks: {
      onCreate(call, account) {
        if (call.direction !== 'outbound-api') return;
        const result = run(call, account).catch(
          (error: unknown): SimulatedCallResult => ({ callSid: call.sid, status: 'failed', callbacks: [], receivedEvents: [], error: String(error) }),
        );
        calls.set(call.sid, result);
      },
      onUpdate(call, change) {
        if (change.status === 'completed' || change.status === 'canceled') streams.get(call.sid)?.hangUp();
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
