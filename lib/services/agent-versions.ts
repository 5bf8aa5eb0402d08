import type { Agent } from '../domain/agent.js';
import { assertAgentLlm, MASK, type LlmEndpointPolicy } from '../domain/agent-llm.js';
import { configOf, diffConfigs, type AgentDiff, type AgentVersion } from '../domain/agent-version.js';
import { ValidationError } from '../domain/errors.js';
import { getAgent } from '../store/agents.js';
import { getVersion, putVersion, replaceDraft } from '../store/agent-versions.js';
import type { Db } from '../store/dynamo.js';
import { assertHandoffDestinations, assertKnowledgeBasesOfWorkspace, assertToolsOfWorkspace } from './agents.js';

/**
 * Publishes the agent's draft as its next version (docs/agent-versions.md). The draft is checked as a save
 * checks it, since what it names may have changed since it was saved (a deleted tool or knowledge base, a model endpoint the
 * policy now refuses): a draft that fails is a 400 and nothing is published.
 */
export async function publishAgent(db: Db, ws: string, id: string, note: string, policy: LlmEndpointPolicy, nowIso = new Date().toISOString()): Promise<AgentVersion> {
  const draft = await getAgent(db, ws, id);
  assertAgentLlm(draft, policy);
  await assertToolsOfWorkspace(db, ws, draft.tool_ids);
  await assertHandoffDestinations(db, ws, id, draft.handoffs);
  await assertKnowledgeBasesOfWorkspace(db, ws, draft.knowledge_base_ids);
  const version: AgentVersion = {
    agentId: id,
    workspaceId: ws,
    version: (draft.published_version ?? 0) + 1,
    note,
    publishedAt: nowIso,
    agent: { ...configOf(draft), _id: id, workspaceId: ws, createdAt: draft.createdAt, updatedAt: draft.updatedAt },
  };
  await putVersion(db, draft, version);
  return version;
}

/**
 * Makes version `n` the draft again: the whole configuration as it was published, fields it did not have
 * removed. With `publish`, the restored draft is published at once as a new version (a rollback that
 * reaches live calls; the history keeps every version, none is rewritten).
 */
export async function restoreVersion(
  db: Db,
  ws: string,
  id: string,
  n: number,
  options: { publish: boolean; note?: string | undefined },
  policy: LlmEndpointPolicy,
): Promise<{ agent: Agent; published?: AgentVersion }> {
  const [current, version] = await Promise.all([getAgent(db, ws, id), getVersion(db, ws, id, n)]);
  const draft: Agent = {
    ...configOf(version.agent),
    _id: id,
    workspaceId: ws,
    createdAt: current.createdAt,
    updatedAt: new Date().toISOString(),
    ...(current.published_version !== undefined && { published_version: current.published_version }),
    ...(current.published_from !== undefined && { published_from: current.published_from }),
  };
  await replaceDraft(db, draft);
  if (!options.publish) return { agent: draft };
  const published = await publishAgent(db, ws, id, options.note ?? `Restored version ${n}`, policy);
  return { agent: { ...draft, published_version: published.version, published_from: draft.updatedAt }, published };
}

/** The configuration of one side of a diff: a version, or the draft. */
async function sideOf(db: Db, ws: string, agent: Agent, side: number | 'draft'): Promise<Agent> {
  return side === 'draft' ? agent : (await getVersion(db, ws, agent._id, side)).agent;
}

/** The fields that differ between two versions, or a version and the draft (default: latest published → draft). */
export async function diffAgent(db: Db, ws: string, id: string, query: { from?: number | 'draft' | undefined; to?: number | 'draft' | undefined }): Promise<AgentDiff> {
  const agent = await getAgent(db, ws, id);
  const from = query.from ?? agent.published_version;
  if (from === undefined) throw new ValidationError([{ field: 'from', message: 'the agent has no published version; name the two sides to compare' }]);
  const to = query.to ?? 'draft';
  const [a, b] = await Promise.all([sideOf(db, ws, agent, from), sideOf(db, ws, agent, to)]);
  return { from, to, changes: diffConfigs(a, b, MASK) };
}

