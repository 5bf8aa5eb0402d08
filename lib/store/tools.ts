import type { Page } from '../domain/common.js';
import type { Tool, ToolConfig } from '../domain/tool.js';
import type { Db, PageRequest } from './dynamo.js';
import { batchGetItems, queryAll } from './dynamo.js';
import { deleteCounted, getRecord, insertCounted, type CollectionSpec } from './collection.js';
import { COLLECTION, ENTITY, TABLE_SCHEMA_VERSION, fromItem, key } from './model.js';
import type { SecretBox } from './secret-box.js';
import { updateExisting } from './update.js';
import { NotFoundError } from '../domain/errors.js';

const TOOLS: CollectionSpec = { entity: 'tool', label: 'Tool', itemKey: key.tool };

/** A workspace lists at most this many tools (its list has no pagination in the API). */
export const MAX_TOOLS_PER_WORKSPACE = 500;

const mapHeaders = (config: ToolConfig | undefined, fn: (v: string) => string): ToolConfig | undefined =>
  config?.headers
    ? { ...config, headers: Object.fromEntries(Object.entries(config.headers).map(([k, v]) => [k, fn(v)])) }
    : config;

/** Header values are sealed before they reach the table and opened only when read back. */
const sealTool = (box: SecretBox, tool: Tool): Tool => ({
  ...tool,
  config: mapHeaders(tool.config, (v) => box.seal(v, tool.workspaceId)),
});
const openTool = (box: SecretBox, tool: Tool): Tool => ({
  ...tool,
  config: mapHeaders(tool.config, (v) => box.open(v, tool.workspaceId)),
});

/**
 * A JSON-valued `config.body` is stored as its JSON text (`config.bodyJson`) and parsed back on read:
 * DynamoDB numbers cannot hold every JSON number (1e200 is out of range, and would fail the write), and a
 * body is opaque data to the store. String bodies are stored as they are.
 */
type StoredConfig = Omit<ToolConfig, 'body'> & { body?: string; bodyJson?: string };
const packBody = (tool: Tool): Tool => {
  const body = tool.config?.body;
  if (body === undefined || typeof body === 'string') return tool;
  const { body: _json, ...rest } = tool.config!;
  const config: StoredConfig = { ...rest, bodyJson: JSON.stringify(body) };
  return { ...tool, config: config as ToolConfig };
};
const unpackBody = (tool: Tool): Tool => {
  const { bodyJson, ...rest } = (tool.config ?? {}) as StoredConfig;
  if (bodyJson === undefined) return tool;
  return { ...tool, config: { ...rest, body: JSON.parse(bodyJson) as ToolConfig['body'] } };
};

/**
 * An `mcp` tool's discovered tools are kept as one JSON text (`mcp.toolsJson`): their input schemas are
 * arbitrary JSON Schema, which may nest past DynamoDB's 32 levels or hold numbers it cannot store.
 */
type StoredMcp = { transport: string; refreshedAt: string; toolsJson: string };
const packMcp = (tool: Tool): Tool => {
  if (!tool.mcp) return tool;
  const { tools, ...rest } = tool.mcp;
  const stored: StoredMcp = { ...rest, toolsJson: JSON.stringify(tools) };
  return { ...tool, mcp: stored as unknown as Tool['mcp'] };
};
const unpackMcp = (tool: Tool): Tool => {
  const stored = tool.mcp as unknown as StoredMcp | undefined;
  if (!stored || typeof stored.toolsJson !== 'string') return tool;
  const { toolsJson, ...rest } = stored;
  return { ...tool, mcp: { ...(rest as Omit<NonNullable<Tool['mcp']>, 'tools'>), tools: JSON.parse(toolsJson) as NonNullable<Tool['mcp']>['tools'] } };
};
const pack = (tool: Tool): Tool => packMcp(packBody(tool));
const unpack = (tool: Tool): Tool => unpackMcp(unpackBody(tool));

export async function putNewTool(db: Db, box: SecretBox, tool: Tool): Promise<void> {
  await insertCounted(db, TOOLS, tool.workspaceId, {
    ...key.tool(tool.workspaceId, tool._id),
    entity: ENTITY.tool,
    v: TABLE_SCHEMA_VERSION,
    ...sealTool(box, pack(tool)),
  });
}

/** A tool with its header values in the clear, or 404. */
export async function getTool(db: Db, box: SecretBox, ws: string, id: string): Promise<Tool> {
  const stored = await getRecord<Tool>(db, TOOLS, ws, id);
  if (!stored) throw new NotFoundError(TOOLS.label);
  return openTool(box, unpack(stored));
}

/** Every tool of the workspace, newest first, without configs (the list never shows them). */
export async function listTools(db: Db, ws: string, req: PageRequest = { page: 1, limit: MAX_TOOLS_PER_WORKSPACE }): Promise<Page<Tool>> {
  const data: Tool[] = [];
  for await (const item of queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `WS#${ws}`, ':prefix': COLLECTION.tool },
    ScanIndexForward: false,
  })) {
    if (data.length >= req.limit) break;
    data.push(unpack(fromItem<Tool>(item)));
  }
  return { data, total: data.length, page: 1, limit: req.limit };
}

/** Replaces a tool's stored fields with the merged tool (header values sealed again). */
export async function saveTool(db: Db, box: SecretBox, tool: Tool): Promise<Tool> {
  const { _id, workspaceId, createdAt, ...changes } = sealTool(box, pack(tool));
  const saved = await updateExisting<Tool>(db, key.tool(workspaceId, _id), changes, TOOLS.label);
  return openTool(box, unpack(saved));
}

/** Which of `ids` are tools of the workspace (one batch read by key; another workspace's ids are never found). */
export async function existingToolIds(db: Db, ws: string, ids: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Set();
  const found = await batchGetItems(db, unique.map((id) => key.tool(ws, id)));
  return new Set(found.filter((item) => item.entity === ENTITY.tool).map((item) => String(item._id)));
}

export const deleteTool = (db: Db, ws: string, id: string) => deleteCounted(db, TOOLS, ws, id);
