import { regionText } from '../contact.js';
import { normalizePhone } from '../phone.js';
import { ImportLimitError, InvalidImportFileError } from './errors.js';
import { COLUMN_ALIASES, knownColumn, type KnownColumn } from './headers.js';
import type { ImportLimits } from './limits.js';
import type { SheetRow } from './sheet.js';

/** A row that passed every rule: ready to become a contact. */
export interface ContactDraft {
  /** The row (line) it came from, for reports. */
  readonly row: number;
  readonly contactName: string;
  /** E.164. */
  readonly phoneNumber: string;
  readonly region: string;
  readonly externalFields: Record<string, string>;
}

/** Why one row was rejected. `row` is 1-based with the header on row 1 (for CSV, the line the record starts on). */
export interface ImportRowError {
  readonly row: number;
  /** The header of the offending column as written in the file, or "column N" when it has none. */
  readonly column: string;
  /** The offending value, cut to {@link ERROR_VALUE_CHARS} characters. */
  readonly value: string;
  readonly message: string;
}

/** What a file amounts to before anything is written. `rows` = drafts + duplicates + errors. */
export interface ImportPlan {
  /** Data rows: every non-blank row after the header. */
  readonly rows: number;
  readonly drafts: ContactDraft[];
  /** Rows whose number appeared on an earlier row of the same file. */
  readonly duplicates: number;
  readonly errors: ImportRowError[];
}

export interface PlanOptions {
  /** ISO 3166-1 alpha-2 country for numbers written without `+`. */
  readonly defaultCountry?: string;
  readonly limits: ImportLimits;
}

/**
 * Values echoed in error entries are cut to this length: 10,000 rejected rows then stay near 2.5 MB, inside
 * Lambda's 6 MB response limit, and a report never copies a whole hostile cell back.
 */
export const ERROR_VALUE_CHARS = 100;
/** Same bound as the `contactName` of POST /api/contacts. */
const NAME_MAX_CHARS = 200;
/** Same bound as an external field name of POST /api/contacts. */
const HEADER_MAX_CHARS = 64;

const REQUIRED = ['contactName', 'phoneNumber'] as const;
/**
 * Refused as a header: stored as a field name it is a prototype-pollution vector for any consumer that
 * merges `externalFields` into a plain object (the JSON body parser refuses the same key).
 */
const FORBIDDEN_HEADERS = new Set(['__proto__']);

interface Columns {
  /** Trimmed header text per column; '' where the header cell is blank. */
  readonly headers: readonly string[];
  readonly contactName: number;
  readonly phoneNumber: number;
  readonly region?: number;
  /** Every other named column: stored in externalFields under its header. */
  readonly external: readonly { readonly index: number; readonly name: string }[];
}

const clip = (value: string) => (value.length > ERROR_VALUE_CHARS ? `${value.slice(0, ERROR_VALUE_CHARS - 1)}…` : value);

function readHeader(cells: readonly string[], limits: ImportLimits): Columns {
  const headers = cells.map((c) => c.trim());
  while (headers.length > 0 && headers[headers.length - 1] === '') headers.pop();
  if (headers.length > limits.maxColumns) {
    throw new ImportLimitError('too_many_columns', `The header has ${headers.length} columns; the limit is ${limits.maxColumns}.`, [
      { field: 'file', message: 'too many columns', limit: limits.maxColumns },
    ]);
  }
  const known = new Map<KnownColumn, number>();
  const byName = new Map<string, number>();
  const external: { index: number; name: string }[] = [];
  headers.forEach((name, index) => {
    if (name === '') return;
    if (FORBIDDEN_HEADERS.has(name)) {
      throw new InvalidImportFileError('forbidden_column', `The column "${name}" is not allowed as a field name.`, [
        { field: name, message: 'forbidden column name' },
      ]);
    }
    if (name.length > HEADER_MAX_CHARS) {
      throw new InvalidImportFileError('invalid_header', `The header of column ${index + 1} is longer than ${HEADER_MAX_CHARS} characters.`, [
        { field: clip(name), message: `longer than ${HEADER_MAX_CHARS} characters` },
      ]);
    }
    const folded = name.toLowerCase();
    if (byName.has(folded)) {
      throw new InvalidImportFileError('duplicate_column', `The column "${name}" appears twice in the header (names are compared ignoring case).`, [
        { field: name, message: `columns ${byName.get(folded)! + 1} and ${index + 1}` },
      ]);
    }
    byName.set(folded, index);
    const meaning = knownColumn(name);
    if (!meaning) {
      external.push({ index, name });
      return;
    }
    const earlier = known.get(meaning);
    if (earlier !== undefined) {
      // Two spellings of one column ("Phone" and "Mobile"): picking either would import the wrong numbers
      // for some files, so the caller chooses by renaming one.
      const first = headers[earlier]!;
      throw new InvalidImportFileError(
        'ambiguous_columns',
        `The columns "${first}" and "${name}" both name ${meaning}; rename or remove one of them.`,
        [
          { field: first, message: `column ${earlier + 1} is read as ${meaning}` },
          { field: name, message: `column ${index + 1} is also read as ${meaning}` },
        ],
      );
    }
    known.set(meaning, index);
  });
  const missing = REQUIRED.filter((r) => !known.has(r));
  if (missing.length > 0) {
    throw new InvalidImportFileError(
      'missing_columns',
      `The header row is missing the required column${missing.length > 1 ? 's' : ''} ${missing.join(' and ')} ` +
        `(${missing.map((m) => `${m} may also be written ${COLUMN_ALIASES[m].slice(1).map((a) => `"${a}"`).join(', ')}`).join('; ')}).`,
      missing.map((field) => ({ field, message: 'required column is missing' })),
    );
  }
  return { headers, contactName: known.get('contactName')!, phoneNumber: known.get('phoneNumber')!, region: known.get('region'), external };
}

type RowOutcome = { draft: ContactDraft } | { error: ImportRowError };

function readRow(row: number, cells: readonly string[], columns: Columns, options: PlanOptions): RowOutcome {
  const { headers } = columns;
  const fail = (column: string, value: string, message: string): RowOutcome => ({ error: { row, column, value: clip(value), message } });
  for (let i = 0; i < cells.length; i += 1) {
    const value = cells[i]!;
    const header = headers[i] ?? '';
    if (header === '' && value !== '') return fail(`column ${i + 1}`, value, 'has a value but its column has no header');
    if (value.length > options.limits.maxCellChars) {
      return fail(header, value, `is longer than ${options.limits.maxCellChars} characters`);
    }
  }
  const name = cells[columns.contactName] ?? '';
  const nameHeader = headers[columns.contactName]!;
  if (name === '') return fail(nameHeader, name, 'contactName is required');
  if (name.length > NAME_MAX_CHARS) return fail(nameHeader, name, `is longer than ${NAME_MAX_CHARS} characters`);

  const phoneText = cells[columns.phoneNumber] ?? '';
  const phoneHeader = headers[columns.phoneNumber]!;
  if (phoneText === '') return fail(phoneHeader, phoneText, 'phoneNumber is required');
  const phone = normalizePhone(phoneText, options.defaultCountry);
  if (!phone) {
    const hint = /^[0-9\s().\-/]+$/.test(phoneText) && !options.defaultCountry
      ? 'has no country code: write it as +<country code><number>, or send defaultCountry with the upload'
      : 'is not a valid phone number';
    return fail(phoneHeader, phoneText, hint);
  }

  // The same free-text rule as POST /api/contacts: "London" or "Virginia" is a region as good as "GB";
  // a blank cell derives the country from the number.
  let region = phone.region;
  if (columns.region !== undefined) {
    const given = regionText(cells[columns.region] ?? '');
    if ('problem' in given) return fail(headers[columns.region]!, cells[columns.region]!, given.problem);
    region = given.region ?? phone.region;
  }

  // A Map, then Object.fromEntries: entries become own data properties whatever their names, so no header
  // can reach a prototype even if the forbidden list were incomplete.
  const fields = new Map<string, string>();
  for (const { index, name: header } of columns.external) {
    const value = cells[index] ?? '';
    // Stored verbatim as text: "=SUM(A1)", "+1", "-2" and "@x" are never evaluated or converted.
    if (value !== '') fields.set(header, value);
  }
  return { draft: { row, contactName: name, phoneNumber: phone.e164, region, externalFields: Object.fromEntries(fields) } };
}

/**
 * Applies the import rules to the rows of a sheet: the first non-blank row is the header; blank rows are
 * ignored; every other row becomes exactly one of a draft, an in-file duplicate or an error entry.
 * Whole-file problems (missing columns, too many rows or columns) throw before anything is written.
 */
export async function planImport(rows: AsyncIterable<SheetRow> | Iterable<SheetRow>, options: PlanOptions): Promise<ImportPlan> {
  let columns: Columns | undefined;
  const drafts: ContactDraft[] = [];
  const errors: ImportRowError[] = [];
  const seen = new Set<string>();
  let count = 0;
  let duplicates = 0;
  for await (const { row, cells: raw } of rows) {
    const cells = raw.map((c) => c.trim());
    if (cells.every((c) => c === '')) continue;
    if (!columns) {
      columns = readHeader(cells, options.limits);
      continue;
    }
    count += 1;
    if (count > options.limits.maxRows) {
      throw new ImportLimitError('too_many_rows', `The file has more than ${options.limits.maxRows} data rows; split it into smaller files.`, [
        { field: 'file', message: 'too many rows', limit: options.limits.maxRows },
      ]);
    }
    const outcome = readRow(row, cells, columns, options);
    if ('error' in outcome) {
      errors.push(outcome.error);
    } else if (seen.has(outcome.draft.phoneNumber)) {
      duplicates += 1;
    } else {
      seen.add(outcome.draft.phoneNumber);
      drafts.push(outcome.draft);
    }
  }
  if (!columns) {
    throw new InvalidImportFileError('missing_header', 'The file has no header row; the first row must name the columns, including contactName and phoneNumber.', [
      { field: 'file', message: 'no header row' },
    ]);
  }
  return { rows: count, drafts, duplicates, errors };
}
