import { AppError, ForbiddenError, ValidationError, type ErrorDetail } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { extractDocument } from '../domain/knowledge/extract.js';
import {
  KNOWLEDGE_LIMITS,
  KnowledgeUploadFields,
  type KnowledgeBase,
  type KnowledgeBaseCreate,
  type KnowledgeDocument,
  type KnowledgeDocumentCreate,
  type KnowledgeHit,
  type KnowledgeQuery,
} from '../domain/knowledge/schema.js';
import { refuseToolUrl } from '../domain/ssrf.js';
import type { Config } from '../config.js';
import type { Db } from '../store/dynamo.js';
import {
  deleteKnowledgeBaseItem,
  deleteKnowledgeDocumentItem,
  getKnowledgeBase,
  getKnowledgeDocument,
  listKnowledgeBases,
  listKnowledgeDocuments,
  putNewKnowledgeBase,
  putNewKnowledgeDocument,
  updateKnowledgeDocument,
} from '../store/knowledge.js';
import { createKnowledgeObjects, documentPrefix, knowledgePrefix, sourceKey, type KnowledgeObjects } from '../store/knowledge-objects.js';
import { workspaceProviderKeys } from '../store/provider-keys.js';
import { createKnowledgeQueue, type KnowledgeQueue } from '../store/queue.js';
import type { SecretBox } from '../store/secret-box.js';
import { createEmbeddings, EMBEDDING_DIMENSIONS, EMBEDDING_MODEL } from '../vendors/embeddings/openai.js';
import { VendorError } from '../vendors/shared/errors.js';
import { createKnowledgeRetriever, type KnowledgeRetriever } from './knowledge-query.js';

/**
 * Knowledge bases and their documents (docs/knowledge.md): the one owner of a document's lifecycle on the
 * API side. Adding a document stores its source and queues it (`processing`); the ingestion consumer
 * (./knowledge-ingest.ts) turns it `ready` or `failed`. Deleting removes the table items and every object
 * under the document's (or base's) prefix.
 */
export interface KnowledgeDeps {
  readonly db: Db;
  readonly config: Config;
  readonly secrets: SecretBox;
  readonly knowledge: KnowledgeObjects;
  readonly knowledgeQueue: KnowledgeQueue;
}

const built = new WeakMap<Config, Pick<KnowledgeDeps, 'knowledge' | 'knowledgeQueue'>>();

/**
 * The platform's dependencies with the knowledge bucket and queue, built once per configuration (a cold
 * start) and only by the entry points that use them: lib/deps.ts stays as every other bundle needs it.
 */
export function knowledgeDepsOf(deps: Pick<KnowledgeDeps, 'db' | 'config' | 'secrets'>): KnowledgeDeps {
  let parts = built.get(deps.config);
  if (!parts) built.set(deps.config, (parts = { knowledge: createKnowledgeObjects(deps.config), knowledgeQueue: createKnowledgeQueue(deps.config) }));
  return { db: deps.db, config: deps.config, secrets: deps.secrets, ...parts };
}

class KnowledgeLimitError extends AppError {
  constructor(message: string) {
    super(409, 'knowledge_base_full', message, []);
  }
}

export async function createKnowledgeBase(deps: Pick<KnowledgeDeps, 'db'>, ws: string, input: KnowledgeBaseCreate): Promise<KnowledgeBase> {
  const existing = await listKnowledgeBases(deps.db, ws);
  if (existing.length >= KNOWLEDGE_LIMITS.maxKnowledgeBases) throw new KnowledgeLimitError(`A workspace holds at most ${KNOWLEDGE_LIMITS.maxKnowledgeBases} knowledge bases.`);
  const now = new Date().toISOString();
  const kb: KnowledgeBase = {
    _id: newId('knowledgeBase'),
    name: input.name,
    description: input.description,
    workspaceId: ws,
    embeddingModel: EMBEDDING_MODEL,
    dimensions: EMBEDDING_DIMENSIONS,
    createdAt: now,
    updatedAt: now,
  };
  await putNewKnowledgeBase(deps.db, kb);
  return kb;
}

export const knowledgeBasesOf = async (db: Db, ws: string): Promise<{ data: KnowledgeBase[] }> => ({ data: await listKnowledgeBases(db, ws) });

/** A base with its documents (the dashboard's page shows both). */
export async function knowledgeBaseWithDocuments(db: Db, ws: string, id: string): Promise<KnowledgeBase & { documents: KnowledgeDocument[] }> {
  const kb = await getKnowledgeBase(db, ws, id);
  return { ...kb, documents: await listKnowledgeDocuments(db, ws, id) };
}

/** Deletes a base: its documents' items, every object under its prefix, then the base itself. */
export async function removeKnowledgeBase(deps: Pick<KnowledgeDeps, 'db' | 'knowledge'>, ws: string, id: string): Promise<void> {
  await getKnowledgeBase(deps.db, ws, id);
  for (const doc of await listKnowledgeDocuments(deps.db, ws, id)) await deleteKnowledgeDocumentItem(deps.db, ws, id, doc._id).catch(() => undefined);
  await deps.knowledge.deletePrefix(knowledgePrefix(ws, id));
  await deleteKnowledgeBaseItem(deps.db, ws, id);
}

async function assertRoom(db: Db, ws: string, kbId: string): Promise<void> {
  await getKnowledgeBase(db, ws, kbId);
  const docs = await listKnowledgeDocuments(db, ws, kbId);
  if (docs.length >= KNOWLEDGE_LIMITS.maxDocuments) throw new KnowledgeLimitError(`A knowledge base holds at most ${KNOWLEDGE_LIMITS.maxDocuments} documents.`);
}

/** Stores the source, writes the document `processing` and queues its ingestion. */
async function addDocument(deps: KnowledgeDeps, doc: KnowledgeDocument, source: Uint8Array | undefined, contentType: string): Promise<KnowledgeDocument> {
  if (source) await deps.knowledge.put(sourceKey(doc.workspaceId, doc.knowledgeBaseId, doc._id), source, contentType);
  await putNewKnowledgeDocument(deps.db, doc);
  try {
    await deps.knowledgeQueue.send({ workspaceId: doc.workspaceId, knowledgeBaseId: doc.knowledgeBaseId, documentId: doc._id, revision: doc.revision });
  } catch (error) {
    // Not queued: the document says so, and a re-index queues it again.
    await updateKnowledgeDocument(deps.db, doc.workspaceId, doc.knowledgeBaseId, doc._id, { status: 'failed', error: 'could not be queued for ingestion; re-index it' });
    throw error;
  }
  return doc;
}

const newDocument = (ws: string, kbId: string, fields: Pick<KnowledgeDocument, 'name' | 'format' | 'sizeBytes'> & { url?: string }): KnowledgeDocument => {
  const now = new Date().toISOString();
  return { _id: newId('knowledgeDocument'), knowledgeBaseId: kbId, workspaceId: ws, status: 'processing', revision: 1, createdAt: now, updatedAt: now, ...fields };
};

/** `POST /api/knowledge-bases/{id}/documents` with JSON: plain text, or a web page by URL (fetched by the consumer). */
export async function addJsonDocument(deps: KnowledgeDeps, ws: string, kbId: string, input: KnowledgeDocumentCreate): Promise<KnowledgeDocument> {
  if (input.url !== undefined) {
    const url = new URL(input.url);
    // The literal checks now (a clear 400); every fetch checks the resolved addresses again (knowledge-ingest.ts).
    const refused = refuseToolUrl(url, deps.config.TOOL_ALLOWED_HOSTS);
    if (refused) throw new AppError(400, 'url_refused', `The URL is refused: ${refused}.`, [{ field: 'url', message: refused }]);
    await assertRoom(deps.db, ws, kbId);
    return addDocument(deps, newDocument(ws, kbId, { name: input.name ?? url.href, format: 'url', sizeBytes: 0, url: url.href }), undefined, 'text/html');
  }
  await assertRoom(deps.db, ws, kbId);
  const bytes = Buffer.from(input.text!, 'utf8');
  return addDocument(deps, newDocument(ws, kbId, { name: input.name!, format: 'text', sizeBytes: bytes.length }), bytes, 'text/plain; charset=utf-8');
}

/**
 * `POST /api/knowledge-bases/{id}/documents` with a multipart form: the file is read now (format by its
 * bytes, hostile files refused with a 4xx before anything is stored), then stored and queued.
 */
export async function addUploadedDocument(
  deps: KnowledgeDeps,
  ws: string,
  kbId: string,
  form: { readonly fields: ReadonlyMap<string, string>; readonly file?: { readonly filename: string; readonly bytes: Uint8Array } },
): Promise<KnowledgeDocument> {
  const claimed = form.fields.get('workspaceId');
  if (claimed !== undefined && claimed !== ws) throw new ForbiddenError();
  const fields = KnowledgeUploadFields.safeParse(Object.fromEntries(form.fields));
  const problems: ErrorDetail[] = fields.success ? [] : fields.error.issues.map((i) => ({ field: i.path.join('.') || 'form', message: i.message }));
  if (!form.file) problems.push({ field: 'file', message: 'a document is required in the form field "file"' });
  if (!fields.success || !form.file) throw new ValidationError(problems);
  const extracted = await extractDocument(form.file.bytes, form.file.filename);
  await assertRoom(deps.db, ws, kbId);
  const name = fields.data.name ?? (form.file.filename.trim().slice(0, 200) || extracted.title || 'document');
  return addDocument(deps, newDocument(ws, kbId, { name, format: extracted.format, sizeBytes: form.file.bytes.length }), form.file.bytes, 'application/octet-stream');
}

export const documentOf = (db: Db, ws: string, kbId: string, id: string): Promise<KnowledgeDocument> => getKnowledgeDocument(db, ws, kbId, id);

export async function documentsOf(db: Db, ws: string, kbId: string): Promise<{ data: KnowledgeDocument[] }> {
  await getKnowledgeBase(db, ws, kbId);
  return { data: await listKnowledgeDocuments(db, ws, kbId) };
}

/** Re-index: a new revision, `processing` again, queued; the old segment stays searchable until the new one is ready. */
export async function reindexDocument(deps: KnowledgeDeps, ws: string, kbId: string, id: string): Promise<KnowledgeDocument> {
  const doc = await getKnowledgeDocument(deps.db, ws, kbId, id);
  const next = await updateKnowledgeDocument(deps.db, ws, kbId, id, { revision: doc.revision + 1, status: 'processing', updatedAt: new Date().toISOString() });
  await deps.knowledgeQueue.send({ workspaceId: ws, knowledgeBaseId: kbId, documentId: id, revision: next.revision });
  return next;
}

/** Deletes a document: its item, then its source and every segment (a worker still running finds it gone and writes nothing that stays). */
export async function removeDocument(deps: Pick<KnowledgeDeps, 'db' | 'knowledge'>, ws: string, kbId: string, id: string): Promise<void> {
  await deleteKnowledgeDocumentItem(deps.db, ws, kbId, id);
  await deps.knowledge.deletePrefix(documentPrefix(ws, kbId, id));
}

/**
 * One retriever (and its segment cache) per set of dependencies, built on the first query of a warm process.
 * It lists the documents at every query (no listing cache): a deleted document is never answered from here.
 */
const retrievers = new WeakMap<KnowledgeObjects, KnowledgeRetriever>();

/** `POST /api/knowledge-bases/{id}/query`: the best chunks, embedded with the workspace's own OpenAI key when it has one. */
export async function queryKnowledgeBase(deps: KnowledgeDeps, ws: string, kbId: string, input: KnowledgeQuery): Promise<{ data: KnowledgeHit[] }> {
  let retriever = retrievers.get(deps.knowledge);
  if (!retriever) retrievers.set(deps.knowledge, (retriever = createKnowledgeRetriever({ db: deps.db, objects: deps.knowledge, listingTtlMs: 0 })));
  const keys = await workspaceProviderKeys(deps.db, deps.secrets, ws).catch(() => ({}));
  try {
    return { data: await retriever.search(ws, [kbId], input.query, input.k, createEmbeddings(deps.config, keys)) };
  } catch (error) {
    // The embeddings vendor down, or no key to reach it: the query cannot run now, which is no 500.
    if (error instanceof VendorError) throw new AppError(503, 'unavailable', `The knowledge base cannot be searched right now: ${error.message}`, [], { cause: error });
    throw error;
  }
}
