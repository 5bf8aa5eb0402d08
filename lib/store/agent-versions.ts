import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Agent } from '../domain/agent.js';
import type { AgentVersion } from '../domain/agent-version.js';
import type { Page } from '../domain/common.js';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import { queryPage, queryPrefix, transact, type Db, type PageRequest } from './dynamo.js';
import { agentVersionsOf, ENTITY, fromItem, key, TABLE_SCHEMA_VERSION } from './model.js';

/** Published agent versions (lib/domain/agent-version.ts): one item each, beside the agent in its workspace. */

/**
 * Freezes `agent` (the draft as read) as version `version.version` and points the agent at it, in one
 * transaction: the version never overwrites another, and the agent must still be exactly as read (same
 * `updatedAt`, same latest version), so two publishes, or a publish racing an edit, cannot both win.
 */
export async function putVersion(db: Db, agent: Agent, version: AgentVersion): Promise<void> {
  const ws = agent.workspaceId;
  const { failedIndex } = await transact(db, [
    {
      Put: {
        TableName: db.table,
        Item: { ...key.agentVersion(ws, agent._id, version.version), entity: ENTITY.agentVersion, v: TABLE_SCHEMA_VERSION, ...version },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName: db.table,
        Key: key.agent(ws, agent._id),
        UpdateExpression: 'SET published_version = :n, published_from = :u',
        ConditionExpression:
          agent.published_version === undefined
            ? 'attribute_exists(pk) AND updatedAt = :u AND attribute_not_exists(published_version)'
            : 'attribute_exists(pk) AND updatedAt = :u AND published_version = :prev',
        ExpressionAttributeValues: { ':n': version.version, ':u': agent.updatedAt, ...(agent.published_version !== undefined && { ':prev': agent.published_version }) },
      },
    },
  ]);
  if (failedIndex !== undefined) throw new ConflictError('agent_changed', 'The agent changed while it was being published: read it again and publish once more.');
}

/** One version of the workspace's agent, or undefined. */
export async function findVersion(db: Db, ws: string, agentId: string, n: number): Promise<AgentVersion | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.agentVersion(ws, agentId, n), ConsistentRead: true }));
  return out.Item ? fromItem<AgentVersion>(out.Item) : undefined;
}

/** One version, or 404. */
export async function getVersion(db: Db, ws: string, agentId: string, n: number): Promise<AgentVersion> {
  const found = await findVersion(db, ws, agentId, n);
  if (!found) throw new NotFoundError(`Version ${n} of the agent`);
  return found;
}

/** A page of the agent's versions, newest first; `total` is the latest version's number (none is ever deleted alone). */
export async function listVersions(db: Db, agent: Agent, req: PageRequest): Promise<Page<AgentVersion>> {
  const items = await queryPage(
    db,
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `WS#${agent.workspaceId}`, ':prefix': agentVersionsOf(agent._id) },
    },
    req,
  );
  return { data: items.map((i) => fromItem<AgentVersion>(i)), total: agent.published_version ?? 0, page: req.page, limit: req.limit };
}

/** Deletes every version of an agent (the agent itself is deleted by its own call). */
export async function deleteVersions(db: Db, ws: string, agentId: string): Promise<void> {
  for await (const item of queryPrefix(db, `WS#${ws}`, agentVersionsOf(agentId))) {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: { pk: item.pk, sk: item.sk } }));
  }
}

/**
 * Replaces the agent's draft with `draft` (a restore): the whole item, so fields the version lacks are gone;
 * only if the agent still exists.
 */
export async function replaceDraft(db: Db, draft: Agent): Promise<void> {
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...key.agent(draft.workspaceId, draft._id), entity: ENTITY.agent, v: TABLE_SCHEMA_VERSION, ...draft },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') throw new NotFoundError('Agent');
    throw error;
  }
}
