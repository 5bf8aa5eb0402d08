import type { IncomingMessage } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { LISTEN_HEADER_BYTES, verifyListenToken, type ListenFormat } from '../../../lib/domain/live-control.js';
import { describeError, log } from '../../../lib/observability/log.js';
import type { SocketKind } from '../service.js';
import { FORWARDED_HEADER, holderElsewhere, type LiveRouting } from './control.js';

/**
 * The listen socket, `/live/listen?token=…` (docs/live-calls.md, "Listen"): the URL `POST
 * /api/calls/{id}/listen` signs for one call. The task holding the call adds the socket to the call's tap;
 * another task opens the same URL on the holder (its internal address, recorded at the stream's start) and
 * relays what it sends. Nothing a listener sends is read: the call cannot be changed from here.
 */

/** WebSocket close 1008 (policy violation, RFC 6455 §7.4.1): no, bad or expired token, or no such call. */
const REFUSED = 1008;

export interface ListenerOptions {
  readonly routing: LiveRouting;
  readonly refused: (reason: string) => void;
}

export function createListeners({ routing, refused }: ListenerOptions): SocketKind {
  // A listener sends nothing: 1 KB is room for a close frame's reason, not for data.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 });

  const refuse = (ws: WebSocket, reason: string, message: string) => {
    refused(reason);
    ws.send(JSON.stringify({ type: 'error', code: reason, message }));
    ws.close(REFUSED, reason);
  };

  const begin = async (ws: WebSocket, req: IncomingMessage) => {
    const token = new URL(req.url ?? '/', 'http://local').searchParams.get('token') ?? '';
    const e = await routing.env();
    const verified = e.live ? verifyListenToken(token, e.live.listenKey) : undefined;
    if (!verified?.ok) return refuse(ws, 'bad_token', verified?.reason === 'expired' ? 'This listen URL has expired.' : 'This listen URL is not valid.');
    const { claims } = verified;
    const session = routing.session(claims.callId);
    if (session && session.setup.workspaceId === claims.workspaceId) {
      const format: ListenFormat = {
        encoding: 'pcm_s16le',
        sampleRate: session.transport.format.sampleRate >= 16_000 ? 16_000 : 8_000,
        channels: ['caller', 'agent'],
        headerBytes: LISTEN_HEADER_BYTES,
      };
      ws.send(JSON.stringify({ type: 'start', callId: claims.callId, agentState: session.state.state, format }));
      if (!session.tap.add(ws)) return;
      ws.on('close', () => session.tap.remove(ws));
      return;
    }
    const host = await holderElsewhere(routing, e, claims, req.headers[FORWARDED_HEADER] !== undefined);
    if (!host) return refuse(ws, 'not_found', 'No call in progress here has that id.');
    relay(ws, new URL(`/live/listen?token=${encodeURIComponent(token)}`, host.replace(/^http/, 'ws')).toString());
  };

  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    ws.on('error', () => undefined);
    // Whatever a listener sends is dropped unread.
    begin(ws, req).catch((error: unknown) => {
      log('warn', 'listener setup failed', describeError(error));
      if (ws.readyState === ws.OPEN) ws.close(1011, 'unavailable');
    });
  });

  return { wss, close: () => undefined };
}

/** Relays the holder's listen socket to this one, one way, frame for frame; either closing closes both. */
function relay(ws: WebSocket, url: string): void {
  const upstream = new WebSocket(url, { headers: { [FORWARDED_HEADER]: '1' } });
  upstream.on('message', (data, isBinary) => {
    if (ws.readyState === ws.OPEN) ws.send(data, { binary: isBinary });
  });
  upstream.on('close', (code, reason) => {
    if (ws.readyState === ws.OPEN) ws.close(code === 1005 ? 1000 : code, reason.toString());
  });
  upstream.on('error', () => {
    if (ws.readyState === ws.OPEN) ws.close(1011, 'unavailable');
  });
  ws.on('close', () => upstream.terminate());
}
