/**
 * Invariant: the knowledge pieces that decide what a caller is told are exact (docs/knowledge.md). Chunks
 * never cross a heading, keep their section, page and offsets (the offsets locate the chunk's text in the
 * document), and long text is cut between sentences; the segment format round-trips; hybrid search finds a
 * part number by its words where the vectors alone miss it; the stand-in's vectors are deterministic, of
 * unit length and closer for texts that share words; robots.txt rules follow RFC 9309's longest match; and
 * the context given to the model names each excerpt's source, placed just before the caller's turn.
 */
import { describe, expect, it } from 'vitest';
import { CHUNK_MAX_CHARS, chunkBlocks, documentText } from '../../lib/domain/knowledge/chunk.js';
import { deflateSync } from 'node:zlib';
import { extractDocument, extractText } from '../../lib/domain/knowledge/extract.js';
import { assertPdfExpansion } from '../../lib/domain/knowledge/pdf.js';
import { pdf } from '../support/knowledge-files.js';
import { KnowledgeIndex, SEGMENT_VERSION, decodeSegment, encodeSegment, termCounts, terms, type Segment } from '../../lib/domain/knowledge/search-index.js';
import { standinEmbedding } from '../../lib/local/standins/openai-embeddings.js';
import { robotsAllows, sitemapUrls } from '../../lib/outbound/web-page.js';
import { contextMessage, withContext } from '../../streaming-service/src/conversation/knowledge.js';

const DIMS = 256;

function segmentOf(texts: readonly string[], vector: (t: string) => Float32Array = (t) => standinEmbedding(t, DIMS)): Segment {
  const vectors = new Float32Array(texts.length * DIMS);
  texts.forEach((t, i) => vectors.set(vector(t), i * DIMS));
  return {
    version: SEGMENT_VERSION,
    documentId: 'kdoc_1',
    documentName: 'doc',
    revision: 1,
    model: 'text-embedding-3-small',
    dimensions: DIMS,
    chunks: texts.map((t, i) => ({ id: `kch_${i}`, text: t, start: 0, end: t.length, ...termCounts(t) })),
    vectors,
  };
}

describe('chunking', () => {
  it('keeps each heading with its text, never across a section, with offsets into the document text', () => {
    const md = '# Guide\n\n## Hours\n\nOpen 8 to 6.\n\nClosed Sundays.\n\n## Parking\n\nBehind the building.';
    const { blocks } = extractText(md, 'markdown');
    const chunks = chunkBlocks(blocks);
    expect(chunks.map((c) => [c.section, c.text])).toEqual([
      ['Guide > Hours', 'Guide\nHours\nOpen 8 to 6.\nClosed Sundays.'],
      ['Guide > Parking', 'Parking\nBehind the building.'],
    ]);
    const text = documentText(blocks);
    for (const c of chunks) expect(text.slice(c.start, c.end).startsWith(c.text.split('\n')[0]!)).toBe(true);
    expect(text.slice(chunks[1]!.start, chunks[1]!.end)).toBe('Parking\n\nBehind the building.');
  });

  it('cuts a long paragraph between sentences, each chunk at most the maximum, none lost', () => {
    const sentences = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} tells one more fact about the clinic.`);
    const chunks = chunkBlocks(extractText(sentences.join(' '), 'text').blocks);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
      expect(c.text).toMatch(/^Sentence number \d+ .*clinic\.$/);
    }
    expect(chunks.map((c) => c.text).join(' ')).toBe(sentences.join(' '));
  });
});

describe('readers', () => {
  it('reads HTML without scripts or navigation, entities decoded, headings as sections', () => {
    const { blocks, title } = extractText('<html><head><title>T &amp; C</title><style>p{}</style></head><body><nav>Menu</nav><h2>Fees</h2><p>A &lt;50&gt; fee &#8364;</p><script>alert(1)</script></body></html>', 'html');
    expect(title).toBe('T & C');
    expect(blocks).toEqual([
      { text: 'Fees', section: 'Fees', heading: true },
      { text: 'A <50> fee €', section: 'Fees' },
    ]);
  });

  it('reads a CSV row as one block of header: value pairs, and a PDF by its bytes whatever its name', async () => {
    const { blocks } = await extractDocument(Buffer.from('name,price\nFloss,$6\n'), 'prices.csv');
    expect(blocks).toEqual([{ text: 'name: Floss; price: $6', section: 'row 2' }]);
    const read = await extractDocument(pdf([['Opening hours', 'We open at 8am.'], ['Parking', 'Free parking on Harbor Street.']]), 'notes.txt');
    expect(read.format).toBe('pdf');
    expect(read.blocks).toEqual([
      { text: 'Opening hours We open at 8am.', page: 1 },
      { text: 'Parking Free parking on Harbor Street.', page: 2 },
    ]);
    await expect(extractDocument(Buffer.from('%PDF-1.7 not really'), 'x.pdf')).rejects.toMatchObject({ status: 400, code: 'invalid_document' });
  });

  it('refuses a PDF whose streams inflate past the budget before PDF.js reads it', () => {
    const bomb = Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj << /Length 1 /Filter /FlateDecode >>\nstream\n'), deflateSync(Buffer.alloc(8 * 1024 * 1024)), Buffer.from('\nendstream\nendobj\n')]);
    expect(() => assertPdfExpansion(bomb, 1024 * 1024)).toThrow(expect.objectContaining({ status: 413, code: 'document_too_large' }));
    expect(() => assertPdfExpansion(bomb, 16 * 1024 * 1024)).not.toThrow();
  });
});

describe('segments and hybrid search', () => {
  it('round-trips a segment, vectors and all', () => {
    const segment = segmentOf(['one fact', 'another fact']);
    const back = decodeSegment(encodeSegment(segment));
    expect(back.chunks).toEqual(segment.chunks);
    expect(Array.from(back.vectors)).toEqual(Array.from(segment.vectors));
    expect(() => decodeSegment(Buffer.from('not a segment'))).toThrow();
  });

  it('finds a part number by its words where the vectors alone rank it last', () => {
    const texts = ['Whitening kits cost 45 dollars.', 'Our toothbrush XR-200B costs 89 dollars.', 'Parking is free behind the building.'];
    // Vectors that know nothing (all the same): only the keyword index can tell the chunks apart.
    const flat = () => Float32Array.from({ length: DIMS }, (_, j) => (j === 0 ? 1 : 0));
    const index = new KnowledgeIndex([segmentOf(texts, flat)], DIMS);
    const [best] = index.search('price of xr200b', flat(), 1);
    expect(best!.chunk.text).toBe(texts[1]);
    expect(best!.keywordScore).toBeGreaterThan(0);
    expect(terms('XR-200B')).toEqual(['xr', '200b', 'xr200b']);
  });

  it('ranks by meaning-by-words with the stand-in vectors: shared words and word pieces are closer', () => {
    const a = standinEmbedding('free parking behind the building', DIMS);
    const b = standinEmbedding('is the parking free', DIMS);
    const c = standinEmbedding('whitening costs 350 dollars', DIMS);
    const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    expect(dot(a, a)).toBeCloseTo(1, 5);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
    expect(Array.from(standinEmbedding('same text', DIMS))).toEqual(Array.from(standinEmbedding('same text', DIMS)));
  });
});

describe('robots.txt', () => {
  it('obeys the most specific group and the longest matching rule, Allow winning a tie', () => {
    const robots = 'User-agent: *\nDisallow: /\n\nUser-agent: VoiceAgentPlatform-Knowledge\nDisallow: /private\nAllow: /private/faq\n';
    expect(robotsAllows(robots, '/services')).toBe(true);
    expect(robotsAllows(robots, '/private/notes')).toBe(false);
    expect(robotsAllows(robots, '/private/faq.html')).toBe(true);
    expect(robotsAllows('User-agent: *\nDisallow: /*.pdf$\n', '/a/b.pdf')).toBe(false);
    expect(robotsAllows('User-agent: *\nDisallow: /*.pdf$\n', '/a/b.pdf.html')).toBe(true);
    expect(robotsAllows('User-agent: other\nDisallow: /\n', '/x')).toBe(true);
    expect(robotsAllows('', '/x')).toBe(true);
  });

  it('reads a sitemap\'s page addresses, and nothing from a sitemap index', () => {
    expect(sitemapUrls('<urlset><url><loc> https://a.example/x?p=1&amp;q=2 </loc></url><url><loc>https://a.example/y</loc></url></urlset>')).toEqual(['https://a.example/x?p=1&q=2', 'https://a.example/y']);
    expect(sitemapUrls('<sitemapindex><sitemap><loc>https://a.example/s.xml</loc></sitemap></sitemapindex>')).toEqual([]);
  });
});

describe('context for the model', () => {
  it('numbers the excerpts with their sources and places them just before the caller\'s turn', () => {
    const hit = { chunkId: 'kch_1', documentId: 'kdoc_1', documentName: 'faq.md', text: 'Free parking behind.', score: 0.03, vectorScore: 0.5, keywordScore: 1, section: 'Parking', page: 2, start: 0, end: 20 };
    const context = contextMessage([hit]);
    expect(context.content).toContain('[1] (faq.md, Parking, page 2)\nFree parking behind.');
    const messages = withContext(
      [
        { role: 'system', content: 'prompt' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Where to park?' },
      ],
      context,
    );
    expect(messages.map((m) => m.role)).toEqual(['system', 'assistant', 'system', 'user']);
  });
});
