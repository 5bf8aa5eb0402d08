import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './dynamo.js';
import type { TransactItem } from './credits.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';

/** The stored part of a meeting link (the token itself is never stored, only its SHA-256). */
export interface MeetingTokenItem {
  readonly workspaceId: string;
  readonly tokenHash: string;
  readonly expiresAtMs: number;
  readonly usedAt?: string;
}

/** A new link's token item, to write in the transaction that creates its call (never over an existing one). */
export function meetingTokenItem(db: Db, link: { callId: string; workspaceId: string; tokenHash: string; expiresAtMs: number }): TransactItem {
  return {
    Put: {
      TableName: db.table,
      Item: {
        ...key.meetingToken(link.callId),
        entity: ENTITY.meetingToken,
        v: TABLE_SCHEMA_VERSION,
        workspaceId: link.workspaceId,
        tokenHash: link.tokenHash,
        expiresAtMs: link.expiresAtMs,
        // DynamoDB may delete it a while after expiry; the redeem condition checks expiresAtMs itself.
        ttl: Math.floor(link.expiresAtMs / 1000) + 7 * 24 * 60 * 60,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** A meeting link's token item by call id (consistent: a join a moment ago must show as used). */
export async function getMeetingToken(db: Db, callId: string): Promise<MeetingTokenItem | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.meetingToken(callId), ConsistentRead: true }));
  const item = out.Item;
  if (!item) return undefined;
  return {
    workspaceId: String(item.workspaceId),
    tokenHash: String(item.tokenHash),
    expiresAtMs: Number(item.expiresAtMs),
    ...(item.usedAt !== undefined ? { usedAt: String(item.usedAt) } : {}),
  };
}

/**
 * Marks a link's token used with ONE conditional write: the hash matches, it is unused and unexpired. Of
 * any number of concurrent calls exactly one gets the owning workspace; the others get undefined.
 */
export async function useMeetingToken(db: Db, callId: string, tokenHash: string, nowMs: number): Promise<string | undefined> {
  try {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.meetingToken(callId),
        UpdateExpression: 'SET usedAt = :now',
        ConditionExpression: 'tokenHash = :h AND attribute_not_exists(usedAt) AND expiresAtMs > :nowMs',
        ExpressionAttributeValues: { ':h': tokenHash, ':now': new Date(nowMs).toISOString(), ':nowMs': nowMs },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return String(out.Attributes?.workspaceId);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}
