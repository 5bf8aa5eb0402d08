import { DEFAULT_VOICE, type Agent, type AgentCreate, type AgentUpdate } from '../domain/agent.js';
import { assertAgentLlm, MASK, type LlmEndpointPolicy } from '../domain/agent-llm.js';
import { assertAgentAmbience } from '../domain/ambience-url.js';
import { assertPronunciationsFit } from '../domain/pronunciation.js';
import { ValidationError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { getAgent, putNewAgent, updateAgent, deleteAgent } from '../store/agents.js';
import type { Db } from '../store/dynamo.js';
import type { SecretBox } from '../store/secret-box.js';
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

/** A masked key sent back where none is stored: there is nothing to keep. */
const noKeyToKeep = () =>
  new ValidationError([{ field: 'llm_api_key', message: 'the agent has no stored key to keep; send the real key (reads show ******** in its place)' }]);

/**
 * Creates an agent; a missing voice becomes the provider's default voice. A custom model's key is sealed
 * with the workspace as context before it is stored; `policy` carries TOOL_ALLOWED_HOSTS (lib/domain/agent-llm.ts).
 */
export async function createAgent(db: Db, box: SecretBox, ws: string, input: AgentCreate, policy: LlmEndpointPolicy): Promise<Agent> {
  assertAgentLlm(input, policy);
  assertAgentAmbience(input.ambience, policy);
  assertPronunciationsFit(input.tts_provider, input.pronunciations);
  if (input.llm_api_key === MASK) throw noKeyToKeep();
  await assertToolsOfWorkspace(db, ws, input.tool_ids);
  const now = new Date().toISOString();
  const agent: Agent = {
    ...input,
    ...(input.llm_api_key !== undefined && { llm_api_key: box.seal(input.llm_api_key, ws) }),
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
 * provider's default, because voice ids do not carry across vendors. The custom model's fields: a key equal
 * to the mask keeps the stored one (a client may send back what it read), null removes a field, and a switch
 * to a vendor removes both, so no endpoint lingers that nothing uses.
 */
export async function changeAgent(db: Db, box: SecretBox, ws: string, id: string, input: AgentUpdate, policy: LlmEndpointPolicy): Promise<Agent> {
  const { workspaceId: _ignored, ...changes } = input;
  const current = await getAgent(db, ws, id);
  const provider = changes.llm_provider ?? current.llm_provider;
  if (changes.llm_api_key === MASK && !current.llm_api_key) throw noKeyToKeep();
  const leaving = provider !== 'custom' && changes.llm_provider !== undefined;
  const url = changes.llm_base_url !== undefined ? changes.llm_base_url : leaving ? null : current.llm_base_url;
  const key = changes.llm_api_key !== undefined && changes.llm_api_key !== MASK ? changes.llm_api_key : leaving && changes.llm_api_key === undefined ? null : current.llm_api_key;
  assertAgentLlm({ llm_provider: provider, llm_base_url: url, llm_api_key: key }, policy);
  assertAgentAmbience(changes.ambience, policy);
  assertPronunciationsFit(changes.tts_provider ?? current.tts_provider, changes.pronunciations ?? current.pronunciations);
  await assertToolsOfWorkspace(db, ws, changes.tool_ids);
  let voice = changes.tts_voice_id;
  if (changes.tts_provider && !voice && current.tts_provider !== changes.tts_provider) voice = DEFAULT_VOICE[changes.tts_provider];
  const sealedKey = typeof changes.llm_api_key === 'string' && changes.llm_api_key !== MASK ? box.seal(changes.llm_api_key, ws) : key === null && current.llm_api_key ? null : undefined;
  return updateAgent(db, ws, id, {
    ...changes,
    llm_base_url: url === null && !current.llm_base_url ? undefined : url,
    llm_api_key: sealedKey,
    tts_voice_id: voice,
    updatedAt: new Date().toISOString(),
  });
}

/** Deletes the workspace's agent (404 if it has none by that id). */
export const removeAgent = (db: Db, ws: string, id: string): Promise<void> => deleteAgent(db, ws, id);
