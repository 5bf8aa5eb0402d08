import { BadRequestError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { MASK, type Tool, type ToolCreate, type ToolPolicy, type ToolUpdate } from '../domain/tool.js';
import { assertToolIsCoherent } from '../domain/tool-coherence.js';
import { countOf } from '../store/collection.js';
import type { Db } from '../store/dynamo.js';
import type { SecretBox } from '../store/secret-box.js';
import { getTool, MAX_TOOLS_PER_WORKSPACE, putNewTool, saveTool, deleteTool } from '../store/tools.js';

/** `policy` carries TOOL_ALLOWED_HOSTS (empty in production): see lib/domain/ssrf.ts. */
export async function createTool(db: Db, box: SecretBox, ws: string, input: ToolCreate, policy?: ToolPolicy): Promise<Tool> {
  assertToolIsCoherent(input, policy);
  if ((await countOf(db, ws, 'tool')) >= MAX_TOOLS_PER_WORKSPACE) {
    throw new BadRequestError(`A workspace holds at most ${MAX_TOOLS_PER_WORKSPACE} tools.`, [], 'limit_exceeded');
  }
  const now = new Date().toISOString();
  const tool: Tool = { ...input, _id: newId('tool'), workspaceId: ws, createdAt: now, updatedAt: now };
  await putNewTool(db, box, tool);
  return tool;
}

/**
 * Applies the fields sent. `config` merges key by key; within `config.headers`, a value equal to the mask
 * keeps the stored secret, so a client may send back what it read.
 */
export async function changeTool(
  db: Db,
  box: SecretBox,
  ws: string,
  id: string,
  input: ToolUpdate,
  policy?: ToolPolicy,
): Promise<Tool> {
  const current = await getTool(db, box, ws, id);
  const { workspaceId: _ignored, config, ...rest } = input;
  let mergedConfig = current.config;
  if (config) {
    const headers = config.headers
      ? Object.fromEntries(
          Object.entries(config.headers).map(([name, value]) => {
            if (value !== MASK) return [name, value];
            // Own properties only: a header named "toString" must not find Object.prototype's.
            const storedHeaders = current.config?.headers ?? {};
            const stored = Object.hasOwn(storedHeaders, name) ? storedHeaders[name] : undefined;
            if (stored === undefined) {
              throw new BadRequestError(`Header ${name} has no stored value to keep; send its real value.`, [
                { field: `config.headers.${name}`, message: 'masked value for an unknown header' },
              ]);
            }
            return [name, stored];
          }),
        )
      : current.config?.headers;
    mergedConfig = { ...current.config, ...config, ...(headers ? { headers } : {}) };
  }
  const next: Tool = { ...current, ...rest, config: mergedConfig, updatedAt: new Date().toISOString() };
  assertToolIsCoherent(next, policy);
  return saveTool(db, box, next);
}

/** Deletes the workspace's tool (404 if it has none by that id). */
export const removeTool = (db: Db, ws: string, id: string): Promise<void> => deleteTool(db, ws, id);
