import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Scenario, TestRun } from '../domain/agent-test.js';
import type { Page } from '../domain/common.js';
import { NotFoundError } from '../domain/errors.js';
import { deleteCounted, getRecord, insertCounted, listCounted, pageOfMatches, type CollectionSpec } from './collection.js';
import { queryPrefix, type Db, type PageRequest } from './dynamo.js';
import { COLLECTION, ENTITY, TABLE_SCHEMA_VERSION, fromItem, key } from './model.js';
import { updateExisting } from './update.js';

/**
 * Agent-test scenarios and runs (docs/agent-tests.md): both counted collections of the workspace partition,
 * so one workspace can never read another's. A run is one item holding every scenario's result (at most
 * MAX_RUN_SCENARIOS, transcripts capped), written by its one runner.
 */

const SCENARIOS: CollectionSpec = { entity: 'agentTest', label: 'Agent test', itemKey: key.agentTest };
const RUNS: CollectionSpec = { entity: 'agentTestRun', label: 'Test run', itemKey: key.agentTestRun };

/** Stores a new scenario and counts it. */
export async function putNewScenario(db: Db, s: Scenario): Promise<void> {
  await insertCounted(db, SCENARIOS, s.workspaceId, { ...key.agentTest(s.workspaceId, s._id), entity: ENTITY.agentTest, v: TABLE_SCHEMA_VERSION, ...s });
}

/** A scenario of the workspace, or 404. */
export async function getScenario(db: Db, ws: string, id: string): Promise<Scenario> {
  const found = await getRecord<Scenario>(db, SCENARIOS, ws, id);
  if (!found) throw new NotFoundError(SCENARIOS.label);
  return found;
}

/** A page of scenarios, newest first; with `suite`, only that suite's (a read of the workspace's scenarios, at most MAX_SCENARIOS). */
export function listScenarios(db: Db, ws: string, req: PageRequest, suite?: string): Promise<Page<Scenario>> {
  if (suite === undefined) return listCounted<Scenario>(db, SCENARIOS, ws, req);
  return pageOfMatches<Scenario>(filtered(queryPrefix(db, `WS#${ws}`, COLLECTION.agentTest, { reverse: true }), (i) => i.suite === suite), req);
}

/** Every scenario of one suite, oldest first (the order a run plays them in). */
export async function suiteScenarios(db: Db, ws: string, suite: string): Promise<Scenario[]> {
  const out: Scenario[] = [];
  for await (const item of queryPrefix(db, `WS#${ws}`, COLLECTION.agentTest)) if (item.suite === suite) out.push(fromItem<Scenario>(item));
  return out;
}

async function* filtered(source: AsyncIterable<Record<string, unknown>>, keep: (item: Record<string, unknown>) => boolean) {
  for await (const item of source) if (keep(item)) yield item;
}

/** Writes the changed fields of a scenario, or 404. */
export function saveScenario(db: Db, ws: string, id: string, changes: Partial<Scenario>): Promise<Scenario> {
  return updateExisting<Scenario>(db, key.agentTest(ws, id), changes, SCENARIOS.label);
}

/** Deletes a scenario, or 404. Runs that played it keep their results. */
export const deleteScenario = (db: Db, ws: string, id: string) => deleteCounted(db, SCENARIOS, ws, id);


/** Stores a new run and counts it. */
export async function putNewRun(db: Db, run: TestRun): Promise<void> {
  await insertCounted(db, RUNS, run.workspaceId, { ...key.agentTestRun(run.workspaceId, run._id), entity: ENTITY.agentTestRun, v: TABLE_SCHEMA_VERSION, ...run });
}

/** A run of the workspace, or undefined. */
export const findRun = (db: Db, ws: string, id: string): Promise<TestRun | undefined> => getRecord<TestRun>(db, RUNS, ws, id);

/** A run of the workspace, or 404. */
export async function getRun(db: Db, ws: string, id: string): Promise<TestRun> {
  const found = await findRun(db, ws, id);
  if (!found) throw new NotFoundError(RUNS.label);
  return found;
}

/** A page of runs, newest first. */
export const listRuns = (db: Db, ws: string, req: PageRequest): Promise<Page<TestRun>> => listCounted<TestRun>(db, RUNS, ws, req);

/** Writes the run's changed fields (its runner is its one writer). */
export function saveRun(db: Db, ws: string, id: string, changes: Partial<TestRun>): Promise<TestRun> {
  return updateExisting<TestRun>(db, key.agentTestRun(ws, id), changes, RUNS.label);
}

/**
 * The newest finished run of the same suite against the same agent before `beforeId` (ids are ULIDs, so
 * newest first by sort key), or undefined. Reads runs newest first and stops at the first match.
 */
export async function previousSuiteRun(db: Db, run: Pick<TestRun, 'workspaceId' | '_id' | 'agentId' | 'suite'>): Promise<TestRun | undefined> {
  for await (const item of queryPrefix(db, `WS#${run.workspaceId}`, COLLECTION.agentTestRun, { reverse: true })) {
    const r = fromItem<TestRun>(item);
    if (r._id >= run._id) continue;
    if (r.agentId === run.agentId && r.suite === run.suite && (r.status === 'passed' || r.status === 'failed')) return r;
  }
  return undefined;
}

/** Runs of the workspace not finished yet, among its newest `window` runs (the workspace's run limit reads this). */
export async function activeRuns(db: Db, ws: string, window = 50): Promise<number> {
  let seen = 0;
  let active = 0;
  for await (const item of queryPrefix(db, `WS#${ws}`, COLLECTION.agentTestRun, { reverse: true })) {
    if (item.status === 'queued' || item.status === 'running') active += 1;
    if ((seen += 1) >= window) break;
  }
  return active;
}

/**
 * The runner claims a queued run (queued → running, one conditional write), so a redelivered message never
 * plays a run twice; undefined when it was claimed or finished already.
 */
export async function claimRun(db: Db, ws: string, id: string, nowIso: string): Promise<TestRun | undefined> {
  try {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.agentTestRun(ws, id),
        UpdateExpression: 'SET #st = :running, startedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND #st = :queued',
        ExpressionAttributeNames: { '#st': 'status' },
        ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':now': nowIso },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem<TestRun>(out.Attributes ?? {});
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** A scenario of the workspace, or undefined (a run whose scenario was deleted meanwhile). */
export const findScenario = (db: Db, ws: string, id: string): Promise<Scenario | undefined> => getRecord<Scenario>(db, SCENARIOS, ws, id);
