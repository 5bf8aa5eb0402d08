import WebSocket from 'ws';
import { VendorError, isRetryableStatus } from '../shared/errors.js';

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
