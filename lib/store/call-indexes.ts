import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Call } from '../domain/call.js';
import type { Db } from './dynamo.js';
import { GSI1, LIVE_STREAM_SHARDS, dialedCallShard, fromItem, liveStreamShard } from './model.js';

/** The sweeps' reads of live calls: the sparse live-stream and dialed-call indexes, never the table. */

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

