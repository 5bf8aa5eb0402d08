/**
 * Invariant: after a call whose agent has an `analysis` section, the agent's own LLM is asked once, in its
 * vendor's JSON-schema mode, for the success verdict and the structured data; a valid answer is stored on
 * the history record (GET /api/history/{id}), filters the history list by outcome and is delivered as
 * `call.analyzed`, after `call.started` and `call.ended`, each signed; an answer that does not match the
 * schema is stored as a failed analysis, with nothing guessed.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ScriptRequest } from '../../lib/local/standins/llm.js';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { briefReplies, startVoicePlatform, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

const receiver = new WebhookReceiver();
let vp: VoicePlatform;
let secret: string;
/** What the "model" answers to the analysis request; each test sets it. */
let analysisAnswer = '';
const analysisRequests: ScriptRequest[] = [];

const ANALYSIS = {
  summaryPrompt: 'Summarize the booking in one sentence.',
  successEvaluation: { rubric: 'A table was booked for a date and time.', type: 'pass_fail' },
  structuredData: {
    schema: {
      type: 'object',
      properties: {
        appointment_booked: { type: 'boolean' },
        callback_time: { type: 'string' },
        party_size: { type: 'integer' },
      },
      required: ['appointment_booked', 'party_size'],
    },
  },
};

/** Every line this process logged (the platform and its streaming service run in it), at warn and above. */
const logged: string[] = [];
const restoreLogs: (() => void)[] = [];

beforeAll(async () => {
  // The platform reads LOG_LEVEL when it starts (the suite's default is silent).
  process.env.LOG_LEVEL = 'warn';
  for (const stream of [process.stdout, process.stderr]) {
    const spy = vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown) => {
      logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return true;
    }) as typeof stream.write);
    restoreLogs.push(() => spy.mockRestore());
  }
  await receiver.start();
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${receiver.port}`;
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'A table for four tomorrow at seven, please.', finalDelayMs: 50 },
    llm: {
      ttftMs: 20,
      tokensPerSecond: 0,
      reply: (request) => {
        // A short spoken answer: the agent's audio plays in real time.
        if (!request.responseSchema) return briefReplies(() => 'Booked.')(request);
        analysisRequests.push(request);
        return { text: analysisAnswer };
      },
    },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
  const endpoint = await vp.api('POST', '/api/webhooks', { url: receiver.url('/crm'), eventTypes: ['call.started', 'call.ended', 'call.analyzed'] });
  expect(endpoint.status).toBe(201);
  secret = (endpoint.body as { secret: string }).secret;
});
afterAll(async () => {
  await vp?.stop();
  await receiver.stop();
  for (const restore of restoreLogs) restore();
  process.env.LOG_LEVEL = 'silent';
  delete process.env.TOOL_ALLOWED_HOSTS;
});

/** One short call: the greeting, one caller turn and its answer, then the caller hangs up. */
async function runCall(agentId: string) {
  const agent = (await vp.agent({ _id: agentId, analysis: ANALYSIS as never, first_message: 'Luigi.' }))!;
  const caller = await vp.call(agent, { from: '+14155550100' });
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

const hooksFor = (callId: string) => receiver.received.filter((h) => h.json.data.callId === callId);

describe('post-call analysis', () => {
  it('extracts against the schema with the agent\'s LLM, stores it, filters history by it and sends call.analyzed', async () => {
    analysisAnswer = JSON.stringify({ success: { pass: true, reason: 'Booked for four at seven.' }, data: { appointment_booked: true, callback_time: '2026-01-02T19:00:00Z', party_size: 4 } });
    const ended = await runCall(`agt_01JWRF9YVRV07ZX0MV7YH6S1A1`);
    expect(ended.error).toBeUndefined();

    // One structured-output request, in OpenAI's json_schema mode, carrying the agent's schema.
    const request = vp.platform.voice.llm.control.requestsFor('openai').find((r) => (r.body as any).response_format)!.body as any;
    expect(request.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'call_analysis' } });
    expect(request.response_format.json_schema.schema.properties.data).toEqual(ANALYSIS.structuredData.schema);
    expect(request.messages[1].content).toMatch(/user: A table for four/);
    // The summary used the agent's own prompt.
    const summaryRequest = vp.platform.voice.llm.control.requestsFor('openai').find((r) => JSON.stringify(r.body).includes('Summarize the booking'));
    expect(summaryRequest).toBeDefined();

    const record = await vp.api('GET', `/api/history/${ended.callId}`, undefined);
    expect((record.body as any).analysis).toEqual({
      status: 'completed',
      success: { pass: true, reason: 'Booked for four at seven.' },
      data: { appointment_booked: true, callback_time: '2026-01-02T19:00:00Z', party_size: 4 },
      analyzedAt: expect.any(String),
    });
    const passed = await vp.api('GET', '/api/history?success=true', undefined);
    expect((passed.body as any).data.map((r: any) => r._id)).toContain(ended.callId);
    const failed = await vp.api('GET', '/api/history?success=false', undefined);
    expect((failed.body as any).data.map((r: any) => r._id)).not.toContain(ended.callId);

    const analyzed = await receiver.waitFor((h) => h.json.type === 'call.analyzed' && h.json.data.callId === ended.callId);
    const payload = new Webhook(secret).verify(analyzed.body, analyzed.headers as Record<string, string>) as any;
    expect(payload.data.analysis).toEqual((record.body as any).analysis);
    const types = hooksFor(ended.callId).map((h) => h.json.type);
    expect(new Set(types)).toEqual(new Set(['call.started', 'call.ended', 'call.analyzed']));
    const endedHook = hooksFor(ended.callId).find((h) => h.json.type === 'call.ended')!;
    expect(endedHook.json.data).toMatchObject({ callId: ended.callId, callEndReason: 'customer_hangup', mobileNumber: '+14155550100', callSummary: expect.any(String) });
    expect(endedHook.json.data).not.toHaveProperty('callTranscript');
  });

  it('records an answer that does not match the schema as a failed analysis, with no data guessed', async () => {
    analysisAnswer = JSON.stringify({ success: { pass: true, reason: 'ok' }, data: { appointment_booked: 'yes' } });
    const ended = await runCall(`agt_01JWRF9YVRV07ZX0MV7YH6S1A2`);
    const record = await vp.api('GET', `/api/history/${ended.callId}`, undefined);
    const analysis = (record.body as any).analysis;
    expect(analysis).toMatchObject({ status: 'failed', error: expect.stringContaining('does not match the schema') });
    expect(analysis).not.toHaveProperty('data');
    expect(analysis).not.toHaveProperty('success');
    const passed = await vp.api('GET', '/api/history?success=true', undefined);
    expect((passed.body as any).data.map((r: any) => r._id)).not.toContain(ended.callId);
    const analyzed = await receiver.waitFor((h) => h.json.type === 'call.analyzed' && h.json.data.callId === ended.callId);
    expect(analyzed.json.data.analysis.status).toBe('failed');
  });

  it('a refused vendor key leaves nothing key-shaped in the analysis error, call.analyzed or the log', async () => {
    const llm = vp.platform.voice.llm.control;
    const from = logged.length;
    // OpenAI refuses every request from the caller's turn on, as it does a wrong key: 401 "Incorrect API key
    // provided: sk-*********tand" (the key's first 3 and last 4 characters): the turn, the summary, the analysis.
    try {
      llm.failNext(401, 50, { vendor: 'openai' });
      const ended = await runCall(`agt_01JWRF9YVRV07ZX0MV7YH6S1A3`);
      const analyzed = await receiver.waitFor((h) => h.json.type === 'call.analyzed' && h.json.data.callId === ended.callId);
      llm.set({ failNext: undefined });
      const refused = llm.requestsFor('openai').filter((r) => r.status === 401);
      expect(refused.length).toBeGreaterThanOrEqual(2);

      const record = await vp.api('GET', `/api/history/${ended.callId}`, undefined);
      const analysis = (record.body as any).analysis;
      expect(analysis).toMatchObject({ status: 'failed', error: expect.stringContaining('Incorrect API key provided') });
      const payload = new Webhook(secret).verify(analyzed.body, analyzed.headers as Record<string, string>) as any;
      expect(payload.data.analysis).toEqual(analysis);
      const lines = logged.slice(from).filter((l) => l.includes('Incorrect API key'));
      // The in-call refusal was logged (with its cause), so the log is part of what is checked.
      expect(lines.length).toBeGreaterThan(0);
      for (const text of [analysis.error, analyzed.body, ...lines]) {
        expect(text).not.toMatch(/sk-/);
        expect(text).not.toMatch(/\*{3,}/);
        expect(text).not.toContain('tand.');
      }
      expect(analysis.error).toContain('[redacted]');
    } finally {
      llm.set({ failNext: undefined });
    }
  });

  it('an agent\'s analysis section is checked when saved: a schema outside the subset is a 400 naming the field', async () => {
    const agent = { name: 'A', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram' };
    const bad = await vp.api('POST', '/api/agents', { ...agent, analysis: { structuredData: { schema: { type: 'object', properties: { when: { type: 'date' } } } } } });
    expect(bad.status).toBe(400);
    expect((bad.body as any).error.details[0].field).toBe('analysis.structuredData.schema.properties.when.type');
    const good = await vp.api('POST', '/api/agents', { ...agent, analysis: ANALYSIS });
    expect(good.status).toBe(201);
    expect((good.body as any).analysis).toMatchObject({ successEvaluation: { type: 'pass_fail', passingScore: 7 } });
    const removed = await vp.api('PATCH', `/api/agents/${(good.body as any)._id}`, { analysis: null });
    expect(removed.status).toBe(200);
    expect((removed.body as any).analysis).toBeNull();
  });
});
