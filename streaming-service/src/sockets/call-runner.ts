import { describeError, log } from '../../../lib/observability/log.js';
import { CallSession } from '../session/call-session.js';
import { type CallSetup, type SessionOptions, type SessionServices } from '../call/types.js';
import type { MediaTransport } from '../transport/port.js';
import type { CallEnded, CallKey, StreamingEnvironment } from '../service.js';

/**
 * Runs admitted calls, whichever transport they came on (a phone's media stream, a browser): the session
 * (its bill runs from the claim), its heartbeat, and its history once it ends.
 */

export interface CallRunnerOptions {
  readonly session?: Partial<SessionOptions>;
  /** How often a live stream's heartbeat is written (the sweep's grace is 3 of them). */
  readonly heartbeatMs: number;
  /** Told once per call, after its history record was written (or writing failed). */
  ended(event: CallEnded): void;
  /** Holds the process's shutdown until the call's record is written. */
  track(done: Promise<unknown>): void;
  /** This task's internal address, recorded on each call it holds (docs/live-calls.md). */
  readonly internalUrl?: string;
}

/** Runs an admitted call on its transport; `maxSeconds` is what the claim granted. */
export type RunCall = (
  e: StreamingEnvironment,
  setup: CallSetup,
  services: SessionServices,
  transport: MediaTransport,
  maxSeconds: number,
  call: CallKey,
) => CallSession;

export interface CallRunner {
  readonly run: RunCall;
  /** Calls running in this process. */
  readonly sessions: ReadonlySet<CallSession>;
  /** A call running in this process, by call id. */
  session(callId: string): CallSession | undefined;
}

export function createCallRunner(options: CallRunnerOptions): CallRunner {
  const sessions = new Set<CallSession>();
  const byCall = new Map<string, CallSession>();

  /**
   * Beats every `heartbeatMs` while the session runs. A failed write is logged and the call goes on (the
   * grace allows for several); a tick is skipped while the last write is still out, so beats never
   * overtake each other. A call found settled was swept as abandoned and is no longer billed: it ends.
   */
  const startHeartbeat = (e: StreamingEnvironment, claims: CallKey, streamSid: string, s: CallSession) => {
    let inFlight = false;
    const timer = setInterval(() => {
      if (inFlight) return;
      inFlight = true;
      e.heartbeat(claims, streamSid)
        .then((alive) => {
          if (alive) return;
          log('warn', 'stream settled while live (swept as abandoned): ending the call', { callId: claims.callId });
          s.end('error');
        })
        .catch((error: unknown) => log('warn', 'stream heartbeat failed', { callId: claims.callId, ...describeError(error) }))
        .finally(() => {
          inFlight = false;
        });
    }, options.heartbeatMs);
    timer.unref?.();
    return () => clearInterval(timer);
  };

  const run: RunCall = (e, loaded, services, transport, maxDurationSeconds, call) => {
    // The bill runs from the claim: this is when the call's stream was admitted.
    const setup: CallSetup = { ...loaded, startedAt: Date.now() };
    const maxDurationMs = Math.min(options.session?.maxDurationMs ?? Number.POSITIVE_INFINITY, maxDurationSeconds * 1000);
    const s = new CallSession(setup, services, transport, { ...options.session, maxDurationMs });
    sessions.add(s);
    byCall.set(setup.callId, s);
    s.start();
    const { internalUrl } = options;
    // Where the API's control requests and listeners are forwarded when they reach another task.
    if (internalUrl && e.live) e.live.hold(call, setup.streamSid, internalUrl).catch((error: unknown) => log('warn', 'call holder not recorded', { callId: call.callId, ...describeError(error) }));
    const stopHeartbeat = startHeartbeat(e, call, setup.streamSid, s);
    const done = s.ended.then(async (outcome) => {
      stopHeartbeat();
      s.tap.end(outcome.reason);
      // A last beat at the end: the history write below gets the sweep's whole grace to finish, and if it
      // fails the sweep bills exactly to here. Landing after the settlement, it changes nothing.
      e.heartbeat(call, setup.streamSid).catch(() => undefined);
      sessions.delete(s);
      byCall.delete(setup.callId);
      try {
        const record = await e.finalize(outcome, services);
        options.ended({ callId: setup.callId, outcome, record });
      } catch (error) {
        log('error', 'history write failed', { callId: setup.callId, ...describeError(error) });
        options.ended({ callId: setup.callId, outcome, error });
      }
    });
    options.track(done);
    return s;
  };

  return { run, sessions, session: (callId) => byCall.get(callId) };
}
