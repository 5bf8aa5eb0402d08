import { describeError, log } from '../../lib/observability/log.js';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { STREAM_HEARTBEAT_MS } from '../../lib/domain/call.js';
import type { StreamTokenClaims } from '../../lib/domain/stream-token.js';
import type { WebSessionClaims } from '../../lib/domain/web-session-token.js';
import type { MeetingClaim } from '../../lib/services/meetings.js';
import { LocalWindows, type RatePolicy } from '../../lib/domain/rate-window.js';
import { admit, loadCallSetup, type CallLoader, type CallRef } from './admission.js';
import { decodeTwilio, type InboundEvent } from './codec/twilio.js';
import type { VoiceHistoryRecord } from '../../lib/domain/call-record.js';
import { CallSession, type CallOutcome, type CallSetup, type SessionOptions, type SessionServices } from './session/call-session.js';
import type { MediaTransport } from './transport/port.js';
import { twilioTransport } from './transport/twilio.js';
import { createWebStreams, type WebStreams } from './web-stream.js';
import { createWebChats, type WebChats } from './web-chat.js';
import type { ChatOptions, ChatOutcome } from './chat/chat-session.js';
import type { HistoryRecord } from '../../lib/domain/history.js';

/** The keys a live call's stream is known by in the table (heartbeat, settlement). */
export interface CallKey {
  readonly workspaceId: string;
  readonly callId: string;
}


/** The call a claimed stream is for, as the store holds it: its agent, contact, other party and our number. */
export type ClaimedCall = CallRef & { readonly numberId?: string };

/** What the server needs from the platform, built once (lazily, on the first stream). */
export interface StreamingEnvironment {
  /** HMAC keys of stream tokens (derived from the platform's data key, one per version it holds). */
  readonly tokenKey: Buffer | readonly Buffer[];
  readonly loader: CallLoader;
  /**
   * Claims the token's call for this stream, once (a conditional write shared by every container): the
   * longest the call may last, or undefined when a stream was already admitted for it or it has ended.
   */
  claim(claims: StreamTokenClaims, start: Extract<InboundEvent, { kind: 'start' }>): Promise<{ maxDurationSeconds: number; call: ClaimedCall } | undefined>;
  /**
   * Records that the claimed stream is still running (the sweep settles streams that stop beating: a
   * container that died). False once the call was settled while the stream ran: the sweep took it for dead.
   */
  heartbeat(call: CallKey, streamSid: string): Promise<boolean>;
  /**
   * Vendor providers and telephony for one call's agent. Telephony only for a call on one of our numbers
   * (`numberId`); a browser call has no phone line to transfer or hang up.
   */
  services(setup: CallSetup, numberId?: string): SessionServices | Promise<SessionServices>;
  /** Writes the history record (and recording) of a finished call. */
  finalize(outcome: CallOutcome, services: SessionServices): Promise<VoiceHistoryRecord>;
  /** The browser transport (docs/meeting.md); without it `/web-stream` refuses every socket. */
  readonly web?: {
    /** HMAC keys of web session credentials (one per data-key version). */
    readonly key: Buffer | readonly Buffer[];
    /** Claims the call for its first browser socket and reserves its credits, in one write. */
    claim(claims: WebSessionClaims, streamSid: string): Promise<MeetingClaim>;
  };
  /** Text chats (docs/chat.md); they verify their credentials with `web.key`. Without it `/web-chat` refuses. */
  readonly chat?: {
    /** Claims a chat for its first socket, once: its longest duration, or undefined when it was claimed before, ended or is not a chat. */
    claim(claims: WebSessionClaims): Promise<number | undefined>;
    /** Charges the chat's `n`th visitor message (once per `n`); false when the workspace cannot pay. */
    charge(chat: CallKey, n: number): Promise<boolean>;
    /** Writes the chat's history record (transcript, summary, cost). */
    finalize(outcome: ChatOutcome, services: SessionServices): Promise<HistoryRecord>;
  };
}

export interface StreamingServerOptions {
  readonly environment: () => Promise<StreamingEnvironment>;
  readonly session?: Partial<SessionOptions>;
  /**
   * Twilio sends `start` right after `connected`; a socket that has not started within 10 s is not
   * Twilio, and holding it open costs a slot.
   */
  readonly startTimeoutMs?: number;
  readonly path?: string;
  /** The browser transport's path (docs/meeting.md). */
  readonly webPath?: string;
  /** The text chats' path (docs/chat.md). */
  readonly chatPath?: string;
  /** How long a chat whose page went away waits for the same tab to come back (2 minutes). */
  readonly chatRejoinGraceMs?: number;
  readonly chat?: Partial<ChatOptions>;
  /** How long a browser call whose page went away waits for the same tab to rejoin (30 s). */
  readonly webRejoinGraceMs?: number;
  /**
   * Upgrades per client IP (RATE_LIMIT_MEDIA_STREAM), counted in this process's memory: a task lives long,
   * unlike a Lambda instance. Behind the ALB (`behindProxy`) the client is the last X-Forwarded-For entry,
   * the one the ALB appended; otherwise the socket's address.
   */
  readonly upgradeLimit?: { readonly policy: RatePolicy; readonly behindProxy?: boolean };
  /** How often a live stream's heartbeat is written; {@link STREAM_HEARTBEAT_MS} (the sweep's grace is 3 of them). */
  readonly heartbeatMs?: number;
}

/** The client address of an upgrade request (see StreamingServerOptions.upgradeLimit). */
function clientIp(req: IncomingMessage, behindProxy: boolean): string {
  const forwarded = behindProxy ? String(req.headers['x-forwarded-for'] ?? '').split(',').pop()?.trim() : undefined;
  return (forwarded || req.socket.remoteAddress || 'unknown').replace(/^::ffff:(?=\d+\.)/, '');
}

/** Emitted once per admitted call, after its history record was written (or writing failed). */
export interface CallEnded {
  readonly callId: string;
  readonly outcome: CallOutcome;
  readonly record?: VoiceHistoryRecord;
  readonly error?: unknown;
}

/** WebSocket close code 1008: policy violation (no or bad stream token). */
export const POLICY_VIOLATION = 1008;
/** WebSocket close code 1011: we could not set the call up. */
export const INTERNAL_ERROR = 1011;

/**
 * A Twilio message larger than this is not a Media Streams message (media frames are a few hundred bytes);
 * the cap keeps a hostile client from making us buffer megabytes.
 */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Messages that arrive while the call is being set up (tens of ms) are kept, up to ~10 s of audio. */
const MAX_EARLY_MESSAGES = 500;

export interface StreamingServer {
  /** Takes an HTTP upgrade for the media-stream path; false when the path is not ours. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Serves `GET /health`; false for any other request. */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  /** Adds the upgrade handler to an existing HTTP server (the local platform shares its origin). */
  attach(server: Server): void;
  /** Runs on its own port (the container). */
  listen(port: number, host?: string): Promise<{ port: number; server: Server }>;
  readonly activeSessions: number;
  readonly sessions: ReadonlySet<CallSession>;
  onCallEnded(listener: (event: CallEnded) => void): () => void;
  /** Emitted once per chat, after its history record was written (or writing failed). */
  onChatEnded(listener: (event: { chatId: string; error?: unknown }) => void): () => void;
  /** Chats running in this process. */
  readonly activeChats: number;
  /** Refused streams, with the reason (tests and logs). */
  onRefused(listener: (event: { reason: string }) => void): () => void;
  /**
   * Stops admitting streams (upgrades get 503, health reports `draining`) and waits up to `timeoutMs` for
   * calls in progress to end on their own; then closes.
   */
  drain(timeoutMs: number): Promise<void>;
  /** Refuses new streams (503), ends every call now (reason `error`), waits for their history, and stops. */
  close(): Promise<void>;
}

export function createStreamingServer(options: StreamingServerOptions): StreamingServer {
  const path = options.path ?? '/media-stream';
  const webPath = options.webPath ?? '/web-stream';
  const chatPath = options.chatPath ?? '/web-chat';
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  const heartbeatMs = options.heartbeatMs ?? STREAM_HEARTBEAT_MS;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const events = new EventEmitter();
  const sessions = new Set<CallSession>();
  const finalizing = new Set<Promise<unknown>>();
  /** Streams between their `start` and their session: a close waits for them to become calls (and end). */
  const starts = new Set<Promise<unknown>>();
  let environment: Promise<StreamingEnvironment> | undefined;
  const env = () => {
    environment ??= options.environment().catch((error: unknown) => {
      environment = undefined;
      throw error;
    });
    return environment;
  };
  let own: Server | undefined;
  let draining = false;
  const upgrades = new LocalWindows();

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
    }, heartbeatMs);
    timer.unref?.();
    return () => clearInterval(timer);
  };

  const refuse = (ws: WebSocket, reason: string, code = POLICY_VIOLATION) => {
    events.emit('refused', { reason });
    ws.close(code, reason);
  };

  /**
   * Runs an admitted call on a transport, whichever it is: the session (its bill runs from now, the claim),
   * its heartbeat, and its history once it ends.
   */
  const runCall = (
    e: StreamingEnvironment,
    loaded: CallSetup,
    services: SessionServices,
    transport: MediaTransport,
    maxDurationSeconds: number,
    call: CallKey,
  ): CallSession => {
    // The bill runs from the claim: this is when the call's stream was admitted.
    const setup: CallSetup = { ...loaded, startedAt: Date.now() };
    const maxDurationMs = Math.min(options.session?.maxDurationMs ?? Number.POSITIVE_INFINITY, maxDurationSeconds * 1000);
    const s = new CallSession(setup, services, transport, { ...options.session, maxDurationMs });
    sessions.add(s);
    s.start();
    const stopHeartbeat = startHeartbeat(e, call, setup.streamSid, s);
    const done = s.ended
      .then(async (outcome) => {
        stopHeartbeat();
        // A last beat at the end: the history write below gets the sweep's whole grace to finish, and if it
        // fails the sweep bills exactly to here. Landing after the settlement, it changes nothing.
        e.heartbeat(call, setup.streamSid).catch(() => undefined);
        sessions.delete(s);
        try {
          const record = await e.finalize(outcome, services);
          events.emit('ended', { callId: setup.callId, outcome, record } satisfies CallEnded);
        } catch (error) {
          log('error', 'history write failed', { callId: setup.callId, ...describeError(error) });
          events.emit('ended', { callId: setup.callId, outcome, error } satisfies CallEnded);
        }
      })
      .finally(() => finalizing.delete(done));
    finalizing.add(done);
    return s;
  };

  wss.on('connection', (ws: WebSocket) => {
    let session: CallSession | undefined;
    let starting = false;
    let closed = false;
    const early: InboundEvent[] = [];
    const startTimer = setTimeout(() => {
      if (!starting) refuse(ws, 'no start message');
    }, startTimeoutMs);

    const dispatch = (s: CallSession, ev: InboundEvent) => {
      const atMs = performance.now();
      switch (ev.kind) {
        case 'media':
          if (ev.track === 'inbound') s.push({ kind: 'caller_audio', audio: ev.audio, timestampMs: ev.timestampMs, atMs });
          return;
        case 'mark':
          return s.push({ kind: 'mark_echo', name: ev.name, atMs });
        case 'dtmf':
          return s.push({ kind: 'dtmf', digit: ev.digit, atMs });
        case 'stop':
          return s.end('stop');
        default:
          return;
      }
    };

    const begin = async (start: Extract<InboundEvent, { kind: 'start' }>) => {
      let e: StreamingEnvironment;
      try {
        e = await env();
      } catch {
        return refuse(ws, 'service unavailable', INTERNAL_ERROR);
      }
      const admission = admit(start, e.tokenKey);
      if (!admission.ok) return refuse(ws, `stream token ${admission.reason}`);
      let loaded: CallSetup;
      let services: SessionServices;
      let claimed: { maxDurationSeconds: number; call: ClaimedCall } | undefined;
      try {
        if (closed) return;
        // First, before any vendor is touched, so no vendor serves a stream that is not the call's one; the
        // token names only the call, and the claim returns it (agent, number, contact) for the setup.
        claimed = await e.claim(admission.claims, start);
        if (!claimed) return refuse(ws, 'stream token already_used');
        loaded = await loadCallSetup(claimed.call, start, e.loader);
        services = await e.services(loaded, claimed.call.numberId);
      } catch {
        return refuse(ws, 'call setup failed', INTERNAL_ERROR);
      }
      const transport = twilioTransport(start.streamSid, {
        send: (m) => {
          if (ws.readyState === ws.OPEN) ws.send(m);
        },
        close: (code, reason) => ws.close(code, reason),
      });
      const s = runCall(e, loaded, services, transport, claimed.maxDurationSeconds, admission.claims);
      session = s;
      // The caller hung up while the claim was being written: end at once, so the claim is settled.
      if (closed) s.end('socket_closed');
      for (const ev of early.splice(0)) dispatch(s, ev);
    };

    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const ev = decodeTwilio(data.toString());
      if (!ev) return;
      if (session) return dispatch(session, ev);
      if (!starting) {
        // Before `start` nothing is processed: no audio reaches a vendor, nothing is recorded.
        if (ev.kind === 'start') {
          starting = true;
          clearTimeout(startTimer);
          const admitting = begin(ev);
          starts.add(admitting);
          void admitting.finally(() => starts.delete(admitting));
        }
        return;
      }
      if (early.length < MAX_EARLY_MESSAGES) early.push(ev);
    });
    ws.on('close', () => {
      closed = true;
      clearTimeout(startTimer);
      session?.end('socket_closed');
    });
    ws.on('error', () => undefined);
  });

  const web: WebStreams = createWebStreams({
    env,
    runCall,
    refused: (reason) => events.emit('refused', { reason }),
    helloTimeoutMs: startTimeoutMs,
    rejoinGraceMs: options.webRejoinGraceMs ?? 30_000,
    maxPayload: MAX_MESSAGE_BYTES,
  });

  const chats: WebChats = createWebChats({
    env,
    refused: (reason) => events.emit('refused', { reason }),
    ended: (chatId, error) => events.emit('chat-ended', { chatId, ...(error === undefined ? {} : { error }) }),
    track: (done) => {
      const p = done.finally(() => finalizing.delete(p));
      finalizing.add(p);
    },
    helloTimeoutMs: startTimeoutMs,
    rejoinGraceMs: options.chatRejoinGraceMs ?? 120_000,
    options: options.chat,
  });

  const server: StreamingServer = {
    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? '/', 'http://local');
      const target = new Map([[path, wss], [webPath, web.wss], [chatPath, chats.wss]]).get(url.pathname);
      if (!target) return false;
      if (draining) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return true;
      }
      const limit = options.upgradeLimit;
      if (limit) {
        const d = upgrades.take(limit.policy, clientIp(req, limit.behindProxy ?? false), Date.now());
        if (!d.allowed) {
          const p = d.policy;
          socket.end(
            `HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${d.resetSeconds}\r\nRateLimit-Policy: "${p.name}";q=${p.limit};w=${p.windowSeconds}\r\n` +
              `RateLimit: "${p.name}";r=0;t=${d.resetSeconds}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
          );
          return true;
        }
      }
      target.handleUpgrade(req, socket, head, (ws) => target.emit('connection', ws, req));
      return true;
    },
    handleRequest(req, res) {
      const url = new URL(req.url ?? '/', 'http://local');
      if (url.pathname !== '/health' || (req.method ?? 'GET') !== 'GET') return false;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ status: draining ? 'draining' : 'ok', activeSessions: sessions.size }));
      return true;
    },
    attach(http) {
      http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (!server.handleUpgrade(req, socket, head) && http.listenerCount('upgrade') === 1) socket.destroy();
      });
    },
    async listen(port, host = '0.0.0.0') {
      own = createServer((req, res) => {
        if (!server.handleRequest(req, res)) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 'not_found', message: 'Not found.', details: [] } }));
        }
      });
      server.attach(own);
      await new Promise<void>((resolve, reject) => {
        own!.once('error', reject);
        own!.listen(port, host, () => resolve());
      });
      const address = own.address();
      return { port: typeof address === 'object' && address ? address.port : port, server: own };
    },
    get activeSessions() {
      return sessions.size;
    },
    sessions,
    onCallEnded(listener) {
      events.on('ended', listener);
      return () => events.off('ended', listener);
    },
    onChatEnded(listener) {
      events.on('chat-ended', listener);
      return () => events.off('chat-ended', listener);
    },
    get activeChats() {
      return chats.active;
    },
    onRefused(listener) {
      events.on('refused', listener);
      return () => events.off('refused', listener);
    },
    async drain(timeoutMs) {
      draining = true;
      const until = Date.now() + timeoutMs;
      while (sessions.size + chats.active > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
      await server.close();
    },
    async close() {
      // No stream is admitted from here on (503, as while draining). One that arrived while the calls below
      // were writing their history used to run a whole call, and the close waited for it (28 November: the
      // test platform's stop took 30 s after a file whose last calls were still being set up).
      draining = true;
      for (const s of sessions) s.end('error');
      web.close();
      chats.close();
      for (const ws of [...wss.clients, ...web.wss.clients, ...chats.wss.clients]) ws.terminate();
      // A stream whose claim was being written becomes a call that ends at once (its socket is gone): its
      // history is written before the listener closes, as for the calls that were running. Without this
      // wait a loaded machine closed the listener while such a call still finalized.
      await Promise.allSettled([...starts]);
      await Promise.allSettled([...finalizing]);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => web.wss.close(() => resolve()));
      await new Promise<void>((resolve) => chats.wss.close(() => resolve()));
      if (own) await new Promise<void>((resolve) => own!.close(() => resolve()));
    },
  };
  return server;
}
