import type { WebSocket } from 'ws';
import { describeError, log } from '../../../lib/observability/log.js';
import type { WebSessionClaims } from '../../../lib/domain/web-session-token.js';
import { loadCallSetup } from '../admission.js';
import type { CallSetup, SessionServices } from '../call/types.js';
import type { StreamingEnvironment } from '../server.js';
import { decodeHello } from './web.js';

/**
 * The first exchange of every browser socket (a call's `/web-stream`, a chat's `/web-chat`): the page says
 * `hello` with its web session credential within `timeoutMs`, or the socket is refused. Nothing the page
 * sends before it is processed.
 */

/** WebSocket close code 1008: refused; 1011: could not be set up. */
export const REFUSED = 1008;
export const UNAVAILABLE = 1011;

/** Refuses a browser socket: a JSON `error` the page can show, then the close. */
export type Refuse = (ws: WebSocket, code: number, errorCode: string, message: string) => void;

export const refuser =
  (refused: (reason: string) => void): Refuse =>
  (ws, code, errorCode, message) => {
    refused(errorCode);
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'error', code: errorCode, message }));
    ws.close(code, errorCode);
  };

/** Waits for the socket's `hello`, then hands its credential to `begin`. */
export function awaitHello(ws: WebSocket, timeoutMs: number, refuse: Refuse, begin: (credential: string) => void): void {
  let greeted = false;
  const helloTimer = setTimeout(() => {
    if (!greeted) refuse(ws, REFUSED, 'no_hello', 'No hello message.');
  }, timeoutMs);
  const onFirst = (data: unknown, isBinary: boolean) => {
    // Audio before the hello is dropped: nothing is processed for an unadmitted socket.
    if (isBinary || greeted) return;
    const hello = decodeHello(String(data));
    if (!hello) return refuse(ws, REFUSED, 'bad_hello', 'The first message must be a hello.');
    greeted = true;
    clearTimeout(helloTimer);
    ws.off('message', onFirst);
    begin(hello.credential);
  };
  ws.on('message', onFirst);
  ws.on('close', () => clearTimeout(helloTimer));
  ws.on('error', () => undefined);
}

/**
 * The agent, contact, tools and vendors of the call or chat a verified credential names; undefined when they
 * could not be read (the socket has been refused as `unavailable`).
 */
export async function loadBrowserSetup(
  ws: WebSocket,
  refuse: Refuse,
  e: StreamingEnvironment,
  claims: WebSessionClaims,
  ids: { readonly callSid: string; readonly streamSid: string },
): Promise<{ setup: CallSetup; services: SessionServices } | undefined> {
  try {
    const setup = await loadCallSetup(claims, ids, e.loader);
    return { setup, services: await e.services(setup) };
  } catch (error) {
    log('warn', 'browser session setup failed', { callId: claims.callId, ...describeError(error) });
    refuse(ws, UNAVAILABLE, 'unavailable', 'The agent could not be reached. Try again in a moment.');
    return undefined;
  }
}
