import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';

/**
 * A customer's MCP server on 127.0.0.1 for tests, built with the official SDK's server side (McpServer over
 * StreamableHTTPServerTransport, stateless: a server per request, as the SDK's examples do; or the older
 * SSEServerTransport). Its tools: `get_forecast` (city -> a forecast naming it), `fail_always` (answers
 * isError), `slow` (never answers in time), plus `extraTools` numbered fillers. Records each tool call and
 * the headers of every HTTP request.
 */
export interface TestMcpServer {
  readonly url: string;
  readonly port: number;
  readonly calls: { name: string; args: Record<string, unknown> }[];
  readonly headersSeen: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export interface TestMcpOptions {
  /**
   * `sse`: only the HTTP+SSE transport (GET /mcp opens the stream); `html`: a web page, not an MCP server;
   * `echo`: refuses every request with a 401 whose body repeats the Authorization header it got.
   */
  readonly mode?: 'streamable' | 'sse' | 'html' | 'echo';
  /** Filler tools added to the three above. */
  readonly extraTools?: number;
  /** A tool whose input schema is this many characters of description. */
  readonly bigSchemaChars?: number;
}

function mcpServer(options: TestMcpOptions, calls: TestMcpServer['calls']): McpServer {
  const server = new McpServer({ name: 'weather-test', version: '1.0.0' });
  server.registerTool('get_forecast', { description: 'The weather forecast for a city.', inputSchema: { city: z.string().describe('The city') } }, ({ city }) => {
    calls.push({ name: 'get_forecast', args: { city } });
    return { content: [{ type: 'text', text: `Sunny and 24 degrees in ${city} tomorrow.` }] };
  });
  server.registerTool('fail_always', { description: 'Always fails.', inputSchema: {} }, () => {
    calls.push({ name: 'fail_always', args: {} });
    return { isError: true, content: [{ type: 'text', text: 'the weather service is down' }] };
  });
  server.registerTool('slow', { description: 'Takes too long.', inputSchema: {} }, async () => {
    calls.push({ name: 'slow', args: {} });
    await new Promise((resolve) => setTimeout(resolve, 60_000).unref());
    return { content: [] };
  });
  for (let i = 0; i < (options.extraTools ?? 0); i += 1) {
    server.registerTool(`extra_${i}`, { description: `Filler ${i}.`, inputSchema: {} }, () => ({ content: [] }));
  }
  if (options.bigSchemaChars) {
    server.registerTool('big', { description: 'Huge schema.', inputSchema: { q: z.string().describe('x'.repeat(options.bigSchemaChars)) } }, () => ({ content: [] }));
  }
  return server;
}

export async function startMcpServer(options: TestMcpOptions = {}): Promise<TestMcpServer> {
  const calls: TestMcpServer['calls'] = [];
  const headersSeen: IncomingHttpHeaders[] = [];
  const sse = new Map<string, SSEServerTransport>();
  const http: Server = createServer((req, res) => {
    headersSeen.push(req.headers);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (options.mode === 'echo') {
      res.writeHead(401, { 'content-type': 'text/plain' }).end(`invalid credentials: ${req.headers.authorization ?? ''}`);
      return;
    }
    if (options.mode === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Not an MCP server</body></html>');
      return;
    }
    if (options.mode === 'sse') {
      if (req.method === 'GET' && path === '/mcp') {
        const transport = new SSEServerTransport('/messages', res);
        sse.set(transport.sessionId, transport);
        res.on('close', () => sse.delete(transport.sessionId));
        void mcpServer(options, calls).connect(transport);
        return;
      }
      if (req.method === 'POST' && path === '/messages') {
        const transport = sse.get(new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '');
        if (transport) void transport.handlePostMessage(req, res);
        else res.writeHead(404).end();
        return;
      }
      // As a server without Streamable HTTP answers its POST: the client then falls back to SSE.
      res.writeHead(405).end();
      return;
    }
    if (path !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const server = mcpServer(options, calls);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    calls,
    headersSeen,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
