import * as z from 'zod';
import { AgentUpdate, DEFAULT_VOICE, type Agent } from './agent.js';

/**
 * `agent_overrides` on a call (docs/calls.md, "Agent overrides"): any field an agent update takes (not its
 * id, nor its workspace), checked by the same schema, for this one call only. The stored agent is never
 * changed; the call keeps the overrides and every part of the platform that reads the agent for this call
 * (the dispatch, the answering-machine webhook, the streaming session) applies them. A custom model's
 * endpoint and key are not among them: a call may only reach the endpoint the agent was saved with, which
 * was checked then (lib/domain/agent-llm.ts), and a key must never sit in clear on a call record.
 */
export const AgentOverrides = AgentUpdate.omit({ workspaceId: true, llm_base_url: true, llm_api_key: true }).describe(
  'Agent fields for this call only (any field PATCH /api/agents/{id} takes except llm_base_url and llm_api_key): a different first message, voice, model, maximum duration (docs/calls.md)',
);
export type AgentOverrides = z.infer<typeof AgentOverrides>;

/**
 * The agent as one call runs it. A `null` clears the field (as in an update); a new TTS provider without a
 * voice takes that provider's default voice, since voice ids do not carry across vendors.
 */
export function withOverrides<A extends Agent>(agent: A, overrides: AgentOverrides | undefined): A {
  if (!overrides || Object.keys(overrides).length === 0) return agent;
  const merged = { ...agent } as Record<string, unknown>;
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) delete merged[k];
    else if (v !== undefined) merged[k] = v;
  }
  if (overrides.tts_provider && !overrides.tts_voice_id && overrides.tts_provider !== agent.tts_provider) merged.tts_voice_id = DEFAULT_VOICE[overrides.tts_provider];
  return merged as A;
}

/** The field names a call overrode, sorted (the history record's `agentOverrides`). */
export const overriddenFields = (overrides: AgentOverrides | undefined): string[] => Object.keys(overrides ?? {}).sort();
