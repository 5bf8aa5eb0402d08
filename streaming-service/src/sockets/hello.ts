import type { WebSocket } from 'ws';
import { describeError, log } from '../../../lib/observability/log.js';
import type { WebSessionClaims } from '../../../lib/domain/web-session-token.js';
import { Refusal } from '../admission.js';
import { decodeHello } from '../transport/web.js';

/**
 * The first exchange of every browser socket (a call's `/web-stream`, a chat's `/web-chat`): the page says
 * `hello` with its web session credential within `timeoutMs`, or the socket is refused. Nothing the page
 * sends before it is processed.
 */

/** WebSocket close code 1008: refused; 1011: could not be set up. */
export const REFUSED = 1008;
export const UNAVAILABLE = 1011;

/** Refuses a browser socket: a JSON `error` the page can show (the reason is its code), then the close. */
export type Refuse = (ws: WebSocket, refusal: Refusal) => void;

export const refuser =
  (refused: (reason: string) => void): Refuse =>
  (ws, { code, reason, message }) => {
    refused(reason);
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'error', code: reason, message }));
    ws.close(code, reason);
  };

/** Waits for the socket's `hello`, then hands its credential to `begin`. */
export function awaitHello(ws: WebSocket, timeoutMs: number, refuse: Refuse, begin: (credential: string) => void): void {
  let greeted = false;
  const helloTimer = setTimeout(() => {
    if (!greeted) refuse(ws, new Refusal(REFUSED, 'no_hello', 'No hello message.'));
  }, timeoutMs);
  const onFirst = (data: unknown, isBinary: boolean) => {
    // Audio before the hello is dropped: nothing is processed for an unadmitted socket.
    if (isBinary || greeted) return;
    const hello = decodeHello(String(data));
    if (!hello) return refuse(ws, new Refusal(REFUSED, 'bad_hello', 'The first message must be a hello.'));
    greeted = true;
    clearTimeout(helloTimer);
    ws.off('message', onFirst);
    begin(hello.credential);
  };
  ws.on('message', onFirst);
  ws.on('close', () => clearTimeout(helloTimer));
  ws.on('error', () => undefined);
}

/** A browser socket's setup could not be read (the agent, contact, tools or vendors): the page may retry. */
export function setupFailed(claims: WebSessionClaims, error: unknown): Refusal {
  log('warn', 'browser session setup failed', { callId: claims.callId, ...describeError(error) });
  return new Refusal(UNAVAILABLE, 'unavailable', 'The agent could not be reached. Try again in a moment.');
}
