/**
 * Invariant: our MCP client (lib/outbound/mcp.ts, the official SDK over the SSRF-pinned fetch) lists a real
 * SDK server's tools over Streamable HTTP, falls back to HTTP+SSE where the server has only that, sends the
 * tool's headers on every request, and calls a tool; a loopback server not allowed by TOOL_ALLOWED_HOSTS is
 * refused before any request, a web page is `invalid`, a closed port `unreachable`, a slow tool a `timeout`,
 * and a runner result (streaming-service/src/tools/mcp.ts) is an answer for the model, never a throw.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMcpTool, listMcpTools, McpServerError } from '../../lib/outbound/mcp.js';
import { pinnedFetch } from '../../lib/outbound/pinned-fetch.js';
import { ToolTargetRefusedError } from '../../lib/outbound/target-guard.js';
import * as libs from '../../lib/outbound/mcp-libs.js';
import type { Tool } from '../../lib/domain/tool.js';
import { runMcpAction } from '../../streaming-service/src/tools/mcp.js';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.js';

let streamable: TestMcpServer;
let sse: TestMcpServer;
let html: TestMcpServer;
let echo: TestMcpServer;

beforeAll(async () => {
  [streamable, sse, html, echo] = await Promise.all([startMcpServer(), startMcpServer({ mode: 'sse' }), startMcpServer({ mode: 'html' }), startMcpServer({ mode: 'echo' })]);
});
afterAll(async () => {
  await Promise.all([streamable, sse, html, echo].map((s) => s?.close()));
});

const allow = (s: TestMcpServer) => ({ allowedHosts: [`127.0.0.1:${s.port}`], timeoutMs: 5_000 });
const reason = (p: Promise<unknown>) => p.then(() => 'none', (e: unknown) => (e instanceof McpServerError ? e.reason : `other: ${String(e)}`));

describe('MCP client', () => {
  it('lists tools over Streamable HTTP, sending the headers', async () => {
    const seenBefore = streamable.headersSeen.length;
    const { tools, transport } = await listMcpTools(libs, { url: streamable.url, headers: { Authorization: 'Bearer mcp-secret' } }, allow(streamable), 128);
    expect(transport).toBe('streamable_http');
    expect(tools.map((t) => t.name)).toEqual(['get_forecast', 'fail_always', 'slow']);
    const forecast = tools[0] as { inputSchema: { properties: Record<string, unknown>; required: string[] } };
    expect(Object.keys(forecast.inputSchema.properties)).toEqual(['city']);
    expect(forecast.inputSchema.required).toEqual(['city']);
    const seen = streamable.headersSeen.slice(seenBefore);
    expect(seen.length).toBeGreaterThan(1);
    for (const h of seen) expect(h.authorization).toBe('Bearer mcp-secret');
  });

  it('falls back to HTTP+SSE when the server has only that', async () => {
    const { tools, transport } = await listMcpTools(libs, { url: sse.url, headers: { 'X-Key': 'k1' } }, allow(sse), 128);
    expect(transport).toBe('sse');
    expect(tools.map((t) => t.name)).toContain('get_forecast');
    expect(sse.headersSeen.filter((h) => h.accept === 'text/event-stream').every((h) => h['x-key'] === 'k1')).toBe(true);
    const result = await callMcpTool(libs, { url: sse.url, headers: {}, transport: 'sse' }, allow(sse), 'get_forecast', { city: 'Lyon' });
    expect(result.content).toEqual([{ type: 'text', text: 'Sunny and 24 degrees in Lyon tomorrow.' }]);
  });

  it('refuses a loopback server the policy does not allow, before any request', async () => {
    const before = streamable.headersSeen.length;
    expect(await reason(listMcpTools(libs, { url: streamable.url, headers: {} }, { allowedHosts: [], timeoutMs: 5_000 }, 128))).toBe('refused');
    expect(await reason(listMcpTools(libs, { url: 'http://169.254.169.254/mcp', headers: {} }, { allowedHosts: [], timeoutMs: 5_000 }, 128))).toBe('refused');
    expect(streamable.headersSeen.length).toBe(before);
  });

  it('connects to exactly the address it checked, and refuses a name that resolves to a private one', async () => {
    // A name resolved (here by a resolver of the test's) to loopback, which TOOL_ALLOWED_HOSTS allows by name.
    const resolver = async (host: string) => [{ address: host === 'mcp.customer.test' ? '127.0.0.1' : '10.0.0.7', family: 4 as const }];
    const url = `http://mcp.customer.test:${streamable.port}/mcp`;
    const { tools } = await listMcpTools(libs, { url, headers: {} }, { allowedHosts: [`mcp.customer.test:${streamable.port}`], timeoutMs: 5_000, resolver }, 128);
    expect(tools).toHaveLength(3);
    expect(streamable.headersSeen.at(-1)?.host).toBe(`mcp.customer.test:${streamable.port}`);
    // The same fetch, a public-looking name whose answer is private: refused before connecting.
    const refused = await pinnedFetch({ allowedHosts: [], resolver })('http://mcp.rebound.test/mcp').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ToolTargetRefusedError);
    expect(await reason(listMcpTools(libs, { url: 'http://mcp.rebound.test/mcp', headers: {} }, { allowedHosts: [], timeoutMs: 5_000, resolver }, 128))).toBe('refused');
  });

  it('tells a web page, a closed port and a slow tool apart', async () => {
    expect(await reason(listMcpTools(libs, { url: html.url, headers: {} }, allow(html), 128))).toBe('invalid');
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
    expect(await reason(listMcpTools(libs, { url: `http://127.0.0.1:${closed}/mcp`, headers: {} }, { allowedHosts: [`127.0.0.1:${closed}`], timeoutMs: 5_000 }, 128))).toBe('unreachable');
    expect(await reason(callMcpTool(libs, { url: streamable.url, headers: {} }, { ...allow(streamable), timeoutMs: 500 }, 'slow', {}))).toBe('timeout');
    // The SDK's server answers an unknown tool with an error result, not a protocol error.
    expect((await callMcpTool(libs, { url: streamable.url, headers: {} }, allow(streamable), 'no_such_tool', {})).isError).toBe(true);
  });

  it("never repeats the tool's header values in an error, even when the server echoes them", async () => {
    const secret = 'Bearer mcp_live_echo_98765';
    const error = await callMcpTool(libs, { url: echo.url, headers: { Authorization: secret }, transport: 'streamable_http' }, allow(echo), 'get_forecast', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpServerError);
    const message = (error as Error).message;
    expect(message).toContain('invalid credentials: ********');
    expect(message).not.toContain('mcp_live_echo');
    expect(echo.headersSeen.at(-1)?.authorization).toBe(secret);
  });

  it('runs a call-time action into an answer for the model, failures included', async () => {
    const discovered = (await listMcpTools(libs, { url: streamable.url, headers: {} }, allow(streamable), 128)).tools;
    const tool = {
      _id: 'tool_1',
      name: 'Weather',
      type: 'mcp',
      description: 'Weather',
      workspaceId: 'ws',
      parameters: [],
      config: { url: streamable.url, allowed_tools: ['get_forecast', 'fail_always', 'slow'] },
      mcp: { transport: 'streamable_http', tools: discovered as never, refreshedAt: new Date().toISOString() },
      createdAt: '',
      updatedAt: '',
    } satisfies Tool;
    const load = async () => tool;
    const opts = { allowedHosts: [`127.0.0.1:${streamable.port}`], timeoutMs: 1_000 };
    const ok = await runMcpAction({ tool, mcpName: 'get_forecast' }, '{"city":"Paris"}', load, opts);
    expect(ok).toEqual({ ok: true, content: JSON.stringify({ result: 'Sunny and 24 degrees in Paris tomorrow.' }) });
    const failed = await runMcpAction({ tool, mcpName: 'fail_always' }, '{}', load, opts);
    expect(failed).toEqual({ ok: false, content: JSON.stringify({ error: 'the weather service is down' }) });
    const slow = await runMcpAction({ tool, mcpName: 'slow' }, '{}', load, opts);
    expect(slow).toEqual({ ok: false, content: JSON.stringify({ error: 'timed out after 1 s' }) });
    const capped = await runMcpAction({ tool, mcpName: 'get_forecast' }, '{"city":"Paris"}', load, { ...opts, maxResponseBytes: 10 });
    expect(JSON.parse(capped.content)).toEqual({ result: 'Sunny and ', truncated: true });
    const notAllowed = await runMcpAction({ tool, mcpName: 'get_forecast' }, '{}', async () => ({ ...tool, config: { ...tool.config, allowed_tools: ['slow'] } }), opts);
    expect(notAllowed.ok).toBe(false);
    const refused = await runMcpAction({ tool, mcpName: 'get_forecast' }, '{"city":"Paris"}', load, { ...opts, allowedHosts: [] });
    expect(refused).toMatchObject({ ok: false, refused: true });
  });
});
