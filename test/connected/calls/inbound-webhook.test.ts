/**
 * Invariant: a number's inbound webhook is asked, signed with Standard Webhooks, before each inbound call is
 * answered: its answer routes the call to another agent of the workspace with variables and metadata stored
 * on the call, or rejects it (busy, or a message then hang-up) with nothing reserved; a stall past the
 * budget, a non-2xx, an invalid answer or another workspace's agent falls back to the number's agent, and
 * every ask is in the delivery log with why, which the number's inbound-deliveries route lists to its own
 * workspace only. A private webhook URL is refused and changes nothing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { SimulatedCaller } from '../../../lib/local/callers/simulated-caller.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_TOKEN_KEY_PURPOSE, verifyStreamToken } from '../../../lib/domain/stream-token.js';
import { findCallByProviderSid } from '../../../lib/store/call-creation.js';
import { findCall } from '../../../lib/store/calls.js';
import { listDeliveries } from '../../../lib/store/webhooks.js';
import { expectRefusedUnchanged } from '../../support/invariants.js';
import { eventually, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';
import { WAIT_MS } from '../../support/progress.js';

interface Asked {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}
let p: CallsPlatform;
let server: Server;
let port = 0;
const asked: Asked[] = [];
/** What the customer's server does with the next request. */
let answer: (res: ServerResponse) => void = (res) => res.end('{}');

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      asked.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${port}`;
  p = await startCallsPlatform({ campaignScheduler: false });
});
afterAll(async () => {
  await p?.stop();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  delete process.env.TOOL_ALLOWED_HOSTS;
});

const json = (status: number, body: unknown) => (res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** A workspace whose number has the inbound webhook, and a second agent; the secret the update showed. */
async function withWebhook() {
  const s = await p.callerSetup(100);
  const second = await p.api(s.apiKey, 'POST', '/api/agents', { name: 'Billing', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram', first_message: 'Billing here, {{first_name}}.' });
  expect(second.status).toBe(201);
  const patched = await p.api(s.apiKey, 'PATCH', `/api/phone-numbers/${s.numberId}`, { agentId: s.agentId, inbound_webhook_url: `http://127.0.0.1:${port}/inbound` });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  expect(patched.body).toMatchObject({ agentId: s.agentId, inbound_webhook_url: `http://127.0.0.1:${port}/inbound`, inbound_webhook_secret: expect.stringMatching(/^whsec_/) });
  expect((await p.api(s.apiKey, 'GET', `/api/phone-numbers/${s.numberId}`)).body.inbound_webhook_secret).toBeUndefined();
  return { ...s, secondAgentId: second.body._id as string, secret: patched.body.inbound_webhook_secret as string };
}

const callOf = async (s: { workspaceId: string }, twiml: string) => {
  const token = /name="token" value="([^"]+)"/.exec(twiml)?.[1];
  expect(token, twiml).toBeDefined();
  const verified = verifyStreamToken(token!, p.deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE));
  if (!verified.ok) throw new Error('bad token');
  return (await findCall(p.deps.db, s.workspaceId, verified.claims.callId))!;
};

const lastDelivery = async (s: { workspaceId: string; numberId: string }) => (await listDeliveries(p.deps.db, s.workspaceId, s.numberId, { page: 1, limit: 10 })).data[0]!;

describe('the inbound webhook', () => {
  it('routes the call to a second agent with variables and metadata, asked with a signed call.inbound', async () => {
    const s = await withWebhook();
    answer = json(200, { agentId: s.secondAgentId, variables: { first_name: 'Ada' }, metadata: { ticket: 'T-1' } });
    const before = asked.length;
    const rung = await p.platform.twilio!.ringInbound(s.number, '+14155550701');
    expect(rung.body).toContain('<Connect><Stream');
    const call = await callOf(s, rung.body);
    expect(call).toMatchObject({ agentId: s.secondAgentId, direction: 'inbound', variables: { first_name: 'Ada' }, metadata: { ticket: 'T-1' }, to: '+14155550701' });
    const ask = asked[before]!;
    const event = new Webhook(s.secret).verify(ask.body, ask.headers as Record<string, string>) as { type: string; data: Record<string, string> };
    expect(event).toMatchObject({ type: 'call.inbound', data: { from: '+14155550701', to: s.number, numberId: s.numberId, callId: call._id } });
    expect(await lastDelivery(s)).toMatchObject({ eventType: 'call.inbound', status: 'succeeded', attempts: [{ status: 200 }] });

    // The caller's stream runs the second agent, its first message filled from the webhook's variables.
    const token = /name="token" value="([^"]+)"/.exec(rung.body)![1]!;
    const caller = await SimulatedCaller.connect({ url: `${p.baseUrl.replace(/^http/, 'ws')}/media-stream`, callSid: rung.callSid, customParameters: { token }, playbackSpeed: 4 });
    await caller.waitFor((m) => m.event === 'mark', WAIT_MS);
    await caller.whenIdle();
    caller.hangUp();
    const record = await eventually(async () => {
      const res = await p.api(s.apiKey, 'GET', `/api/history/${call._id}`);
      return res.status === 200 && res.body.callTranscript ? res.body : undefined;
    }, WAIT_MS, 'the history record');
    expect(record.callTranscript).toContain('agent: Billing here, Ada.');
    expect(record).toMatchObject({ agentId: s.secondAgentId, metadata: { ticket: 'T-1' } });
  });

  it('rejects the call when told: busy, or a message then hang-up, with no call reserved', async () => {
    const s = await withWebhook();
    answer = json(200, { reject: 'busy' });
    // Rung through the stand-in's own control route, as docs/telephony.md tells an `npm start` user to.
    const rang = await fetch(`${p.platform.twilio!.baseUrl}/_standin/ring`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ To: s.number, From: '+14155550702' }) });
    expect(rang.status).toBe(200);
    const busy = (await rang.json()) as { callSid: string; body: string };
    expect(busy.body).toContain('<Reject reason="busy"');
    expect(await findCallByProviderSid(p.deps.db, busy.callSid)).toBeUndefined();
    answer = json(200, { reject: { message: 'We are closed today.' } });
    const closed = await p.platform.twilio!.ringInbound(s.number, '+14155550703');
    expect(closed.body).toContain('<Say>We are closed today.</Say><Hangup/>');
    expect(await findCallByProviderSid(p.deps.db, closed.callSid)).toBeUndefined();
  });

  it("falls back to the number's agent on a 5 s stall, a 500, an invalid answer or another workspace's agent, and logs why", async () => {
    const s = await withWebhook();
    const other = await p.callerSetup(100);
    const cases: [(res: ServerResponse) => void, RegExp][] = [
      [(res) => setTimeout(() => json(200, { agentId: s.secondAgentId })(res), 5_000), /timed out/],
      [json(500, { oops: true }), /HTTP 500/],
      [json(200, { agentId: s.secondAgentId, variables: { nested: { no: 1 } } }), /invalid answer/],
      [json(200, { agentId: other.agentId }), /no agent/],
    ];
    for (const [behaviour, why] of cases) {
      answer = behaviour;
      const rung = await p.platform.twilio!.ringInbound(s.number, '+14155550704');
      const call = await callOf(s, rung.body);
      expect(call.agentId).toBe(s.agentId);
      expect(call.variables).toBeUndefined();
      const logged = await lastDelivery(s);
      expect(logged.status).toBe('failed');
      expect(logged.attempts[0]!.error).toMatch(why);
    }
  });

  it("lists the number's answers newest first (routed, rejected, fallback with why) to its own workspace only", async () => {
    const s = await withWebhook();
    answer = json(200, { agentId: s.secondAgentId, variables: { first_name: 'Ada' } });
    const routed = await callOf(s, (await p.platform.twilio!.ringInbound(s.number, '+14155550705')).body);
    answer = json(200, { reject: 'busy' });
    await p.platform.twilio!.ringInbound(s.number, '+14155550706');
    answer = json(503, { error: 'maintenance' });
    const fellBack = await callOf(s, (await p.platform.twilio!.ringInbound(s.number, '+14155550707')).body);
    const res = await p.api(s.apiKey, 'GET', `/api/phone-numbers/${s.numberId}/inbound-deliveries?limit=2`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(res.body.data).toEqual([
      expect.objectContaining({ callId: fellBack._id, outcome: 'fallback', agentId: s.agentId, reason: 'HTTP 503: only a 2xx answer is used', status: 503, responseExcerpt: '{"error":"maintenance"}' }),
      expect.objectContaining({ outcome: 'rejected', status: 200 }),
    ]);
    expect(res.body.data[1].agentId).toBeUndefined();
    const older = await p.api(s.apiKey, 'GET', `/api/phone-numbers/${s.numberId}/inbound-deliveries?limit=2&page=2`);
    expect(older.body.data).toEqual([expect.objectContaining({ callId: routed._id, outcome: 'routed', agentId: s.secondAgentId, status: 200 })]);
    expect(older.body.data[0].reason).toBeUndefined();
    for (const d of [...res.body.data, ...older.body.data]) expect(d.latencyMs).toEqual(expect.any(Number));

    // Another workspace reads its number's log as a number it does not have.
    const other = await p.callerSetup(100);
    const foreign = await p.api(other.apiKey, 'GET', `/api/phone-numbers/${s.numberId}/inbound-deliveries`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect((await p.api(other.apiKey, 'GET', `/api/phone-numbers/${other.numberId}/inbound-deliveries`)).body).toMatchObject({ data: [], total: 0 });
  });

  it('refuses a private or plain-http webhook URL with a 400 naming the field, changing nothing', async () => {
    const s = await p.callerSetup(100);
    for (const url of ['https://10.0.0.7/hook', 'http://example.com/hook', 'not a url']) {
      const res = await expectRefusedUnchanged(p.deps.db, 400, () => p.api(s.apiKey, 'PATCH', `/api/phone-numbers/${s.numberId}`, { inbound_webhook_url: url }));
      expect(res.body.error.details[0].field).toBe('inbound_webhook_url');
    }
  });
});
