/**
 * `npm run bench -- knowledge`: retrieval latency, ingestion throughput and recall (docs/knowledge.md).
 *
 * - **Retrieval p50/p99 for a 10,000-chunk base**, inside one process as the streaming service runs it: the
 *   in-memory hybrid search (lib/domain/knowledge/search-index.ts) over 10,000 chunks of 256 dimensions,
 *   against a baseline measured in the same run (the bare dot-product scan, the floor of any exact search).
 * - **Added time of an `auto` turn**: the embedding request through the `openai` SDK to the loopback
 *   stand-in plus the search, the whole retrieval a turn waits for locally (the stand-in has no model
 *   latency: against OpenAI the request's round trip is added).
 * - **Ingestion pages/s**: a 500-page PDF (2,400 characters a page) read by PDF.js, chunked, embedded (the
 *   stand-in's vectors, in process: the network of a real vendor is not measured) and encoded as a segment;
 *   the process's peak RSS, and above its level at the start.
 * - **recall@5** on the shipped corpus (test/fixtures/knowledge/: 26 sections, 30 hand-written questions).
 *
 * One JSON line at the end. Benchmarks report; they never fail the run.
 */
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { chunkBlocks } from '../lib/domain/knowledge/chunk.js';
import { extractDocument } from '../lib/domain/knowledge/extract.js';
import { KnowledgeIndex, SEGMENT_VERSION, decodeSegment, encodeSegment, termCounts, type Segment, type SegmentChunk } from '../lib/domain/knowledge/search-index.js';
import { standinEmbedding } from '../lib/local/standins/openai-embeddings.js';
import { LlmStandinControl } from '../lib/local/standins/llm-script.js';
import { startOpenAiLlmStandin } from '../lib/local/standins/openai-llm.js';
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODEL } from '../lib/vendors/embeddings/openai.js';
import { pdf } from '../test/support/knowledge-files.js';

const DIMS = EMBEDDING_DIMENSIONS;
const CHUNKS = 10_000;
const QUERIES = 2_000;
const PAGES = 500;
const WORDS = 'appointment billing cleaning crown denture emergency filling gum hygiene implant insurance invoice laser molar night orthodontic parking payment plaque refund root sealant sedation shipping toothbrush veneer whitening wisdom x-ray'.split(' ');

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

/** A deterministic pseudo-random text of `n` words (xorshift), with a part number now and then. */
function text(seed: number, n: number): string {
  let x = seed * 2654435761 + 1;
  const next = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), Math.abs(x));
  const words: string[] = [];
  for (let i = 0; i < n; i += 1) words.push(i % 37 === 0 ? `XR-${next() % 1000}` : WORDS[next() % WORDS.length]!);
  return words.join(' ');
}

function segmentOf(texts: readonly string[], documentId: string): Segment {
  const vectors = new Float32Array(texts.length * DIMS);
  const chunks: SegmentChunk[] = texts.map((t, i) => {
    vectors.set(standinEmbedding(t, DIMS), i * DIMS);
    const c = termCounts(t);
    return { id: `kch_${documentId}_${i}`, text: t, start: 0, end: t.length, terms: c.terms, length: c.length };
  });
  return { version: SEGMENT_VERSION, documentId, documentName: documentId, revision: 1, model: EMBEDDING_MODEL, dimensions: DIMS, chunks, vectors };
}

function timed(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

async function retrieval() {
  // 10,000 chunks in 20 documents of 500, as a base of 20 uploads would hold them.
  const segments = Array.from({ length: 20 }, (_, d) => segmentOf(Array.from({ length: CHUNKS / 20 }, (_, i) => text(d * 100_000 + i, 120)), `doc${d}`));
  const index = new KnowledgeIndex(segments, DIMS);
  const queries = Array.from({ length: QUERIES }, (_, i) => text(9_000_000 + i, 6));
  const embeddings = queries.map((q) => standinEmbedding(q, DIMS));
  const flat = new Float32Array(CHUNKS * DIMS);
  let at = 0;
  for (const s of segments) {
    flat.set(s.vectors, at);
    at += s.vectors.length;
  }
  // Warm-up: JIT both paths before measuring.
  for (let i = 0; i < 200; i += 1) index.search(queries[i]!, embeddings[i]!, 5);
  const search: number[] = [];
  const scan: number[] = [];
  let sink = 0;
  for (let i = 0; i < QUERIES; i += 1) {
    search.push(timed(() => void index.search(queries[i]!, embeddings[i]!, 5)));
    scan.push(
      timed(() => {
        const e = embeddings[i]!;
        for (let c = 0; c < CHUNKS; c += 1) {
          let s = 0;
          for (let j = 0; j < DIMS; j += 1) s += flat[c * DIMS + j]! * e[j]!;
          sink += s;
        }
      }),
    );
  }
  void sink;
  search.sort((a, b) => a - b);
  scan.sort((a, b) => a - b);
  return { searchP50Ms: round(percentile(search, 50)), searchP99Ms: round(percentile(search, 99)), scanP50Ms: round(percentile(scan, 50)), scanP99Ms: round(percentile(scan, 99)), index, queries };
}

async function turnAddedTime(index: KnowledgeIndex, queries: readonly string[]) {
  const server = await startOpenAiLlmStandin({ apiKey: 'sk-bench-standin', control: new LlmStandinControl() });
  const client = new OpenAI({ apiKey: 'sk-bench-standin', baseURL: `${server.url}/v1`, maxRetries: 0 });
  const times: number[] = [];
  try {
    for (let i = 0; i < 300; i += 1) {
      const started = performance.now();
      const out = await client.embeddings.create({ model: EMBEDDING_MODEL, input: [queries[i]!], dimensions: DIMS, encoding_format: 'float' });
      index.search(queries[i]!, Float32Array.from(out.data[0]!.embedding), 4);
      if (i >= 20) times.push(performance.now() - started);
    }
  } finally {
    await server.close();
  }
  times.sort((a, b) => a - b);
  return { autoTurnP50Ms: round(percentile(times, 50)), autoTurnP99Ms: round(percentile(times, 99)) };
}

/** A 500-page PDF (40 lines of ~60 characters a page, ~2,400 characters: a page of a manual) through the whole ingestion but the network. */
async function ingestion() {
  const lines = (p: number) => Array.from({ length: 40 }, (_, l) => `${text(p * 100 + l, 9)}.`);
  const doc = pdf(Array.from({ length: PAGES }, (_, p) => lines(p)));
  // Loaded once before measuring, as a warm consumer has it.
  await extractDocument(pdf([['warm up']]), 'warm.pdf');
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = performance.now();
  const extracted = await extractDocument(doc, 'book.pdf');
  const chunks = chunkBlocks(extracted.blocks);
  const segment = segmentOf(chunks.map((c) => (c.section ? `${c.section}\n${c.text}` : c.text)), 'book');
  const bytes = encodeSegment(segment);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  decodeSegment(bytes);
  return { pdfMiB: round(doc.length / 1024 / 1024, 2), pages: PAGES, chunks: chunks.length, segmentMiB: round(bytes.length / 1024 / 1024, 2), pagesPerSecond: round(PAGES / seconds, 1), peakRssAboveStartMiB: round((peak - rssBefore) / 1024 / 1024, 1), peakRssMiB: round(peak / 1024 / 1024, 1) };
}

async function recall() {
  const here = fileURLToPath(new URL('../test/fixtures/knowledge/', import.meta.url));
  const corpus = await readFile(`${here}corpus.md`);
  const questions = JSON.parse(await readFile(`${here}questions.json`, 'utf8')) as { q: string; section: string }[];
  const chunks = chunkBlocks((await extractDocument(corpus, 'corpus.md')).blocks);
  const segment = segmentOf(chunks.map((c) => (c.section ? `${c.section}\n${c.text}` : c.text)), 'corpus');
  // The chunks' sections, kept beside the segment (segmentOf leaves them out).
  const sections = chunks.map((c) => c.section ?? '');
  const index = new KnowledgeIndex([segment], DIMS);
  let hits = 0;
  const missed: string[] = [];
  for (const { q, section } of questions) {
    const top = index.search(q, standinEmbedding(q, DIMS), 5);
    const ok = top.some((h) => sections[Number(h.chunk.id.split('_').pop())]!.endsWith(section));
    if (ok) hits += 1;
    else missed.push(q);
  }
  return { questions: questions.length, recallAt5: round(hits / questions.length), missed };
}

export async function run(): Promise<void> {
  const load = loadavg()[0]!;
  const r = await retrieval();
  const turn = await turnAddedTime(r.index, r.queries);
  const ingest = await ingestion();
  const rec = await recall();
  const lines = [
    `load average (1 min) at start: ${load.toFixed(2)}`,
    `retrieval, 10,000 chunks × ${DIMS} dims: hybrid search p50 ${r.searchP50Ms} ms, p99 ${r.searchP99Ms} ms (target p99 ≤ 25 ms); bare vector scan p50 ${r.scanP50Ms} ms, p99 ${r.scanP99Ms} ms; ratio p99 ${round(r.searchP99Ms / r.scanP99Ms, 2)}`,
    `auto turn (embedding request to the loopback stand-in + search): p50 ${turn.autoTurnP50Ms} ms, p99 ${turn.autoTurnP99Ms} ms (target p50 ≤ 40 ms)`,
    `ingestion, a ${ingest.pages}-page PDF (${ingest.pdfMiB} MiB) → ${ingest.chunks} chunks, extracted, chunked, embedded (stand-in, in process) and encoded: ${ingest.pagesPerSecond} pages/s (target ≥ 20); segment ${ingest.segmentMiB} MiB; peak RSS ${ingest.peakRssMiB} MiB, +${ingest.peakRssAboveStartMiB} MiB over the start (target: the 500-page PDF under 256 MB)`,
    `recall@5 on ${rec.questions} questions: ${rec.recallAt5} (target ≥ 0.9)${rec.missed.length ? `; missed: ${rec.missed.join(' | ')}` : ''}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(`${JSON.stringify({ suite: 'knowledge', load1: round(load, 2), ...Object.fromEntries(Object.entries(r).filter(([k]) => k.endsWith('Ms'))), ...turn, ...ingest, recallAt5: rec.recallAt5 })}\n`);
}
