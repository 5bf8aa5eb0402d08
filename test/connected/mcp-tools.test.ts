/**
 * Invariant: an `mcp` tool is saved only when its server (a real MCP SDK server on loopback) lists tools
 * within the limits: its tools are stored and shown by `GET /api/tools/{id}` (name, description, input
 * schema), its header values are sealed, masked and sent to the server; `config.allowed_tools` may only name
 * listed tools; a server with too many tools, a schema over the limit, a web page, a closed port or a private
 * address is a 4xx that stores nothing. Refresh stores what the server lists now, and a failed refresh keeps
 * what was found before.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MCP_SCHEMA_CHARS, MAX_MCP_TOOLS } from '../../lib/domain/mcp-tool.js';
import { key } from '../../lib/store/model.js';
import { expectRefusedUnchanged } from '../support/invariants.js';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let ws: { workspaceId: string; apiKey: string };
let weather: TestMcpServer;
let many: TestMcpServer;
let big: TestMcpServer;
let html: TestMcpServer;
let echo: TestMcpServer;
let closedPort: number;
/** The weather server's options, changed between a save and a refresh. */
const weatherOptions: { extraTools: number } = { extraTools: 0 };

const SECRET = 'Bearer mcp_live_abcdef123456';

beforeAll(async () => {
  [weather, many, big, html, echo] = await Promise.all([
    startMcpServer(weatherOptions),
    startMcpServer({ extraTools: MAX_MCP_TOOLS }),
    startMcpServer({ bigSchemaChars: MAX_MCP_SCHEMA_CHARS }),
    startMcpServer({ mode: 'html' }),
    startMcpServer({ mode: 'echo' }),
  ]);
  closedPort = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
  process.env.TOOL_ALLOWED_HOSTS = [weather, many, big, html, echo].map((s) => `127.0.0.1:${s.port}`).concat(`127.0.0.1:${closedPort}`).join(',');
  t = await startTestPlatform();
  ws = await t.workspace();
});
afterAll(async () => {
  await t?.stop();
  await Promise.all([weather, many, big, html, echo].map((s) => s?.close()));
  delete process.env.TOOL_ALLOWED_HOSTS;
});

const mcpTool = (url: string, extra: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => ({
  name: 'Weather',
  type: 'mcp',
  description: 'Weather forecasts.',
  workspaceId: ws.workspaceId,
  config: { url, headers: { Authorization: SECRET }, ...config },
  ...extra,
});

describe('mcp tools', () => {
  it('discovers the server tools at save, shows them, and keeps the headers secret', async () => {
    const seenBefore = weather.headersSeen.length;
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', mcpTool(weather.url));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.config).toEqual({ url: weather.url });
    expect(created.body.mcp.transport).toBe('streamable_http');
    expect(created.body.mcp.tools.map((x: { name: string }) => x.name)).toEqual(['get_forecast', 'fail_always', 'slow']);
    expect(weather.headersSeen.slice(seenBefore).every((h) => h.authorization === SECRET)).toBe(true);

    const got = await t.api(ws.apiKey, 'GET', `/api/tools/${created.body._id}`);
    expect(got.status).toBe(200);
    expect(got.body.config.headers).toEqual({ Authorization: '********' });
    const forecast = got.body.mcp.tools[0];
    expect(forecast.name).toBe('get_forecast');
    expect(forecast.description).toBe('The weather forecast for a city.');
    expect(forecast.inputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'] });
    expect(JSON.stringify(got.body)).not.toContain('mcp_live');

    const raw = await t.deps.db.doc.send(new GetCommand({ TableName: t.deps.db.table, Key: key.tool(ws.workspaceId, created.body._id) }));
    expect(JSON.stringify(raw.Item)).not.toContain('mcp_live');
    expect(raw.Item?.config.headers.Authorization).toMatch(/^v1:/);

    const list = await t.api(ws.apiKey, 'GET', `/api/tools?workspaceId=${ws.workspaceId}`);
    const item = list.body.data.find((x: { _id: string }) => x._id === created.body._id);
    expect(item.type).toBe('mcp');
    expect(item.mcp).toBeUndefined();
  });

  it('accepts an allow-list of listed tools only', async () => {
    const ok = await t.api(ws.apiKey, 'POST', '/api/tools', mcpTool(weather.url, {}, { allowed_tools: ['get_forecast'] }));
    expect(ok.status).toBe(201);
    expect(ok.body.config.allowed_tools).toEqual(['get_forecast']);
    const refused = await expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'POST', '/api/tools', mcpTool(weather.url, {}, { allowed_tools: ['get_forecast', 'launch_rockets'] })), 'validation_failed');
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'config.allowed_tools', message: expect.stringContaining('launch_rockets') })]);

    const changed = await t.api(ws.apiKey, 'PUT', `/api/tools/${ok.body._id}`, { config: { allowed_tools: ['get_forecast', 'slow'] } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.config.allowed_tools).toEqual(['get_forecast', 'slow']);
    expect(changed.body.config.headers).toEqual({ Authorization: '********' });
    await expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'PUT', `/api/tools/${ok.body._id}`, { config: { allowed_tools: ['nope'] } }), 'validation_failed');
    const cleared = await t.api(ws.apiKey, 'PUT', `/api/tools/${ok.body._id}`, { config: { allowed_tools: null } });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.config).toEqual({ url: weather.url, headers: { Authorization: '********' } });
    await expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'PUT', `/api/tools/${ok.body._id}`, { type: 'http', config: { method: 'GET' } }), 'bad_request');
    // An allow-list belongs to mcp tools only.
    await expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'POST', '/api/tools', { name: 'H', type: 'http', description: 'd', workspaceId: ws.workspaceId, config: { method: 'GET', url: 'https://api.example.com/x', allowed_tools: ['a'] } }), 'validation_failed');
  });

  it('refuses servers it cannot use, storing nothing', async () => {
    const refuse = (url: string, code: string) => expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'POST', '/api/tools', mcpTool(url)), code);
    const tooMany = await refuse(many.url, 'mcp_too_many_tools');
    expect(tooMany.body.error.message).toContain(String(MAX_MCP_TOOLS));
    const tooBig = await refuse(big.url, 'mcp_schema_too_large');
    expect(tooBig.body.error.message).toContain('"big"');
    await refuse(html.url, 'mcp_server_invalid');
    // A server that refuses the credential and repeats it: the answer names the refusal, never the secret.
    const echoed = await refuse(echo.url, 'mcp_server_invalid');
    expect(JSON.stringify(echoed.body)).not.toContain('mcp_live');
    expect(echo.headersSeen.at(-1)?.authorization).toBe(SECRET);
    await refuse(`http://127.0.0.1:${closedPort}/mcp`, 'mcp_server_unreachable');
    const privateUrl = await refuse('http://10.1.2.3/mcp', 'validation_failed');
    expect(privateUrl.body.error.details[0].field).toBe('config.url');
    await refuse('http://169.254.169.254/latest/meta-data', 'validation_failed');
    await expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'POST', '/api/tools', mcpTool(weather.url, { parameters: [{ name: 'x', description: 'x', required: true }] })), 'validation_failed');
    await expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'POST', '/api/tools', mcpTool(weather.url, {}, { method: 'GET' })), 'validation_failed');
  });

  it('refresh stores what the server lists now; a failed refresh keeps the tools found before', async () => {
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', mcpTool(weather.url));
    expect(created.status).toBe(201);
    weatherOptions.extraTools = 2;
    try {
      const refreshed = await t.api(ws.apiKey, 'POST', `/api/tools/${created.body._id}/refresh`);
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      expect(refreshed.body.mcp.tools.map((x: { name: string }) => x.name)).toEqual(['get_forecast', 'fail_always', 'slow', 'extra_0', 'extra_1']);
      expect(refreshed.body.config.headers).toEqual({ Authorization: '********' });
      expect(Date.parse(refreshed.body.mcp.refreshedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.mcp.refreshedAt));
      const got = await t.api(ws.apiKey, 'GET', `/api/tools/${created.body._id}`);
      expect(got.body.mcp.tools).toHaveLength(5);
    } finally {
      weatherOptions.extraTools = 0;
    }
    // The server now lists too many: the refresh is refused and the five stay.
    weatherOptions.extraTools = MAX_MCP_TOOLS;
    try {
      await expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'POST', `/api/tools/${created.body._id}/refresh`), 'mcp_too_many_tools');
    } finally {
      weatherOptions.extraTools = 0;
    }
    const http = await t.api(ws.apiKey, 'POST', '/api/tools', { name: 'H', type: 'http', description: 'd', workspaceId: ws.workspaceId, config: { method: 'GET', url: 'https://api.example.com/x' } });
    await expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'POST', `/api/tools/${http.body._id}/refresh`), 'not_an_mcp_tool');
    const other = await t.workspace();
    await expectRefusedUnchanged(t.deps.db, 404, () => t.api(other.apiKey, 'POST', `/api/tools/${created.body._id}/refresh`), 'not_found');
  });
});
