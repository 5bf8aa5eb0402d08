/**
 * Invariant: a server's tool listing is kept only within the limits (at most MAX_MCP_TOOLS tools, unique
 * printable names, object input schemas of at most MAX_MCP_SCHEMA_CHARS, all together at most
 * MAX_MCP_TOOLS_CHARS), each refusal a 400 with its own code; descriptions are cut, not refused. The model is
 * offered exactly the allowed tools of each mcp tool, each under a vendor-valid name unique among every tool
 * of the call (HTTP tools and built-ins included), with the server's schema as its parameters.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/domain/errors.js';
import { checkListedTools, MAX_MCP_DESCRIPTION, MAX_MCP_SCHEMA_CHARS, MAX_MCP_TOOLS, MAX_MCP_TOOLS_CHARS, offeredMcpTools, unknownAllowedTools } from '../../lib/domain/mcp-tool.js';
import type { Tool } from '../../lib/domain/tool.js';
import { buildCallTools } from '../../streaming-service/src/tools/registry.js';

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const listed = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `t${i}`, description: `Tool ${i}`, inputSchema: schema }));
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'none';
  } catch (error) {
    return error instanceof AppError ? `${error.status} ${error.code}` : String(error);
  }
};

describe('checkListedTools', () => {
  it('keeps a listing within the limits, descriptions cut', () => {
    const tools = checkListedTools([{ name: 'a.b/c', description: 'x'.repeat(MAX_MCP_DESCRIPTION + 5), inputSchema: schema }, { name: 'plain', inputSchema: { type: 'object' } }]);
    expect(tools.map((t) => t.name)).toEqual(['a.b/c', 'plain']);
    expect(tools[0]!.description).toHaveLength(MAX_MCP_DESCRIPTION);
    expect(tools[1]!.description).toBe('');
    expect(checkListedTools(listed(MAX_MCP_TOOLS))).toHaveLength(MAX_MCP_TOOLS);
  });

  it('refuses each kind of listing it cannot offer', () => {
    expect(codeOf(() => checkListedTools(listed(MAX_MCP_TOOLS + 1)))).toBe('400 mcp_too_many_tools');
    expect(codeOf(() => checkListedTools([...listed(2), { name: 't1', inputSchema: schema }]))).toBe('400 mcp_server_invalid');
    expect(codeOf(() => checkListedTools([{ name: '', inputSchema: schema }]))).toBe('400 mcp_server_invalid');
    expect(codeOf(() => checkListedTools([{ name: 'a\nb', inputSchema: schema }]))).toBe('400 mcp_server_invalid');
    expect(codeOf(() => checkListedTools([{ name: 'x'.repeat(129), inputSchema: schema }]))).toBe('400 mcp_server_invalid');
    expect(codeOf(() => checkListedTools([{ name: 'n', inputSchema: { type: 'array' } }]))).toBe('400 mcp_server_invalid');
    expect(codeOf(() => checkListedTools([{ name: 'n' }]))).toBe('400 mcp_server_invalid');
    const big = { type: 'object', description: 'x'.repeat(MAX_MCP_SCHEMA_CHARS) };
    expect(codeOf(() => checkListedTools([{ name: 'n', inputSchema: big }]))).toBe('400 mcp_schema_too_large');
    // Each schema within its own limit, but all of them together over the total.
    const each = { type: 'object', description: 'x'.repeat(MAX_MCP_SCHEMA_CHARS - 100) };
    const count = Math.ceil(MAX_MCP_TOOLS_CHARS / (MAX_MCP_SCHEMA_CHARS - 100)) + 1;
    expect(codeOf(() => checkListedTools(Array.from({ length: count }, (_, i) => ({ name: `n${i}`, inputSchema: each }))))).toBe('400 mcp_schema_too_large');
  });

  it('an allow-list: absent means every tool; names the server dropped are not offered', () => {
    const tools = checkListedTools(listed(3));
    expect(offeredMcpTools(tools, undefined).map((t) => t.name)).toEqual(['t0', 't1', 't2']);
    expect(offeredMcpTools(tools, ['t2', 'gone']).map((t) => t.name)).toEqual(['t2']);
    expect(unknownAllowedTools(['t2', 'gone'], tools)).toEqual(['gone']);
  });
});

describe('buildCallTools with mcp tools', () => {
  const now = new Date().toISOString();
  const mcpTool = (id: string, name: string, names: string[], allowed?: string[]): Tool => ({
    _id: id,
    name,
    type: 'mcp',
    description: `${name} server`,
    workspaceId: 'ws',
    parameters: [],
    config: { url: 'https://mcp.example.com/mcp', ...(allowed ? { allowed_tools: allowed } : {}) },
    mcp: { transport: 'streamable_http', tools: names.map((n) => ({ name: n, description: n === 'search' ? '' : `does ${n}`, inputSchema: schema })), refreshedAt: now },
    createdAt: now,
    updatedAt: now,
  });
  it('offers each allowed server tool under a unique, valid name with the server schema', () => {
    const http: Tool = { _id: 'tool_h', name: 'Weather  get.forecast', type: 'http', description: 'h', workspaceId: 'ws', parameters: [], config: { method: 'GET', url: 'https://x.example/' }, createdAt: now, updatedAt: now };
    const tools = buildCallTools([
      http,
      mcpTool('tool_a', 'Weather', ['get.forecast', 'Get.Forecast', 'search', 'hidden'], ['get.forecast', 'Get.Forecast', 'search']),
      mcpTool('tool_b', 'Weather', ['get.forecast']),
      mcpTool('tool_c', 'Ünïcode Tools!', ['end_call', 'x'.repeat(100)]),
    ]);
    const names = tools.specs.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(names).toContain('weather__get_forecast');
    expect(names).not.toContain('weather__hidden');
    const action = tools.byName.get('weather__get_forecast_2');
    expect(action).toMatchObject({ kind: 'mcp', mcpName: 'Get.Forecast' });
    expect(tools.byName.get('weather__get_forecast')).toMatchObject({ kind: 'mcp', mcpName: 'get.forecast', tool: { _id: 'tool_a' } });
    const spec = tools.specs.find((s) => s.name === 'weather__get_forecast')!;
    expect(spec).toEqual({ name: 'weather__get_forecast', description: 'does get.forecast', parameters: schema });
    // A tool without a description of its own gets its server's.
    expect(tools.specs.find((s) => tools.byName.get(s.name)?.kind === 'mcp' && (tools.byName.get(s.name) as { mcpName: string }).mcpName === 'search')!.description).toBe('Weather server');
    // The built-in end_call keeps its name and its action.
    expect(tools.byName.get('end_call')).toEqual({ kind: 'end_call' });
    expect([...tools.byName.values()].filter((a) => a.kind === 'mcp')).toHaveLength(3 + 1 + 2);
  });

  it('offers at most 128 functions in all, built-ins included, however many servers the agent has', () => {
    const names = Array.from({ length: 100 }, (_, i) => `t${i}`);
    const tools = buildCallTools([mcpTool('tool_a', 'A', names), mcpTool('tool_b', 'B', names)], { optOut: true });
    expect(tools.specs).toHaveLength(128);
    expect(tools.specs.slice(-3).map((s) => s.name)).toEqual(['send_dtmf', 'opt_out', 'end_call']);
    expect(tools.specs.filter((s) => s.name.startsWith('a__'))).toHaveLength(100);
  });
});
