/**
 * The typed client (sdk/, docs/sdk.md) works on the wire, not only in the compiler: the sample program,
 * run against a platform, creates its agent and tools, uploads a CSV as a File (openapi-fetch sends the
 * multipart body), starts a call; a refusal arrives as the typed error body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../sdk/src/index.js';
import { quickstart } from '../../sdk/sample/quickstart.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t?.stop());

describe('the typed client on a platform', () => {
  it('runs the sample program: agent, tools, a File upload, a call', async () => {
    const ws = await t.workspace(100);
    const api = createClient({ baseUrl: `${t.baseUrl}/`, apiKey: ws.apiKey });
    const available = await api.GET('/api/phone-numbers/available', { params: { query: { country: 'US', areaCode: '628' } } });
    const number = available.data?.data.at(-1)?.number;
    expect(number).toMatch(/^\+1628/);
    const bought = await api.POST('/api/phone-numbers/buy', { body: { phoneNumber: number ?? '' } });
    expect(bought.response.status).toBe(201);
    const said = await quickstart(api, ws.workspaceId, bought.data?._id ?? '');
    expect(said[0]).toBe('imported 1, skipped 0');
    expect(said[1]).toMatch(/^call call_\w+ is initiated$/);
    const [, agentId, httpTool, transferTool] = /^agent (\S+), tools (\S+) and (\S+)$/.exec(said.at(-1) ?? '') ?? [];
    const tools = await t.api(ws.apiKey, 'GET', '/api/tools');
    expect(tools.body.data.map((tool: { _id: string; type: string }) => [tool._id, tool.type]).sort()).toEqual([[httpTool, 'http'], [transferTool, 'transfer']].sort());
    const agent = await t.api(ws.apiKey, 'GET', `/api/agents/${agentId}`);
    // The fields the sample left out have their documented defaults.
    expect(agent.body).toMatchObject({ name: 'Ava', system_prompt: '', transfer_mode: 'cold', voicemail_detection: 'off' });
    const contacts = await t.api(ws.apiKey, 'GET', '/api/contacts');
    expect(contacts.body.data.map((c: { phoneNumber: string }) => c.phoneNumber)).toEqual(['+14155552671']);
  });

  it('gives a refusal as the typed error body, and sends no key unless given one', async () => {
    const ws = await t.workspace(0);
    const api = createClient({ baseUrl: t.baseUrl, apiKey: ws.apiKey });
    const refused = await api.POST('/api/agents', { body: { name: '', llm_provider: 'openai', llm_model: 'm', tts_provider: 'deepgram', stt_provider: 'deepgram' } });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.error.code).toBe('validation_failed');
    expect(refused.response.headers.get('x-request-id')).toBeTruthy();
    const anonymous = await createClient({ baseUrl: t.baseUrl }).GET('/api/agents');
    expect(anonymous.error?.error.code).toBe('unauthorized');
  });
});
