import type { Deps } from '../deps.js';
import type { Agent } from '../domain/agent.js';
import { DEFAULT_VOICE, toolsOfAgent } from '../domain/agent.js';
import { assertLanguageSupported } from '../domain/languages.js';
import { agentRequiredVariables } from '../domain/call-template.js';
import type { Contact } from '../domain/contact.js';
import { BadRequestError, ValidationError, type ErrorDetail } from '../domain/errors.js';
import { contactVariables, missingVariables, type VariableValue } from '../domain/template.js';
import { listTools } from '../store/tools.js';
import { withOverrides, type AgentOverrides } from '../domain/agent-overrides.js';
import { assertKnowledgeBasesOfWorkspace, assertToolsOfWorkspace } from './agents.js';
import { isShippedSound } from '../domain/ambience.js';
import { assertPronunciationsFit } from '../domain/pronunciation.js';

/**
 * The agent a call will run, with its `agent_overrides` (their `tool_ids` and `knowledge_base_ids` must be the workspace's, 400
 * otherwise, as for an update). An override may switch to `custom` only on an agent saved with its
 * endpoint: the overrides cannot name one (lib/domain/agent-overrides.ts), so no call reaches an unchecked URL.
 */
export async function agentForCall(deps: Pick<Deps, 'db'>, workspaceId: string, agent: Agent, overrides: AgentOverrides | undefined): Promise<Agent> {
  if (!overrides) return agent;
  try {
    await assertToolsOfWorkspace(deps.db, workspaceId, overrides.tool_ids);
    await assertKnowledgeBasesOfWorkspace(deps.db, workspaceId, overrides.knowledge_base_ids);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError((error.details as readonly ErrorDetail[]).map((d) => ({ ...d, field: `agent_overrides.${d.field}` })));
  }
  if (overrides.llm_provider === 'custom' && !agent.llm_base_url) {
    throw new ValidationError([{ field: 'agent_overrides.llm_provider', message: 'the agent has no llm_base_url: save the custom endpoint on the agent first' }]);
  }
  const sound = overrides.ambience?.sound;
  if (sound !== undefined && !isShippedSound(sound)) {
    throw new ValidationError([{ field: 'agent_overrides.ambience.sound', message: 'a custom ambience file is saved on the agent (where its URL is checked), not per call' }]);
  }
  const merged = withOverrides(agent, overrides);
  // An overridden language, transcriber or voice must still fit together, as on a saved agent.
  if (overrides.language !== undefined || overrides.stt_provider || overrides.tts_provider || overrides.tts_voice_id || overrides.fallback) {
    try {
      assertLanguageSupported(merged, DEFAULT_VOICE);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new ValidationError((error.details as readonly ErrorDetail[]).map((d) => ({ ...d, field: `agent_overrides.${d.field}` })), error.message);
    }
  }
  try {
    assertPronunciationsFit(merged.tts_provider, merged.pronunciations, merged.language);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError((error.details as readonly ErrorDetail[]).map((d) => ({ ...d, field: `agent_overrides.${d.field}` })));
  }
  return merged;
}

/**
 * The check every started call passes before anything is stored or dialed (docs/calls.md, "Variables"):
 * each `{{name}}` the agent's texts and tools name without a default has a value, from the contact or the
 * call's own `variables`. Otherwise a 400 `missing_variables` names them: a caller must never hear
 * "{{first_name}}", nor a gap where a name should be.
 */
export async function assertVariablesSupplied(
  deps: Pick<Deps, 'db'>,
  workspaceId: string,
  agent: Agent,
  contact: Pick<Contact, 'contactName' | 'phoneNumber' | 'externalFields'> | undefined,
  variables: Readonly<Record<string, VariableValue>> | undefined,
  /** The request's `contactName`: it is `{{contactName}}` when no contact was found (phone calls, meetings). */
  contactName?: string,
): Promise<void> {
  const tools = agent.tool_ids?.length === 0 ? [] : toolsOfAgent(agent, (await listTools(deps.db, workspaceId)).data);
  const names = agentRequiredVariables(agent, tools);
  if (names.length === 0) return;
  const known = contactVariables(contact);
  if (!contact && contactName) known.contactName = contactName;
  for (const [k, v] of Object.entries(variables ?? {})) known[k] = String(v);
  const missing = missingVariables(names, known);
  if (missing.length === 0) return;
  throw new BadRequestError(
    `The agent's texts name variables this call does not supply: ${missing.join(', ')}. Give them in variables (or on the contact), or write {{name|default}}.`,
    missing.map((name) => ({ field: `variables.${name}`, message: 'required by the agent and not supplied' })),
    'missing_variables',
  );
}
