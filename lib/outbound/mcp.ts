import type { ListedMcpTool, McpTransport } from '../domain/mcp-tool.js';
import { pinnedFetch, type PinnedFetchOptions } from './pinned-fetch.js';
import { ToolTargetRefusedError } from './target-guard.js';
import { loadSideModule } from '../side-module.js';

/*
 * Talking to a workspace's MCP server through the official TypeScript SDK (`@modelcontextprotocol/sdk`): its
 * Client over StreamableHTTPClientTransport, or SSEClientTransport where a server has only the older
 * HTTP+SSE transport. Every request goes through {@link pinnedFetch}: SSRF-checked, connected to the address
 * checked. One connection per use (a discovery, a tool call), closed after it: docs/tools.md, "MCP servers".
 */

export type McpLibs = typeof import('./mcp-libs.js');
type McpClient = InstanceType<McpLibs['Client']>;

/** The file ./mcp-libs.ts is built into beside the tools function's bundle (lib/infra/entry-needs.ts). */
export const MCP_LIBS_FILE = 'mcp-libs.mjs';
export const MCP_LIBS_SOURCE = 'lib/outbound/mcp-libs.ts';

/** The SDK's client parts, loaded on first use (lib/side-module.ts). */
export function loadMcpLibs(): Promise<McpLibs> {
  return loadSideModule<McpLibs>(import.meta.url, MCP_LIBS_FILE, './mcp-libs.js');
}

/** A server as a tool names it: its URL and (decrypted) headers, and the transport found at discovery. */
export interface McpServerSpec {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Absent: try Streamable HTTP, then HTTP+SSE. */
  readonly transport?: McpTransport;
}

export interface McpConnectOptions extends PinnedFetchOptions {
  /** The whole use's budget: connecting, the request, and closing. */
  readonly timeoutMs: number;
}

/**
 * Why a server could not be used: `refused` by the SSRF guard, `unreachable` (no answer at all: DNS, refused
 * connection, timeout before any response), `invalid` (it answered, but not as an MCP server does), `failed`
 * (connected, then the request itself was answered with an error, e.g. an unknown tool).
 */
export class McpServerError extends Error {
  constructor(
    readonly reason: 'refused' | 'unreachable' | 'invalid' | 'timeout' | 'failed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'McpServerError';
  }
}

const CLIENT_INFO = { name: 'voice-agent-platform', version: '1.0.0' } as const;

/**
 * The text without the tool's header values: a server's error page may echo the credential it refused, and
 * the message goes back to the API caller, the model and the logs, none of which may see it.
 */
function redact(text: string, headers: Readonly<Record<string, string>>): string {
  let out = text;
  for (const value of Object.values(headers)) {
    // Also its parts ("Bearer xyz" echoed as just "xyz"); words too short to be secret are left alone.
    for (const part of [value, ...value.split(/\s+/)]) if (part.length >= 8) out = out.split(part).join('********');
  }
  return out;
}

/**
 * Connects, runs `use`, closes; at most `timeoutMs` in all. Without a known transport it tries Streamable
 * HTTP first and, when that POST fails with an HTTP 4xx, the HTTP+SSE transport: the fallback the SDK
 * documents for reaching legacy servers (modelcontextprotocol/typescript-sdk docs/client.md, "Transports and
 * backwards compatibility").
 */
export async function withMcpClient<T>(
  libs: McpLibs,
  server: McpServerSpec,
  options: McpConnectOptions,
  use: (client: McpClient) => Promise<T>,
): Promise<{ value: T; transport: McpTransport }> {
  const deadline = new AbortController();
  let refusal: ToolTargetRefusedError | undefined;
  let answered = false;
  let connected = false;
  const base = pinnedFetch(options);
  const fetch = async (url: string | URL, init: RequestInit = {}) => {
    const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    try {
      const response = await base(url, { ...init, signal });
      answered = true;
      return response;
    } catch (error) {
      if (error instanceof ToolTargetRefusedError) refusal = error;
      throw error;
    }
  };
  const url = new URL(server.url);
  const requestInit = { headers: { ...server.headers } };
  const attempt = async (transport: McpTransport): Promise<T> => {
    const client = new libs.Client(CLIENT_INFO);
    const channel =
      transport === 'sse'
        ? new libs.SSEClientTransport(url, { fetch, requestInit, eventSourceInit: { fetch } })
        : new libs.StreamableHTTPClientTransport(url, { fetch, requestInit });
    try {
      await client.connect(channel, { signal: deadline.signal });
      connected = true;
      return await use(client);
    } finally {
      await client.close().catch(() => undefined);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      deadline.abort();
      reject(new McpServerError('timeout', `the MCP server did not answer within ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
  });
  const run = async (): Promise<{ value: T; transport: McpTransport }> => {
    if (server.transport) return { value: await attempt(server.transport), transport: server.transport };
    try {
      return { value: await attempt('streamable_http'), transport: 'streamable_http' };
    } catch (error) {
      const status = error instanceof libs.StreamableHTTPError ? error.code : undefined;
      if (refusal || status === undefined || status < 400 || status > 499) throw error;
      return { value: await attempt('sse'), transport: 'sse' };
    }
  };
  try {
    return await Promise.race([run(), expired]);
  } catch (error) {
    if (error instanceof McpServerError) throw error;
    if (refusal) throw new McpServerError('refused', refusal.message, { cause: error });
    const detail = redact(error instanceof Error ? error.message : String(error), server.headers);
    if (connected) throw new McpServerError('failed', `the MCP server answered with an error: ${detail}`, { cause: error });
    if (!answered) throw new McpServerError('unreachable', `the MCP server could not be reached: ${detail}`, { cause: error });
    throw new McpServerError('invalid', `the server did not answer as an MCP server: ${detail}`, { cause: error });
  } finally {
    clearTimeout(timer);
    deadline.abort();
  }
}

/** Pages of `tools/list` read at most: a server that keeps handing out cursors is cut off here. */
const MAX_LIST_PAGES = 20;

/**
 * The tools the server lists (every page, stopping once past `stopAfter`), and the transport that worked.
 * The caller checks them against the limits (lib/domain/mcp-tool.ts, checkListedTools).
 */
export async function listMcpTools(
  libs: McpLibs,
  server: McpServerSpec,
  options: McpConnectOptions,
  stopAfter: number,
): Promise<{ tools: ListedMcpTool[]; transport: McpTransport }> {
  const { value, transport } = await withMcpClient(libs, server, options, async (client) => {
    const tools: ListedMcpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const result = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor || tools.length > stopAfter) break;
    }
    return tools;
  });
  return { tools: value, transport };
}

/** What `tools/call` answered (the parts we read). */
export interface McpCallResult {
  readonly isError: boolean;
  readonly content: readonly Record<string, unknown>[];
  readonly structuredContent?: unknown;
}

/** Calls one tool on the server with the model's arguments. Throws {@link McpServerError}. */
export async function callMcpTool(
  libs: McpLibs,
  server: McpServerSpec,
  options: McpConnectOptions,
  name: string,
  args: Record<string, unknown>,
): Promise<McpCallResult> {
  const { value } = await withMcpClient(libs, server, options, async (client) => {
    const result = await client.callTool({ name, arguments: args });
    return {
      isError: result.isError === true,
      content: Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [],
      ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    };
  });
  return value;
}
