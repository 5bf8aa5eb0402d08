import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../../../lib/domain/errors.js';
import { LiveCommand, verifyControlToken } from '../../../lib/domain/live-control.js';
import { describeError, log } from '../../../lib/observability/log.js';
import type { CallSession } from '../session/call-session.js';
import type { StreamingEnvironment } from '../service.js';

/**
 * `POST /live/control` (docs/live-calls.md): a command for one call, from the API. The request carries a
 * control token signed for exactly its body and its call (lib/domain/live-control.ts). The task that holds
 * the call runs it (session/live-control.ts); any other task forwards it once to the holder's internal
 * address, recorded on the call when its stream started (the call lives on one task: on AWS the load
 * balancer picks any task for the API's request). A forwarded request that still finds no session is a 404.
 */

/** A command body is a few hundred bytes; 16 KB bounds what an unauthenticated client makes us read. */
const MAX_BODY_BYTES = 16 * 1024;
/** The forwarded hop is inside the VPC: a task that does not answer in 5 s is not going to. */
const FORWARD_TIMEOUT_MS = 5_000;
/** Marks a request one task forwarded to another: it is never forwarded again (no loops). */
export const FORWARDED_HEADER = 'x-live-forwarded';

export interface LiveRouting {
  /** The process's live calls by call id. */
  session(callId: string): CallSession | undefined;
  /** This task's internal address as the others reach it (undefined: one process holds every call). */
  readonly selfUrl?: string;
  env(): Promise<StreamingEnvironment>;
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};
const error = (res: ServerResponse, status: number, code: string, message: string) => send(res, status, { error: { code, message, details: [] } });

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The holder's address when it is another task (and this request was not forwarded already). */
export async function holderElsewhere(routing: LiveRouting, e: StreamingEnvironment, call: { workspaceId: string; callId: string }, forwarded: boolean): Promise<string | undefined> {
  if (forwarded || !routing.selfUrl || !e.live) return undefined;
  const host = await e.live.holder(call);
  return host && host !== routing.selfUrl ? host : undefined;
}

export async function handleControl(routing: LiveRouting, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const body = await readBody(req);
    if (body === undefined) return error(res, 413, 'payload_too_large', 'The command is too large.');
    const e = await routing.env();
    const token = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    const verified = e.live ? verifyControlToken(token, body, e.live.controlKey) : undefined;
    if (!verified?.ok) return error(res, 401, 'unauthorized', 'A valid control token is required.');
    let command: LiveCommand;
    try {
      command = LiveCommand.parse(JSON.parse(body));
    } catch {
      return error(res, 400, 'bad_request', 'The command is not valid.');
    }
    const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    const session = routing.session(verified.claims.callId);
    if (session && session.setup.workspaceId === verified.claims.workspaceId) return send(res, 200, session.live.run(command, key));
    const host = await holderElsewhere(routing, e, verified.claims, req.headers[FORWARDED_HEADER] !== undefined);
    if (!host) return error(res, 404, 'not_found', 'No call in progress here has that id.');
    const forwarded = await fetch(new URL('/live/control', host), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, [FORWARDED_HEADER]: '1', ...(key ? { 'idempotency-key': key } : {}) },
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    send(res, forwarded.status, await forwarded.json());
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return send(res, err.status, { error: { code: err.code, message: err.message, details: err.details } });
    log('warn', 'live control failed', describeError(err));
    if (!res.headersSent) error(res, 503, 'service_unavailable', 'The call could not be reached. Try again in a moment.');
  }
}
