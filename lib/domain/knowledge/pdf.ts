import { inflateSync } from 'node:zlib';
import { AppError, type ErrorCode } from '../errors.js';
import { KNOWLEDGE_LIMITS } from './schema.js';
import { loadSideModule } from '../../side-module.js';

/** One block of text and where it sits (./extract.ts). */
interface PdfBlock {
  readonly text: string;
  readonly page: number;
}

type PdfLibs = typeof import('./pdf-libs.js');
/** The file ./pdf-libs.ts is built into beside the bundles that read PDFs (lib/infra/entry-needs.ts). */
export const PDF_LIBS_FILE = 'knowledge-pdf-libs.mjs';
export const PDF_LIBS_SOURCE = 'lib/domain/knowledge/pdf-libs.ts';

/** PDF.js, loaded on the first PDF (lib/side-module.ts). */
function loadPdfLibs(): Promise<PdfLibs> {
  return loadSideModule<PdfLibs>(import.meta.url, PDF_LIBS_FILE, './pdf-libs.js');
}

/**
 * PDF text, page by page, through unpdf (PDF.js's serverless build). Before PDF.js sees the file, every
 * FlateDecode-looking stream is inflated once with a running budget (zlib's maxOutputLength), so a deflate
 * bomb (4 MiB that expands to gigabytes) is refused before anything holds its output; PDF.js then reads
 * only text (no images are rendered). Encrypted files are refused; at most KNOWLEDGE_LIMITS.maxPdfPages.
 */

class PdfError extends AppError {
  constructor(status: 400 | 413, code: ErrorCode, message: string) {
    super(status, code, message, [{ field: 'file', message }]);
  }
}

/** Inflates each stream of the file with one shared budget; throws 413 past it. */
export function assertPdfExpansion(bytes: Uint8Array, budget: number): void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let spent = 0;
  for (let at = buf.indexOf('stream'); at >= 0; at = buf.indexOf('stream', at + 6)) {
    // "endstream" also contains "stream": skip it.
    if (at >= 3 && buf.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + 6;
    if (buf[start] === 0x0d) start += 1;
    if (buf[start] === 0x0a) start += 1;
    const end = buf.indexOf('endstream', start);
    if (end < 0) break;
    const data = buf.subarray(start, end);
    // Only zlib-wrapped data (a deflate stream's header byte 0x78) is inflated here.
    if (data[0] !== 0x78) continue;
    try {
      spent += inflateSync(data, { maxOutputLength: Math.max(1, budget - spent), finishFlush: 2 /* Z_SYNC_FLUSH: tolerate a missing end */ }).length;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw new PdfError(413, 'document_too_large', `The PDF expands past ${budget} bytes of stream data.`);
      }
      // Not deflate after all, or damaged: PDF.js decides.
    }
    at = end;
  }
}

/** The text of a PDF, one block per paragraph with its page (1-based). Throws the 4xx of a file it refuses. */
export async function pdfBlocks(bytes: Uint8Array): Promise<PdfBlock[]> {
  assertPdfExpansion(bytes, KNOWLEDGE_LIMITS.maxUncompressedBytes);
  const { getDocumentProxy } = await loadPdfLibs();
  let doc;
  try {
    // Text only: no eval, no font loading, errors only in the log (its font-data warnings concern rendering).
    doc = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException') throw new PdfError(400, 'invalid_document', 'The PDF is password-protected; upload it without a password.');
    throw new PdfError(400, 'invalid_document', `The PDF cannot be read (${(error as Error).message.slice(0, 200)}).`);
  }
  try {
    if (doc.numPages > KNOWLEDGE_LIMITS.maxPdfPages) throw new PdfError(413, 'document_too_large', `The PDF has ${doc.numPages} pages; the limit is ${KNOWLEDGE_LIMITS.maxPdfPages}.`);
    const blocks: PdfBlock[] = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n += 1) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items as { str?: string; hasEOL?: boolean }[]) {
        if (typeof item.str !== 'string') continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      page.cleanup();
      chars += text.length;
      if (chars > KNOWLEDGE_LIMITS.maxExtractedChars) throw new PdfError(413, 'document_too_large', `The PDF's text passes ${KNOWLEDGE_LIMITS.maxExtractedChars} characters.`);
      for (const p of text.split(/\n\s*\n/)) {
        const clean = p.replace(/\s+/g, ' ').trim();
        if (clean) blocks.push({ text: clean, page: n });
      }
    }
    return blocks;
  } finally {
    await doc.destroy();
  }
}
