import { isUtf8 } from 'node:buffer';
import { InvalidImportFileError, UnsupportedFileError } from './errors.js';
import { readZipDirectory, type ZipEntry } from './zip.js';

/** What an upload turned out to be, judged by its bytes. */
export type DetectedFile = { readonly format: 'csv' } | { readonly format: 'xlsx'; readonly entries: readonly ZipEntry[] };

const startsWith = (bytes: Uint8Array, magic: readonly number[]) =>
  bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);

const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04]; // "PK\x03\x04"
const ZIP_EMPTY = [0x50, 0x4b, 0x05, 0x06];
/** OLE2 compound document: legacy .xls, and also password-protected .xlsx (Office wraps those in OLE). */
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const UTF16_LE_BOM = [0xff, 0xfe];
const UTF16_BE_BOM = [0xfe, 0xff];
const PDF = [0x25, 0x50, 0x44, 0x46]; // "%PDF"

/**
 * Decides the format from the content, never from the file name or the declared content type (both are
 * the client's claim). An `.xlsx` is a ZIP holding `[Content_Types].xml` and `xl/workbook.xml`; a CSV is
 * UTF-8 text (BOM or not) without NUL bytes. Everything else is a 415 naming the supported formats; an
 * empty file is a 400.
 */
export function detectFile(bytes: Uint8Array): DetectedFile {
  if (bytes.length === 0) {
    throw new InvalidImportFileError('empty_file', 'The file is empty. It needs a header row with contactName and phoneNumber.', [
      { field: 'file', message: 'empty' },
    ]);
  }
  if (startsWith(bytes, OLE)) {
    throw new UnsupportedFileError(
      'This is a legacy Excel 97-2003 (.xls) workbook or a password-protected workbook, which cannot be read.',
    );
  }
  if (startsWith(bytes, ZIP_LOCAL_HEADER) || startsWith(bytes, ZIP_EMPTY)) {
    const entries = readZipDirectory(bytes);
    const names = new Set(entries.map((e) => e.name));
    if (names.has('[Content_Types].xml') && names.has('xl/workbook.xml')) return { format: 'xlsx', entries };
    const what = names.has('mimetype') ? 'an OpenDocument file (.ods)' : 'a ZIP archive that is not an Excel workbook';
    throw new UnsupportedFileError(`This is ${what}.`);
  }
  if (startsWith(bytes, UTF16_LE_BOM) || startsWith(bytes, UTF16_BE_BOM)) {
    throw new UnsupportedFileError('This is UTF-16 text; save the CSV as UTF-8 ("CSV UTF-8" in Excel).');
  }
  if (startsWith(bytes, PDF)) throw new UnsupportedFileError('This is a PDF document.');
  if (!isUtf8(bytes) || bytes.includes(0)) {
    throw new UnsupportedFileError('This file is neither UTF-8 text nor an .xlsx workbook.');
  }
  return { format: 'csv' };
}
