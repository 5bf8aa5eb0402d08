/**
 * Invariant: the API key alone decides the workspace. No, unknown or revoked keys get 401 (also on the
 * cached fast path), a foreign workspaceId gets 403, another workspace's record is 404, and hostile input
 * gets a JSON 4xx that changes nothing — never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../lib/store/workspaces.js';
import { expectRefusedUnchanged, type REFUSALS } from '../support/invariants.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let a: { workspaceId: string; apiKey: string };
let b: { workspaceId: string; apiKey: string };

const agent = (workspaceId: string) => ({
  name: 'A',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'cartesia',
  stt_provider: 'deepgram',
  workspaceId,
});

beforeAll(async () => {
  t = await startTestPlatform();
  a = await t.workspace();
  b = await t.workspace();
});
afterAll(() => t?.stop());

const expectError = (res: { status: number; body: any }, status: number, code?: string) => {
  expect(res.status).toBe(status);
  expect(res.body.error).toBeTypeOf('object');
  expect(res.body.error.message).toBeTypeOf('string');
  expect(Array.isArray(res.body.error.details) || typeof res.body.error.details === 'object').toBe(true);
  if (code) expect(res.body.error.code).toBe(code);
};

/** A refusal in the error body's shape that leaves every stored item as it was. */
const refused = async (status: (typeof REFUSALS)[number], request: () => Promise<{ status: number; body: any }>, code?: string) =>
  expectError(await expectRefusedUnchanged(t.deps.db, status, request), status, code);

describe('authentication', () => {
  it('401 without a key, with an unknown key, and with an absurdly long key', async () => {
    const noKey = await fetch(`${t.baseUrl}/api/agents`);
    expectError({ status: noKey.status, body: await noKey.json() }, 401, 'unauthorized');
    expectError(await t.api('vak_unknown', 'GET', '/api/agents'), 401, 'unauthorized');
    expectError(await t.api('x'.repeat(5000), 'GET', '/api/agents'), 401, 'unauthorized');
    await refused(401, () => t.api('vak_unknown', 'POST', '/api/agents', agent(a.workspaceId)), 'unauthorized');
    await refused(401, () => t.api('', 'POST', '/api/contacts', { contactName: 'C', phoneNumber: '+14155552671' }), 'unauthorized');
  });

  it('a write with a key revoked since its last use is refused and writes nothing (cached fast path)', async () => {
    const extra = await createApiKey(t.deps.db, a.workspaceId, 'temp');
    expect((await t.api(extra.apiKey, 'GET', '/api/agents')).status).toBe(200);
    await revokeApiKey(t.deps.db, a.workspaceId, extra.keyId);
    // The first request after the revocation is the write: only the cached workspace knows the key.
    await refused(401, () => t.api(extra.apiKey, 'POST', '/api/agents', agent(a.workspaceId)));
  });

  it('a revoked key is refused at once, even right after it was used (cached workspace)', async () => {
    const extra = await createApiKey(t.deps.db, a.workspaceId, 'temp');
    expect((await t.api(extra.apiKey, 'GET', '/api/agents')).status).toBe(200);
    expect((await t.api(extra.apiKey, 'GET', '/api/agents')).status).toBe(200);
    await revokeApiKey(t.deps.db, a.workspaceId, extra.keyId);
    expectError(await t.api(extra.apiKey, 'GET', '/api/agents'), 401);
    expectError(await t.api(extra.apiKey, 'POST', '/api/agents', agent(a.workspaceId)), 401);
    expect((await t.api(a.apiKey, 'GET', '/api/agents')).status).toBe(200);
  });
});

describe('tenancy', () => {
  it('403 for a foreign workspaceId in a query or a body, and nothing is stored', async () => {
    expectError(await t.api(a.apiKey, 'GET', `/api/agents?workspaceId=${b.workspaceId}`), 403, 'forbidden');
    expectError(await t.api(a.apiKey, 'GET', `/api/contacts?workspaceId=${b.workspaceId}`), 403);
    expectError(await t.api(a.apiKey, 'GET', `/api/history?workspaceId=${b.workspaceId}`), 403);
    expectError(await t.api(a.apiKey, 'GET', `/api/tools?workspaceId=${b.workspaceId}`), 403);
    await refused(403, () => t.api(a.apiKey, 'POST', '/api/agents', agent(b.workspaceId)), 'forbidden');
    await refused(403, () => t.api(a.apiKey, 'POST', '/api/contacts', { contactName: 'C', phoneNumber: '+14155552671', workspaceId: b.workspaceId }));
    expect((await t.api(b.apiKey, 'GET', '/api/agents')).body.total).toBe(0);
  });

  it("404 for another workspace's records, on every verb", async () => {
    const created = await t.api(b.apiKey, 'POST', '/api/agents', agent(b.workspaceId));
    const tool = await t.api(b.apiKey, 'POST', '/api/tools', {
      name: 'T', type: 'transfer', description: 'to a human', workspaceId: b.workspaceId, config: { url: 'tel:+14155552671' },
    });
    const contact = await t.api(b.apiKey, 'POST', '/api/contacts', { contactName: 'C', phoneNumber: '+14155552671', workspaceId: b.workspaceId });
    for (const [path, id] of [['agents', created.body._id], ['tools', tool.body._id], ['contacts', contact.body._id]]) {
      expectError(await t.api(a.apiKey, 'GET', `/api/${path}/${id}`), 404, 'not_found');
      await refused(404, () => t.api(a.apiKey, 'DELETE', `/api/${path}/${id}`));
    }
    await refused(404, () => t.api(a.apiKey, 'PATCH', `/api/agents/${created.body._id}`, { name: 'x' }));
    await refused(404, () => t.api(a.apiKey, 'PUT', `/api/tools/${tool.body._id}`, { name: 'x' }));
    await refused(404, () => t.api(a.apiKey, 'PATCH', `/api/contacts/${contact.body._id}`, { contactName: 'x' }));
    expect((await t.api(b.apiKey, 'GET', `/api/agents/${created.body._id}`)).body.name).toBe('A');
  });

  it('a workspaceId in a PATCH body cannot move a record', async () => {
    const created = await t.api(a.apiKey, 'POST', '/api/agents', agent(a.workspaceId));
    await refused(403, () => t.api(a.apiKey, 'PATCH', `/api/agents/${created.body._id}`, { workspaceId: b.workspaceId }));
  });
});

describe('hostile input', () => {
  it('malformed JSON, wrong types and non-object bodies are 400', async () => {
    expectError(await t.api(a.apiKey, 'POST', '/api/agents', '{"name": '), 400, 'invalid_json');
    expectError(await t.api(a.apiKey, 'POST', '/api/agents', '[]'), 400, 'validation_failed');
    expectError(await t.api(a.apiKey, 'POST', '/api/agents', 'null'), 400);
    expectError(await t.api(a.apiKey, 'POST', '/api/agents', '"text"'), 400);
    expectError(await t.api(a.apiKey, 'POST', '/api/agents'), 400);
    expectError(await t.api(a.apiKey, 'POST', '/api/agents', { ...agent(a.workspaceId), name: 42 }), 400);
  });

  it('a __proto__ key anywhere is refused and nothing is stored', async () => {
    const own = await t.workspace();
    const body = `{"name":"A","llm_provider":"openai","llm_model":"gpt-4o-mini","tts_provider":"deepgram","stt_provider":"deepgram","workspaceId":"${own.workspaceId}","__proto__":{"admin":true}}`;
    expectError(await t.api(own.apiKey, 'POST', '/api/agents', body), 400, 'forbidden_key');
    const nested = `{"contactName":"C","phoneNumber":"+14155552671","workspaceId":"${own.workspaceId}","externalFields":{"__proto__":{"x":1}}}`;
    expectError(await t.api(own.apiKey, 'POST', '/api/contacts', nested), 400, 'forbidden_key');
    expect((await t.api(own.apiKey, 'GET', '/api/agents')).body.total).toBe(0);
    expect((await t.api(own.apiKey, 'GET', '/api/contacts')).body.total).toBe(0);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('a JSON body over 1 MiB is 413', async () => {
    const big = { ...agent(a.workspaceId), system_prompt: 'x'.repeat(1024 * 1024 + 10) };
    expectError(await t.api(a.apiKey, 'POST', '/api/agents', big), 413, 'payload_too_large');
  });

  it('unknown routes are 404 and wrong methods 405, as JSON', async () => {
    expectError(await t.api(a.apiKey, 'GET', '/api/nothing-here'), 404, 'not_found');
    expectError(await t.api(a.apiKey, 'PUT', '/api/agents'), 405, 'method_not_allowed');
  });

  it('odd ids and encodings are 4xx, not 500', async () => {
    expectError(await t.api(a.apiKey, 'GET', '/api/agents/%E0%A4%A'), 400);
    expectError(await t.api(a.apiKey, 'GET', `/api/agents/${'x'.repeat(200)}`), 400);
    expectError(await t.api(a.apiKey, 'GET', '/api/agents/..%2F..%2Fetc'), 404);
    expectError(await t.api(a.apiKey, 'GET', '/api/contacts/%00'), 404);
  });
});
