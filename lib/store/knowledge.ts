import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { NotFoundError } from '../domain/errors.js';
import type { KnowledgeBase, KnowledgeDocument } from '../domain/knowledge/schema.js';
import { batchGetItems, queryPrefix, type Db } from './dynamo.js';
import { ENTITY, TABLE_SCHEMA_VERSION, fromItem, key } from './model.js';
import { updateExisting } from './update.js';

/**
 * Knowledge bases and their documents in the table (docs/knowledge.md). Both live in the workspace's
 * partition, so every read is scoped by construction: another workspace's id is simply not found (404).
 * The chunks, vectors and sources live in the bucket (lib/store/knowledge-objects.ts).
 */

/** Puts a new knowledge base (never overwriting). */
export async function putNewKnowledgeBase(db: Db, kb: KnowledgeBase): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...key.knowledgeBase(kb.workspaceId, kb._id), entity: ENTITY.knowledgeBase, v: TABLE_SCHEMA_VERSION, ...kb },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** A workspace's knowledge base, or 404. */
export async function getKnowledgeBase(db: Db, ws: string, id: string): Promise<KnowledgeBase> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.knowledgeBase(ws, id), ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError('Knowledge base');
  return fromItem<KnowledgeBase>(out.Item);
}

/** Every knowledge base of the workspace, newest first (at most KNOWLEDGE_LIMITS.maxKnowledgeBases exist). */
export async function listKnowledgeBases(db: Db, ws: string): Promise<KnowledgeBase[]> {
  const out: KnowledgeBase[] = [];
  for await (const item of queryPrefix(db, `WS#${ws}`, 'KB#', { reverse: true })) out.push(fromItem<KnowledgeBase>(item));
  return out;
}

/** Which of `ids` are knowledge bases of the workspace (by key: another workspace's ids are never found). */
export async function existingKnowledgeBaseIds(db: Db, ws: string, ids: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Set();
  const found = await batchGetItems(db, unique.map((id) => key.knowledgeBase(ws, id)));
  return new Set(found.filter((i) => i.entity === ENTITY.knowledgeBase).map((i) => String(i._id)));
}

/** Deletes the knowledge base's item; 404 when it is not there. Its documents are deleted by the service first. */
export async function deleteKnowledgeBaseItem(db: Db, ws: string, id: string): Promise<void> {
  try {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key.knowledgeBase(ws, id), ConditionExpression: 'attribute_exists(pk)' }));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError('Knowledge base');
    throw error;
  }
}

export async function putNewKnowledgeDocument(db: Db, doc: KnowledgeDocument): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...key.knowledgeDocument(doc.workspaceId, doc.knowledgeBaseId, doc._id), entity: ENTITY.knowledgeDocument, v: TABLE_SCHEMA_VERSION, ...doc },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** One document of the workspace's knowledge base, or 404. */
export async function getKnowledgeDocument(db: Db, ws: string, kbId: string, id: string): Promise<KnowledgeDocument> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.knowledgeDocument(ws, kbId, id), ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError('Document');
  return fromItem<KnowledgeDocument>(out.Item);
}

/** The documents of one knowledge base, newest first. */
export async function listKnowledgeDocuments(db: Db, ws: string, kbId: string): Promise<KnowledgeDocument[]> {
  const out: KnowledgeDocument[] = [];
  for await (const item of queryPrefix(db, `WS#${ws}`, `KBDOC#${kbId}#`, { reverse: true })) out.push(fromItem<KnowledgeDocument>(item));
  return out;
}

/** Sets fields of an existing document; 404 when it is gone. */
export const updateKnowledgeDocument = (db: Db, ws: string, kbId: string, id: string, changes: Partial<KnowledgeDocument>): Promise<KnowledgeDocument> =>
  updateExisting<KnowledgeDocument>(db, key.knowledgeDocument(ws, kbId, id), changes, 'Document');

/**
 * Records the outcome of ingesting one revision, only if the document is still at that revision (a
 * re-index or a delete since then wins): false when the condition failed.
 */
export async function settleKnowledgeDocument(
  db: Db,
  doc: Pick<KnowledgeDocument, 'workspaceId' | 'knowledgeBaseId' | '_id' | 'revision'>,
  changes: Pick<KnowledgeDocument, 'status' | 'updatedAt'> & Partial<Pick<KnowledgeDocument, 'error' | 'chunks' | 'characters' | 'name'>>,
): Promise<boolean> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const names: Record<string, string> = { '#rev': 'revision' };
  const values: Record<string, unknown> = { ':rev': doc.revision };
  const sets = entries.map(([k, v], i) => {
    names[`#a${i}`] = k;
    values[`:v${i}`] = v;
    return `#a${i} = :v${i}`;
  });
  const remove = changes.error === undefined ? ' REMOVE #err' : '';
  if (remove) names['#err'] = 'error';
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.knowledgeDocument(doc.workspaceId, doc.knowledgeBaseId, doc._id),
        UpdateExpression: `SET ${sets.join(', ')}${remove}`,
        ConditionExpression: 'attribute_exists(pk) AND #rev = :rev',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Deletes one document's item; 404 when it is not there. */
export async function deleteKnowledgeDocumentItem(db: Db, ws: string, kbId: string, id: string): Promise<void> {
  try {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key.knowledgeDocument(ws, kbId, id), ConditionExpression: 'attribute_exists(pk)' }));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError('Document');
    throw error;
  }
}
