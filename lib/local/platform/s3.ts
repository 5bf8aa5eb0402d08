import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import S3rver from 's3rver';
import { verifySigV4, type S3Credentials } from './s3-auth.js';

/**
 * The local recordings bucket: s3rver, a DEVELOPMENT STAND-IN for S3. It is bound to loopback only, on a
 * port the OS picks, and answers only requests signed (SigV4, header or presigned URL) with credentials
 * made up at each start; unsigned requests, wrong signatures and expired URLs get 403. s3rver alone would
 * list and serve every workspace's recordings to anyone reaching its port (it ignores V4 signatures).
 */
export interface LocalS3 {
  readonly endpoint: string;
  /** The only credentials it accepts; the handlers and the streaming service get them as AWS_ACCESS_KEY_ID/SECRET. */
  readonly credentials: S3Credentials;
  stop(): Promise<void>;
}

/** Whether `host` is a loopback address (or `localhost`): the only interfaces the stand-in may listen on. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (!ipaddr.isValid(host)) return false;
  return ipaddr.process(host).range() === 'loopback';
}

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

interface KoaContext {
  req: IncomingMessage;
  method: string;
  querystring: string;
  status: number;
  type: string;
  body: unknown;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

/** The presigned-URL parameters that carry the signature (kept from s3rver, which would misread them). */
const AUTH_QUERY = new Set(['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature', 'X-Amz-Security-Token']);

/** Refuses what S3 would refuse; a verified request goes on to s3rver as an anonymous one. */
function requireSignature(credentials: S3Credentials): KoaMiddleware {
  return async (ctx, next) => {
    const url = ctx.req.url ?? '/';
    const q = url.indexOf('?');
    const verdict = verifySigV4(
      { method: ctx.method, rawPath: q < 0 ? url : url.slice(0, q), rawQuery: q < 0 ? '' : url.slice(q + 1), headers: ctx.req.headers },
      credentials,
    );
    if (!verdict.ok) {
      ctx.status = 403;
      ctx.type = 'application/xml';
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${verdict.code}</Code><Message>${xmlEscape(verdict.message)}</Message></Error>`;
      return;
    }
    // s3rver looks V4 credentials up in its own registry and never checks them: it gets the request unsigned.
    delete ctx.req.headers.authorization;
    if (q >= 0) {
      ctx.querystring = ctx.querystring
        .split('&')
        .filter((pair) => !AUTH_QUERY.has(decodeURIComponent(pair.split('=')[0] ?? '')))
        .join('&');
    }
    await next();
  };
}

/**
 * Starts s3rver with its objects under `dir` and the bucket created, on `host` (loopback only: anything
 * else is refused before it listens) and a port the OS picks.
 */
export async function startS3Local(dir: string, bucket: string, options: { host?: string } = {}): Promise<LocalS3> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new Error(`The local recordings bucket (s3rver) is a development stand-in and listens on loopback only, not on ${host}`);
  }
  await mkdir(dir, { recursive: true });
  const credentials: S3Credentials = {
    accessKeyId: `LOCAL${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString('base64url'),
  };
  const server = new S3rver({ port: 0, address: host, directory: dir, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  // Koa composes its middleware when the server starts listening, so this one runs first.
  (server as unknown as { middleware: KoaMiddleware[] }).middleware.unshift(requireSignature(credentials));
  const address = (await server.run()) as { port: number };
  const shown = host.includes(':') ? `[${host}]` : host;
  return { endpoint: `http://${shown}:${address.port}`, credentials, stop: () => server.close() };
}
