import type { TextBlock } from './extract.js';

/**
 * Chunking: blocks are packed into chunks of about {@link CHUNK_TARGET_CHARS}, never across a heading (a
 * heading opens a new chunk and stays with the text under it), and a block longer than a chunk is cut
 * between sentences. Each chunk keeps its section path, page, and its character offsets in the document's
 * text (the blocks joined by blank lines), so a hit can be shown in place.
 */

/** ~200 tokens of English: small enough that a top-5 fits a voice turn's prompt, large enough to hold an answer. */
export const CHUNK_TARGET_CHARS = 800;
/** A chunk is never longer than this (a sentence longer than it is cut between words). */
export const CHUNK_MAX_CHARS = 1_200;

export interface Chunk {
  readonly text: string;
  readonly section?: string;
  readonly page?: number;
  readonly start: number;
  readonly end: number;
}

interface Piece {
  readonly text: string;
  readonly start: number;
  readonly section?: string;
  readonly page?: number;
  readonly heading?: boolean;
}

/** Splits a long block between sentences (then words), keeping each piece's offset. */
function splitBlock(block: TextBlock, start: number): Piece[] {
  if (block.text.length <= CHUNK_TARGET_CHARS) return [{ ...block, start }];
  const out: Piece[] = [];
  const sentences = [...block.text.matchAll(/[^.!?]+(?:[.!?]+["')\]]*|$)\s*/g)].map((m) => ({ text: m[0], at: m.index }));
  for (const s of sentences) {
    if (s.text.length <= CHUNK_MAX_CHARS) {
      if (s.text.trim()) out.push({ text: s.text.trim(), start: start + s.at, section: block.section, page: block.page });
      continue;
    }
    // A run-on "sentence" (a list without stops): cut between words.
    for (const w of s.text.matchAll(/\S(?:[\s\S]{0,798}\S)?(?=\s|$)/g)) out.push({ text: w[0], start: start + s.at + w.index, section: block.section, page: block.page });
  }
  return out;
}

/** The document's text as offsets count it: the blocks joined by blank lines. */
export const documentText = (blocks: readonly TextBlock[]): string => blocks.map((b) => b.text).join('\n\n');

export function chunkBlocks(blocks: readonly TextBlock[]): Chunk[] {
  const pieces: Piece[] = [];
  let offset = 0;
  for (const block of blocks) {
    pieces.push(...splitBlock(block, offset));
    offset += block.text.length + 2;
  }
  const chunks: Chunk[] = [];
  let current: Piece[] = [];
  let length = 0;
  const flush = () => {
    if (current.length === 0) return;
    const first = current[0]!;
    const last = current.at(-1)!;
    const withBody = current.find((p) => !p.heading) ?? first;
    chunks.push({
      text: current.map((p) => p.text).join(current.some((p) => p.heading) ? '\n' : ' '),
      ...(withBody.section ? { section: withBody.section } : {}),
      ...(first.page !== undefined ? { page: first.page } : {}),
      start: first.start,
      end: last.start + last.text.length,
    });
    current = [];
    length = 0;
  };
  for (const piece of pieces) {
    const onlyHeadings = current.every((p) => p.heading);
    // A heading opens a chunk; a new page or section opens one too, unless the chunk so far is headings only.
    if (piece.heading && !onlyHeadings) flush();
    else if (!onlyHeadings && (piece.section !== current.at(-1)?.section || piece.page !== current.at(-1)?.page)) flush();
    else if (length + piece.text.length > CHUNK_TARGET_CHARS && !onlyHeadings) flush();
    current.push(piece);
    length += piece.text.length + 1;
  }
  flush();
  return chunks;
}
