/**
 * Invariant: agents are created, read, listed, updated and deleted through the HTTP API with exactly the
 * fields API_SPEC.md lists for each operation, and only within the key's workspace; `tool_ids` names only
 * tools of the key's workspace (another workspace's tool is refused exactly as an unknown one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let ws: { workspaceId: string; apiKey: string };

const agentBody = (workspaceId: string, extra: Record<string, unknown> = {}) => ({
  name: 'Receptionist',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'elevenlabs',
  stt_provider: 'deepgram',
  system_prompt: 'You are {{contactName}}\'s assistant.',
  first_message: 'Hello!',
  recording_enabled: true,
  workspaceId,
  ...extra,
});

beforeAll(async () => {
  t = await startTestPlatform();
  ws = await t.workspace();
});
afterAll(() => t?.stop());

describe('agents', () => {
  it('create returns exactly the create fields, 201', async () => {
    const res = await t.api(ws.apiKey, 'POST', '/api/agents', agentBody(ws.workspaceId));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['_id', 'name', 'llm_provider', 'llm_model', 'tts_provider', 'stt_provider', 'system_prompt', 'first_message', 'recording_enabled', 'workspaceId', 'createdAt'].sort(),
    );
    expect(res.body._id).toMatch(/^agt_/);
    expect(res.body.recording_enabled).toBe(true);
  });

  it('get returns the get fields including voice, ambience and updatedAt', async () => {
    const created = await t.api(ws.apiKey, 'POST', '/api/agents', agentBody(ws.workspaceId, { tts_voice_id: 'EXAVITQu4vr4xnSDxMaL' }));
    const res = await t.api(ws.apiKey, 'GET', `/api/agents/${created.body._id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        '_id', 'name', 'llm_provider', 'llm_model', 'tts_provider', 'tts_voice_id', 'stt_provider', 'system_prompt', 'first_message', 'recording_enabled', 'ambience_enabled',
        // The call controls (docs/telephony.md), with their defaults; max_duration_seconds only when set.
        'voicemail_detection', 'voicemail_action', 'voicemail_message', 'dtmf_shortcuts', 'transfer_mode',
        // How the call opens (docs/voice-pipeline.md, "The greeting"), with their defaults.
        'first_message_mode', 'first_message_interruptible',
        // The agent's language (docs/api.md, "language"), en-US by default.
        'language',
        // Which version calls run (docs/agent-versions.md): none yet.
        'published_version', 'has_unpublished_changes',
        'workspaceId', 'createdAt', 'updatedAt',
      ].sort(),
    );
    expect(res.body).toMatchObject({ first_message_mode: 'agent_speaks_first', first_message_interruptible: false, language: 'en-US', published_version: null, has_unpublished_changes: false });
    expect(res.body.tts_voice_id).toBe('EXAVITQu4vr4xnSDxMaL');
    expect(res.body.ambience_enabled).toBe(false);
    expect(res.body).toMatchObject({ voicemail_detection: 'off', voicemail_action: 'hang_up', voicemail_message: '', dtmf_shortcuts: {}, transfer_mode: 'cold' });
  });

  it('lists newest first with list fields, total and pagination', async () => {
    const other = await t.workspace();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const r = await t.api(other.apiKey, 'POST', '/api/agents', agentBody(other.workspaceId, { name: `A${i}` }));
      ids.push(r.body._id);
    }
    const page1 = await t.api(other.apiKey, 'GET', `/api/agents?workspaceId=${other.workspaceId}&limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ total: 5, page: 1, limit: 2 });
    expect(page1.body.data.map((a: { _id: string }) => a._id)).toEqual([ids[4], ids[3]]);
    expect(Object.keys(page1.body.data[0]).sort()).toEqual(
      ['_id', 'name', 'llm_provider', 'llm_model', 'tts_provider', 'stt_provider', 'workspaceId', 'createdAt'].sort(),
    );
    const page3 = await t.api(other.apiKey, 'GET', '/api/agents?page=3&limit=2');
    expect(page3.body.data.map((a: { _id: string }) => a._id)).toEqual([ids[0]]);
    const page9 = await t.api(other.apiKey, 'GET', '/api/agents?page=9&limit=2');
    expect(page9.body).toMatchObject({ data: [], total: 5, page: 9 });
    const defaults = await t.api(other.apiKey, 'GET', '/api/agents');
    expect(defaults.body).toMatchObject({ page: 1, limit: 10, total: 5 });
  });

  it('rejects limit outside 1..100 and non-numeric pages', async () => {
    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=abc', 'limit=2.5']) {
      const res = await t.api(ws.apiKey, 'GET', `/api/agents?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });

  it('patch changes only the fields sent and moves updatedAt', async () => {
    const created = await t.api(ws.apiKey, 'POST', '/api/agents', agentBody(ws.workspaceId));
    const before = await t.api(ws.apiKey, 'GET', `/api/agents/${created.body._id}`);
    const res = await t.api(ws.apiKey, 'PATCH', `/api/agents/${created.body._id}`, { first_message: 'Hi there' });
    expect(res.status).toBe(200);
    expect(res.body.first_message).toBe('Hi there');
    expect(res.body.name).toBe('Receptionist');
    expect(res.body.updatedAt >= before.body.updatedAt).toBe(true);
    const switched = await t.api(ws.apiKey, 'PATCH', `/api/agents/${created.body._id}`, { tts_provider: 'deepgram' });
    expect(switched.body.tts_voice_id).toBe('aura-2-thalia-en');
  });

  it('delete removes the agent and the count', async () => {
    const own = await t.workspace();
    const created = await t.api(own.apiKey, 'POST', '/api/agents', agentBody(own.workspaceId));
    const del = await t.api(own.apiKey, 'DELETE', `/api/agents/${created.body._id}`);
    expect(del.status).toBe(204);
    expect((await t.api(own.apiKey, 'GET', `/api/agents/${created.body._id}`)).status).toBe(404);
    expect((await t.api(own.apiKey, 'DELETE', `/api/agents/${created.body._id}`)).status).toBe(404);
    expect((await t.api(own.apiKey, 'GET', '/api/agents')).body.total).toBe(0);
  });

  it('rejects unknown providers, unknown fields and missing required fields, storing nothing', async () => {
    const own = await t.workspace();
    const cases: Record<string, unknown>[] = [
      agentBody(own.workspaceId, { llm_provider: 'mistral' }),
      agentBody(own.workspaceId, { tts_provider: 'OpenAI' }),
      agentBody(own.workspaceId, { stt_provider: 'whisper' }),
      agentBody(own.workspaceId, { colour: 'blue' }),
      agentBody(own.workspaceId, { recording_enabled: 'yes' }),
      agentBody(own.workspaceId, { first_message_mode: 'user_speaks_first' }),
      agentBody(own.workspaceId, { first_message_interruptible: 'no' }),
      { ...agentBody(own.workspaceId), name: undefined },
      { ...agentBody(own.workspaceId), llm_model: undefined },
    ];
    for (const body of cases) {
      const res = await t.api(own.apiKey, 'POST', '/api/agents', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'validation_failed' });
      expect(Array.isArray(res.body.error.details)).toBe(true);
    }
    expect((await t.api(own.apiKey, 'GET', '/api/agents')).body.total).toBe(0);
  });

  it('tool_ids: stored and returned as given; unknown, foreign and duplicate ids are a 400 naming the entry, changing nothing', async () => {
    const own = await t.workspace();
    const other = await t.workspace();
    const tool = async (w: { workspaceId: string; apiKey: string }, name: string) => {
      const res = await t.api(w.apiKey, 'POST', '/api/tools', { name, type: 'transfer', description: `Transfer to ${name}`, config: { url: 'tel:+14155550142' }, workspaceId: w.workspaceId });
      expect(res.status).toBe(201);
      return res.body._id as string;
    };
    const [a, b, foreign] = [await tool(own, 'Sales'), await tool(own, 'Support'), await tool(other, 'Theirs')];

    const created = await t.api(own.apiKey, 'POST', '/api/agents', agentBody(own.workspaceId, { tool_ids: [a] }));
    expect(created.status).toBe(201);
    expect(created.body.tool_ids).toEqual([a]);
    const id = created.body._id as string;
    expect((await t.api(own.apiKey, 'GET', `/api/agents/${id}`)).body.tool_ids).toEqual([a]);
    // Absent: every workspace tool, and nothing is stored.
    const all = await t.api(own.apiKey, 'POST', '/api/agents', agentBody(own.workspaceId));
    expect(all.body).not.toHaveProperty('tool_ids');
    expect((await t.api(own.apiKey, 'GET', `/api/agents/${all.body._id}`)).body).not.toHaveProperty('tool_ids');

    const bad = async (method: 'POST' | 'PATCH', body: Record<string, unknown>, field: string) => {
      const res = await t.api(own.apiKey, method, method === 'POST' ? '/api/agents' : `/api/agents/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
      return res.body.error;
    };
    // Another workspace's tool reads as an unknown id: the same answer, naming nothing about it.
    const unknownError = await bad('POST', agentBody(own.workspaceId, { tool_ids: [a, 'tool_nope'] }), 'tool_ids.1');
    const foreignError = await bad('POST', agentBody(own.workspaceId, { tool_ids: [a, foreign] }), 'tool_ids.1');
    expect(foreignError.details[0].message.replace(foreign, 'ID')).toBe(unknownError.details[0].message.replace('tool_nope', 'ID'));
    await bad('POST', agentBody(own.workspaceId, { tool_ids: [b, b] }), 'tool_ids.1');
    await bad('POST', agentBody(own.workspaceId, { tool_ids: [''] }), 'tool_ids.0');
    await bad('POST', agentBody(own.workspaceId, { tool_ids: a }), 'tool_ids');
    await bad('POST', agentBody(own.workspaceId, { tool_ids: Array.from({ length: 51 }, (_, i) => `tool_${i}`) }), 'tool_ids');
    await bad('PATCH', { tool_ids: [foreign] }, 'tool_ids.0');
    await bad('PATCH', { tool_ids: [b, a, b] }, 'tool_ids.2');
    expect((await t.api(own.apiKey, 'GET', '/api/agents')).body.total).toBe(2);
    expect((await t.api(own.apiKey, 'GET', `/api/agents/${id}`)).body.tool_ids).toEqual([a]);

    // PATCH replaces the list; [] is no workspace tool; null goes back to every tool.
    const patched = await t.api(own.apiKey, 'PATCH', `/api/agents/${id}`, { tool_ids: [b, a] });
    expect(patched.status).toBe(200);
    expect(patched.body.tool_ids).toEqual([b, a]);
    expect((await t.api(own.apiKey, 'PATCH', `/api/agents/${id}`, { tool_ids: [] })).body.tool_ids).toEqual([]);
    expect((await t.api(own.apiKey, 'PATCH', `/api/agents/${id}`, { tool_ids: null })).body.tool_ids).toBeNull();
    // A deleted tool stays listed (it is skipped at call time); the list is not rewritten behind the user.
    await t.api(own.apiKey, 'PATCH', `/api/agents/${id}`, { tool_ids: [a, b] });
    expect((await t.api(own.apiKey, 'DELETE', `/api/tools/${a}`)).status).toBe(204);
    expect((await t.api(own.apiKey, 'GET', `/api/agents/${id}`)).body.tool_ids).toEqual([a, b]);
    // ...but it can no longer be named anew.
    await bad('PATCH', { tool_ids: [a] }, 'tool_ids.0');
  });

  it('stores the call controls it is given and refuses bad ones with 400, changing nothing', async () => {
    const own = await t.workspace();
    const controls = {
      voicemail_detection: 'detect_message_end',
      voicemail_action: 'leave_message',
      voicemail_message: 'Hi {{contactName}}, please call us back.',
      max_duration_seconds: 300,
      dtmf_shortcuts: { '0': { action: 'transfer', destination: 'sip:desk@pbx.example.com', mode: 'warm' }, '*': { action: 'end_call' } },
      transfer_mode: 'warm',
    };
    const created = await t.api(own.apiKey, 'POST', '/api/agents', agentBody(own.workspaceId, controls));
    expect(created.status).toBe(201);
    const id = created.body._id as string;
    expect((await t.api(own.apiKey, 'GET', `/api/agents/${id}`)).body).toMatchObject(controls);
    const bad: Record<string, unknown>[] = [
      { voicemail_detection: 'Enable' },
      { voicemail_action: 'beep' },
      { voicemail_message: 'x'.repeat(1_001) },
      { max_duration_seconds: 29 },
      { max_duration_seconds: 3_601 },
      { max_duration_seconds: 60.5 },
      { dtmf_shortcuts: { '10': { action: 'end_call' } } },
      { dtmf_shortcuts: { '1': { action: 'transfer', destination: '555-0100' } } },
      { dtmf_shortcuts: { '1': { action: 'transfer', destination: 'sip:<script>@x' } } },
      { dtmf_shortcuts: { '1': { action: 'dance' } } },
      { transfer_mode: 'lukewarm' },
    ];
    for (const patch of bad) {
      const res = await t.api(own.apiKey, 'PATCH', `/api/agents/${id}`, patch);
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect((await t.api(own.apiKey, 'GET', `/api/agents/${id}`)).body).toMatchObject(controls);
  });

  it('stores fallback voices, transcribers and models, and refuses bad lists with 400, changing nothing', async () => {
    const own = await t.workspace();
    const fallback = {
      tts: [{ provider: 'cartesia' }],
      stt: [{ provider: 'assemblyai' }, { provider: 'speechmatics' }],
      llm: [{ provider: 'anthropic', model: 'claude-haiku-4-5' }],
    };
    const created = await t.api(own.apiKey, 'POST', '/api/agents', agentBody(own.workspaceId, { fallback }));
    expect(created.status).toBe(201);
    const id = created.body._id as string;
    expect((await t.api(own.apiKey, 'GET', `/api/agents/${id}`)).body.fallback).toEqual(fallback);
    const bad: Record<string, unknown>[] = [
      { fallback: { stt: [] } },
      { fallback: { stt: [{ provider: 'whisper' }] } },
      { fallback: { llm: [{ provider: 'anthropic' }] } },
      { fallback: { llm: Array.from({ length: 4 }, () => ({ provider: 'openai', model: 'gpt-4o' })) } },
      { fallback: { llm: [{ provider: 'openai', model: 'gpt-4o', temperature: 1 }] } },
    ];
    for (const patch of bad) {
      const res = await t.api(own.apiKey, 'PATCH', `/api/agents/${id}`, patch);
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect((await t.api(own.apiKey, 'GET', `/api/agents/${id}`)).body.fallback).toEqual(fallback);
  });

  it('takes the key\'s workspace when the body leaves workspaceId out, and refuses another one', async () => {
    const own = await t.workspace();
    const other = await t.workspace();
    const created = await t.api(own.apiKey, 'POST', '/api/agents', { ...agentBody(own.workspaceId), workspaceId: undefined });
    expect(created.status).toBe(201);
    expect(created.body.workspaceId).toBe(own.workspaceId);
    const foreign = await t.api(own.apiKey, 'POST', '/api/agents', agentBody(other.workspaceId));
    expect(foreign.status).toBe(403);
    expect((await t.api(own.apiKey, 'GET', '/api/agents')).body.total).toBe(1);
    expect((await t.api(other.apiKey, 'GET', '/api/agents')).body.total).toBe(0);
  });

  it('accepts every documented provider', async () => {
    // Each with a model it serves: a model of another vendor is refused at save time (docs/api.md, Agents).
    const models = { openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5', google: 'gemini-2.5-flash' };
    for (const llm of ['openai', 'anthropic', 'google'] as const)
      for (const tts of ['elevenlabs', 'deepgram', 'cartesia'])
        for (const stt of ['deepgram', 'assemblyai', 'speechmatics', 'openai']) {
          const res = await t.api(ws.apiKey, 'POST', '/api/agents', agentBody(ws.workspaceId, { llm_provider: llm, llm_model: models[llm], tts_provider: tts, stt_provider: stt }));
          expect(res.status).toBe(201);
        }
  });
});
