import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { describeError, log } from '../../../lib/observability/log.js';
import { verifyWebSession, type WebSessionClaims } from '../../../lib/domain/web-session-token.js';
import { Refusal, admitSocket, type Ticket } from '../admission.js';
import type { CallSession } from '../session/call-session.js';
import { WebTransport, decodePageMessage } from '../transport/web.js';
import type { SocketContext, SocketKind, StreamingEnvironment } from '../service.js';
import type { RunCall } from './call-runner.js';
import { REFUSED, UNAVAILABLE, awaitHello, refuser, setupFailed } from './hello.js';

/**
 * The browser transport's sockets (docs/meeting.md): a page says `hello` with its web session credential,
 * and its call runs on the same session engine as a phone call. A call outlives its page's socket for a
 * grace period, so the same tab (same credential, same `sessionId`) rejoins after a reload or a blip; any
 * other socket for the call is refused. The first socket claims the call and reserves its credits in the
 * table (one conditional write, shared by every container); rejoins are served by the container that holds
 * the call (the ALB's sticky sessions send the tab back to it, docs/deploy.md).
 */

export interface BrowserCallContext extends SocketContext {
  readonly run: RunCall;
  readonly rejoinGraceMs: number;
  readonly maxPayload: number;
}

const CALL_UNAVAILABLE = new Refusal(UNAVAILABLE, 'unavailable', 'The call service is unavailable. Try again in a moment.');

interface LiveWebCall {
  readonly sessionId: string;
  readonly session: CallSession;
  readonly transport: WebTransport;
  graceTimer?: NodeJS.Timeout;
}

export function createBrowserCalls(ctx: BrowserCallContext): SocketKind {
  const wss = new WebSocketServer({ noServer: true, maxPayload: ctx.maxPayload });
  /** Browser calls running in this process, by call id. */
  const live = new Map<string, LiveWebCall>();

  const refuse = refuser(ctx.refused);

  /** Attaches a page's socket to a call's transport: `ready` first, so the page sees everything after it. */
  const attachPage = (ws: WebSocket, transport: WebTransport, callId: string, agentName: string, resumed: boolean) => {
    ws.send(JSON.stringify({ type: 'ready', callId, agentName, resumed }));
    const previous = transport.attach(ws);
    // The same tab's older socket (its close not seen yet, or a duplicated tab): the newest one wins.
    if (previous && previous !== ws) {
      previous.send(JSON.stringify({ type: 'error', code: 'replaced', message: 'This call continued in another window.' }));
      previous.close(REFUSED, 'replaced');
    }
  };

  /** Wires an admitted socket's input to its call's session (first join or rejoin). */
  const wire = (ws: WebSocket, call: LiveWebCall) => {
    if (call.graceTimer) clearTimeout(call.graceTimer);
    call.graceTimer = undefined;
    ws.on('message', (data, isBinary) => {
      const s = call.session;
      if (!call.transport.holds(ws)) return;
      if (isBinary) {
        const audio = data instanceof Buffer ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength & ~1) : undefined;
        if (!audio || audio.length === 0) return;
        const atMs = performance.now();
        s.push({ kind: 'caller_audio', audio, timestampMs: call.transport.callerTimestamp(audio.length, atMs), atMs });
        return;
      }
      const msg = decodePageMessage(data.toString());
      if (msg?.type === 'mark') s.push({ kind: 'mark_echo', name: msg.name, atMs: performance.now() });
      else if (msg?.type === 'hangup') s.end('stop');
    });
    ws.on('close', () => {
      if (!call.transport.detach(ws)) return;
      // The page went away without hanging up: the agent stops talking (what it said from here would be
      // lost), and the call waits for the same tab to come back.
      call.session.interrupt(performance.now());
      call.graceTimer = setTimeout(() => call.session.end('socket_closed'), ctx.rejoinGraceMs);
      call.graceTimer.unref?.();
    });
  };

  /** A page's ticket: its `hello` credential names the call, the table's claim reserves its credits. */
  const ticket = (ws: WebSocket, credential: string): Ticket<StreamingEnvironment, WebSessionClaims, number> => ({
    unavailable: CALL_UNAVAILABLE,
    verify(e) {
      if (!e.web) return new Refusal(UNAVAILABLE, 'unavailable', 'Browser calls are not available here.');
      const verified = verifyWebSession(credential, e.web.key);
      return verified.ok ? verified.claims : new Refusal(REFUSED, 'bad_credential', 'This meeting session is not valid. Open your meeting link again.');
    },
    rejoin(claims) {
      const existing = live.get(claims.callId);
      if (!existing) return false;
      if (existing.sessionId !== claims.sessionId) return new Refusal(REFUSED, 'already_connected', 'Someone else is already in this call.');
      // The agent talking now: after a handoff, the destination (docs/handoffs.md).
      attachPage(ws, existing.transport, claims.callId, existing.session.handoffs.segments.current.agentName, true);
      wire(ws, existing);
      return true;
    },
    ids: (claims) => ({ callSid: `web-${claims.sessionId}`, streamSid: `WS${randomBytes(16).toString('hex')}` }),
    failed(stage, error, claims) {
      if (stage === 'setup') return setupFailed(claims, error);
      log('warn', 'web call claim failed', { callId: claims.callId, ...describeError(error) });
      return CALL_UNAVAILABLE;
    },
    gone: () => ws.readyState !== ws.OPEN,
    async claim(e, claims, { streamSid }) {
      // A rejoin raced the first socket's claim: the other one is being set up in this process.
      if (live.has(claims.callId)) return new Refusal(REFUSED, 'already_connected', 'This call is already open in another window.');
      const claimed = await claimOnce(e, claims, streamSid);
      if (claimed.kind === 'insufficient_credits') return new Refusal(REFUSED, 'insufficient_credits', 'This call cannot start right now.');
      if (claimed.kind === 'ended') return new Refusal(REFUSED, 'ended', 'This call has ended.');
      return claimed.maxDurationSeconds;
    },
  });

  const begin = async (ws: WebSocket, credential: string) => {
    const admitted = await admitSocket(ctx.env, ticket(ws, credential));
    if (!admitted) return;
    if (admitted instanceof Refusal) return refuse(ws, admitted);
    const { e, claims, setup: loaded, services, claimed: maxSeconds } = admitted;
    const transport = new WebTransport(Date.now());
    // The page closed while the claim was written: the call starts unattached and the grace runs at once.
    const present = ws.readyState === ws.OPEN;
    if (present) attachPage(ws, transport, claims.callId, loaded.agent.name, false);
    const session = ctx.run(e, loaded, services, transport, maxSeconds, claims);
    const call: LiveWebCall = { sessionId: claims.sessionId, session, transport };
    live.set(claims.callId, call);
    void session.ended.finally(() => {
      if (call.graceTimer) clearTimeout(call.graceTimer);
      live.delete(claims.callId);
    });
    if (present) return wire(ws, call);
    transport.detach(ws);
    call.graceTimer = setTimeout(() => session.end('socket_closed'), ctx.rejoinGraceMs);
  };

  /** One claim in flight per call in this process: a double-click's two sockets must not both claim. */
  const claiming = new Map<string, Promise<unknown>>();
  const claimOnce = async (e: StreamingEnvironment, claims: WebSessionClaims, streamSid: string) => {
    if (claiming.has(claims.callId)) return { kind: 'ended' as const };
    const p = e.web!.claim(claims, streamSid);
    claiming.set(claims.callId, p);
    try {
      return await p;
    } finally {
      claiming.delete(claims.callId);
    }
  };

  wss.on('connection', (ws: WebSocket) => awaitHello(ws, ctx.greetingTimeoutMs, refuse, (credential) => void begin(ws, credential)));

  return {
    wss,
    close() {
      for (const call of live.values()) if (call.graceTimer) clearTimeout(call.graceTimer);
    },
  };
}
