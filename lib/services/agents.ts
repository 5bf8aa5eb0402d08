import { DEFAULT_VOICE, type Agent, type AgentCreate, type AgentUpdate } from '../domain/agent.js';
import { ValidationError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { getAgent, putNewAgent, updateAgent, deleteAgent } from '../store/agents.js';
import type { Db } from '../store/dynamo.js';
import { existingToolIds } from '../store/tools.js';

/**
 * Every id in `tool_ids` names a tool of the key's workspace, or 400 naming each one that does not: an id
 * of another workspace's tool reads exactly as an unknown one, so nothing about other workspaces shows.
 */
export async function assertToolsOfWorkspace(db: Db, ws: string, ids: readonly string[] | null | undefined): Promise<void> {
  if (!ids || ids.length === 0) return;
  const found = await existingToolIds(db, ws, ids);
  const missing = ids.flatMap((id, i) => (found.has(id) ? [] : [{ field: `tool_ids.${i}`, message: `${id} is not a tool of this workspace` }]));
  if (missing.length > 0) throw new ValidationError(missing);
}

/** Creates an agent; a missing voice becomes the provider's default voice. */
export async function createAgent(db: Db, ws: string, input: AgentCreate): Promise<Agent> {
  await assertToolsOfWorkspace(db, ws, input.tool_ids);
  const now = new Date().toISOString();
  const agent: Agent = {
    ...input,
    _id: newId('agent'),
    tts_voice_id: input.tts_voice_id ?? DEFAULT_VOICE[input.tts_provider],
    workspaceId: ws,
    createdAt: now,
    updatedAt: now,
  };
  await putNewAgent(db, agent);
  return agent;
}

/**
 * Applies a partial update. Changing the TTS provider without naming a voice resets the voice to that
 * provider's default, because voice ids do not carry across vendors.
 */
export async function changeAgent(db: Db, ws: string, id: string, input: AgentUpdate): Promise<Agent> {
  const { workspaceId: _ignored, ...changes } = input;
  await assertToolsOfWorkspace(db, ws, changes.tool_ids);
  let voice = changes.tts_voice_id;
  if (changes.tts_provider && !voice) {
    const current = await getAgent(db, ws, id);
    if (current.tts_provider !== changes.tts_provider) voice = DEFAULT_VOICE[changes.tts_provider];
  }
  return updateAgent(db, ws, id, { ...changes, tts_voice_id: voice, updatedAt: new Date().toISOString() });
}

/** Deletes the workspace's agent (404 if it has none by that id). */
export const removeAgent = (db: Db, ws: string, id: string): Promise<void> => deleteAgent(db, ws, id);
