import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { STREAM_HEARTBEAT_MS } from '../../lib/domain/call.js';
import { upgradeGate } from './admission.js';
import type { SocketContext, SocketKind, StreamingEnvironment, StreamingServer, StreamingServerOptions } from './service.js';
import { createBrowserCalls } from './sockets/browser-call.js';
import { createCallRunner } from './sockets/call-runner.js';
import { createChats } from './sockets/chat.js';
import { createTwilioMedia } from './sockets/twilio-media.js';
import { handleControl, type LiveRouting } from './live/control.js';
import { createListeners } from './live/listen.js';

/**
 * The streaming service's HTTP face: it routes each upgrade path to its socket kind (sockets/: a Twilio
 * media stream, a browser call, a chat), all of them admitted the same way (admission.ts), serves
 * `GET /health`, and drains or closes them together.
 */

/**
 * A Twilio message larger than this is not a Media Streams message (media frames are a few hundred bytes);
 * the cap keeps a hostile client from making us buffer megabytes.
 */
const MAX_MESSAGE_BYTES = 64 * 1024;

const NOT_FOUND = JSON.stringify({ error: { code: 'not_found', message: 'Not found.', details: [] } });

export function createStreamingServer(options: StreamingServerOptions): StreamingServer {
  const events = new EventEmitter();
  const finalizing = new Set<Promise<unknown>>();
  const track = (done: Promise<unknown>) => {
    const p = done.finally(() => finalizing.delete(p));
    finalizing.add(p);
  };
  /** Streams between their `start` and their session: a close waits for them to become calls (and end). */
  const starts = new Set<Promise<unknown>>();
  let environment: Promise<StreamingEnvironment> | undefined;
  const context: SocketContext = {
    env: () =>
      (environment ??= options.environment().catch((error: unknown) => {
        environment = undefined;
        throw error;
      })),
    refused: (reason) => events.emit('refused', { reason }),
    greetingTimeoutMs: options.startTimeoutMs ?? 10_000,
  };
  const calls = createCallRunner({
    session: options.session,
    heartbeatMs: options.heartbeatMs ?? STREAM_HEARTBEAT_MS,
    ended: (event) => events.emit('ended', event),
    track,
    internalUrl: options.internalUrl,
  });
  const routing: LiveRouting = { session: calls.session, selfUrl: options.internalUrl, env: context.env };
  const chats = createChats({
    ...context,
    ended: (chatId, error) => events.emit('chat-ended', { chatId, ...(error === undefined ? {} : { error }) }),
    track,
    rejoinGraceMs: options.chatRejoinGraceMs ?? 120_000,
    options: options.chat,
  });
  const admitting = (p: Promise<unknown>) => {
    starts.add(p);
    void p.finally(() => starts.delete(p));
  };
  const phone = createTwilioMedia({ ...context, run: calls.run, admitting, maxPayload: MAX_MESSAGE_BYTES });
  const web = createBrowserCalls({ ...context, run: calls.run, rejoinGraceMs: options.webRejoinGraceMs ?? 30_000, maxPayload: MAX_MESSAGE_BYTES });
  /** The router: upgrade path to socket kind. */
  const kinds = new Map<string, SocketKind>([
    [options.path ?? '/media-stream', phone],
    [options.webPath ?? '/web-stream', web],
    [options.chatPath ?? '/web-chat', chats],
    ['/live/listen', createListeners({ routing, refused: context.refused })],
  ]);
  const gate = upgradeGate(options.upgradeLimit);
  let own: Server | undefined;
  let draining = false;
  const active = () => calls.sessions.size + chats.active;

  const server: StreamingServer = {
    handleUpgrade(req, socket, head) {
      const kind = kinds.get(new URL(req.url ?? '/', 'http://local').pathname);
      if (!kind) return false;
      const refused = gate(req, draining);
      if (refused) socket.end(refused);
      else kind.wss.handleUpgrade(req, socket, head, (ws) => kind.wss.emit('connection', ws, req));
      return true;
    },
    handleRequest(req, res) {
      const url = new URL(req.url ?? '/', 'http://local');
      if (url.pathname === '/live/control' && req.method === 'POST') {
        void handleControl(routing, req, res);
        return true;
      }
      if (url.pathname !== '/health' || (req.method ?? 'GET') !== 'GET') return false;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ status: draining ? 'draining' : 'ok', activeSessions: calls.sessions.size }));
      return true;
    },
    attach(http) {
      http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (!server.handleUpgrade(req, socket, head) && http.listenerCount('upgrade') === 1) socket.destroy();
      });
    },
    async listen(port, host = '0.0.0.0') {
      const http = createServer((req, res) => {
        if (server.handleRequest(req, res)) return;
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(NOT_FOUND);
      });
      own = http;
      server.attach(http);
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(port, host, () => resolve());
      });
      const address = http.address();
      return { port: typeof address === 'object' && address ? address.port : port, server: http };
    },
    get activeSessions() {
      return calls.sessions.size;
    },
    sessions: calls.sessions,
    onCallEnded: (listener) => subscribe('ended', listener),
    onChatEnded: (listener) => subscribe('chat-ended', listener),
    get activeChats() {
      return chats.active;
    },
    onRefused: (listener) => subscribe('refused', listener),
    async drain(timeoutMs) {
      draining = true;
      const until = Date.now() + timeoutMs;
      while (active() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
      await server.close();
    },
    async close() {
      // No stream is admitted from here on (503, as while draining). One that arrived while the calls below
      // were writing their history used to run a whole call, and the close waited for it (28 November: the
      // test platform's stop took 30 s after a file whose last calls were still being set up).
      draining = true;
      for (const s of calls.sessions) s.end('error');
      for (const kind of kinds.values()) kind.close();
      for (const kind of kinds.values()) for (const ws of kind.wss.clients) ws.terminate();
      // A stream whose claim was being written becomes a call that ends at once (its socket is gone): its
      // history is written before the listener closes, as for the calls that were running. Without this
      // wait a loaded machine closed the listener while such a call still finalized.
      await Promise.allSettled([...starts]);
      await Promise.allSettled([...finalizing]);
      for (const kind of kinds.values()) await new Promise<void>((resolve) => kind.wss.close(() => resolve()));
      if (own) await new Promise<void>((resolve) => own!.close(() => resolve()));
    },
  };

  function subscribe<T>(event: string, listener: (event: T) => void): () => void {
    events.on(event, listener);
    return () => events.off(event, listener);
  }
  return server;
}
