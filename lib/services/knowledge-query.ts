import { KnowledgeIndex, decodeSegment, type Segment } from '../domain/knowledge/search-index.js';
import type { KnowledgeHit } from '../domain/knowledge/schema.js';
import { NotFoundError } from '../domain/errors.js';
import type { Db } from '../store/dynamo.js';
import { getKnowledgeBase, listKnowledgeDocuments } from '../store/knowledge.js';
import { segmentKey, type KnowledgeObjects } from '../store/knowledge-objects.js';
import type { EmbeddingsProvider } from '../vendors/embeddings/openai.js';

/**
 * Retrieval over knowledge bases, the same code in a query Lambda and in the streaming service
 * (docs/knowledge.md, "Retrieval"). A base's index is the segments of its ready documents, read from the
 * bucket once per document revision and kept in memory (segments are immutable: a revision is never
 * rewritten), so a conversation's turns cost one embedding request and an in-memory search. The document
 * list is read again after {@link LISTING_TTL_MS}, so a document that becomes ready (or is deleted) during a
 * call counts from then on.
 */

/** In a conversation, a document ready or deleted mid-call is seen within this long; the table read is one query per base. */
export const LISTING_TTL_MS = 10_000;
/** Segments held in memory, by their approximate size: a 10,000-chunk base is ~13 MB. */
export const SEGMENT_CACHE_BYTES = 256 * 1024 * 1024;

export interface KnowledgeRetriever {
  /** The `k` best chunks of the workspace's bases for a query (bases of another workspace are never found). */
  search(ws: string, knowledgeBaseIds: readonly string[], query: string, k: number, embeddings: EmbeddingsProvider, options?: { skipMissing?: boolean }): Promise<KnowledgeHit[]>;
}

interface Listing {
  readonly at: number;
  readonly dimensions: number;
  readonly keys: readonly string[];
}

export function createKnowledgeRetriever(parts: { db: Db; objects: KnowledgeObjects; clock?: () => number; listingTtlMs?: number }): KnowledgeRetriever {
  const clock = parts.clock ?? Date.now;
  const ttl = parts.listingTtlMs ?? LISTING_TTL_MS;
  const segments = new Map<string, { segment: Segment; bytes: number }>();
  let heldBytes = 0;
  const listings = new Map<string, Listing>();
  const indexes = new Map<string, { signature: string; index: KnowledgeIndex }>();

  const loadSegment = async (objectKey: string): Promise<Segment | undefined> => {
    const held = segments.get(objectKey);
    if (held) {
      // Most recently used last: Map keeps insertion order, so the first entry is the one to drop.
      segments.delete(objectKey);
      segments.set(objectKey, held);
      return held.segment;
    }
    const bytes = await parts.objects.get(objectKey);
    if (!bytes) return undefined;
    const segment = decodeSegment(bytes);
    segments.set(objectKey, { segment, bytes: bytes.byteLength });
    heldBytes += bytes.byteLength;
    for (const [k, v] of segments) {
      if (heldBytes <= SEGMENT_CACHE_BYTES || k === objectKey) break;
      segments.delete(k);
      heldBytes -= v.bytes;
    }
    return segment;
  };

  const listing = async (ws: string, kbId: string): Promise<Listing> => {
    const cacheKey = `${ws}/${kbId}`;
    const held = listings.get(cacheKey);
    if (held && clock() - held.at < ttl) return held;
    // The base itself first: another workspace's id (or a deleted base) is simply not found.
    const kb = await getKnowledgeBase(parts.db, ws, kbId);
    const docs = await listKnowledgeDocuments(parts.db, ws, kbId);
    const keys = docs.filter((d) => d.status === 'ready').map((d) => segmentKey(ws, kbId, d._id, d.revision)).sort();
    const fresh = { at: clock(), dimensions: kb.dimensions, keys };
    listings.set(cacheKey, fresh);
    return fresh;
  };

  const indexOf = async (ws: string, kbId: string): Promise<KnowledgeIndex> => {
    const l = await listing(ws, kbId);
    const signature = `${ws}/${kbId}:${l.keys.join(',')}`;
    const held = indexes.get(`${ws}/${kbId}`);
    if (held?.signature === signature) return held.index;
    const loaded = (await Promise.all(l.keys.map(loadSegment))).filter((s): s is Segment => s !== undefined);
    const index = new KnowledgeIndex(loaded, l.dimensions);
    indexes.set(`${ws}/${kbId}`, { signature, index });
    return index;
  };

  return {
    async search(ws, ids, query, k, embeddings, options = {}) {
      const load = (id: string) =>
        indexOf(ws, id).catch((error: unknown) => {
          if (options.skipMissing && error instanceof NotFoundError) return undefined;
          throw error;
        });
      const [found, [vector]] = await Promise.all([
        Promise.all(ids.map(load)),
        embeddings.embed([query]).then((r) => r.vectors),
      ]);
      const bases = found.filter((b): b is KnowledgeIndex => b !== undefined);
      const hits = bases.flatMap((index) => index.search(query, vector!, k));
      return hits
        .sort((a, b) => b.score - a.score || b.vectorScore - a.vectorScore)
        .slice(0, k)
        .map((h) => ({
          chunkId: h.chunk.id,
          documentId: h.documentId,
          documentName: h.documentName,
          text: h.chunk.text,
          score: round(h.score),
          vectorScore: round(h.vectorScore),
          keywordScore: round(h.keywordScore),
          ...(h.chunk.section ? { section: h.chunk.section } : {}),
          ...(h.chunk.page !== undefined ? { page: h.chunk.page } : {}),
          start: h.chunk.start,
          end: h.chunk.end,
        }));
    },
  };
}

const round = (n: number): number => Math.round(n * 1e6) / 1e6;
