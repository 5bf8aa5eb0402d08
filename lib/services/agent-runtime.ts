import type { Agent } from '../domain/agent.js';
import { ValidationError } from '../domain/errors.js';
import { findAgent, getAgent } from '../store/agents.js';
import { findVersion } from '../store/agent-versions.js';
import type { Db } from '../store/dynamo.js';

/*
 * Which agent a conversation runs (docs/agent-versions.md), apart from publishing so that the call, number
 * and campaign functions carry none of the agent schema.
 */

/** The agent a new call, meeting, chat or widget session runs, and which version that is. */
export interface AgentToRun {
  readonly agent: Agent;
  /** Absent: the agent was never published and the call runs its record. */
  readonly version?: number;
}

/**
 * The agent a new conversation runs: version `pinned` when given (400 naming `field` when it does not
 * exist; `draft`: the record, a try-out of unpublished edits), else the latest published version, else
 * (never published) the agent record as it is.
 */
export async function agentToRun(db: Db, ws: string, agent: Agent, pinned?: number | 'draft', field = 'agent_version'): Promise<AgentToRun> {
  if (pinned === 'draft') return { agent };
  const n = pinned ?? agent.published_version;
  if (n === undefined) return { agent };
  const version = await findVersion(db, ws, agent._id, n);
  if (!version) {
    const latest = agent.published_version;
    throw new ValidationError([
      { field, message: latest === undefined ? `agent ${agent._id} has no published version` : `agent ${agent._id} has no version ${n} (versions 1 to ${latest})` },
    ]);
  }
  return { agent: version.agent, version: n };
}

/** {@link agentToRun} by id: 404 for an agent that is not the workspace's. */
export async function agentToRunById(db: Db, ws: string, id: string, pinned?: number | 'draft', field?: string): Promise<AgentToRun> {
  return agentToRun(db, ws, await getAgent(db, ws, id), pinned, field);
}

/** The agent a running call's session loads: the version the call recorded at its start, else the record. */
export async function agentOfCall(db: Db, ws: string, id: string, version: number | undefined): Promise<Agent | undefined> {
  if (version === undefined) return findAgent(db, ws, id);
  return (await findVersion(db, ws, id, version))?.agent;
}
