import type { Tool } from '../../../lib/domain/tool.js';
import { offeredMcpTools } from '../../../lib/domain/mcp-tool.js';
import { callMcpTool, McpServerError, type McpCallResult } from '../../../lib/outbound/mcp.js';
import * as mcpLibs from '../../../lib/outbound/mcp-libs.js';
import { DEFAULT_HTTP_TOOL, parseArguments, type HttpToolOptions, type ToolOutcome } from './http.js';

/**
 * Runs one of an `mcp` tool's server tools during a call, through the MCP SDK (lib/outbound/mcp.ts) with
 * the budgets of an HTTP tool: the same whole-call timeout and the same cap on what the model reads. Never
 * throws: a server that is down, refused or answers badly is a result the model can talk about.
 */

/** The text the model reads from a `tools/call` result: its text parts, and a note for each other part. */
export function resultText(result: McpCallResult): string {
  const parts = result.content.map((part) => {
    if (part.type === 'text' && typeof part.text === 'string') return part.text;
    if (part.type === 'resource' && part.resource && typeof (part.resource as { text?: unknown }).text === 'string') {
      return (part.resource as { text: string }).text;
    }
    // Images, audio and links cannot be spoken; the model is told they exist.
    return `[${String(part.type ?? 'content')} not shown]`;
  });
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

/** Cuts `text` to at most `max` bytes of UTF-8 (never inside a character). */
function capBytes(text: string, max: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return { text, truncated: false };
  return { text: bytes.subarray(0, max).toString('utf8').replace(/\uFFFD$/, ''), truncated: true };
}

/**
 * Calls `mcpName` on the tool's server. `loadTool` reads the tool again with its header values decrypted,
 * as for HTTP tools; the tool must still offer `mcpName` (a refresh or allow-list change since the call
 * started takes it away).
 */
export async function runMcpAction(
  action: { readonly tool: Tool; readonly mcpName: string },
  argumentsJson: string,
  loadTool: (id: string) => Promise<Tool>,
  options: Partial<HttpToolOptions>,
): Promise<ToolOutcome> {
  const opts = { ...DEFAULT_HTTP_TOOL, ...options };
  let tool: Tool;
  try {
    tool = await loadTool(action.tool._id);
  } catch {
    return { ok: false, content: JSON.stringify({ error: 'the tool no longer exists' }) };
  }
  const url = tool.config?.url;
  const offered = tool.type === 'mcp' && offeredMcpTools(tool.mcp?.tools ?? [], tool.config?.allowed_tools).some((t) => t.name === action.mcpName);
  if (!url || !offered) return { ok: false, content: JSON.stringify({ error: 'the tool is no longer offered by its server' }) };
  let result: McpCallResult;
  try {
    result = await callMcpTool(
      mcpLibs,
      { url, headers: tool.config?.headers ?? {}, ...(tool.mcp?.transport ? { transport: tool.mcp.transport } : {}) },
      { allowedHosts: opts.allowedHosts, timeoutMs: opts.timeoutMs, ...(opts.resolver ? { resolver: opts.resolver } : {}) },
      action.mcpName,
      parseArguments(argumentsJson),
    );
  } catch (error) {
    if (!(error instanceof McpServerError)) return { ok: false, content: JSON.stringify({ error: 'the tool failed; the request may not have been sent' }) };
    // Said in seconds, the unit the model will use when it tells the caller.
    if (error.reason === 'timeout') return { ok: false, content: JSON.stringify({ error: `timed out after ${opts.timeoutMs / 1000} s` }) };
    return { ok: false, refused: error.reason === 'refused', content: JSON.stringify({ error: `${error.message}; the tool did not run` }) };
  }
  const { text, truncated } = capBytes(resultText(result), opts.maxResponseBytes);
  const body = { [result.isError ? 'error' : 'result']: text, ...(truncated ? { truncated: true } : {}) };
  return { ok: !result.isError, content: JSON.stringify(body) };
}
