/**
 * Invariant: a user learns why a call failed, and a mistake is caught before the call when it can be.
 * - Saving an agent whose `tts_voice_id` the voice vendor's list (the stand-in's `GET /v1/voices`, as
 *   ElevenLabs documents it) lacks, or whose `llm_model` the model vendor's list lacks, is a 400 naming the
 *   field and suggesting valid values; nothing is saved. `GET /api/voices` lists the vendor's voices.
 * - A voice that disappears after the save (withdrawn from the stand-in's catalogue) ends the call with
 *   `tts_voice_not_found`; the record's `callError` names the stage, the vendor and its code, through
 *   `GET /api/history/{id}` and the signed `call.ended` webhook, and holds no key.
 * - A real call's timeline (`GET /api/history/{id}/events`) has its vendor connects, its turn with latency
 *   figures and its end, in time order; another workspace's id is 404.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../lib/domain/agent.js';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { STANDIN_KEY, restoreStandinEntries, withdrawStandinEntry } from '../../lib/local/standins/catalog.js';
import { createWorkspace } from '../../lib/store/workspaces.js';
import { forgetCatalogues } from '../../lib/vendors/catalogue.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { briefReplies, startVoicePlatform, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

const receiver = new WebhookReceiver();
let vp: VoicePlatform;
let secret: string;

/** A voice the stand-in (and ElevenLabs) has: Sarah, a premade voice. */
const SARAH = 'EXAVITQu4vr4xnSDxMaL';

beforeAll(async () => {
  await receiver.start();
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${receiver.port}`;
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'A table for two at seven.', finalDelayMs: 50 },
    llm: { ttftMs: 20, tokensPerSecond: 0, reply: briefReplies(() => 'Booked.') },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
  const endpoint = await vp.api('POST', '/api/webhooks', { url: receiver.url('/hooks'), eventTypes: ['call.ended'] });
  expect(endpoint.status).toBe(201);
  secret = (endpoint.body as { secret: string }).secret;
});
afterEach(() => {
  restoreStandinEntries();
  forgetCatalogues();
});
afterAll(async () => {
  await vp?.stop();
  await receiver.stop();
  delete process.env.TOOL_ALLOWED_HOSTS;
});

const agentBody = (extra: Record<string, unknown>) => ({
  name: 'Front desk',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'elevenlabs',
  stt_provider: 'deepgram',
  first_message: 'Luigi.',
  ...extra,
});

interface Refusal {
  error: { code: string; details: { field: string; message: string; suggestions: string[] }[] };
}

describe('save-time checks', () => {
  it('refuse a voice the vendor does not have, naming the field and suggesting voices; nothing is saved', async () => {
    const before = (await vp.api('GET', '/api/agents?limit=100', undefined)).body as { total: number };
    const refused = await vp.api('POST', '/api/agents', agentBody({ tts_voice_id: 'voice-1' }));
    expect(refused.status).toBe(400);
    const { error } = refused.body as Refusal;
    expect(error.code).toBe('validation_failed');
    expect(error.details).toHaveLength(1);
    expect(error.details[0]).toMatchObject({ field: 'tts_voice_id', message: expect.stringContaining('"voice-1"') });
    // Suggestions are real voices of the vendor's list, each accepted by a save.
    expect(error.details[0]!.suggestions.length).toBeGreaterThan(0);
    const voices = await vp.api('GET', '/api/voices?provider=elevenlabs', undefined);
    expect(voices.status).toBe(200);
    const listed = (voices.body as { data: { id: string; name: string }[] }).data;
    for (const s of error.details[0]!.suggestions) expect(listed.map((v) => v.id)).toContain(s);
    expect(listed.find((v) => v.id === SARAH)).toMatchObject({ name: 'Sarah', gender: 'female', language: 'en' });
    const after = (await vp.api('GET', '/api/agents?limit=100', undefined)).body as { total: number };
    expect(after.total).toBe(before.total);

    const accepted = await vp.api('POST', '/api/agents', agentBody({ tts_voice_id: error.details[0]!.suggestions[0] }));
    expect(accepted.status).toBe(201);
  });

  it('refuse an unknown model on create and on update, and keep the agent as it was', async () => {
    const refused = await vp.api('POST', '/api/agents', agentBody({ llm_model: 'gpt-4o-mimi' }));
    expect(refused.status).toBe(400);
    const detail = (refused.body as Refusal).error.details[0]!;
    expect(detail).toMatchObject({ field: 'llm_model' });
    expect(detail.suggestions).toContain('gpt-4o-mini');

    const created = await vp.api('POST', '/api/agents', agentBody({ tts_voice_id: SARAH }));
    expect(created.status).toBe(201);
    const id = (created.body as { _id: string })._id;
    const patched = await vp.api('PATCH', `/api/agents/${id}`, { llm_provider: 'anthropic', llm_model: 'claude-sonet-4-5' });
    expect(patched.status).toBe(400);
    expect((patched.body as Refusal).error.details[0]).toMatchObject({ field: 'llm_model' });
    const stored = await vp.api('GET', `/api/agents/${id}`, undefined);
    expect(stored.body).toMatchObject({ llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_voice_id: SARAH });
    // A dated snapshot of a model the vendor lists is one it serves.
    expect((await vp.api('PATCH', `/api/agents/${id}`, { llm_provider: 'anthropic', llm_model: 'claude-haiku-4-5-20251001' })).status).toBe(200);
  });

  it('save without a word when the catalogue cannot be read (the workspace key is refused by the vendor)', async () => {
    // The workspace's own ElevenLabs key, which the vendor does not know: its list answers 401.
    expect([200, 201]).toContain((await vp.api('PUT', '/api/provider-keys/elevenlabs', { apiKey: 'sk_not-an-account-of-elevenlabs' })).status);
    try {
      const saved = await vp.api('POST', '/api/agents', agentBody({ tts_voice_id: 'voice-1' }));
      expect(saved.status).toBe(201);
      expect((await vp.api('GET', '/api/voices?provider=elevenlabs', undefined)).status).toBe(503);
    } finally {
      await fetch(`${vp.platform.baseUrl}/api/provider-keys/elevenlabs`, { method: 'DELETE', headers: { 'x-api-key': vp.apiKey } });
    }
  });
});

/** One call with a caller turn: the greeting, a tone the recognizer hears as words, the answer, a hang-up. */
async function oneTurnCall(agent: Pick<Agent, '_id'>) {
  const caller = await vp.call(agent as Agent, { from: '+14155550100' });
  await caller.waitFor((m) => m.event === 'mark');
  await caller.whenIdle();
  const before = caller.received.length;
  await caller.play(tone(600));
  await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
  await caller.whenIdle();
  await caller.pause(200);
  caller.hangUp();
  return vp.nextCallEnded();
}

describe('why a call failed', () => {
  it('a voice withdrawn after the save ends the call as tts_voice_not_found, with callError in the record and call.ended', async () => {
    const created = await vp.api('POST', '/api/agents', agentBody({ tts_voice_id: SARAH }));
    expect(created.status).toBe(201);
    const agentId = (created.body as { _id: string })._id;
    withdrawStandinEntry(SARAH);

    const caller = await vp.call({ _id: agentId } as Agent);
    const closed = await caller.closed;
    expect(closed.reason).toBe('tts_voice_not_found');
    const ended = await vp.nextCallEnded();

    const record = (await vp.api('GET', `/api/history/${ended.callId}`, undefined)).body as Record<string, any>;
    expect(record.callEndReason).toBe('tts_voice_not_found');
    expect(record.callError).toEqual({ stage: 'tts', vendor: 'elevenlabs', code: 'voice_not_found', message: expect.stringContaining(SARAH), atSecond: expect.any(Number) });
    expect(record.callError.atSecond).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(record.callError)).not.toContain(STANDIN_KEY);

    const hook = await receiver.waitFor((h) => h.json.type === 'call.ended' && h.json.data.callId === ended.callId);
    const payload = new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as { data: Record<string, unknown> };
    expect(payload.data).toMatchObject({ callEndReason: 'tts_voice_not_found', callError: record.callError });

    const events = (await vp.api('GET', `/api/history/${ended.callId}/events`, undefined)).body as { data: { type: string; [k: string]: unknown }[] };
    expect(events.data.find((e) => e.type === 'error')).toMatchObject({ stage: 'tts', vendor: 'elevenlabs', code: 'voice_not_found', fatal: true });
    expect(events.data.at(-1)).toMatchObject({ type: 'ended', reason: 'tts_voice_not_found' });
    expect(JSON.stringify(events.data)).not.toContain(STANDIN_KEY);
  });
});

describe('the event timeline', () => {
  it("of a real call: vendor connects, the turn with its latencies, the end, in time order; another workspace's id is 404", async () => {
    const created = await vp.api('POST', '/api/agents', agentBody({ tts_voice_id: SARAH }));
    const ended = await oneTurnCall({ _id: (created.body as { _id: string })._id });
    expect(ended.outcome.reason).toBe('customer_hangup');
    const answer = await vp.api('GET', `/api/history/${ended.callId}/events`, undefined);
    expect(answer.status).toBe(200);
    const timeline = answer.body as { callId: string; truncated: boolean; limit: number; data: { type: string; atMs: number; [k: string]: unknown }[] };
    expect(timeline).toMatchObject({ callId: ended.callId, truncated: false, limit: 500 });
    const types = timeline.data.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['vendor_connected', 'turn', 'ended']));
    expect(timeline.data.filter((e) => e.type === 'vendor_connected').map((e) => [e.stage, e.vendor]).sort()).toEqual([
      ['stt', 'deepgram'],
      ['tts', 'elevenlabs'],
    ]);
    const turn = timeline.data.find((e) => e.type === 'turn')!;
    expect(turn.llmFirstTokenMs).toEqual(expect.any(Number));
    expect(turn.ttsFirstByteMs).toEqual(expect.any(Number));
    const times = timeline.data.map((e) => e.atMs);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(timeline.data.at(-1)).toMatchObject({ type: 'ended', reason: 'customer_hangup' });
    // No record of a call that went well carries a callError.
    expect(((await vp.api('GET', `/api/history/${ended.callId}`, undefined)).body as Record<string, unknown>).callError).toBeUndefined();

    const other = await createWorkspace(vp.deps.db, { name: 'other', credits: 0 });
    const foreign = await fetch(`${vp.platform.baseUrl}/api/history/${ended.callId}/events`, { headers: { 'x-api-key': other.apiKey } });
    expect(foreign.status).toBe(404);
    const unknown = await vp.api('GET', `/api/history/call_01JWRFQ0ZR6M4KQ8YB2D9NWS5E/events`, undefined);
    expect(unknown.status).toBe(404);
  });
});
