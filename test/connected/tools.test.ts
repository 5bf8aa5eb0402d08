/**
 * Invariant: tools keep their header values secret (sealed at rest, masked in every response, kept when a
 * masked value is sent back), each operation returns exactly its spec fields, and PUT changes only what
 * was sent; a URL naming a private address or an internal host is a 400 on `config.url` that stores
 * nothing; JSON bodies and typed parameters come back exactly as given; the template catalogue is listed
 * to any valid key.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { key } from '../../lib/store/model.js';
import { expectRefusedUnchanged } from '../support/invariants.js';
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
    expect(res.body._id).toMatch(/^tool_[0-9A-HJKMNP-TV-Z]{26}$/);
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
      config: { headers: { Authorization: 'Bearer xoxb-1' }, settings: { channel: 'C0123456789' } },
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

  it('refuses private, loopback, metadata and internal targets on create and update, naming config.url', async () => {
    const own = await t.workspace();
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://[::127.0.0.1]/x',
      'http://[::ffff:0:7f00:1]/x',
      'http://[64:ff9b:1::a9fe:a9fe]/x',
      'http://[2002:a9fe:a9fe::]/x',
      'http://169.254.169.254/latest/meta-data/',
      'http://localhost:3000/x',
      'http://api.localhost/x',
      'http://metadata.google.internal/computeMetadata/v1/',
    ]) {
      const res = await t.api(own.apiKey, 'POST', '/api/tools', httpTool(own.workspaceId, { config: { method: 'GET', url } }));
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['config.url']);
    }
    expect((await t.api(own.apiKey, 'GET', '/api/tools')).body.data).toEqual([]);

    const created = await t.api(own.apiKey, 'POST', '/api/tools', httpTool(own.workspaceId));
    const moved = await expectRefusedUnchanged(t.deps.db, 400, () =>
      t.api(own.apiKey, 'PUT', `/api/tools/${created.body._id}`, { config: { url: 'http://10.0.0.7/orders/{order_id}' } }),
    );
    expect(moved.body.error.details[0].field).toBe('config.url');
    const got = await t.api(own.apiKey, 'GET', `/api/tools/${created.body._id}`);
    expect(got.body.config.url).toBe('https://api.example.com/orders/{order_id}');
  });

  it('keeps a JSON body and typed parameters exactly as given', async () => {
    const body = { order_id: '{order_id}', quantity: '{quantity}', lines: [{ sku: 'A-1', gift: '{gift}' }], big: 1e200, nothing: null };
    const parameters = [
      { name: 'order_id', description: 'The order number', required: true },
      { name: 'quantity', description: 'How many', required: false, type: 'integer', enum: [1, 2, 3] },
      { name: 'gift', description: 'Gift wrap', required: false, type: 'boolean' },
    ];
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId, {
      config: { method: 'POST', url: 'https://api.example.com/orders/{order_id}', headers: { Authorization: SECRET }, body },
      parameters,
    }));
    expect(created.status).toBe(201);
    expect(created.body.config.body).toEqual(body);
    const got = await t.api(ws.apiKey, 'GET', `/api/tools/${created.body._id}`);
    expect(got.body.config.body).toEqual(body);
    expect(got.body.parameters).toEqual(parameters);
    // A string body stays a string after an update; the JSON one is replaced, not merged.
    const changed = await t.api(ws.apiKey, 'PUT', `/api/tools/${created.body._id}`, { config: { body: 'id={order_id}' } });
    expect(changed.status).toBe(200);
    expect(changed.body.config.body).toBe('id={order_id}');

    const bad = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId, {
      parameters: [{ name: 'order_id', description: 'd', required: true, type: 'integer', enum: ['one'] }],
    }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('parameters.0.enum.0');
  });

  it('lists the integration templates to any valid key, and only to one', async () => {
    const res = await t.api(ws.apiKey, 'GET', '/api/tools/templates');
    expect(res.status).toBe(200);
    const ids = res.body.data.map((d: { templateId: string }) => d.templateId);
    for (const id of ['google_calendar.create_event', 'calcom.book_meeting', 'calendly.create_scheduling_link', 'hubspot.create_contact',
      'hubspot.update_contact', 'salesforce.create_lead', 'zendesk.create_ticket', 'slack.post_message', 'twilio.send_sms', 'webhook.post']) {
      expect(ids).toContain(id);
    }
    const zendesk = res.body.data.find((d: { templateId: string }) => d.templateId === 'zendesk.create_ticket');
    expect(zendesk).toMatchObject({ method: 'POST', url: 'https://{subdomain}.zendesk.com/api/v2/tickets', requiredHeaders: ['Authorization'] });
    expect(zendesk.settings.map((s: { name: string }) => s.name)).toEqual(['subdomain']);
    expect(zendesk.parameters.find((p: { name: string }) => p.name === 'priority').enum).toEqual(['low', 'normal', 'high', 'urgent']);
    expect((await t.api('nope', 'GET', '/api/tools/templates')).status).toBe(401);
    await expectRefusedUnchanged(t.deps.db, 401, () => t.api('nope', 'POST', '/api/tools', httpTool(ws.workspaceId)));
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
    await expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'PUT', `/api/tools/${created.body._id}`, { parameters: [] }));
    const got = await t.api(ws.apiKey, 'GET', `/api/tools/${created.body._id}`);
    expect(got.body.parameters).toHaveLength(1);
  });

  it('a masked value for a header that is not stored is refused and changes nothing, own properties only', async () => {
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId));
    const id = created.body._id;
    for (const name of ['X-New', 'toString', 'constructor']) {
      const res = await expectRefusedUnchanged(t.deps.db, 400, () =>
        t.api(ws.apiKey, 'PUT', `/api/tools/${id}`, { config: { headers: { Authorization: '********', [name]: '********' } } }),
      );
      expect(res.body.error.details).toEqual([{ field: `config.headers.${name}`, message: 'masked value for an unknown header' }]);
      expect(res.body.error.message).toBe(`Header ${name} has no stored value to keep; send its real value.`);
    }
  });

  it('a PUT of config without headers keeps the stored ones; headers sent replace the set', async () => {
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId));
    const id = created.body._id;
    const raw = async () => (await t.deps.db.doc.send(new GetCommand({ TableName: t.deps.db.table, Key: key.tool(ws.workspaceId, id) }))).Item!;
    const open = (v: string) => t.deps.secrets.open(v, ws.workspaceId);
    const moved = await t.api(ws.apiKey, 'PUT', `/api/tools/${id}`, { config: { url: 'https://api.example.com/v2/orders/{order_id}' } });
    expect(moved.body.config).toEqual({ method: 'GET', url: 'https://api.example.com/v2/orders/{order_id}', headers: { Authorization: '********', 'X-Team': '********' } });
    expect(open((await raw()).config.headers.Authorization)).toBe(SECRET);
    const replaced = await t.api(ws.apiKey, 'PUT', `/api/tools/${id}`, { config: { headers: { Authorization: '********' } } });
    expect(replaced.body.config.headers).toEqual({ Authorization: '********' });
    const stored = (await raw()).config.headers;
    expect(Object.keys(stored)).toEqual(['Authorization']);
    expect(open(stored.Authorization)).toBe(SECRET);
  });

  it('a workspace holds at most 500 tools: the 500th is created, the 501st refused', async () => {
    const own = await t.workspace();
    const setCount = (n: number) =>
      t.deps.db.doc.send(new UpdateCommand({ TableName: t.deps.db.table, Key: key.counter(own.workspaceId, 'tool'), UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': n } }));
    await setCount(499);
    expect((await t.api(own.apiKey, 'POST', '/api/tools', httpTool(own.workspaceId))).status).toBe(201);
    const res = await expectRefusedUnchanged(t.deps.db, 400, () => t.api(own.apiKey, 'POST', '/api/tools', httpTool(own.workspaceId)), 'limit_exceeded');
    expect(res.body.error).toEqual({ code: 'limit_exceeded', message: 'A workspace holds at most 500 tools.', details: [] });
  });

  it('delete removes it; a second delete is 404', async () => {
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId));
    expect((await t.api(ws.apiKey, 'DELETE', `/api/tools/${created.body._id}`)).status).toBe(204);
    expect((await t.api(ws.apiKey, 'GET', `/api/tools/${created.body._id}`)).status).toBe(404);
    await expectRefusedUnchanged(t.deps.db, 404, () => t.api(ws.apiKey, 'DELETE', `/api/tools/${created.body._id}`), 'not_found');
  });
});
