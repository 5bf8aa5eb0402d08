/**
 * Invariant: tools keep their header values secret (sealed at rest, masked in every response, kept when a
 * masked value is sent back), each operation returns exactly its spec fields, and PUT changes only what
 * was sent.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { key } from '../../lib/store/model.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let ws: { workspaceId: string; apiKey: string };

const SECRET = 'Bearer sk_live_abcdef123456';
const httpTool = (workspaceId: string, extra: Record<string, unknown> = {}) => ({
  name: 'Order lookup',
  type: 'http',
  description: 'Look up an order by its number when the caller asks about an order.',
  workspaceId,
  config: {
    method: 'GET',
    url: 'https://api.example.com/orders/{order_id}',
    headers: { Authorization: SECRET, 'X-Team': 'support' },
  },
  parameters: [{ name: 'order_id', description: 'The order number', required: true }],
  ...extra,
});

beforeAll(async () => {
  t = await startTestPlatform();
  ws = await t.workspace();
});
afterAll(() => t?.stop());

describe('tools', () => {
  it('create omits headers and parameters; 201', async () => {
    const res = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['_id', 'config', 'createdAt', 'description', 'name', 'type', 'workspaceId'].sort());
    expect(res.body.config).toEqual({ method: 'GET', url: 'https://api.example.com/orders/{order_id}' });
    expect(JSON.stringify(res.body)).not.toContain('sk_live');
  });

  it('stores header values sealed and returns them masked', async () => {
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId));
    const raw = await t.deps.db.doc.send(
      new GetCommand({ TableName: t.deps.db.table, Key: key.tool(ws.workspaceId, created.body._id) }),
    );
    expect(JSON.stringify(raw.Item)).not.toContain('sk_live');
    expect(raw.Item?.config.headers.Authorization).toMatch(/^v1:/);

    const got = await t.api(ws.apiKey, 'GET', `/api/tools/${created.body._id}`);
    expect(got.status).toBe(200);
    expect(got.body.config.headers).toEqual({ Authorization: '********', 'X-Team': '********' });
    expect(got.body.parameters).toEqual([{ name: 'order_id', description: 'The order number', required: true }]);
    expect(JSON.stringify(got.body)).not.toContain('sk_live');
  });

  it('list returns only data, without config and parameters', async () => {
    const own = await t.workspace();
    await t.api(own.apiKey, 'POST', '/api/tools', httpTool(own.workspaceId));
    const integ = await t.api(own.apiKey, 'POST', '/api/tools', {
      name: 'Slack',
      type: 'integration',
      templateId: 'slack.post_message',
      description: 'Tell the team when a caller wants a human.',
      workspaceId: own.workspaceId,
      config: { headers: { Authorization: 'Bearer xoxb-1' } },
    });
    expect(integ.status).toBe(201);
    const res = await t.api(own.apiKey, 'GET', `/api/tools?workspaceId=${own.workspaceId}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toHaveLength(2);
    for (const item of res.body.data) {
      expect(item.config).toBeUndefined();
      expect(item.parameters).toBeUndefined();
    }
    expect(res.body.data[0].templateId).toBe('slack.post_message');
  });

  it('PUT changes only the sent fields and keeps masked header values', async () => {
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId));
    const id = created.body._id;
    const renamed = await t.api(ws.apiKey, 'PUT', `/api/tools/${id}`, { name: 'Order status' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Order status');
    expect(renamed.body.description).toBe(httpTool('').description);
    expect(renamed.body.config.url).toBe('https://api.example.com/orders/{order_id}');

    const got = await t.api(ws.apiKey, 'GET', `/api/tools/${id}`);
    const echoed = await t.api(ws.apiKey, 'PUT', `/api/tools/${id}`, {
      config: { ...got.body.config, headers: { ...got.body.config.headers, 'X-Team': 'billing' } },
    });
    expect(echoed.status).toBe(200);
    const raw = await t.deps.db.doc.send(new GetCommand({ TableName: t.deps.db.table, Key: key.tool(ws.workspaceId, id) }));
    const open = (v: string) => t.deps.secrets.open(v, ws.workspaceId);
    expect(open(raw.Item?.config.headers.Authorization)).toBe(SECRET);
    expect(open(raw.Item?.config.headers['X-Team'])).toBe('billing');
  });

  it('refuses incoherent tools with 400 and stores nothing', async () => {
    const own = await t.workspace();
    const bad = [
      httpTool(own.workspaceId, { type: 'webhook' }),
      httpTool(own.workspaceId, { config: { method: 'GET', url: 'https://x.test/{missing}' } }),
      httpTool(own.workspaceId, { config: { url: 'https://x.test/' } }),
      httpTool(own.workspaceId, { config: { method: 'GET', url: 'ftp://x.test/' } }),
      httpTool(own.workspaceId, { parameters: [{ name: 'a', description: 'x', required: true }, { name: 'a', description: 'y', required: false }] }),
      httpTool(own.workspaceId, { parameters: [{ name: 'a b', description: 'x', required: true }] }),
      httpTool(own.workspaceId, { config: { method: 'GET', url: 'https://x.test/', headers: { 'X-A': 'a\r\nInjected: 1' } } }),
      { ...httpTool(own.workspaceId), type: 'integration', templateId: 'no.such.template' },
      { name: 'T', type: 'transfer', description: 'Transfer to a human', workspaceId: own.workspaceId, config: { url: 'tel:12' } },
      { ...httpTool(own.workspaceId), description: '' },
    ];
    for (const body of bad) {
      const res = await t.api(own.apiKey, 'POST', '/api/tools', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect((await t.api(own.apiKey, 'GET', '/api/tools')).body.data).toEqual([]);
  });

  it('accepts a transfer tool to an E.164 number', async () => {
    const res = await t.api(ws.apiKey, 'POST', '/api/tools', {
      name: 'Transfer',
      type: 'transfer',
      description: 'Transfer to a human when asked',
      workspaceId: ws.workspaceId,
      config: { url: 'tel:+14155552671' },
    });
    expect(res.status).toBe(201);
  });

  it('PUT that makes a tool incoherent is refused and changes nothing', async () => {
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId));
    const res = await t.api(ws.apiKey, 'PUT', `/api/tools/${created.body._id}`, { parameters: [] });
    expect(res.status).toBe(400);
    const got = await t.api(ws.apiKey, 'GET', `/api/tools/${created.body._id}`);
    expect(got.body.parameters).toHaveLength(1);
  });

  it('delete removes it; a second delete is 404', async () => {
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId));
    expect((await t.api(ws.apiKey, 'DELETE', `/api/tools/${created.body._id}`)).status).toBe(204);
    expect((await t.api(ws.apiKey, 'GET', `/api/tools/${created.body._id}`)).status).toBe(404);
    expect((await t.api(ws.apiKey, 'DELETE', `/api/tools/${created.body._id}`)).status).toBe(404);
  });
});
