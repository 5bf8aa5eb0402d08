import { SimulatedCaller, speech } from '../../callers/simulated-caller.js';
import { PHONE_AUDIO } from '../../../vendors/shared/audio-format.js';
import type { SpokenLines } from '../spoken-lines.js';
import { converse, DEFAULT_GREETING, DEFAULT_LINES, ivr, voicemailBox, type CalleeBehaviour, type OnTheLine } from './callee.js';
import type { StandinAccount, StandinCall, StandinCallStatus } from './state.js';
import type { TwilioStandin } from './standin.js';
import { dialTarget, parseStreamTwiml, saysIn, streamUrlRefusal, unescape } from './twiml.js';
import { postSigned } from './webhooks.js';

/**
 * One call placed through the stand-in, played out as Twilio would: status callbacks, the voice webhook,
 * the Media Stream with a callee on it, TwiML it was redirected to, and the final `completed` callback.
 */

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

/** The timings of a simulated line (the simulator's options with their defaults applied). */
export interface LineSettings {
  readonly ringMs: number;
  readonly agentTurnTimeoutMs: number;
  readonly playbackSpeed: number;
  readonly transferredCallMs: number;
}

/** What a call shares with the simulator that placed it. */
export interface Switchboard {
  readonly standin: TwilioStandin | undefined;
  /** Live media streams by call sid: ending the call through the REST API ends its stream, as on Twilio. */
  readonly streams: Map<string, SimulatedCaller>;
  /** TwiML a live call was redirected to, by call sid (Twilio runs it once the stream has ended). */
  readonly redirects: ReadonlyMap<string, readonly string[]>;
  /** Where what the callee says is registered, for the recognizer stand-ins (absent: nothing registered). */
  readonly spokenLines?: SpokenLines;
}

type StatusEvent = 'initiated' | 'ringing' | 'answered' | 'completed';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const unreachable = () => ({ status: 0, contentType: null, text: '' });

export class SimulatedCall {
  private readonly callbacks: { status: string; httpStatus: number }[] = [];
  private readonly receivedEvents: string[] = [];
  private readonly amdCallbacks: { answeredBy: string; httpStatus: number }[] = [];
  private readonly said: string[] = [];
  private sequence = 0;

  constructor(
    private readonly call: StandinCall,
    private readonly account: StandinAccount,
    private readonly behaviour: CalleeBehaviour,
    private readonly settings: LineSettings,
    private readonly board: Switchboard,
  ) {}

  /** Rings, answers (or not), runs the call's instructions, and reports how it ended. */
  async run(): Promise<SimulatedCallResult> {
    const { call, behaviour, settings } = this;
    await this.callback('initiated', 'initiated');
    this.setStatus('ringing');
    await this.callback('ringing', 'ringing');
    await sleep(behaviour.kind === 'transfer-target' ? (behaviour.ringMs ?? settings.ringMs) : settings.ringMs);
    // Ended through the REST API while ringing (Status=canceled or completed): never answered.
    if (this.board.standin?.call(call.sid)?.status !== 'ringing') return this.finish('canceled');
    if (behaviour.kind === 'busy') return this.finish('busy');
    if (behaviour.kind === 'no-answer') return this.finish('no-answer');
    if (behaviour.kind === 'failed') return this.finish('failed');

    this.setStatus('in-progress');
    const verdict = behaviour.kind === 'machine' ? 'machine_start' : behaviour.kind === 'answer' ? (behaviour.answeredBy ?? 'human') : 'human';
    // Synchronous AMD reports the verdict with the answer; asynchronous AMD posts it later, on its own.
    const answeredBy: Record<string, string> = call.machineDetection && !call.asyncAmdStatusCallback ? { AnsweredBy: verdict } : {};
    await this.callback('answered', 'in-progress', answeredBy);
    if (!call.url && call.twiml) {
      const ran = await this.runTwiml(call.twiml);
      if (ran.dialed) await sleep(settings.transferredCallMs);
      return this.finish('completed', {}, ran);
    }
    if (!call.url) return this.finish('completed');
    let twiml: string;
    try {
      const res = await this.post(call.url, this.params('in-progress', answeredBy));
      twiml = res.text;
      if (res.status !== 200) return this.finish('completed', {}, { twiml, error: `voice webhook answered ${res.status}` });
    } catch (error) {
      return this.finish('completed', {}, { error: `voice webhook unreachable: ${String(error)}` });
    }
    const stream = parseStreamTwiml(twiml);
    if (!stream) return this.finish('completed', {}, { twiml });
    return this.stream(twiml, stream);
  }

  /** The `<Connect><Stream>` part: the callee on the Media Stream until one side ends it. */
  private async stream(twiml: string, stream: { url: string; parameters: Record<string, string> }): Promise<SimulatedCallResult> {
    const { call, behaviour, settings } = this;
    // Twilio never opens a stream it refuses the URL of: the <Connect> ends, and with no verb after it the call.
    const refusal = streamUrlRefusal(stream.url);
    if (refusal) return this.finish('completed', {}, { twiml, streamParameters: stream.parameters, error: `stream refused: ${refusal}` });
    let caller: SimulatedCaller;
    try {
      caller = await SimulatedCaller.connect({
        url: stream.url,
        customParameters: stream.parameters,
        callSid: call.sid,
        accountSid: this.account.sid,
        playbackSpeed: settings.playbackSpeed,
      });
    } catch (error) {
      return this.finish('completed', {}, { twiml, streamParameters: stream.parameters, error: `stream refused: ${String(error)}` });
    }
    this.board.streams.set(call.sid, caller);
    const line: OnTheLine = {
      caller,
      agentTurnTimeoutMs: settings.agentTurnTimeoutMs,
      hangUp: () => this.hangUp(caller),
      say: async (text, language) => {
        const audio = await speech(text, PHONE_AUDIO, language);
        this.board.spokenLines?.say(text, audio, language);
        await caller.play(audio);
      },
      sound: async (audio) => {
        this.board.spokenLines?.say('', audio);
        await caller.play(audio);
      },
    };
    // Twilio cuts the call at TimeLimit; so does the simulated line.
    const limit = setTimeout(() => this.hangUp(caller), (call.timeLimitSeconds ?? 4 * 3600) * 1000);
    let more: Partial<SimulatedCallResult> = {};
    try {
      if (behaviour.kind === 'machine') {
        await voicemailBox(line, behaviour.greeting ?? DEFAULT_GREETING, call.machineDetection, (answeredBy, ms) => this.postAmd(answeredBy, ms));
      } else if (behaviour.kind === 'ivr') more = { detectedDigits: await ivr(line, behaviour) };
      else {
        if (call.asyncAmdStatusCallback) void this.postAmd('human', 1_200);
        await converse(line, behaviour.kind === 'answer' ? (behaviour.lines ?? DEFAULT_LINES) : DEFAULT_LINES);
      }
      await caller.closed;
    } catch (error) {
      caller.hangUp();
      return this.finish('completed', {}, { twiml, streamParameters: stream.parameters, error: String(error) });
    } finally {
      clearTimeout(limit);
      this.board.streams.delete(call.sid);
      this.receivedEvents.push(...caller.received.map((m) => m.event));
    }
    // A redirect ended the stream: Twilio runs the new TwiML (the voicemail message, a transfer's <Dial>).
    const next = this.board.redirects.get(call.sid)?.at(-1);
    if (next) more = { ...more, ...(await this.runTwiml(next)) };
    // A call that was dialed onwards goes on there for a while (the transferred conversation), as on Twilio.
    if (more.dialed) await sleep(settings.transferredCallMs);
    return this.finish('completed', {}, { twiml, streamParameters: stream.parameters, ...more });
  }

  /** The parameters Twilio sends with every voice webhook of this call. */
  private params(status: string, extra: Record<string, string> = {}): Record<string, string> {
    const { call } = this;
    return {
      AccountSid: this.account.sid,
      ApiVersion: '2010-04-01',
      CallSid: call.sid,
      CallStatus: status,
      Called: call.to,
      Caller: call.from,
      Direction: call.direction,
      From: call.from,
      To: call.to,
      ...extra,
    };
  }

  private post(url: string, form: Record<string, string>) {
    return postSigned(this.account.authToken, url, form);
  }

  /** Posts a status callback if the call subscribed to its event (`completed` also carries failures). */
  private async callback(event: StatusEvent, status: string, extra: Record<string, string> = {}): Promise<void> {
    const { call } = this;
    const subscribed = call.statusCallbackEvents.length === 0 ? event === 'completed' : call.statusCallbackEvents.includes(event);
    if (!call.statusCallback || !subscribed) return;
    const form = this.params(status, { SequenceNumber: String(this.sequence++), Timestamp: new Date().toUTCString(), CallbackSource: 'call-progress-events', ...extra });
    const res = await this.post(call.statusCallback, form).catch(unreachable);
    this.callbacks.push({ status, httpStatus: res.status });
  }

  /** Posts the asynchronous AMD verdict with exactly the fields Twilio documents for it. */
  private async postAmd(answeredBy: string, detectionMs: number): Promise<void> {
    const { call } = this;
    if (!call.asyncAmdStatusCallback || !call.machineDetection) return;
    const form = { AccountSid: this.account.sid, CallSid: call.sid, AnsweredBy: answeredBy, MachineDetectionDuration: String(detectionMs) };
    const res = await this.post(call.asyncAmdStatusCallback, form).catch(unreachable);
    this.amdCallbacks.push({ answeredBy, httpStatus: res.status });
  }

  private setStatus(status: StandinCallStatus): StandinCall | undefined {
    return this.board.standin?.setCallStatus(this.call.sid, status);
  }

  /** The callee hangs up: the call is over at Twilio first, then the stream gets its `stop`. */
  private hangUp(caller: SimulatedCaller): void {
    this.setStatus('completed');
    caller.hangUp();
  }

  private async finish(status: StandinCallStatus, extra: Record<string, string> = {}, more: Partial<SimulatedCallResult> = {}): Promise<SimulatedCallResult> {
    // The call may have been ended through the REST API meanwhile (hang-up by the agent).
    const current = this.board.standin?.call(this.call.sid);
    const final = current && ['completed', 'busy', 'failed', 'no-answer', 'canceled'].includes(current.status) ? current.status : status;
    const ended = this.setStatus(final);
    await this.callback('completed', final, { CallDuration: String(ended?.duration ?? 0), ...extra });
    const { callbacks, receivedEvents, amdCallbacks, said } = this;
    return { callSid: this.call.sid, status: final, callbacks, receivedEvents, amdCallbacks, redirects: this.board.redirects.get(this.call.sid) ?? [], said, ...more };
  }

  /**
   * Runs TwiML that is not a stream: `<Say>` is heard, a `<Gather>` is answered with the callee's keys
   * (posted to its `action`, whose TwiML runs next), `<Dial>` records where the call went.
   */
  private async runTwiml(twiml: string, depth = 0): Promise<Partial<SimulatedCallResult>> {
    const gather = /<Gather\b([^>]*)>([\s\S]*?)<\/Gather>([\s\S]*)$/.exec(twiml);
    if (gather) {
      this.said.push(...saysIn(gather[2]!));
      const action = /\baction="([^"]*)"/.exec(gather[1]!)?.[1];
      const press = this.behaviour.kind === 'transfer-target' ? this.behaviour.press : undefined;
      if (press && action && depth < 3) {
        const res = await this.post(unescape(action), this.params('in-progress', { Digits: press, FinishedOnKey: '' }));
        return this.runTwiml(res.text, depth + 1);
      }
      twiml = gather[3]!;
    }
    this.said.push(...saysIn(twiml));
    const dialed = dialTarget(twiml);
    return dialed ? { dialed } : {};
  }
}
