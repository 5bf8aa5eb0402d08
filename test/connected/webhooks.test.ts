/**
 * Invariant: webhook endpoints receive every event they subscribe to, signed per Standard Webhooks so a
 * receiver using the `standardwebhooks` package verifies it; a delivery answered with 5xx, 429 or no answer
 * is retried with backoff (Retry-After honoured), other 4xx are not; a delivery that gives up lands in the
 * dead letters and its endpoint is disabled with a `webhook.disabled` notice; the delivery log shows every
 * attempt; events replay by id and by time range with their original id, within limits per endpoint and per
 * workspace and an hourly budget of replayed deliveries (a range beyond it is cut short); after a secret rotation both
 * secrets sign for the overlap; URLs that are plain http (outside TOOL_ALLOWED_HOSTS), private, loopback or
 * metadata addresses are refused when saved
 * and, for one stored before the rule, at delivery; the secret is shown only at creation and rotation, and
 * no workspace sees another's endpoints. A receiver that trickles its answer holds only its own attempt
 * (another workspace's event is delivered meanwhile), and only until the attempt's deadline, after which
 * the attempt is a timeout, retried per the schedule.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/domain/ids.js';
import { newWebhookSecret } from '../../lib/domain/webhook.js';
import { createSqsClient } from '../../lib/store/queue.js';
import { findEvent, putNewWebhookEndpoint } from '../../lib/store/webhooks.js';
import type { DeliveryMessage } from '../../lib/domain/webhook.js';
import { deliverAttempt } from '../../lib/services/webhook-delivery.js';
import { replayWebhookEvents, sendTestEvent } from '../../lib/services/webhooks.js';
import { RateLimitedError } from '../../lib/services/rate-limits.js';
import { eventually, receive } from '../support/calls.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { WAIT_MS } from '../support/progress.js';

let t: TestPlatform;
let ws: { workspaceId: string; apiKey: string };
const receiver = new WebhookReceiver();

beforeAll(async () => {
  await receiver.start();
  // The receiver is on loopback, which only an allow-listed host may be (local development and tests).
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${receiver.port}`;
  // Three retries, a second or two apart: the schedule's shape without its day (unit tests pin the real one).
  process.env.WEBHOOK_RETRY_SCHEDULE = '1,1,1';
  // Any endpoint that gives up is disabled at once, so the notice can be seen without waiting days.
  process.env.WEBHOOK_DISABLE_AFTER_MS = '0';
  // The longest deadline: a slow receiver holds its attempt as long as it may while another is delivered.
  // (The test of the deadline itself passes a short one.)
  process.env.WEBHOOK_DELIVERY_TIMEOUT_MS = '20000';
  t = await startTestPlatform();
  ws = await t.workspace(100);
});
afterAll(async () => {
  await t?.stop();
  await receiver.stop();
  delete process.env.TOOL_ALLOWED_HOSTS;
  delete process.env.WEBHOOK_RETRY_SCHEDULE;
  delete process.env.WEBHOOK_DISABLE_AFTER_MS;
  delete process.env.WEBHOOK_DELIVERY_TIMEOUT_MS;
});

async function createEndpoint(path: string, body: Record<string, unknown> = {}) {
  const res = await t.api(ws.apiKey, 'POST', '/api/webhooks', { url: receiver.url(path), description: path, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { _id: string; secret: string; eventTypes: string[] };
}

async function deliveriesOf(endpointId: string, until: (d: any[]) => boolean) {
  return eventually(async () => {
    const res = await t.api(ws.apiKey, 'GET', `/api/webhooks/${endpointId}/deliveries?limit=100`);
    return until(res.body.data) ? (res.body.data as any[]) : undefined;
  }, WAIT_MS, 'the delivery log');
}

const verify = (secret: string, hook: { body: string; headers: Record<string, unknown> }) =>
  new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as { id: string; type: string };

describe('endpoints', () => {
  it('shows the secret once, at creation, and never on reads; other workspaces get 404', async () => {
    const created = await createEndpoint('/crud', { eventTypes: ['call.ended', 'call.analyzed'] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await t.api(ws.apiKey, 'GET', `/api/webhooks/${created._id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    expect(got.body).toMatchObject({ eventTypes: ['call.ended', 'call.analyzed'], status: 'enabled' });
    const list = await t.api(ws.apiKey, 'GET', '/api/webhooks');
    expect(list.body.data.map((e: any) => e._id)).toContain(created._id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    const other = await t.workspace(0);
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['GET', '/deliveries'], ['POST', '/test'], ['POST', '/rotate-secret']]) {
      const res = await t.api(other.apiKey, method!, `/api/webhooks/${created._id}${path}`, method === 'PATCH' ? { description: 'x' } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const patched = await t.api(ws.apiKey, 'PATCH', `/api/webhooks/${created._id}`, { description: 'CRM', eventTypes: ['call.ended'] });
    expect(patched.body).toMatchObject({ description: 'CRM', eventTypes: ['call.ended'] });
    expect((await t.api(ws.apiKey, 'DELETE', `/api/webhooks/${created._id}`)).status).toBe(204);
    expect((await t.api(ws.apiKey, 'GET', `/api/webhooks/${created._id}`)).status).toBe(404);
  });

  it('refuses private, loopback, link-local and metadata URLs, plain http and other schemes when saved (400, nothing stored)', async () => {
    const before = (await t.api(ws.apiKey, 'GET', '/api/webhooks')).body.total;
    for (const url of [
      'http://127.0.0.1:1/hook', // loopback, but not the allow-listed port
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:10.0.0.1]/x',
      'http://localhost/x',
      'http://metadata.google.internal/x',
      'http://hooks.example.com/in', // a public host, but plain http: production endpoints are https
      'ftp://example.com/x',
      'https://user:pass@example.com/x',
      'not a url',
    ]) {
      const res = await t.api(ws.apiKey, 'POST', '/api/webhooks', { url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details[0].field, url).toBe('url');
    }
    // A server on the developer's own machine: the refusal names the local escape hatch, with its host and port.
    const local = await t.api(ws.apiKey, 'POST', '/api/webhooks', { url: 'http://localhost:8080/hooks' });
    expect(local.status).toBe(400);
    expect(local.body.error.details[0].message).toContain('TOOL_ALLOWED_HOSTS=localhost:8080');
    const created = await createEndpoint('/ssrf-update');
    const res = await t.api(ws.apiKey, 'PATCH', `/api/webhooks/${created._id}`, { url: 'http://10.1.2.3/x' });
    expect(res.status).toBe(400);
    const plain = await t.api(ws.apiKey, 'PATCH', `/api/webhooks/${created._id}`, { url: 'http://hooks.example.com/in' });
    expect([plain.status, plain.body.error.code, plain.body.error.details[0].field]).toEqual([400, 'validation_failed', 'url']);
    expect((await t.api(ws.apiKey, 'GET', `/api/webhooks/${created._id}`)).body.url).toBe(receiver.url('/ssrf-update'));
    expect((await t.api(ws.apiKey, 'GET', '/api/webhooks')).body.total).toBe(before + 1);
  });
});

describe('deliveries', () => {
  it('a test event arrives signed so the standardwebhooks package verifies it, and the log shows the attempt', async () => {
    const endpoint = await createEndpoint('/ping');
    const sent = await t.api(ws.apiKey, 'POST', `/api/webhooks/${endpoint._id}/test`);
    expect(sent.status).toBe(202);
    const hook = await receiver.waitFor((h) => h.path === '/ping');
    const payload = verify(endpoint.secret, hook);
    expect(payload).toEqual({
      id: sent.body.eventId,
      type: 'test.ping',
      createdAt: expect.any(String),
      workspaceId: ws.workspaceId,
      data: expect.objectContaining({ endpointId: endpoint._id }),
    });
    expect(hook.headers['webhook-id']).toBe(sent.body.eventId);
    // Another secret does not verify it.
    expect(() => verify(newWebhookSecret(), hook)).toThrow();
    const [delivery] = await deliveriesOf(endpoint._id, (d) => d[0]?.status === 'succeeded');
    expect(delivery).toMatchObject({ _id: sent.body.deliveryId, eventId: sent.body.eventId, eventType: 'test.ping', status: 'succeeded' });
    expect(delivery.attempts).toEqual([{ at: expect.any(String), status: 200, latencyMs: expect.any(Number), responseExcerpt: '{"ok":true}' }]);
  });

  it('retries 500 and 429 with backoff, honouring Retry-After, with the same webhook-id, until a 2xx', async () => {
    const endpoint = await createEndpoint('/flaky');
    receiver.script('/flaky', { status: 500, body: 'oops' }, { status: 429, headers: { 'retry-after': '3' }, body: 'slow down' });
    const sent = await t.api(ws.apiKey, 'POST', `/api/webhooks/${endpoint._id}/test`);
    const [delivery] = await deliveriesOf(endpoint._id, (d) => d[0]?.status === 'succeeded');
    expect(delivery.attempts.map((a: any) => a.status)).toEqual([500, 429, 200]);
    expect(delivery.attempts.map((a: any) => a.responseExcerpt)).toEqual(['oops', 'slow down', '{"ok":true}']);
    const hooks = receiver.at('/flaky');
    expect(hooks.map((h) => h.headers['webhook-id'])).toEqual([sent.body.eventId, sent.body.eventId, sent.body.eventId]);
    for (const h of hooks) expect(verify(endpoint.secret, h).id).toBe(sent.body.eventId);
    // Backoff: the first retry waited its scheduled second (with jitter, at least 0.8 s); after the 429 the
    // receiver's Retry-After of 3 s won over the schedule.
    const at = delivery.attempts.map((a: any) => Date.parse(a.at));
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(800);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(3_000);
  });

  it('does not retry other 4xx', async () => {
    const endpoint = await createEndpoint('/gone');
    receiver.script('/gone', { status: 410, body: 'no such hook' });
    await t.api(ws.apiKey, 'POST', `/api/webhooks/${endpoint._id}/test`);
    const [delivery] = await deliveriesOf(endpoint._id, (d) => d[0]?.status === 'failed');
    expect(delivery.attempts.map((a: any) => a.status)).toEqual([410]);
    // A failing test event does not disable the endpoint.
    expect((await t.api(ws.apiKey, 'GET', `/api/webhooks/${endpoint._id}`)).body.status).toBe('enabled');
  });

  it('gives up after the schedule: the delivery is parked in the dead letters, the endpoint disabled and the notice sent', async () => {
    const watcher = await createEndpoint('/watcher', { eventTypes: ['webhook.disabled'] });
    const down = await createEndpoint('/down', { eventTypes: ['phone_number.released'] });
    receiver.script('/down', ...Array.from({ length: 4 }, () => ({ status: 503, body: 'down' })));
    // A real event: releasing a number the workspace bought.
    const search = await t.api(ws.apiKey, 'GET', '/api/phone-numbers/available?country=US&areaCode=415');
    const bought = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: search.body.data[0].number });
    expect(bought.status).toBe(201);
    expect((await t.api(ws.apiKey, 'DELETE', `/api/phone-numbers/${bought.body._id}`)).status).toBe(204);

    const [delivery] = await deliveriesOf(down._id, (d) => d[0]?.status === 'failed');
    expect(delivery.eventType).toBe('phone_number.released');
    expect(delivery.attempts.map((a: any) => a.status)).toEqual([503, 503, 503, 503]);
    const released = receiver.at('/down')[0]!;
    expect(verify(down.secret, released)).toMatchObject({ type: 'phone_number.released', data: { phoneNumberId: bought.body._id } });

    const sqs = createSqsClient({ AWS_REGION: 'us-east-1', SQS_ENDPOINT: t.platform.stores.sqs.endpoint });
    const dead = await eventually(async () => {
      const got = await receive(sqs, t.platform.webhookQueues.deadLetterQueueUrl);
      return got.find((m) => JSON.parse(m.Body!).deliveryId === delivery._id);
    }, WAIT_MS, 'the dead letter');
    expect(JSON.parse(dead.Body!)).toMatchObject({ endpointId: down._id, eventId: delivery.eventId, attempt: 4 });

    const after = await t.api(ws.apiKey, 'GET', `/api/webhooks/${down._id}`);
    expect(after.body).toMatchObject({ status: 'disabled', disabledReason: expect.stringContaining('deliveries failed since') });
    const notice = await receiver.waitFor((h) => h.path === '/watcher');
    expect(verify(watcher.secret, notice)).toMatchObject({ type: 'webhook.disabled', data: { endpointId: down._id } });

    // Re-enabled, it takes events again and its failing streak is forgotten.
    const enabled = await t.api(ws.apiKey, 'PATCH', `/api/webhooks/${down._id}`, { enabled: true });
    expect(enabled.body.status).toBe('enabled');
    expect(enabled.body).not.toHaveProperty('failingSince');
    expect(enabled.body).not.toHaveProperty('disabledReason');
  });

  it('replays one event by id, and a time range, with the original event id', async () => {
    const endpoint = await createEndpoint('/replay', { eventTypes: ['contacts.import.completed', 'phone_number.released'] });
    const from = new Date().toISOString();
    const search = await t.api(ws.apiKey, 'GET', '/api/phone-numbers/available?country=US&areaCode=628');
    for (const n of search.body.data.slice(0, 2)) {
      const bought = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: n.number });
      await t.api(ws.apiKey, 'DELETE', `/api/phone-numbers/${bought.body._id}`);
    }
    await eventually(async () => (receiver.at('/replay').length >= 2 ? true : undefined), WAIT_MS, 'two events');
    const first = receiver.at('/replay')[0]!.json;

    const one = await t.api(ws.apiKey, 'POST', `/api/webhooks/${endpoint._id}/replay`, { eventId: first.id });
    expect(one.status).toBe(202);
    expect(one.body.replayed).toBe(1);
    await eventually(async () => (receiver.at('/replay').length >= 3 ? true : undefined), WAIT_MS, 'the replay');
    expect(receiver.at('/replay')[2]!.json).toEqual(first);
    expect(receiver.at('/replay')[2]!.headers['webhook-id']).toBe(first.id);

    const range = await t.api(ws.apiKey, 'POST', `/api/webhooks/${endpoint._id}/replay`, { since: from, until: new Date().toISOString() });
    expect(range.body).toMatchObject({ replayed: 2, truncated: false });
    expect(range.body).not.toHaveProperty('nextSince');
    await eventually(async () => (receiver.at('/replay').length >= 5 ? true : undefined), WAIT_MS, 'the range replay');
    expect(new Set(receiver.at('/replay').slice(3).map((h) => h.json.id))).toEqual(new Set(receiver.at('/replay').slice(0, 2).map((h) => h.json.id)));

    const unknown = await t.api(ws.apiKey, 'POST', `/api/webhooks/${endpoint._id}/replay`, { eventId: newId('event') });
    expect(unknown.status).toBe(404);
    const bad = await t.api(ws.apiKey, 'POST', `/api/webhooks/${endpoint._id}/replay`, {});
    expect(bad.status).toBe(400);
  });

  it('after a rotation both the new and the old secret verify deliveries', async () => {
    const endpoint = await createEndpoint('/rotate');
    const rotated = await t.api(ws.apiKey, 'POST', `/api/webhooks/${endpoint._id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const overlapMs = Date.parse(rotated.body.previousSecretExpiresAt) - Date.now();
    expect(overlapMs).toBeGreaterThan(23 * 3600_000);
    await t.api(ws.apiKey, 'POST', `/api/webhooks/${endpoint._id}/test`);
    const hook = await receiver.waitFor((h) => h.path === '/rotate');
    expect(String(hook.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(rotated.body.secret, hook).type).toBe('test.ping');
    expect(verify(endpoint.secret, hook).type).toBe('test.ping');
    expect((await t.api(ws.apiKey, 'GET', `/api/webhooks/${endpoint._id}`)).body).not.toHaveProperty('secret');
  });

  it('refuses at delivery a stored URL that the policy forbids, without sending anything', async () => {
    // Saved before the rule (or by another path): straight into the store.
    const now = new Date().toISOString();
    const id = newId('webhookEndpoint');
    await putNewWebhookEndpoint(t.deps.db, t.deps.secrets, {
      _id: id, workspaceId: ws.workspaceId, url: 'http://127.0.0.1:9/metadata', description: 'legacy', eventTypes: ['call.ended'],
      status: 'enabled', secret: newWebhookSecret(), createdAt: now, updatedAt: now,
    });
    await t.api(ws.apiKey, 'POST', `/api/webhooks/${id}/test`);
    const [delivery] = await deliveriesOf(id, (d) => d[0]?.status === 'failed');
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0].error).toMatch(/refused: 127\.0\.0\.1 is a private, loopback/);
    expect(delivery.attempts[0]).not.toHaveProperty('status');
  });

  it('sends credits.low once when a reservation takes the balance under the workspace threshold, and again once the alert is re-armed', async () => {
    const rich = await t.workspace(100);
    const api = (method: string, path: string, body?: unknown) => t.api(rich.apiKey, method, path, body);
    const created = await api('POST', '/api/webhooks', { url: receiver.url('/credits'), eventTypes: ['credits.low'] });
    expect((await api('GET', '/api/webhooks/settings')).body).toEqual({ creditsLowThreshold: null });
    expect((await api('PUT', '/api/webhooks/settings', { creditsLowThreshold: 95 })).body).toEqual({ creditsLowThreshold: 95 });
    expect((await api('PUT', '/api/webhooks/settings', { creditsLowThreshold: -1 })).status).toBe(400);
    const agent = await api('POST', '/api/agents', { name: 'Caller', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram' });
    const search = await api('GET', '/api/phone-numbers/available?country=US&areaCode=212');
    const number = await api('POST', '/api/phone-numbers/buy', { phoneNumber: search.body.data[0].number });
    const call = () => api('POST', '/api/optimus/phone-call', { assistantId: agent.body._id, phoneNumber: '+14155552671', phoneNumberId: number.body._id });
    const credits = () => api('GET', `/api/webhooks/${created.body._id}/deliveries`).then((r) => r.body.data.filter((d: any) => d.eventType === 'credits.low'));

    expect((await call()).status).toBe(202);
    const hook = await receiver.waitFor((h) => h.path === '/credits');
    expect(verify(created.body.secret, hook)).toMatchObject({ type: 'credits.low', workspaceId: rich.workspaceId, data: { threshold: 95, balance: expect.any(Number) } });
    expect(hook.json.data.balance).toBeLessThan(95);
    // Still under the threshold: the next reservation sends nothing (its delivery would exist by the 202).
    expect((await call()).status).toBe(202);
    expect(await credits()).toHaveLength(1);
    // Setting the threshold again re-arms the alert.
    await api('PUT', '/api/webhooks/settings', { creditsLowThreshold: 95 });
    expect((await call()).status).toBe(202);
    expect(await credits()).toHaveLength(2);
  });
});

describe('replay limits', () => {
  it('limits replays per endpoint and per workspace, and counts replayed deliveries against an hourly budget: a range beyond it is cut short, a spent one is 429', async () => {
    // A workspace without credits: replays cost it nothing, which is why they are limited.
    const own = await t.workspace(0);
    const api = (method: string, path: string, body?: unknown) => t.api(own.apiKey, method, path, body);
    const endpoint = (await api('POST', '/api/webhooks', { url: receiver.url('/budget'), eventTypes: ['test.ping'] })).body;
    const other = (await api('POST', '/api/webhooks', { url: receiver.url('/budget-other'), eventTypes: ['test.ping'] })).body;
    const since = new Date().toISOString();
    const events: string[] = [];
    for (let i = 0; i < 4; i += 1) events.push((await api('POST', `/api/webhooks/${endpoint._id}/test`)).body.eventId);
    const until = new Date().toISOString();
    // Small limits, and the clock passed in (the middle of an hour), so no window ends during the test.
    const hour = (limit: number) => ({ limit, windowSeconds: 3600 });
    const deps = {
      ...t.deps,
      config: { ...t.deps.config, RATE_LIMIT_WEBHOOK_REPLAY: hour(3), RATE_LIMIT_WEBHOOK_REPLAY_WORKSPACE: hour(4), WEBHOOK_REPLAY_BUDGET: hour(6), WEBHOOK_REPLAY_WORKSPACE_BUDGET: hour(100) },
    };
    const nowMs = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1_800_000;
    const replay = (id: string, input: Record<string, string>) => replayWebhookEvents(deps, own.workspaceId, id, input, nowMs);
    const refusal = (p: Promise<unknown>) => p.then(() => { throw new Error('not refused'); }, (e: unknown) => e as RateLimitedError & { details: Record<string, unknown>[] });

    expect(await replay(endpoint._id, { since, until })).toMatchObject({ replayed: 4, truncated: false });
    // Two deliveries left in the endpoint's budget: the oldest two events, and where to go on from.
    const cut = await replay(endpoint._id, { since, until });
    expect(cut).toMatchObject({ replayed: 2, truncated: true });
    // Oldest first, in id order (ids sort by creation time).
    const third = await findEvent(t.deps.db, own.workspaceId, [...events].sort()[2]!);
    expect(cut.nextSince).toBe(third!.createdAt);
    // Spent: 429 with the wait until the budget's window ends, and nothing replayed.
    const spent = await refusal(replay(endpoint._id, { eventId: events[0]! }));
    expect(spent).toBeInstanceOf(RateLimitedError);
    expect(spent.details[0]).toMatchObject({ policy: 'webhook-replay-budget', limit: 6, windowSeconds: 3600, retryAfterSeconds: 1800 });
    expect(spent.headers).toMatchObject({ 'retry-after': '1800', 'ratelimit-policy': '"webhook-replay-budget";q=6;w=3600' });
    expect(spent.message).toMatch(/deliveries replayed to this webhook endpoint/);
    // The endpoint's requests: three an hour here.
    expect((await refusal(replay(endpoint._id, { eventId: events[0]! }))).details[0]).toMatchObject({ policy: 'webhook-replay', limit: 3 });
    // The workspace's: four an hour here, whichever endpoint.
    expect((await refusal(replay(other._id, { eventId: events[0]! }))).details[0]).toMatchObject({ policy: 'webhook-replay-workspace', limit: 4 });

    // What was sent: the four events, then six replayed deliveries; the refused replays made none.
    const log = await t.api(own.apiKey, 'GET', `/api/webhooks/${endpoint._id}/deliveries?limit=100`);
    expect(log.body.total).toBe(10);
    expect((await t.api(own.apiKey, 'GET', `/api/webhooks/${other._id}/deliveries`)).body.total).toBe(0);
    await eventually(async () => (receiver.at('/budget').length >= 10 ? true : undefined), WAIT_MS, 'the replayed deliveries');
  });
});

describe('slow receivers', () => {
  it('a receiver trickling its answer holds only its own delivery: another workspace\'s event arrives while it still trickles', async () => {
    const slow = await createEndpoint('/slow');
    receiver.script('/slow', { status: 200, trickleMs: 100, body: '{"ok":true}' });
    const other = await t.workspace(0);
    const fast = await t.api(other.apiKey, 'POST', '/api/webhooks', { url: receiver.url('/fast'), description: 'fast' });
    expect(fast.status).toBe(201);

    await t.api(ws.apiKey, 'POST', `/api/webhooks/${slow._id}/test`);
    // The slow attempt is under way (its answer has begun) before the other workspace's event exists.
    const slowHook = await receiver.waitFor((h) => h.path === '/slow');
    const sent = await t.api(other.apiKey, 'POST', `/api/webhooks/${fast.body._id}/test`);
    const fastHook = await receiver.waitFor((h) => h.path === '/fast');
    expect(fastHook.json).toMatchObject({ id: sent.body.eventId, workspaceId: other.workspaceId });
    expect(receiver.trickling(slowHook)).toBe(true);

    receiver.release('/slow');
    expect(await receiver.trickleEnded(slowHook)).toBe('released');
  });

  it('an answer still trickling at the deadline is a timed-out attempt: the request is dropped, the attempt recorded as failed and retried', async () => {
    const endpoint = await createEndpoint('/trickle');
    receiver.script('/trickle', { status: 200, trickleMs: 20 });
    // This test's own consumer: a short deadline, and the queue captured (the retry is asserted, not sent).
    const queued: DeliveryMessage[] = [];
    const deps = {
      ...t.deps,
      config: { ...t.deps.config, WEBHOOK_DELIVERY_TIMEOUT_MS: 300 },
      webhooks: { send: async (m: DeliveryMessage) => void queued.push(m), sendToDeadLetters: async () => undefined },
    };
    const { deliveryId } = await sendTestEvent(deps, ws.workspaceId, endpoint._id);
    expect(await deliverAttempt(deps, queued[0]!)).toBe('retrying');
    // The receiver never finished its answer: we hung up on it.
    expect(await receiver.trickleEnded(receiver.at('/trickle')[0]!)).toBe('abandoned');
    expect(queued[1]).toMatchObject({ deliveryId, attempt: 2, notBefore: expect.any(String) });
    const [delivery] = await deliveriesOf(endpoint._id, (d) => d[0]?.status === 'retrying');
    expect(delivery).toMatchObject({ _id: deliveryId, status: 'retrying', nextAttemptAt: queued[1]!.notBefore });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0].error).toMatch(/^timed out: no complete answer within 300 ms \(HTTP 200 began/);
    expect(delivery.attempts[0]).not.toHaveProperty('status');
  });
});
