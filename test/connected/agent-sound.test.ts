/**
 * Invariant: an agent's `ambience` and `pronunciations` are stored and read back through the API, and every
 * bad value (an unknown sound, a volume out of range, a URL that is not a public https host, bad entries,
 * phonemes the agent's voice cannot read) is a 400 with the JSON error body naming the field, changing
 * nothing; per-call overrides get the same checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let ws: { workspaceId: string; apiKey: string };

const agentBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Front desk',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'cartesia',
  stt_provider: 'deepgram',
  workspaceId: ws.workspaceId,
  ...extra,
});

beforeAll(async () => {
  t = await startTestPlatform();
  ws = await t.workspace();
});
afterAll(() => t?.stop());

const fields = (body: any): string[] => (body.error.details as { field: string }[]).map((d) => d.field);

describe('agent ambience and pronunciations', () => {
  it('stores them and reads them back; PATCH replaces them', async () => {
    const pronunciations = [{ word: 'nguyen', phoneme: 'wɪn' }, { word: 'AWS', say_as: 'A W S' }];
    const created = await t.api(ws.apiKey, 'POST', '/api/agents', agentBody({ ambience_enabled: true, ambience: { sound: 'cafe', volume: 0.2 }, pronunciations }));
    expect(created.status).toBe(201);
    const got = await t.api(ws.apiKey, 'GET', `/api/agents/${created.body._id}`);
    expect(got.body).toMatchObject({ ambience_enabled: true, ambience: { sound: 'cafe', volume: 0.2 }, pronunciations: [{ word: 'nguyen', phoneme: 'wɪn', alphabet: 'ipa' }, { word: 'AWS', say_as: 'A W S' }] });
    const patched = await t.api(ws.apiKey, 'PATCH', `/api/agents/${created.body._id}`, { ambience: { sound: 'https://cdn.example.com/lobby.wav' }, pronunciations: [] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ ambience: { sound: 'https://cdn.example.com/lobby.wav', volume: 0.3 }, pronunciations: [] });
  });

  it('refuses bad sounds, volumes and URLs with a 400 naming the field, and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{ sound: 'forest' }, 'ambience.sound'],
      [{ sound: 'office', volume: 2 }, 'ambience.volume'],
      [{ sound: 'https://127.0.0.1/bed.wav' }, 'ambience.sound'],
      [{ sound: 'https://169.254.169.254/latest/meta-data' }, 'ambience.sound'],
      [{ sound: 'http://cdn.example.com/bed.wav' }, 'ambience.sound'],
      [{ sound: 'https://bed.internal/a.wav' }, 'ambience.sound'],
    ];
    const before = (await t.api(ws.apiKey, 'GET', '/api/agents')).body.total;
    for (const [ambience, field] of cases) {
      const res = await t.api(ws.apiKey, 'POST', '/api/agents', agentBody({ ambience_enabled: true, ambience }));
      expect(res.status, JSON.stringify(ambience)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(fields(res.body)).toContain(field);
    }
    expect((await t.api(ws.apiKey, 'GET', '/api/agents')).body.total).toBe(before);
  });

  it('refuses phonemes the voice cannot read, also when a PATCH changes the voice', async () => {
    const arpabet = [{ word: 'talon', phoneme: 'T AE1 L AH0 N', alphabet: 'cmu-arpabet' }];
    const refused = await t.api(ws.apiKey, 'POST', '/api/agents', agentBody({ pronunciations: arpabet }));
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0]).toMatchObject({ field: 'pronunciations.0.phoneme', message: expect.stringContaining('elevenlabs') });
    const ipa = await t.api(ws.apiKey, 'POST', '/api/agents', agentBody({ pronunciations: [{ word: 'nguyen', phoneme: 'wɪn' }] }));
    expect(ipa.status).toBe(201);
    const toDeepgram = await t.api(ws.apiKey, 'PATCH', `/api/agents/${ipa.body._id}`, { tts_provider: 'deepgram' });
    expect(toDeepgram.status).toBe(400);
    expect(fields(toDeepgram.body)).toEqual(['pronunciations.0.phoneme']);
    expect((await t.api(ws.apiKey, 'GET', `/api/agents/${ipa.body._id}`)).body.tts_provider).toBe('cartesia');
    const bad = await t.api(ws.apiKey, 'POST', '/api/agents', agentBody({ pronunciations: [{ word: 'x', say_as: '<break time="3s"/>' }] }));
    expect(bad.status).toBe(400);
    expect(fields(bad.body)[0]).toMatch(/^pronunciations\.0/);
  });
});
