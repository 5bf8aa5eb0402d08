import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { ImportLimitError, InvalidImportFileError } from './errors.js';
import type { ImportLimits } from './limits.js';
import type { SheetRow } from './sheet.js';

/** 64 KiB: far beyond any valid cell (1,000 characters of at most 4 bytes), small enough to hold. */
const MAX_FIELD_BYTES = 64 * 1024;

const LINE_BREAK = /\r\n|\r|\n/g;

/** Bytes handed to the parser at a time: it never needs the whole text as one string. */
const FEED_BYTES = 64 * 1024;

function* slices(bytes: Uint8Array, size: number): Generator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) {
    const part = bytes.subarray(i, i + size);
    yield Buffer.from(part.buffer, part.byteOffset, part.byteLength);
  }
}

/**
 * The delimiter, from the first line: a comma, unless that line has none and has semicolons (what Excel
 * writes in locales whose decimal separator is a comma) or tabs. The required headers contain none of these.
 */
export function sniffDelimiter(bytes: Uint8Array): ',' | ';' | '\t' {
  const end = bytes.indexOf(0x0a);
  const first = bytes.subarray(0, end < 0 ? Math.min(bytes.length, 64 * 1024) : end);
  if (first.includes(0x2c)) return ',';
  if (first.includes(0x3b)) return ';';
  if (first.includes(0x09)) return '\t';
  return ',';
}

function csvProblem(error: CsvError, limits: ImportLimits): Error {
  const line = (error as CsvError & { lines?: number }).lines;
  const at = line ? `line ${line}` : 'the file';
  if (error.code === 'CSV_MAX_RECORD_SIZE') {
    return new ImportLimitError('cell_too_large', `A cell near ${at} is over ${MAX_FIELD_BYTES} bytes; cells hold at most ${limits.maxCellChars} characters.`, [
      { field: 'file', message: 'cell too large', limitChars: limits.maxCellChars },
    ]);
  }
  const reason = error.code === 'CSV_QUOTE_NOT_CLOSED'
    ? 'a quoted field is never closed'
    : error.code === 'INVALID_OPENING_QUOTE' || error.code === 'CSV_INVALID_CLOSING_QUOTE'
      ? 'a quote appears inside a field; quote the whole field and double the quotes inside it ("5"" tall")'
      : error.message;
  return new InvalidImportFileError('invalid_csv', `The CSV cannot be read at ${at}: ${reason}.`, [
    { field: 'file', message: reason, line },
  ]);
}

/**
 * Streams the records of a CSV file (RFC 4180: quoted fields may hold delimiters, doubled quotes and line
 * breaks; CRLF or LF; a UTF-8 BOM is dropped). `row` is the line on which the record starts, so error
 * reports point at what a text editor shows; blank lines come through as rows of one empty cell.
 */
export async function* csvRows(bytes: Uint8Array, limits: ImportLimits, feedBytes = FEED_BYTES): AsyncGenerator<SheetRow> {
  const parser = parse({
    bom: true,
    delimiter: sniffDelimiter(bytes),
    // Short and long rows are reported per row by the planner instead of failing the whole file.
    relax_column_count: true,
    // Bounds the bytes one field may buffer. Cells over the character limit but under this are row errors;
    // beyond it the file is refused, so a 4 MiB "cell" is never held as one string.
    max_record_size: MAX_FIELD_BYTES,
  });
  const source = Readable.from(slices(bytes, feedBytes));
  source.pipe(parser);
  let line = 1;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      yield { row: line, cells: record };
      // The next record starts after this one's delimiter and every line break quoted inside its fields
      // (the parser's own line count counts CR and LF of a quoted CRLF separately).
      line += 1;
      for (const cell of record) line += cell.match(LINE_BREAK)?.length ?? 0;
    }
  } catch (error) {
    if (error instanceof CsvError) throw csvProblem(error, limits);
    throw error;
  } finally {
    source.unpipe(parser);
    source.destroy();
    parser.destroy();
  }
}
