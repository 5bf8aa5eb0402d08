import WebSocket from 'ws';
import { VendorError, codeFromBody, isRetryableStatus } from '../shared/errors.js';
import { isRetryableClose } from './base.js';

/**
 * Opens a `ws` WebSocket for an adapter that speaks its vendor's documented protocol directly, and turns a
 * refused handshake into a {@link VendorError} carrying the vendor's HTTP status and message.
 */
export function openWebSocket(
  vendor: string,
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    // No permessage-deflate: base64 audio barely compresses, and deflate costs CPU on every frame of every
    // concurrent call.
    const ws = new WebSocket(url, { headers, perMessageDeflate: false });
    const onAbort = () => {
      ws.terminate();
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (fn: () => void) => {
      signal.removeEventListener('abort', onAbort);
      fn();
    };
    ws.once('open', () => settle(() => resolve(ws)));
    ws.once('unexpected-response', (req, res) => {
      const status = res.statusCode ?? 0;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => {
        if (body.length < 2_000) body += part;
      });
      const fail = () => {
        req.destroy();
        const detail = body.trim().slice(0, 500);
        settle(() =>
          reject(
            new VendorError(
              vendor,
              `handshake refused with HTTP ${status}${detail ? `: ${detail}` : ''}`,
              isRetryableStatus(status),
              status,
              { code: codeFromBody(detail) },
            ),
          ),
        );
      };
      res.once('end', fail);
      res.once('error', fail);
    });
    ws.once('error', (error) =>
      settle(() => reject(new VendorError(vendor, `connection failed: ${error.message}`, true, undefined, { cause: error }))),
    );
  });
}

/** Bytes of a `ws` message as one Uint8Array (a Buffer is one already). */
export function messageBytes(data: WebSocket.RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}

/**
 * The one socket of a TTS session whose vendor speaks JSON text frames over `ws` (ElevenLabs, Cartesia): it
 * opens through {@link openWebSocket}, hands each text frame to `onText`, and reports an unasked-for close
 * once, as a {@link VendorError} that says whether reconnecting can help, to `onLost`. A close this side
 * asked for ({@link close}, {@link drop}) is not reported: the socket is forgotten before it goes.
 */
export class JsonSocketLink {
  private ws: WebSocket | undefined;

  constructor(
    private readonly vendor: string,
    private readonly onText: (text: string) => void,
    private readonly onLost: (error: VendorError) => void,
  ) {}

  /** Opens the socket; rejects as {@link openWebSocket} does. */
  async open(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<void> {
    const ws = await openWebSocket(this.vendor, url, headers, signal);
    this.ws = ws;
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.onText(data.toString());
    });
    ws.on('error', () => {
      // 'close' follows and reports the loss.
    });
    ws.on('close', (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.onLost(
        new VendorError(this.vendor, `socket closed (${code}${reason.length ? ` ${reason.toString()}` : ''})`, isRetryableClose(code)),
      );
    });
  }

  /** Sends one JSON message; a retryable {@link VendorError} when the socket is not open. */
  send(message: Record<string, unknown>): void {
    const ws = this.ws;
    if (!ws) throw new VendorError(this.vendor, 'socket is not open', true);
    ws.send(JSON.stringify(message));
  }

  /**
   * Closes gracefully: `start` asks for the close in the vendor's way (a close frame, or a message after
   * which the vendor closes), and this resolves once the socket has closed. Nothing happens when not open.
   */
  async close(start: (ws: WebSocket) => void): Promise<void> {
    const ws = this.ws;
    if (!ws) return;
    this.ws = undefined;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      start(ws);
    });
  }

  /** Drops the socket at once, without a closing handshake. */
  drop(): void {
    const ws = this.ws;
    this.ws = undefined;
    ws?.terminate();
  }
}
