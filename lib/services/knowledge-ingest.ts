import { isUtf8 } from 'node:buffer';
import { AppError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { chunkBlocks } from '../domain/knowledge/chunk.js';
import { extractDocument, extractText, type ExtractedDocument } from '../domain/knowledge/extract.js';
import { KNOWLEDGE_LIMITS, type IngestMessage, type KnowledgeDocument } from '../domain/knowledge/schema.js';
import { SEGMENT_VERSION, encodeSegment, termCounts, type SegmentChunk } from '../domain/knowledge/search-index.js';
import { log } from '../observability/log.js';
import { fetchSite, PageRefusedError, type FetchedPage } from '../outbound/web-page.js';
import { getKnowledgeBase, getKnowledgeDocument, settleKnowledgeDocument } from '../store/knowledge.js';
import { documentPrefix, segmentKey, sourceKey } from '../store/knowledge-objects.js';
import { workspaceProviderKeys } from '../store/provider-keys.js';
import { KNOWLEDGE_QUEUE_SETTINGS } from '../store/queue.js';
import { createEmbeddings, type EmbeddingsProvider } from '../vendors/embeddings/openai.js';
import { VendorError } from '../vendors/shared/errors.js';
import type { KnowledgeDeps } from './knowledge.js';

/**
 * The ingestion consumer's work for one document revision (docs/knowledge.md, "Ingestion"): read the source
 * (or fetch the page), extract, chunk, embed, write the segment, then mark the document `ready`, only if it
 * is still at that revision. A problem with the document itself (a refused page, an unreadable file, the
 * vendor refusing our key) is the document's `failed` with its reason; our own failures (the bucket, the
 * table, the vendor down) throw, so the queue redelivers the message.
 */

export interface IngestOptions {
  /** The embeddings vendor; the workspace's own OpenAI key is used when it has one. */
  readonly embeddings?: (keys: Awaited<ReturnType<typeof workspaceProviderKeys>>) => EmbeddingsProvider;
  /**
   * How often the queue has delivered this message. On its last receive before the dead letters
   * (KNOWLEDGE_QUEUE_SETTINGS.maxReceiveCount) our own failure ends as the document's `failed` too, so no
   * document stays `processing` for ever.
   */
  readonly receiveCount?: number;
}

export type IngestOutcome = 'ready' | 'failed' | 'stale';

async function sourceOf(deps: KnowledgeDeps, doc: KnowledgeDocument): Promise<ExtractedDocument> {
  if (doc.format === 'url') {
    const site = await fetchSite(new URL(doc.url!), { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS, maxBytes: KNOWLEDGE_LIMITS.maxPageBytes, timeoutMs: KNOWLEDGE_LIMITS.pageTimeoutMs });
    // Kept, like an upload's bytes: what was indexed (the page, or the sitemap) is deleted with the document.
    await deps.knowledge.put(sourceKey(doc.workspaceId, doc.knowledgeBaseId, doc._id), site.first.body, site.first.contentType);
    const read = (page: FetchedPage): ExtractedDocument => {
      if (!isUtf8(page.body)) throw new PageRefusedError(`${page.url} is not UTF-8 text`);
      return extractText(page.body.toString('utf8'), /^(text\/html|application\/xhtml)/.test(page.contentType) ? 'html' : 'text');
    };
    if (site.pages.length === 0) return read(site.first);
    // A sitemap: its pages' blocks in its order, each section led by the page's title (or address).
    const blocks = site.pages.flatMap((page) => {
      const one = read(page);
      const name = one.title ?? page.url;
      return one.blocks.map((b) => ({ ...b, section: b.section ? `${name} > ${b.section}` : name }));
    });
    if (blocks.reduce((n, b) => n + b.text.length, 0) > KNOWLEDGE_LIMITS.maxExtractedChars) {
      throw new PageRefusedError(`the sitemap's pages hold more than ${KNOWLEDGE_LIMITS.maxExtractedChars} characters of text`);
    }
    return { format: 'html', blocks };
  }
  const bytes = await deps.knowledge.get(sourceKey(doc.workspaceId, doc.knowledgeBaseId, doc._id));
  if (!bytes) throw new PageRefusedError('the document source is gone');
  if (doc.format === 'text') return extractText(Buffer.from(bytes).toString('utf8'), 'text');
  return await extractDocument(bytes, doc.format === 'markdown' ? 'x.md' : doc.format === 'html' ? 'x.html' : doc.format === 'csv' ? 'x.csv' : '');
}

export async function ingestDocument(deps: KnowledgeDeps, message: IngestMessage, options: IngestOptions = {}): Promise<IngestOutcome> {
  const { workspaceId: ws, knowledgeBaseId: kbId, documentId: id, revision } = message;
  const doc = await getKnowledgeDocument(deps.db, ws, kbId, id).catch((error: unknown) => {
    if (error instanceof AppError && error.status === 404) return undefined;
    throw error;
  });
  // Deleted, or re-indexed since this message was sent: the newer message does the work.
  if (!doc || doc.revision !== revision) return 'stale';
  const kb = await getKnowledgeBase(deps.db, ws, kbId);
  const fail = async (reason: string): Promise<IngestOutcome> => {
    const settled = await settleKnowledgeDocument(deps.db, doc, { status: 'failed', error: reason.slice(0, 500), updatedAt: new Date().toISOString() });
    log('info', 'knowledge document failed', { workspaceId: ws, knowledgeBaseId: kbId, documentId: id, reason: reason.slice(0, 200) });
    return settled ? 'failed' : 'stale';
  };
  try {
    return await ingestRevision(deps, doc, kb.dimensions, fail, options);
  } catch (error) {
    if ((options.receiveCount ?? 1) < KNOWLEDGE_QUEUE_SETTINGS.maxReceiveCount) throw error;
    return fail(`ingestion failed and was given up after its last attempt (${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}); re-index the document`);
  }
}

async function ingestRevision(
  deps: KnowledgeDeps,
  doc: KnowledgeDocument,
  dimensions: number,
  fail: (reason: string) => Promise<IngestOutcome>,
  options: IngestOptions,
): Promise<IngestOutcome> {
  const { workspaceId: ws, knowledgeBaseId: kbId, _id: id, revision } = doc;
  let extracted: ExtractedDocument;
  try {
    extracted = await sourceOf(deps, doc);
  } catch (error) {
    if (error instanceof PageRefusedError || error instanceof AppError) return fail(error.message);
    throw error;
  }
  const chunks = chunkBlocks(extracted.blocks);
  const keys = await workspaceProviderKeys(deps.db, deps.secrets, ws).catch(() => ({}));
  const embeddings = options.embeddings ? options.embeddings(keys) : createEmbeddings(deps.config, keys);
  let vectors: Float32Array[];
  try {
    // The section path is embedded with the text: "Opening hours > Saturday" is what a caller's question names.
    ({ vectors } = await embeddings.embed(chunks.map((c) => (c.section ? `${c.section}\n${c.text}` : c.text))));
  } catch (error) {
    if (error instanceof VendorError && !error.retryable) return fail(`the embeddings vendor refused the request: ${error.message}`);
    throw error;
  }
  const segmentChunks: SegmentChunk[] = chunks.map((c) => {
    const counted = termCounts(c.section ? `${c.section} ${c.text}` : c.text);
    return { id: newId('knowledgeChunk'), text: c.text, ...(c.section ? { section: c.section } : {}), ...(c.page !== undefined ? { page: c.page } : {}), start: c.start, end: c.end, terms: counted.terms, length: counted.length };
  });
  const flat = new Float32Array(chunks.length * dimensions);
  vectors.forEach((v, i) => flat.set(v.subarray(0, dimensions), i * dimensions));
  const name = doc.format === 'url' && doc.name === doc.url && extracted.title ? extracted.title.slice(0, 200) : doc.name;
  const segment = encodeSegment({ version: SEGMENT_VERSION, documentId: id, documentName: name, revision, model: embeddings.model, dimensions, chunks: segmentChunks, vectors: flat });
  await deps.knowledge.put(segmentKey(ws, kbId, id, revision), segment, 'application/octet-stream');
  const characters = extracted.blocks.reduce((n, b) => n + b.text.length, 0);
  const settled = await settleKnowledgeDocument(deps.db, doc, { status: 'ready', chunks: chunks.length, characters, name, updatedAt: new Date().toISOString() });
  if (!settled) {
    // Deleted or re-indexed while this ran: this revision's segment must not outlive it.
    const still = await getKnowledgeDocument(deps.db, ws, kbId, id).catch(() => undefined);
    if (!still) await deps.knowledge.deletePrefix(documentPrefix(ws, kbId, id));
    return 'stale';
  }
  // Older revisions' segments are no longer read by anyone once this one is ready.
  for (const key of await deps.knowledge.list(documentPrefix(ws, kbId, id))) {
    const rev = /\/r(\d+)\.seg$/.exec(key)?.[1];
    if (rev !== undefined && Number(rev) < revision) await deps.knowledge.deletePrefix(key);
  }
  return 'ready';
}
