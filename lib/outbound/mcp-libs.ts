/**
 * The MCP SDK's client parts (the official `@modelcontextprotocol/sdk`), in one module so the Lambda that saves
 * tools can build them into a file of their own beside its bundle and load it on the first MCP tool saved
 * (lib/outbound/mcp.ts, loadMcpLibs): the SDK and its JSON Schema validator are ~300 KB, more than half the
 * bundle budget, and most tool saves are HTTP tools. Only the SDK's own classes: none of ours, so an
 * `instanceof` never meets two copies of one class.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
