import { isUtf8 } from 'node:buffer';
import { inflateRawSync } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import { AppError, type ErrorCode } from '../errors.js';
import { readZipDirectory, type ZipEntry } from '../contact-import/zip.js';
import { KNOWLEDGE_LIMITS, type DocumentFormat } from './schema.js';
import { pdfBlocks } from './pdf.js';

/**
 * Reading an uploaded document into text blocks, by its bytes (the file name only tells the flavour of a
 * UTF-8 text: Markdown, HTML or CSV). Hostile files are refused as the contact import refuses them
 * (docs/contact-import.md): format by content, a ZIP's declared sizes capped before anything is inflated and
 * each inflated entry stopped the moment it passes its declared size, no DTD or entity expansion (the XML is
 * read by pattern, never by an XML parser), and a cap on the text kept.
 */

/** One block of text and where it sits: the heading path above it, and its page where the format has pages. */
export interface TextBlock {
  readonly text: string;
  readonly section?: string;
  readonly page?: number;
  /** A heading block: starts a new chunk. */
  readonly heading?: boolean;
}

export interface ExtractedDocument {
  readonly format: DocumentFormat;
  readonly blocks: readonly TextBlock[];
  readonly title?: string;
}

export const SUPPORTED_DOCUMENT_FORMATS = 'a PDF, a Word .docx document, UTF-8 text (.txt), Markdown (.md), HTML or CSV';

class DocumentError extends AppError {
  constructor(status: 400 | 413 | 415, code: ErrorCode, message: string) {
    super(status, code, message, [{ field: 'file', message }]);
  }
}

const unsupported = (what: string) => new DocumentError(415, 'unsupported_file_type', `${what} Upload ${SUPPORTED_DOCUMENT_FORMATS}.`);
const damaged = (why: string) => new DocumentError(400, 'invalid_document', `The document cannot be read: ${why}.`);
const tooLarge = (why: string) => new DocumentError(413, 'document_too_large', `The document is too large: ${why}.`);

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const PDF = [0x25, 0x50, 0x44, 0x46];

/** Reads a document upload; `filename` decides only between the text flavours. */
export async function extractDocument(bytes: Uint8Array, filename = ''): Promise<ExtractedDocument> {
  if (bytes.length === 0) throw new DocumentError(400, 'empty_file', 'The file is empty.');
  if (bytes.length > KNOWLEDGE_LIMITS.maxFileBytes) throw tooLarge(`over ${KNOWLEDGE_LIMITS.maxFileBytes} bytes`);
  if (startsWith(bytes, OLE)) throw unsupported('This is a legacy Office 97-2003 file (.doc, .xls) or a password-protected document.');
  if (startsWith(bytes, PDF)) return { format: 'pdf', blocks: capped(await pdfBlocks(bytes)) };
  if (startsWith(bytes, ZIP)) return { format: 'docx', blocks: capped(docxBlocks(bytes)) };
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) throw unsupported('This is UTF-16 text; save it as UTF-8.');
  if (!isUtf8(bytes) || bytes.includes(0)) throw unsupported('This file is neither UTF-8 text nor a .docx document.');
  const text = Buffer.from(bytes).toString('utf8').replace(/^\uFEFF/, '');
  return extractText(text, textFlavour(text, filename));
}

/** Reads text of a known flavour (plain text sent as JSON, a fetched web page). */
export function extractText(text: string, format: Exclude<DocumentFormat, 'docx' | 'pdf' | 'url'>): ExtractedDocument {
  if (format === 'html') {
    const { blocks, title } = htmlBlocks(text);
    return { format, blocks: capped(blocks), ...(title ? { title } : {}) };
  }
  if (format === 'csv') return { format, blocks: capped(csvBlocks(text)) };
  if (format === 'markdown') return { format, blocks: capped(markdownBlocks(text)) };
  return { format, blocks: capped(paragraphs(text).map((p) => ({ text: p }))) };
}

function textFlavour(text: string, filename: string): Exclude<DocumentFormat, 'docx' | 'pdf' | 'url'> {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (ext === 'csv') return 'csv';
  if (ext === 'html' || ext === 'htm' || /^\s*(<!doctype html|<html[\s>])/i.test(text)) return 'html';
  return 'text';
}

/** Keeps at most maxExtractedChars of text: a document past it is refused rather than cut silently. */
function capped(blocks: readonly TextBlock[]): TextBlock[] {
  let total = 0;
  for (const b of blocks) {
    total += b.text.length;
    if (total > KNOWLEDGE_LIMITS.maxExtractedChars) throw tooLarge(`its text passes ${KNOWLEDGE_LIMITS.maxExtractedChars} characters`);
  }
  const kept = blocks.filter((b) => b.text.trim() !== '');
  if (kept.length === 0) throw new DocumentError(400, 'empty_file', 'The document holds no text.');
  return kept;
}

const paragraphs = (text: string): string[] =>
  text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.replace(/[ \t]*\n[ \t]*/g, ' ').replace(/[ \t]+/g, ' ').trim())
    .filter(Boolean);

/** Markdown: ATX headings (`#` to `######`) set the section path; paragraphs are blocks. */
function markdownBlocks(text: string): TextBlock[] {
  const out: TextBlock[] = [];
  const path: string[] = [];
  let para: string[] = [];
  const flush = () => {
    const p = para.join(' ').replace(/\s+/g, ' ').trim();
    if (p) out.push({ text: p, ...(path.length ? { section: path.join(' > ') } : {}) });
    para = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      flush();
      path.length = h[1]!.length - 1;
      path[h[1]!.length - 1] = h[2]!;
      for (let i = 0; i < path.length; i += 1) path[i] ??= '';
      out.push({ text: h[2]!, section: path.filter(Boolean).join(' > '), heading: true });
    } else if (line.trim() === '') flush();
    else para.push(line.replace(/^\s*([-*+]|\d+[.)])\s+/, '').trim());
  }
  flush();
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
/** Decodes the named entities above and numeric ones; others stay as written (no DTD is ever read). */
export const decodeEntities = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });

/**
 * HTML: the text of the body without scripts, styles, navigation and forms; h1-h6 set the section path,
 * block elements end paragraphs. Read by linear patterns (no DOM), so a hostile page costs its length.
 */
export function htmlBlocks(html: string): { blocks: TextBlock[]; title?: string } {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const body = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg|nav|footer|form|head)\b[\s\S]*?<\/\1\s*>/gi, ' ');
  const out: TextBlock[] = [];
  const path: string[] = [];
  const parts = body.split(/(<h[1-6]\b[^>]*>[\s\S]*?<\/h[1-6]\s*>)/i);
  const clean = (s: string) => decodeEntities(s.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  for (const part of parts) {
    const h = /^<h([1-6])\b[^>]*>([\s\S]*?)<\/h[1-6]\s*>$/i.exec(part);
    if (h) {
      const level = Number(h[1]);
      const text = clean(h[2]!);
      if (!text) continue;
      path.length = level - 1;
      path[level - 1] = text;
      out.push({ text, section: path.filter(Boolean).join(' > '), heading: true });
      continue;
    }
    const text = part.replace(/<\/?(p|div|li|tr|br|section|article|table|ul|ol|dd|dt|blockquote|pre)\b[^>]*>/gi, '\n\n');
    for (const p of paragraphs(decodeEntities(text.replace(/<[^>]*>/g, ' ')))) {
      out.push({ text: p, ...(path.length ? { section: path.filter(Boolean).join(' > ') } : {}) });
    }
  }
  return { blocks: out, ...(title && clean(title) ? { title: clean(title) } : {}) };
}

/** CSV: one block per row, `header: value; header: value`, so a price list row stays whole. */
function csvBlocks(text: string): TextBlock[] {
  let rows: string[][];
  try {
    rows = parseCsv(text, { relax_column_count: true, skip_empty_lines: true, bom: true, max_record_size: 64 * 1024 }) as string[][];
  } catch (error) {
    throw damaged(`it is not valid CSV (${(error as Error).message.slice(0, 200)})`);
  }
  const [header, ...data] = rows;
  if (!header) return [];
  return data.map((row, i) => ({
    text: row.map((v, c) => (header[c] ? `${header[c]}: ${v}` : v)).filter((v) => v.trim() !== '').join('; '),
    section: `row ${i + 2}`,
  }));
}

/** Where an entry's data starts: after its local header (30 bytes), name and extra field. */
function dataOffset(bytes: Uint8Array, entry: ZipEntry): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== 0x04034b50) throw damaged('a ZIP entry header is missing');
  return at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
}

/** Inflates one entry, stopping the moment it passes its declared size (a zip bomb lies about it). */
function inflateEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  if (entry.encrypted) throw damaged(`${entry.name} is encrypted`);
  const start = dataOffset(bytes, entry);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method !== 8) throw damaged(`${entry.name} uses an unsupported compression method`);
  try {
    // zlib stops the moment the output would pass the declared size (maxOutputLength): nothing larger is held.
    return inflateRawSync(data, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(`${entry.name} expands beyond the size it declares`);
    throw damaged(`${entry.name} is not valid deflate data`);
  }
}

/**
 * DOCX (Office Open XML): paragraphs of `word/document.xml`, their runs' `w:t` text; a paragraph styled
 * `Heading N` or `Title` sets the section path. Only that one entry is inflated.
 */
function docxBlocks(bytes: Uint8Array): TextBlock[] {
  let entries: ZipEntry[];
  try {
    entries = readZipDirectory(bytes);
  } catch (error) {
    if (error instanceof AppError && error.status === 413) throw tooLarge('the archive is over its limits');
    throw damaged('the ZIP archive is malformed, multi-part or ZIP64');
  }
  const names = new Set(entries.map((e) => e.name));
  if (!names.has('[Content_Types].xml') || !names.has('word/document.xml')) {
    throw unsupported(names.has('mimetype') ? 'This is an OpenDocument file.' : names.has('xl/workbook.xml') ? 'This is an Excel workbook.' : 'This is a ZIP archive that is not a Word document.');
  }
  const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (declared > KNOWLEDGE_LIMITS.maxUncompressedBytes) throw tooLarge(`it expands to ${declared} bytes (limit ${KNOWLEDGE_LIMITS.maxUncompressedBytes})`);
  const xml = Buffer.from(inflateEntry(bytes, entries.find((e) => e.name === 'word/document.xml')!)).toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw damaged('word/document.xml declares a DTD');
  const out: TextBlock[] = [];
  const path: string[] = [];
  for (const m of xml.matchAll(/<w:p[\s>][\s\S]*?<\/w:p>|<w:p\/>/g)) {
    const p = m[0];
    const text = decodeEntities(
      [...p.matchAll(/<w:t(?:\s[^>]*)?>([\s\S]*?)<\/w:t>|<w:(tab|br)\b[^>]*\/>/g)].map((t) => (t[1] !== undefined ? t[1] : ' ')).join(''),
    )
      .replace(/\s+/g, ' ')
      .trim();
    if (!text) continue;
    const style = /<w:pStyle\s+w:val="([^"]+)"/.exec(p)?.[1] ?? '';
    const level = /^Title$/i.test(style) ? 1 : Number(/^Heading\s*([1-9])$/i.exec(style)?.[1] ?? 0);
    if (level > 0) {
      path.length = level - 1;
      path[level - 1] = text;
      out.push({ text, section: path.filter(Boolean).join(' > '), heading: true });
    } else out.push({ text, ...(path.length ? { section: path.filter(Boolean).join(' > ') } : {}) });
  }
  return out;
}
