import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Call } from '../domain/call.js';
import type { Page } from '../domain/common.js';
import { LIVE_CALL_STATES } from '../domain/live-call.js';
import { pageOfMatches } from './collection.js';
import { queryAll, type Db, type PageRequest } from './dynamo.js';
import { GSI1, GSI2, LIVE_STREAM_SHARDS, dialedCallShard, fromItem, liveCallsOf, liveStreamShard } from './model.js';

/**
 * Reads of live calls from the sparse indexes, never the table: the sweeps' (live-stream and dialed-call
 * entries of GSI1) and a workspace's calls that are not over (GSI2, GET /api/calls).
 */

/**
 * A page of the workspace's calls that are not over, newest first, optionally of one agent. One Query of
 * the workspace's live-call index partition, which holds only its live calls. The index is eventually
 * consistent, so the state is checked too: a call that just ended is never listed.
 */
export function listLiveCalls(db: Db, ws: string, q: { agentId?: string } & PageRequest): Promise<Page<Call>> {
  const values: Record<string, unknown> = { ':pk': liveCallsOf(ws), ...Object.fromEntries(LIVE_CALL_STATES.map((s, i) => [`:s${i}`, s])) };
  let filter = `#st IN (${LIVE_CALL_STATES.map((_, i) => `:s${i}`).join(', ')})`;
  if (q.agentId !== undefined) {
    values[':agent'] = q.agentId;
    filter += ' AND agentId = :agent';
  }
  const items = queryAll(db, {
    IndexName: GSI2,
    KeyConditionExpression: 'gsi2pk = :pk',
    FilterExpression: filter,
    ExpressionAttributeNames: { '#st': 'status' },
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  });
  return pageOfMatches<Call>(items, q);
}

/**
 * Live streams whose last heartbeat is older than `seenBefore` (ISO 8601), oldest first per shard, at most
 * `limit`: the candidates of the sweep. Reads only the stale entries of the sparse live-stream index, never
 * the table. The index is eventually consistent: the settlement re-checks the heartbeat it read.
 */
export const findStaleStreams = (db: Db, seenBefore: string, limit: number): Promise<Call[]> =>
  findInShards(db, liveStreamShard, seenBefore, limit);

/**
 * Dialed, never-streamed, unsettled calls dialed (or last found live) before `before`, at most `limit`: the
 * candidates of the lost-callback reconciliation, from the sparse dialed-call index, never the table. The
 * index is eventually consistent: the reconciliation re-checks each call it acts on.
 */
export const findQuietDialedCalls = (db: Db, before: string, limit: number): Promise<Call[]> =>
  findInShards(db, dialedCallShard, before, limit);

/** The entries of a sharded GSI1 collection sorted before `before`, oldest first per shard, at most `limit`. */
async function findInShards(db: Db, shardKey: (n: number) => string, before: string, limit: number): Promise<Call[]> {
  const found: Call[] = [];
  for (let shard = 0; shard < LIVE_STREAM_SHARDS && found.length < limit; shard++) {
    let start: Record<string, unknown> | undefined;
    do {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: db.table,
          IndexName: GSI1,
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
          ExpressionAttributeValues: { ':pk': shardKey(shard), ':before': before },
          Limit: limit - found.length,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of out.Items ?? []) found.push(fromItem<Call>(item));
      start = out.LastEvaluatedKey;
    } while (start && found.length < limit);
  }
  return found;
}

