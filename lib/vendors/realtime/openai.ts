import { connect as netConnect, type NetConnectOpts } from 'node:net';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { Config } from '../../config.js';
import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime';

/** Where the Realtime API is and with which key (the `openai` SDK's `baseURL`, `https://api.openai.com/v1`). */
export interface RealtimeEndpoint {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Whose realtime API (lib/vendors/realtime/gemini.ts for `google`); OpenAI when absent. */
  readonly provider?: 'openai' | 'google';
}

/** One open speech-to-speech socket: typed events in, typed events out. */
export interface RealtimeSocket {
  send(event: RealtimeClientEvent): void;
  close(): void;
}

export interface RealtimeHandlers {
  /** The socket is open: called before any event is delivered (events may arrive in the same tick). */
  opened(socket: RealtimeSocket): void;
  event(event: RealtimeServerEvent): void;
  /** The socket closed or failed; `expected` when we closed it. */
  closed(error: Error | undefined, expected: boolean): void;
}

/** The handshake gets this long: a realtime vendor that has not answered in 5 s will not carry a call. */
const OPEN_TIMEOUT_MS = 5_000;

/**
 * Opens `<base>/realtime?model=<model>` with the `openai` SDK's `OpenAIRealtimeWS` (its WebSocket client for
 * the Realtime API). The SDK always turns the base URL's scheme into `wss`; a base URL that says `http`
 * (a loopback stand-in, a plain-TCP proxy) is honoured by handing `ws` a plain TCP connection instead of TLS,
 * so the URL the configuration names is the one reached. Resolves once the socket is open.
 */
export function openRealtimeSocket(endpoint: RealtimeEndpoint, model: string, handlers: RealtimeHandlers): Promise<RealtimeSocket> {
  const client = new OpenAI({ apiKey: endpoint.apiKey, baseURL: endpoint.baseUrl });
  const plain = new URL(endpoint.baseUrl).protocol === 'http:';
  const options = plain ? { createConnection: (o: NetConnectOpts) => netConnect(o) } : {};
  const rt = new OpenAIRealtimeWS({ model, options: options as never }, client);
  let closing = false;
  let opened = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      rt.socket.terminate();
      reject(new Error(`the realtime socket did not open within ${OPEN_TIMEOUT_MS} ms`));
    }, OPEN_TIMEOUT_MS);
    rt.on('event', (event) => handlers.event(event));
    // Error events are part of `event` too; socket-level errors come here and end in `close`.
    rt.on('error', () => undefined);
    rt.socket.on('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      reject(new Error(`the realtime handshake was refused with HTTP ${res.statusCode}`));
      rt.socket.terminate();
    });
    rt.socket.once('open', () => {
      clearTimeout(timer);
      opened = true;
      const socket: RealtimeSocket = {
        send: (event) => rt.send(event),
        close: () => {
          closing = true;
          rt.close({ code: 1000, reason: 'call ended' });
        },
      };
      handlers.opened(socket);
      resolve(socket);
    });
    rt.socket.once('close', (code, reason) => {
      clearTimeout(timer);
      if (!opened) reject(new Error(`the realtime socket closed ${code} before it opened`));
      else handlers.closed(closing ? undefined : new Error(`the realtime socket closed ${code} ${reason.toString()}`), closing);
    });
  });
}

/** The Realtime API's endpoint under `config` (the workspace's keys already merged), or undefined without a key. */
export function realtimeEndpoint(config: Pick<Config, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_REALTIME_BASE_URL'>): RealtimeEndpoint | undefined {
  const apiKey = config.OPENAI_API_KEY;
  return apiKey ? { apiKey, baseUrl: config.OPENAI_REALTIME_BASE_URL ?? config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1' } : undefined;
}
