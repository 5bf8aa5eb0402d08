/**
 * The knowledge index format and its hybrid search (docs/knowledge.md, "Index format").
 *
 * One segment per document revision: a JSON header (chunks with their text, section, page, offsets and
 * keyword term counts) and the chunk vectors as little-endian Float32, unit length. A knowledge base's
 * index is the set of its ready documents' segments; loading one builds the BM25 inverted index over all of
 * them and a flat Float32Array of vectors. Search is exact: a dot product against every vector (10,000
 * chunks of 256 dimensions is 2.6 M multiply-adds, a few milliseconds) and BM25 over the query's words,
 * fused by reciprocal rank, so a part number or a name the vectors miss is still found by its words.
 */

export const SEGMENT_VERSION = 1;

export interface SegmentChunk {
  readonly id: string;
  readonly text: string;
  readonly section?: string;
  readonly page?: number;
  readonly start: number;
  readonly end: number;
  /** Keyword terms and their counts in the chunk (its section included). */
  readonly terms: Readonly<Record<string, number>>;
  readonly length: number;
}

export interface Segment {
  readonly version: number;
  readonly documentId: string;
  readonly documentName: string;
  readonly revision: number;
  readonly model: string;
  readonly dimensions: number;
  readonly chunks: readonly SegmentChunk[];
  /** chunks.length × dimensions, row-major, each row of unit length. */
  readonly vectors: Float32Array;
}

const STOPWORDS = new Set(
  'a an and are as at be but by can do does for from has have how i if in is it its my of on or our so that the their there this to was we what when where which who why will with you your'.split(' '),
);

/**
 * A light English stemmer (suffix stripping in the spirit of Porter's step 1): plurals (`ies`, `es` after
 * s/x/z/ch/sh, `s`), then `ing` and `ed`, leaving at least three letters, so "parking", "parks" and "park"
 * meet, as do "cleanings" and "clean". Words with digits (part numbers) are left alone. The embeddings
 * stand-in stems the same way (lib/local/standins/openai-embeddings.ts).
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(s|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const m = /^(.{3,}?)(ing|ed)$/.exec(w);
  if (m && /[aeiouy]/.test(m[1]!)) {
    w = m[1]!;
    // "stopped" -> "stop", "running" -> "run": the doubled consonant the suffix added is undone.
    if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  }
  return w;
}

/**
 * Keyword terms: lower case, accents folded, split on anything that is not a letter or a digit, stopwords
 * dropped, each word stemmed ({@link stem}); a word joined by `-`, `.` or `/` (a part number such as
 * `XR-200B`) also counts as the whole (`xr200b`).
 */
export function terms(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  const out: string[] = [];
  for (const m of folded.matchAll(/[\p{L}\p{N}]+(?:[-./][\p{L}\p{N}]+)*/gu)) {
    const parts = m[0].split(/[-./]/);
    for (const p of parts) if (!STOPWORDS.has(p)) out.push(stem(p));
    if (parts.length > 1) out.push(parts.join(''));
  }
  return out;
}

export function termCounts(text: string): { terms: Record<string, number>; length: number } {
  const counts: Record<string, number> = Object.create(null) as Record<string, number>;
  const list = terms(text);
  for (const t of list) counts[t] = (counts[t] ?? 0) + 1;
  return { terms: { ...counts }, length: list.length };
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i += 1) n += v[i]! * v[i]!;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i += 1) v[i]! /= n;
  return v;
}

/** Segment bytes: "KBSEG1\n", the header's byte length (uint32 LE), the header JSON, then the vectors. */
const MAGIC = Buffer.from('KBSEG1\n');

export function encodeSegment(segment: Segment): Buffer {
  const { vectors, ...header } = segment;
  const json = Buffer.from(JSON.stringify(header));
  // Float32 data needs 4-byte alignment when read back as a view: pad the header.
  const pad = Buffer.alloc((4 - ((MAGIC.length + 4 + json.length) % 4)) % 4, 0x20);
  const paddedLen = Buffer.alloc(4);
  paddedLen.writeUInt32LE(json.length + pad.length);
  return Buffer.concat([MAGIC, paddedLen, json, pad, Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength)]);
}

export function decodeSegment(bytes: Uint8Array): Segment {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!buf.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a knowledge segment');
  const headerLen = buf.readUInt32LE(MAGIC.length);
  const from = MAGIC.length + 4;
  const header = JSON.parse(buf.subarray(from, from + headerLen).toString('utf8')) as Omit<Segment, 'vectors'>;
  if (header.version !== SEGMENT_VERSION) throw new Error(`knowledge segment version ${header.version} is not ${SEGMENT_VERSION}`);
  const raw = buf.subarray(from + headerLen);
  // Copied into its own buffer: the read buffer may be pooled and not 4-byte aligned.
  const vectors = new Float32Array(raw.byteLength / 4);
  Buffer.from(vectors.buffer).set(raw);
  if (vectors.length !== header.chunks.length * header.dimensions) throw new Error('knowledge segment vectors do not match its chunks');
  return { ...header, vectors };
}

export interface SearchHit {
  readonly chunk: SegmentChunk;
  readonly documentId: string;
  readonly documentName: string;
  readonly score: number;
  readonly vectorScore: number;
  readonly keywordScore: number;
}

/** BM25's usual constants (Robertson and Zaragoza, "The Probabilistic Relevance Framework"). */
const K1 = 1.2;
const B = 0.75;
/** Reciprocal rank fusion's constant (Cormack et al., 2009): ranks past the first few count little. */
const RRF_K = 60;

/** A knowledge base's loaded index: every ready segment, searchable. Immutable once built. */
export class KnowledgeIndex {
  readonly size: number;
  readonly dimensions: number;
  private readonly chunks: { chunk: SegmentChunk; documentId: string; documentName: string }[] = [];
  private readonly vectors: Float32Array;
  private readonly postings = new Map<string, { idx: number[]; tf: number[] }>();
  private readonly lengths: Float32Array;
  private readonly avgLength: number;
  /** Bytes held: what the cache in front of it counts. */
  readonly bytes: number;

  constructor(segments: readonly Segment[], dimensions: number) {
    this.dimensions = dimensions;
    for (const s of segments) {
      if (s.dimensions !== dimensions) throw new Error(`segment ${s.documentId} has ${s.dimensions} dimensions, not ${dimensions}`);
      for (const chunk of s.chunks) this.chunks.push({ chunk, documentId: s.documentId, documentName: s.documentName });
    }
    this.size = this.chunks.length;
    this.vectors = new Float32Array(this.size * dimensions);
    let at = 0;
    for (const s of segments) {
      this.vectors.set(s.vectors, at);
      at += s.vectors.length;
    }
    this.lengths = new Float32Array(this.size);
    let total = 0;
    let textBytes = 0;
    this.chunks.forEach(({ chunk }, i) => {
      this.lengths[i] = chunk.length;
      total += chunk.length;
      textBytes += chunk.text.length * 2;
      for (const [t, n] of Object.entries(chunk.terms)) {
        let p = this.postings.get(t);
        if (!p) this.postings.set(t, (p = { idx: [], tf: [] }));
        p.idx.push(i);
        p.tf.push(n);
      }
    });
    this.avgLength = this.size ? total / this.size : 1;
    this.bytes = this.vectors.byteLength + textBytes + this.size * 200;
  }

  /** BM25 scores of the query's terms, by chunk index (only chunks with a term in common). */
  private keywordScores(query: string): Map<number, number> {
    const scores = new Map<number, number>();
    for (const t of new Set(terms(query))) {
      const p = this.postings.get(t);
      if (!p) continue;
      const idf = Math.log(1 + (this.size - p.idx.length + 0.5) / (p.idx.length + 0.5));
      for (let j = 0; j < p.idx.length; j += 1) {
        const i = p.idx[j]!;
        const tf = p.tf[j]!;
        const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[i]!) / this.avgLength));
        scores.set(i, (scores.get(i) ?? 0) + s);
      }
    }
    return scores;
  }

  /** The `k` best chunks for a query and its (unit) embedding, by fused rank. */
  search(query: string, embedding: Float32Array, k: number): SearchHit[] {
    if (this.size === 0) return [];
    if (embedding.length !== this.dimensions) throw new Error(`query embedding has ${embedding.length} dimensions, not ${this.dimensions}`);
    const d = this.dimensions;
    const cos = new Float32Array(this.size);
    for (let i = 0; i < this.size; i += 1) {
      let s = 0;
      const base = i * d;
      for (let j = 0; j < d; j += 1) s += this.vectors[base + j]! * embedding[j]!;
      cos[i] = s;
    }
    const keyword = this.keywordScores(query);
    // Candidates: the best 50 by each signal (more than any k asked), fused by reciprocal rank.
    const depth = Math.max(50, k * 5);
    const byVector = topIndices(cos, depth);
    const byKeyword = [...keyword.entries()].sort((a, b) => b[1] - a[1]).slice(0, depth).map(([i]) => i);
    const fused = new Map<number, number>();
    byVector.forEach((i, r) => fused.set(i, (fused.get(i) ?? 0) + 1 / (RRF_K + r + 1)));
    byKeyword.forEach((i, r) => fused.set(i, (fused.get(i) ?? 0) + 1 / (RRF_K + r + 1)));
    return [...fused.entries()]
      .sort((a, b) => b[1] - a[1] || cos[b[0]]! - cos[a[0]]!)
      .slice(0, k)
      .map(([i, score]) => ({ ...this.chunks[i]!, score, vectorScore: cos[i]!, keywordScore: keyword.get(i) ?? 0 }));
  }
}

/** Indices of the `n` largest values, best first (a partial selection, not a full sort). */
function topIndices(values: Float32Array, n: number): number[] {
  const top: number[] = [];
  for (let i = 0; i < values.length; i += 1) {
    if (top.length === n && values[i]! <= values[top[n - 1]!]!) continue;
    let at = top.length < n ? top.length : n - 1;
    if (top.length < n) top.push(i);
    while (at > 0 && values[top[at - 1]!]! < values[i]!) {
      top[at] = top[at - 1]!;
      at -= 1;
    }
    top[at] = i;
  }
  return top;
}
