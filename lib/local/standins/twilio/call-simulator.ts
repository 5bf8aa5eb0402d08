import type { SimulatedCaller } from '../../callers/simulated-caller.js';
import type { SpokenLines } from '../spoken-lines.js';
import type { CalleeBehaviour } from './callee.js';
import { calleeFor, readCalleeScripts } from './test-numbers.js';
import { SimulatedCall, type LineSettings, type SimulatedCallResult } from './simulated-call.js';
import type { CallHooks } from './state.js';
import type { TwilioStandin } from './standin.js';

/**
 * What the Twilio stand-in does with a call placed through its REST API, the way Twilio would: signed
 * status callbacks (initiated, ringing, answered, completed: only the events the call asked for), the
 * TwiML fetched from the call's `Url` with a signed POST, and for `<Connect><Stream>` a Media Streams
 * WebSocket opened to the stream URL with the `<Parameter>`s as `customParameters`. On it a simulated
 * callee (lib/local/callers/simulated-caller.ts) listens to the agent and says its scripted lines, then hangs up.
 * Rules per destination number make it busy, unanswered or failing instead (no TwiML is fetched then).
 * Without a rule, the test numbers (test-numbers.ts) behave as documented and the script file gives a
 * person's lines; every other number gets the default callee.
 *
 * It plugs into the stand-in through its {@link CallHooks} seam. One call's course is simulated-call.ts;
 * the callee's side of the stream is callee.ts.
 */

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
  /** Where the callee's lines are registered for the recognizer stand-ins to know them. */
  readonly spokenLines?: SpokenLines;
  /** A JSON file of scripted lines per destination (test-numbers.ts, `CalleeScripts`), read on every call. */
  readonly scriptsFile?: string;
  /** Where a broken script file is reported. */
  readonly warn?: (message: string) => void;
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

const DEFAULTS = { ringMs: 50, agentTurnTimeoutMs: 15_000, playbackSpeed: 4, transferredCallMs: 2_000 } as const satisfies LineSettings;

export function createCallSimulator(options: CallSimulatorOptions = {}): CallSimulator {
  const { defaultBehaviour, spokenLines, scriptsFile, warn = (m: string) => process.stderr.write(`${m}\n`), ...timings } = options;
  const settings: LineSettings = { ...DEFAULTS, ...timings };
  const rules = new Map<string, CalleeBehaviour>();
  const calls = new Map<string, Promise<SimulatedCallResult>>();
  const redirects = new Map<string, string[]>();
  const board = { standin: undefined as TwilioStandin | undefined, streams: new Map<string, SimulatedCaller>(), redirects, spokenLines };

  return {
    hooks: {
      onCreate(call, account) {
        if (call.direction !== 'outbound-api') return;
        const scripts = scriptsFile ? readCalleeScripts(scriptsFile, warn) : {};
        const behaviour = rules.get(call.to) ?? calleeFor(call.to, defaultBehaviour ?? { kind: 'answer' }, scripts);
        const result = new SimulatedCall(call, account, behaviour, settings, board).run().catch(
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
        if (change.status === 'completed' || change.status === 'canceled') board.streams.get(call.sid)?.hangUp();
        // New TwiML ends a live call's <Connect><Stream> (the stream gets `stop`), then runs.
        if (change.twiml !== undefined) {
          redirects.set(call.sid, [...(redirects.get(call.sid) ?? []), change.twiml]);
          board.streams.get(call.sid)?.hangUp();
        }
      },
    },
    attach(s) {
      board.standin = s;
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
