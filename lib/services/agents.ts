import { DEFAULT_VOICE, type Agent, type AgentCreate, type AgentUpdate } from '../domain/agent.js';
import { assertAgentLlm, MASK, type LlmEndpointPolicy } from '../domain/agent-llm.js';
import { assertAgentAmbience } from '../domain/ambience-url.js';
import { assertPronunciationsFit } from '../domain/pronunciation.js';
import { ValidationError } from '../domain/errors.js';
import { assertLanguageSupported } from '../domain/languages.js';
import { newId } from '../domain/ids.js';
import { findAgent, getAgent, putNewAgent, updateAgent, deleteAgent } from '../store/agents.js';
import type { Handoff } from '../domain/handoff.js';
import { deleteVersions } from '../store/agent-versions.js';
import type { Db } from '../store/dynamo.js';
import type { SecretBox } from '../store/secret-box.js';
import { existingToolIds } from '../store/tools.js';
import type { CatalogueFields } from './agent-catalogue.js';

/** Checks fields a save sets against the vendors' catalogues (agent-catalogue.ts); absent, nothing is checked. */
export type CatalogueCheck = (fields: CatalogueFields) => Promise<void>;
import { existingKnowledgeBaseIds } from '../store/knowledge.js';

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

/** Every id in `knowledge_base_ids` names a knowledge base of the key's workspace, or 400 naming each one that does not. */
export async function assertKnowledgeBasesOfWorkspace(db: Db, ws: string, ids: readonly string[] | undefined): Promise<void> {
  if (!ids || ids.length === 0) return;
  const found = await existingKnowledgeBaseIds(db, ws, ids);
  const missing = ids.flatMap((id, i) => (found.has(id) ? [] : [{ field: `knowledge_base_ids.${i}`, message: `${id} is not a knowledge base of this workspace` }]));
  if (missing.length > 0) throw new ValidationError(missing);
}

/**
 * Every handoff names another agent of the workspace (400 naming `handoffs.i.agent_id` otherwise): not the
 * agent itself, and not another workspace's agent, which reads exactly as an unknown one. A loop through
 * other agents (triage → booking → triage) is allowed: "hand back" is a path a call may take, and a call
 * cannot spin in it without the model choosing each step (docs/handoffs.md, "Cycles").
 */
export async function assertHandoffDestinations(db: Db, ws: string, self: string | undefined, handoffs: readonly Handoff[] | undefined): Promise<void> {
  if (!handoffs || handoffs.length === 0) return;
  const found = await Promise.all(handoffs.map((h) => (h.agent_id === self ? Promise.resolve(undefined) : findAgent(db, ws, h.agent_id))));
  const problems = handoffs.flatMap((h, i) =>
    found[i] ? [] : [{ field: `handoffs.${i}.agent_id`, message: h.agent_id === self ? 'an agent cannot hand off to itself' : `${h.agent_id} is not an agent of this workspace` }],
  );
  if (problems.length > 0) throw new ValidationError(problems);
}

/** A masked key sent back where none is stored: there is nothing to keep. */
const noKeyToKeep = () =>
  new ValidationError([{ field: 'llm_api_key', message: 'the agent has no stored key to keep; send the real key (reads show ******** in its place)' }]);

/**
 * Creates an agent; a missing voice becomes the provider's default voice. A custom model's key is sealed
 * with the workspace as context before it is stored; `policy` carries TOOL_ALLOWED_HOSTS (lib/domain/agent-llm.ts).
 */
export async function createAgent(db: Db, box: SecretBox, ws: string, input: AgentCreate, policy: LlmEndpointPolicy, check?: CatalogueCheck): Promise<Agent> {
  assertAgentLlm(input, policy);
  assertAgentAmbience(input.ambience, policy);
  assertPronunciationsFit(input.tts_provider, input.pronunciations, input.language);
  if (input.llm_api_key === MASK) throw noKeyToKeep();
  assertLanguageSupported(input, DEFAULT_VOICE);
  await assertToolsOfWorkspace(db, ws, input.tool_ids);
  // The default voice is the platform's choice and known to exist: only a voice the user named is checked.
  await check?.({ tts_provider: input.tts_provider, tts_voice_id: input.tts_voice_id ?? undefined, llm_provider: input.llm_provider, llm_model: input.llm_model, realtime: input.realtime });
  await assertKnowledgeBasesOfWorkspace(db, ws, input.knowledge_base_ids);
  await assertHandoffDestinations(db, ws, undefined, input.handoffs);
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
export async function changeAgent(db: Db, box: SecretBox, ws: string, id: string, input: AgentUpdate, policy: LlmEndpointPolicy, check?: CatalogueCheck): Promise<Agent> {
  const { workspaceId: _ignored, ...changes } = input;
  const current = await getAgent(db, ws, id);
  const provider = changes.llm_provider ?? current.llm_provider;
  if (changes.llm_api_key === MASK && !current.llm_api_key) throw noKeyToKeep();
  const leaving = provider !== 'custom' && changes.llm_provider !== undefined;
  const url = changes.llm_base_url !== undefined ? changes.llm_base_url : leaving ? null : current.llm_base_url;
  const key = changes.llm_api_key !== undefined && changes.llm_api_key !== MASK ? changes.llm_api_key : leaving && changes.llm_api_key === undefined ? null : current.llm_api_key;
  assertAgentLlm({ llm_provider: provider, llm_base_url: url, llm_api_key: key }, policy);
  assertAgentAmbience(changes.ambience, policy);
  assertPronunciationsFit(changes.tts_provider ?? current.tts_provider, changes.pronunciations ?? current.pronunciations, changes.language ?? current.language);
  await assertToolsOfWorkspace(db, ws, changes.tool_ids);
  await assertKnowledgeBasesOfWorkspace(db, ws, changes.knowledge_base_ids);
  await assertHandoffDestinations(db, ws, id, changes.handoffs);
  let voice = changes.tts_voice_id;
  if (changes.tts_provider && !voice && current.tts_provider !== changes.tts_provider) voice = DEFAULT_VOICE[changes.tts_provider];
  // The language, transcriber and voice as they will be after the update must fit together.
  assertLanguageSupported(
    {
      language: changes.language ?? current.language,
      stt_provider: changes.stt_provider ?? current.stt_provider,
      tts_provider: changes.tts_provider ?? current.tts_provider,
      tts_voice_id: voice ?? current.tts_voice_id,
      fallback: changes.fallback ?? current.fallback,
    },
    DEFAULT_VOICE,
  );
  // Only what this save changes is checked: an agent saved before a voice was withdrawn can still be edited.
  const modelChanged = changes.llm_model !== undefined || changes.llm_provider !== undefined;
  await check?.({
    ...(changes.tts_voice_id ? { tts_provider: changes.tts_provider ?? current.tts_provider, tts_voice_id: changes.tts_voice_id } : {}),
    ...(modelChanged ? { llm_provider: provider, llm_model: changes.llm_model ?? current.llm_model } : {}),
    ...(changes.realtime ? { realtime: changes.realtime } : {}),
  });
  const sealedKey = typeof changes.llm_api_key === 'string' && changes.llm_api_key !== MASK ? box.seal(changes.llm_api_key, ws) : key === null && current.llm_api_key ? null : undefined;
  return updateAgent(db, ws, id, {
    ...changes,
    llm_base_url: url === null && !current.llm_base_url ? undefined : url,
    llm_api_key: sealedKey,
    tts_voice_id: voice,
    updatedAt: new Date().toISOString(),
  });
}

/** Deletes the workspace's agent (404 if it has none by that id), then its published versions. */
export async function removeAgent(db: Db, ws: string, id: string): Promise<void> {
  await deleteAgent(db, ws, id);
  await deleteVersions(db, ws, id);
}
