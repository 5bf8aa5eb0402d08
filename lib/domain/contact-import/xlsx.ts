import { InvalidImportFileError } from './errors.js';
import type { ImportLimits } from './limits.js';
import type { SheetRow } from './sheet.js';
import { assertWorkbookSize, type ZipEntry } from './zip.js';
import { loadSideModule } from '../../side-module.js';

/** The file name of ./workbook-libs.ts built on its own beside the upload function's bundle (lib/infra/entry-needs.ts). */
export const WORKBOOK_LIBS_FILE = 'contact-import-workbook-libs.mjs';

/** Its source relative to the project root, which the infra builds it from. */
export const WORKBOOK_LIBS_SOURCE = 'lib/domain/contact-import/workbook-libs.ts';

type WorkbookLibs = typeof import('./workbook-libs.js');

/** The workbook libraries, loaded on the first workbook (lib/side-module.ts): most uploads are CSV. */
function workbookLibs(): Promise<WorkbookLibs> {
  return loadSideModule<WorkbookLibs>(import.meta.url, WORKBOOK_LIBS_FILE, './workbook-libs.js');
}

/** A numeric cell's text exactly as the workbook stores it, so no float formatting gets in the way. */
class NumericCell {
  constructor(readonly raw: string) {}
}

/**
 * The text of a numeric cell as a person would type it: integers in plain digits (a phone number stored
 * as a number must not become "1.4155552671e+10" or "14155552671.0"), other numbers in their shortest form.
 */
export function numberText(raw: string): string {
  const n = Number(raw);
  if (!Number.isFinite(n)) return raw.trim();
  if (Number.isInteger(n)) return BigInt(n).toString();
  return String(n);
}

const isMidnightUtc = (d: Date) =>
  d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0;

/** A cell as text: dates as ISO 8601 (the date alone when it has no time), booleans as Excel shows them. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (value instanceof NumericCell) return numberText(value.raw);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    return isMidnightUtc(value) ? value.toISOString().slice(0, 10) : value.toISOString();
  }
  return String(value);
}

/** An ArrayBuffer holding exactly these bytes, without a copy when the Buffer already owns its memory. */
function ownArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) {
    return bytes.buffer;
  }
  // Uint8Array's slice copies (Buffer's would return a view of a shared pool).
  return Uint8Array.prototype.slice.call(bytes).buffer as ArrayBuffer;
}

/**
 * The rows of the first sheet of an `.xlsx` workbook, read with `read-excel-file` after the zip-bomb guard
 * has checked the archive. Formula cells give their cached value (the formula itself is never read, let
 * alone evaluated); a formula without a cached value is an empty cell. `row` is the sheet's row number.
 */
export async function xlsxRows(bytes: Uint8Array, entries: readonly ZipEntry[], limits: ImportLimits): Promise<SheetRow[]> {
  const { Inflate, readSheet } = await workbookLibs();
  assertWorkbookSize(Inflate, bytes, entries, limits.maxWorkbookBytes);
  let data: unknown[][];
  try {
    // The universal build expands with fflate into buffers of the declared sizes, which the guard has
    // just verified; the Node build streams through an inflater that would trust nothing but the data.
    data = await readSheet<NumericCell>(ownArrayBuffer(bytes), { parseNumber: (raw: string) => new NumericCell(raw) });
  } catch (error) {
    // Whatever the reader trips over comes from the client's file: a 400, never a 500.
    const why = error instanceof Error ? error.message.slice(0, 200) : 'unreadable';
    throw new InvalidImportFileError('invalid_xlsx', `The .xlsx file cannot be read: ${why}.`, [{ field: 'file', message: why }], error);
  }
  return data.map((cells, i) => ({ row: i + 1, cells: cells.map(cellText) }));
}
