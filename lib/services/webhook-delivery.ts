import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Deps } from '../deps.js';
import {
  parseRetryAfter,
  retryDelayMs,
  verdictOf,
  type DeliveryAttempt,
  type DeliveryMessage,
  type WebhookEndpoint,
  type WebhookEvent,
} from '../domain/webhook.js';
import { log } from '../observability/log.js';
import { pinnedLookup, resolveToolTarget, ToolTargetRefusedError, type Resolver } from '../outbound/target-guard.js';
import { MAX_SQS_DELAY_SECONDS } from '../store/queue.js';
import {
  clearEndpointFailing,
  disableEndpoint,
  findDelivery,
  findEvent,
  findWebhookEndpoint,
  markEndpointFailing,
  recordAttempt,
} from '../store/webhooks.js';
import { announce } from './webhook-events.js';

/**
 * One attempt of one webhook delivery (docs/webhooks.md): sign the event per Standard Webhooks, check the
 * target against the SSRF policy after DNS resolution and connect to the checked address, POST, record the
 * attempt, then succeed, schedule the next attempt (backoff with jitter, honouring Retry-After), or give up
 * (dead letters; an endpoint that keeps giving up is disabled).
 */

export type DeliveryDeps = Pick<Deps, 'config' | 'db' | 'secrets' | 'webhooks'>;

/**
 * Receivers should acknowledge first and work later (the Standard Webhooks guidance); 10 s
 * (WEBHOOK_DELIVERY_TIMEOUT_MS) is generous for that. It bounds the whole attempt, from the DNS lookup and
 * the connection to the answer's last byte: a receiver that trickles its answer cannot hold a delivery
 * longer, however often it sends a byte.
 */
/** What the delivery log keeps of an answer: enough to read an error message, not a whole page. */
export const RESPONSE_EXCERPT_CHARS = 1_000;
const MAX_RESPONSE_BYTES = 8 * 1024;

/** What the consumer injects: the clock and the jitter (tests pin both), and the resolver. */
export interface DeliveryEnv {
  readonly now: () => number;
  readonly random: () => number;
  readonly resolver?: Resolver;
}

const SYSTEM_ENV: DeliveryEnv = { now: Date.now, random: Math.random };

/** The Standard Webhooks headers of one send; during a rotation's overlap both secrets sign. */
export function signatureHeaders(endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>, eventId: string, body: string, nowMs: number): Record<string, string> {
  const at = new Date(nowMs);
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && Date.parse(endpoint.previousSecretExpiresAt) > nowMs) {
    secrets.push(endpoint.previousSecret);
  }
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(nowMs / 1000)),
    // Several signatures are space-delimited; a receiver accepts the message when any one verifies.
    'webhook-signature': secrets.map((s) => signature(s, eventId, at, body)).join(' '),
  };
}

/**
 * One Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256, keyed by the secret's base64 after its
 * `whsec_` prefix, of `id.timestamp.body` (standard-webhooks spec, "Signature scheme"). Written with
 * node:crypto rather than the `standardwebhooks` package, which carries its own SHA-256 and base64 into every
 * Lambda that signs; the tests verify these signatures with that package, as a receiver would.
 */
function signature(secret: string, eventId: string, at: Date, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  if (key.length === 0) throw new Error("A webhook secret can't be empty");
  return `v1,${createHmac('sha256', key).update(`${eventId}.${Math.floor(at.getTime() / 1000)}.${body}`).digest('base64')}`;
}

/** What one POST produced. */
export interface PostResult {
  /** The receiver's status, only when its whole answer came within the deadline. */
  status?: number;
  error?: string;
  refused: boolean;
  retryAfter?: string;
  excerpt?: string;
}

/** Rejects with `signal`'s reason once it aborts (the deadline), whatever `work` is still doing. */
const beforeDeadline = <T>(work: Promise<T>, signal: AbortSignal): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });

/**
 * One POST, bounded as a whole by `timeoutMs`: resolving the name, connecting, sending and reading the
 * answer to its last byte. Past the deadline the request is destroyed and the attempt is a timeout (no
 * status, even when the headers had come: a 2xx whose body never ends is not an acknowledgement).
 */
export async function post(url: string, headers: Record<string, string>, body: string, allowedHosts: readonly string[], timeoutMs: number, resolver?: Resolver, keepChars: number = RESPONSE_EXCERPT_CHARS, keepBytes: number = MAX_RESPONSE_BYTES): Promise<PostResult> {
  const deadline = new AbortController();
  const timedOut = (status?: number): PostResult => ({
    refused: false,
    error: `timed out: no complete answer within ${timeoutMs} ms${status === undefined ? '' : ` (HTTP ${status} began, its body did not end)`}`,
  });
  const timer = setTimeout(() => deadline.abort(new Error('deadline')), timeoutMs);
  try {
    const parsed = new URL(url);
    let target;
    try {
      target = await beforeDeadline(resolveToolTarget(parsed, allowedHosts, resolver), deadline.signal);
    } catch (error) {
      if (error instanceof ToolTargetRefusedError) return { refused: true, error: error.message };
      if (deadline.signal.aborted) return timedOut();
      throw error;
    }
    const send = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
    return await new Promise<PostResult>((resolve) => {
      let status: number | undefined;
      const req = send(
        parsed,
        {
          method: 'POST',
          // Connect to the address that was checked: a second DNS answer cannot move the request (rebinding).
          lookup: pinnedLookup(target) as never,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'voice-agent-platform-webhooks/1' },
        },
        (res: IncomingMessage) => {
          status = res.statusCode;
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            if (size < keepBytes) chunks.push(c);
            size += c.length;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode,
              refused: false,
              retryAfter: res.headers['retry-after'],
              excerpt: Buffer.concat(chunks).toString('utf8').slice(0, keepChars),
            }),
          );
          res.on('error', (error) => resolve(deadline.signal.aborted ? timedOut(status) : { refused: false, error: `the answer broke off: ${error.message}` }));
        },
      );
      // The first to settle wins: the answer's end, an error, or the deadline (which destroys the request).
      const onDeadline = () => {
        resolve(timedOut(status));
        req.destroy();
      };
      if (deadline.signal.aborted) onDeadline();
      else deadline.signal.addEventListener('abort', onDeadline, { once: true });
      req.on('close', () => deadline.signal.removeEventListener('abort', onDeadline));
      req.on('error', (error) => resolve(deadline.signal.aborted ? timedOut(status) : { refused: false, error: error.message }));
      req.end(body);
    });
  } finally {
    clearTimeout(timer);
  }
}

/** Sends the message on when it is not due yet (waits over SQS's 15 minutes hop); true when it did. */
async function hopIfEarly(deps: DeliveryDeps, message: DeliveryMessage, nowMs: number): Promise<boolean> {
  if (!message.notBefore) return false;
  const waitMs = Date.parse(message.notBefore) - nowMs;
  // Within a second is due: SQS delays are whole seconds.
  if (waitMs <= 1_000) return false;
  await deps.webhooks.send(message, Math.min(MAX_SQS_DELAY_SECONDS, waitMs / 1000));
  return true;
}

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'skipped' | 'deferred';

/**
 * Makes attempt `message.attempt` of a delivery. Idempotent per attempt: a redelivered message whose attempt
 * is already recorded does nothing. Throws only for our own failures (the table, the queue), so the queue
 * redelivers the message.
 */
export async function deliverAttempt(deps: DeliveryDeps, message: DeliveryMessage, env: DeliveryEnv = SYSTEM_ENV): Promise<AttemptOutcome> {
  if (await hopIfEarly(deps, message, env.now())) return 'deferred';
  const { workspaceId: ws, endpointId, deliveryId } = message;
  const [endpoint, event, delivery] = await Promise.all([
    findWebhookEndpoint(deps.db, deps.secrets, ws, endpointId),
    findEvent(deps.db, ws, message.eventId),
    findDelivery(deps.db, ws, endpointId, deliveryId),
  ]);
  if (!endpoint || !event || !delivery || delivery.attempts.length >= message.attempt) return 'skipped';
  const startedMs = env.now();
  if (endpoint.status !== 'enabled' && event.type !== 'test.ping') {
    const attempt = { at: new Date(startedMs).toISOString(), error: 'endpoint disabled; not sent', latencyMs: 0 };
    await recordAttempt(deps.db, delivery, message.attempt, attempt, 'failed');
    return 'failed';
  }
  const body = JSON.stringify(event);
  const headers = signatureHeaders(endpoint, event.id, body, startedMs);
  const result = await post(endpoint.url, headers, body, deps.config.TOOL_ALLOWED_HOSTS, deps.config.WEBHOOK_DELIVERY_TIMEOUT_MS, env.resolver);
  const attempt: DeliveryAttempt = {
    at: new Date(startedMs).toISOString(),
    latencyMs: Math.max(0, env.now() - startedMs),
    ...(result.status !== undefined ? { status: result.status } : {}),
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.excerpt ? { responseExcerpt: result.excerpt } : {}),
  };
  const verdict = verdictOf(result.status, result.refused);
  if (verdict === 'succeeded') {
    if (!(await recordAttempt(deps.db, delivery, message.attempt, attempt, 'succeeded'))) return 'skipped';
    if (endpoint.failingSince) await clearEndpointFailing(deps.db, ws, endpointId);
    return 'succeeded';
  }
  const delay = verdict === 'retry'
    ? retryDelayMs(message.attempt, deps.config.WEBHOOK_RETRY_SCHEDULE, parseRetryAfter(result.retryAfter, startedMs), env.random)
    : undefined;
  if (delay !== undefined) {
    const notBefore = new Date(startedMs + delay).toISOString();
    // Queued before it is recorded: if the record fails, the redelivered message tries again (at least once);
    // a next attempt queued twice is made once, by the attempt-number guard.
    await deps.webhooks.send({ ...message, attempt: message.attempt + 1, notBefore }, delay / 1000);
    await recordAttempt(deps.db, delivery, message.attempt, attempt, 'retrying', notBefore);
    return 'retrying';
  }
  if (!(await recordAttempt(deps.db, delivery, message.attempt, attempt, 'failed'))) return 'skipped';
  await giveUp(deps, endpoint, event, message, startedMs);
  return 'failed';
}

/**
 * A delivery that will not be attempted again: parked in the dead letters, and the endpoint's failing streak
 * started (or, once it has lasted WEBHOOK_DISABLE_AFTER_MS, the endpoint disabled with a notice).
 */
async function giveUp(deps: DeliveryDeps, endpoint: WebhookEndpoint, event: WebhookEvent, message: DeliveryMessage, nowMs: number): Promise<void> {
  await deps.webhooks.sendToDeadLetters(message);
  // A test event failing says nothing about the live traffic; it must not disable anything.
  if (event.type === 'test.ping') return;
  const since = await markEndpointFailing(deps.db, endpoint.workspaceId, endpoint._id, new Date(nowMs).toISOString());
  if (!since || nowMs - Date.parse(since) < deps.config.WEBHOOK_DISABLE_AFTER_MS) return;
  const reason = `deliveries failed since ${since}`;
  if (await disableEndpoint(deps.db, endpoint.workspaceId, endpoint._id, reason, new Date(nowMs).toISOString())) {
    log('warn', 'webhook endpoint disabled', { workspaceId: endpoint.workspaceId, endpointId: endpoint._id, failingSince: since });
    await announce(deps, endpoint.workspaceId, 'webhook.disabled', { endpointId: endpoint._id, url: endpoint.url, failingSince: since, reason });
  }
}
