import type { Inflate } from 'fflate';
import { ImportLimitError, InvalidImportFileError } from './errors.js';

/** One entry of a ZIP archive, as its central directory describes it. */
export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflated; anything else is refused. */
  readonly method: number;
  readonly encrypted: boolean;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
/** The archive comment that may follow the end record is at most 65,535 bytes. */
const MAX_COMMENT = 0xffff;
/** Values that mean "see the ZIP64 record": no workbook under the import limits needs ZIP64. */
const ZIP64_MARK_16 = 0xffff;
const ZIP64_MARK_32 = 0xffffffff;

const damaged = (why: string) =>
  new InvalidImportFileError('invalid_xlsx', `The .xlsx file is damaged: ${why}.`, [{ field: 'file', message: why }]);

/**
 * Reads the central directory of a ZIP archive without expanding anything. Throws a 400 when the archive
 * is malformed, multi-disk or ZIP64 (a workbook small enough to import never needs ZIP64, and refusing it
 * keeps every size below 4 GiB, exact in a JavaScript number).
 */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - EOCD_SIZE; i >= 0 && i >= bytes.length - EOCD_SIZE - MAX_COMMENT; i -= 1) {
    if (view.getUint32(i, true) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw damaged('no ZIP end-of-directory record');
  const disk = view.getUint16(eocd + 4, true);
  const directoryDisk = view.getUint16(eocd + 6, true);
  const count = view.getUint16(eocd + 10, true);
  const directorySize = view.getUint32(eocd + 12, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (disk !== 0 || directoryDisk !== 0) throw damaged('a multi-part ZIP archive');
  if (count === ZIP64_MARK_16 || directorySize === ZIP64_MARK_32 || directoryOffset === ZIP64_MARK_32) {
    throw damaged('a ZIP64 archive, which no importable workbook needs');
  }
  if (directoryOffset + directorySize > eocd) throw damaged('the central directory lies outside the file');

  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  const decoder = new TextDecoder('utf-8');
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL_SIGNATURE) throw damaged('a broken central directory');
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const uncompressedSize = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localHeaderOffset = view.getUint32(at + 42, true);
    if (compressedSize === ZIP64_MARK_32 || uncompressedSize === ZIP64_MARK_32 || localHeaderOffset === ZIP64_MARK_32) {
      throw damaged('a ZIP64 entry, which no importable workbook needs');
    }
    const nameEnd = at + 46 + nameLength;
    if (nameEnd > eocd) throw damaged('a broken central directory');
    entries.push({
      name: decoder.decode(bytes.subarray(at + 46, nameEnd)),
      method,
      encrypted: (flags & 1) === 1,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
    });
    at = nameEnd + extraLength + commentLength;
  }
  return entries;
}

/** Where an entry's compressed data starts, from its local header. */
function dataOffset(bytes: Uint8Array, entry: ZipEntry): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_SIGNATURE) throw damaged(`no local header for ${entry.name}`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > bytes.length) throw damaged(`${entry.name} runs past the end of the file`);
  return start;
}

class Overflow extends Error {}

/**
 * Compressed bytes fed to the inflater per step. Deflate expands at most about 1032:1, so one step yields
 * at most about 1 MiB before the running total is checked again.
 */
const INFLATE_STEP = 1024;

/** fflate's streaming inflater, passed in: it is loaded with the workbook libraries (./workbook-libs.ts). */
export type InflateClass = typeof Inflate;

/** Inflates `data` only far enough to learn whether it expands to more than `limit` bytes; keeps nothing. */
function expandsBeyond(Inflater: InflateClass, data: Uint8Array, limit: number, name: string): boolean {
  let total = 0;
  const inflater = new Inflater((chunk) => {
    total += chunk.length;
    if (total > limit) throw new Overflow();
  });
  try {
    if (data.length === 0) inflater.push(data, true);
    for (let i = 0; i < data.length; i += INFLATE_STEP) {
      inflater.push(data.subarray(i, i + INFLATE_STEP), i + INFLATE_STEP >= data.length);
    }
  } catch (error) {
    if (error instanceof Overflow) return true;
    throw damaged(`${name} is not valid deflate data`);
  }
  return false;
}

const MiB = 1024 * 1024;

/**
 * The zip-bomb guard, run before anything is expanded for parsing.
 *
 * 1. The sizes the central directory declares are summed over every entry; over `maxBytes` is a 413.
 * 2. Those sizes are only claims, so each entry the spreadsheet reader will expand (`*.xml`, `*.rels`) is
 *    inflated once, counting and discarding the output, and refused the moment it exceeds its declared
 *    size. The reader's own inflater (fflate, with an output buffer of the declared size) then cannot be
 *    made to produce more than the sum checked in step 1.
 */
export function assertWorkbookSize(Inflater: InflateClass, bytes: Uint8Array, entries: readonly ZipEntry[], maxBytes: number): void {
  const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  const tooLarge = (what: string) =>
    new ImportLimitError('workbook_too_large', `The .xlsx file ${what}; the limit is ${maxBytes / MiB} MiB uncompressed.`, [
      { field: 'file', message: what, limitBytes: maxBytes },
    ]);
  if (declared > maxBytes) throw tooLarge(`expands to ${declared} bytes`);
  for (const entry of entries) {
    if (!/\.(xml|rels)$/i.test(entry.name)) continue;
    if (entry.encrypted) throw damaged(`${entry.name} is encrypted`);
    const start = dataOffset(bytes, entry);
    const data = bytes.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.uncompressedSize) throw damaged(`${entry.name} has inconsistent sizes`);
    } else if (entry.method === 8) {
      if (expandsBeyond(Inflater, data, entry.uncompressedSize, entry.name)) {
        throw tooLarge(`entry ${entry.name} expands beyond the ${entry.uncompressedSize} bytes it declares`);
      }
    } else {
      throw damaged(`${entry.name} uses an unsupported compression method (${entry.method})`);
    }
  }
}
