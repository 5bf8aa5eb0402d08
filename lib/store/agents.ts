import type { Agent } from '../domain/agent.js';
import type { Page } from '../domain/common.js';
import type { Db, PageRequest } from './dynamo.js';
import { deleteCounted, getRecord, insertCounted, listCounted, requireRecord, type CollectionSpec } from './collection.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';
import { updateExisting } from './update.js';

const AGENTS: CollectionSpec = { entity: 'agent', label: 'Agent', itemKey: key.agent };

/** Stores a new agent and counts it. */
export async function putNewAgent(db: Db, agent: Agent): Promise<void> {
  await insertCounted(db, AGENTS, agent.workspaceId, {
    ...key.agent(agent.workspaceId, agent._id),
    entity: ENTITY.agent,
    v: TABLE_SCHEMA_VERSION,
    ...agent,
  });
}

/** An agent of the workspace, or undefined. */
export const findAgent = (db: Db, ws: string, id: string) => getRecord<Agent>(db, AGENTS, ws, id);

/** An agent of the workspace, or 404. */
export const getAgent = (db: Db, ws: string, id: string) => requireRecord<Agent>(db, AGENTS, ws, id);

/** A page of the workspace's agents, newest first. */
export const listAgents = (db: Db, ws: string, req: PageRequest): Promise<Page<Agent>> =>
  listCounted<Agent>(db, AGENTS, ws, req);

/** Applies changed fields to an agent, or 404. */
export const updateAgent = (db: Db, ws: string, id: string, changes: Partial<Agent>) =>
  updateExisting<Agent>(db, key.agent(ws, id), changes, AGENTS.label);

/** Deletes an agent, or 404. */
export const deleteAgent = (db: Db, ws: string, id: string) => deleteCounted(db, AGENTS, ws, id);
