import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './dynamo.js';
import { key } from './model.js';

/** The stored part of a meeting link (the token itself is never stored, only its SHA-256). */
export interface MeetingTokenItem {
  readonly workspaceId: string;
  readonly tokenHash: string;
  readonly expiresAtMs: number;
  readonly usedAt?: string;
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
