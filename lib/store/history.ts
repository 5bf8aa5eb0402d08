import { metadataFilters } from '../domain/call-metadata.js';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CallEvent } from '../domain/call-timeline.js';
import type { Page } from '../domain/common.js';
import { NotFoundError } from '../domain/errors.js';
import { historyRange, type HistoryListQuery, type HistoryRecord } from '../domain/history.js';
import { ulidTimeBounds, ID_PREFIX } from '../domain/ids.js';
import type { CallAnalysis } from '../domain/analysis.js';
import { updateExisting } from './update.js';
import { phoneDigits } from '../domain/phone.js';
import type { Db, PageRequest, transact } from './dynamo.js';
import { queryAll } from './dynamo.js';
import { deleteCounted, getRecord, insertCounted, insertItems, listCounted, pageOfMatches, type CollectionSpec } from './collection.js';
import { COLLECTION, ENTITY, GSI1, TABLE_SCHEMA_VERSION, key } from './model.js';

const CALLS: CollectionSpec = { entity: 'call', label: 'History record', itemKey: key.call };

const searchText = (r: Pick<HistoryRecord, 'fullName' | 'mobileNumber'>) =>
  `${r.fullName.toLowerCase()}|${r.mobileNumber}|${phoneDigits(r.mobileNumber)}`;

const toItem = (r: HistoryRecord) => ({
  ...key.call(r.workspace_id, r._id),
  ...key.callTypeIndex(r.workspace_id, r.agentType, r._id),
  entity: ENTITY.call,
  v: TABLE_SCHEMA_VERSION,
  searchText: searchText(r),
  ...r,
});

/**
 * Writes a new call history record. Its `_id` is a call id (`call_<ULID>`) whose time part is the call's
 * start, which the date filters read as a key range. False when a record with that id already existed (the
 * first write is kept).
 */
export async function putNewHistoryRecord(db: Db, record: HistoryRecord): Promise<boolean> {
  const { failedIndex } = await insertCounted(db, CALLS, record.workspace_id, toItem(record));
  return failedIndex === undefined;
}

/**
 * Writes the record of a call that ended. A meeting's record exists from the link's creation as a
 * placeholder (`not_joined`); what happened in the call replaces it. Any other existing record is kept
 * (the first write wins, so a retried history write changes nothing). True when this write put the
 * record (created it or replaced the placeholder).
 */
export async function putEndedCallRecord(db: Db, record: HistoryRecord): Promise<boolean> {
  if (await putNewHistoryRecord(db, record)) return true;
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: toItem(record),
        ConditionExpression: '#reason = :placeholder',
        ExpressionAttributeNames: { '#reason': 'callEndReason' },
        ExpressionAttributeValues: { ':placeholder': 'not_joined' },
      }),
    );
    return true;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return false;
  }
}

/** The writes of {@link putNewHistoryRecord}, to run in a caller's transaction (a meeting link's record). */
export const newHistoryRecordItems = (db: Db, record: HistoryRecord): Parameters<typeof transact>[1] =>
  insertItems(db, CALLS, record.workspace_id, toItem(record));

export async function getHistoryRecord(db: Db, ws: string, id: string): Promise<HistoryRecord> {
  const found = await getRecord<HistoryRecord>(db, CALLS, ws, id);
  if (!found) throw new NotFoundError(CALLS.label);
  return found;
}

/** Whether the workspace has a history record with this id (a key-only read). */
export async function historyRecordExists(db: Db, ws: string, id: string): Promise<boolean> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.call(ws, id), ProjectionExpression: 'pk', ConsistentRead: true }));
  return out.Item !== undefined;
}

/** Stores a call's post-call analysis on its record, or 404. */
export const setHistoryAnalysis = (db: Db, ws: string, id: string, analysis: CallAnalysis) =>
  updateExisting<HistoryRecord>(db, key.call(ws, id), { analysis }, CALLS.label);

/** Deletes a history record and its timeline. */
export async function deleteHistoryRecord(db: Db, ws: string, id: string): Promise<void> {
  await deleteCounted(db, CALLS, ws, id);
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key.callTimeline(ws, id) }));
}

/** A call's stored timeline: its events and whether some were left out. */
export interface StoredTimeline {
  readonly data: readonly CallEvent[];
  readonly truncated: boolean;
}

/** Stores a call's event timeline; the first write is kept (a second end of the same call changes nothing). */
export async function putCallTimeline(db: Db, ws: string, id: string, timeline: StoredTimeline): Promise<void> {
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...key.callTimeline(ws, id), entity: ENTITY.callTimeline, v: TABLE_SCHEMA_VERSION, callId: id, events: timeline.data, truncated: timeline.truncated },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** A call's stored timeline, or undefined when it kept none (the record's existence is not checked here). */
export async function findCallTimeline(db: Db, ws: string, id: string): Promise<StoredTimeline | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.callTimeline(ws, id), ConsistentRead: true }));
  const item = out.Item as { events?: CallEvent[]; truncated?: boolean } | undefined;
  return item ? { data: item.events ?? [], truncated: item.truncated ?? false } : undefined;
}

/**
 * A page of history, newest first. Unfiltered: one page and the counter. `agentType` reads its own index;
 * dates bound the key range (ids sort by time); `search`, the analysis outcome (`success`) and `agentId` filter
 * inside the workspace partition (or the type's index): no index of its own, so a filtered page reads the
 * workspace's records in the date range (docs/api.md, History, says what that costs).
 */
export function listHistory(db: Db, ws: string, q: HistoryListQuery & PageRequest): Promise<Page<HistoryRecord>> {
  const { fromMs, toMs } = historyRange(q);
  const search = q.search?.toLowerCase();
  const byMetadata = metadataFilters(q as unknown as Readonly<Record<string, unknown>>);
  if (!q.agentType && fromMs === undefined && toMs === undefined && !search && q.success === undefined && q.agentId === undefined && byMetadata.length === 0) {
    return listCounted<HistoryRecord>(db, CALLS, ws, q);
  }
  const low = `${ID_PREFIX.call}_${fromMs === undefined ? '' : ulidTimeBounds(fromMs).low}`;
  const high = `${ID_PREFIX.call}_${toMs === undefined ? '~' : ulidTimeBounds(toMs).high}`;
  const byType = q.agentType !== undefined;
  const values: Record<string, unknown> = byType
    ? { ':pk': `WS#${ws}#CALLTYPE#${q.agentType}`, ':low': low, ':high': high }
    : { ':pk': `WS#${ws}`, ':low': `${COLLECTION.call}${low}`, ':high': `${COLLECTION.call}${high}` };
  const digits = search && /^[+\d\s().-]+$/.test(search) ? phoneDigits(search) : '';
  if (search) values[':q'] = search;
  if (digits) values[':d'] = digits;
  const filters: string[] = [];
  if (search) filters.push(digits ? '(contains(searchText, :q) OR contains(searchText, :d))' : 'contains(searchText, :q)');
  if (q.success !== undefined) {
    values[':pass'] = q.success === 'true';
    filters.push('analysis.success.pass = :pass');
  }
  if (q.agentId !== undefined) {
    values[':agent'] = q.agentId;
    filters.push('agentId = :agent');
  }
  // `metadata.key=value`: the stored string, or the number or boolean the text spells (docs/calls.md, "Metadata").
  const names: Record<string, string> = {};
  byMetadata.forEach(([k, v], i) => {
    names[`#m${i}`] = k;
    const alternatives = [`metadata.#m${i} = :ms${i}`];
    values[`:ms${i}`] = v;
    if (v.trim() !== '' && Number.isFinite(Number(v))) {
      values[`:mn${i}`] = Number(v);
      alternatives.push(`metadata.#m${i} = :mn${i}`);
    }
    if (v === 'true' || v === 'false') {
      values[`:mb${i}`] = v === 'true';
      alternatives.push(`metadata.#m${i} = :mb${i}`);
    }
    filters.push(`(${alternatives.join(' OR ')})`);
  });
  const input = {
    ...(byType ? { IndexName: GSI1 } : {}),
    ...(byMetadata.length > 0 ? { ExpressionAttributeNames: names } : {}),
    KeyConditionExpression: byType ? 'gsi1pk = :pk AND gsi1sk BETWEEN :low AND :high' : 'pk = :pk AND sk BETWEEN :low AND :high',
    ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
    ExpressionAttributeValues: values,
  };
  return pageOfMatches<HistoryRecord>(queryAll(db, { ...input, ScanIndexForward: false }), q);
}
