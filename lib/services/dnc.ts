import { csvRows } from '../domain/contact-import/csv.js';
import { HTTP_IMPORT_LIMITS } from '../domain/contact-import/index.js';
import { contactPhone } from '../domain/contact.js';
import type { DncCreate, DncEntry, DncImportResult } from '../domain/dnc.js';
import { ForbiddenError, ValidationError } from '../domain/errors.js';
import { normalizePhone } from '../domain/phone.js';
import { addDncEntry, findDncEntry, removeDncEntry } from '../store/dnc.js';
import type { Db } from '../store/dynamo.js';
import { NotFoundError } from '../domain/errors.js';

/**
 * The do-not-call list's use cases (docs/campaigns.md, "Do not call"): add by the API, by a CSV upload, or
 * by a callee through the agent's built-in `opt_out` tool; remove; look up.
 */

/** Adds a number by the API: 201 with the entry (the existing one when it was already listed). */
export async function addDncNumber(db: Db, ws: string, input: DncCreate): Promise<DncEntry> {
  const entry: DncEntry = {
    phoneNumber: contactPhone(input.phoneNumber).e164,
    workspaceId: ws,
    source: 'api',
    ...(input.reason ? { reason: input.reason } : {}),
    createdAt: new Date().toISOString(),
  };
  if (await addDncEntry(db, entry)) return entry;
  return (await findDncEntry(db, ws, entry.phoneNumber)) ?? entry;
}

/** A number on the list, from a path segment (`+` as is, or %2B already decoded). */
export function dncNumberParam(raw: string): string {
  const phone = normalizePhone(raw.startsWith(' ') ? `+${raw.trim()}` : raw);
  if (!phone) throw new NotFoundError('Do-not-call entry');
  return phone.e164;
}

export async function getDncNumber(db: Db, ws: string, raw: string): Promise<DncEntry> {
  const found = await findDncEntry(db, ws, dncNumberParam(raw));
  if (!found) throw new NotFoundError('Do-not-call entry');
  return found;
}

export const deleteDncNumber = (db: Db, ws: string, raw: string) => removeDncEntry(db, ws, dncNumberParam(raw));

/**
 * A callee asked not to be called again (the `opt_out` tool, during call `callId`): their number joins the
 * list. Idempotent: a second request changes nothing.
 */
export async function optOutNumber(db: Db, ws: string, e164: string, callId: string): Promise<void> {
  await addDncEntry(db, { phoneNumber: e164, workspaceId: ws, source: 'opt_out', reason: 'the callee asked not to be called again', callId, createdAt: new Date().toISOString() });
}

/** Header names read as the number column; otherwise the first column is. */
const NUMBER_HEADERS = new Set(['phonenumber', 'phone', 'number', 'phone_number']);
/** Numbers per upload: written one by one (each moves the list's counter), a few seconds' work. */
export const MAX_DNC_UPLOAD_ROWS = 10_000;
/** Writes in flight at once: each updates the list's one counter, so more mostly adds conflicts. */
const WRITE_CONCURRENCY = 4;

/** The numbers of a CSV file and the rows that are not numbers. */
async function readDncFile(bytes: Uint8Array, defaultCountry: string | undefined): Promise<{ numbers: string[]; errors: DncImportResult['errors'] }> {
  const numbers: string[] = [];
  const errors: DncImportResult['errors'] = [];
  let column = 0;
  for await (const { row, cells } of csvRows(bytes, HTTP_IMPORT_LIMITS)) {
    const value = (cells[column] ?? '').trim();
    if (row === 1) {
      const named = cells.findIndex((c) => NUMBER_HEADERS.has(c.trim().toLowerCase()));
      if (named >= 0 || !normalizePhone(value, defaultCountry)) {
        column = Math.max(0, named);
        continue;
      }
    }
    if (value === '') continue;
    const phone = normalizePhone(value, defaultCountry);
    if (phone) numbers.push(phone.e164);
    else errors.push({ row, value: value.slice(0, 100), message: 'not a phone number in E.164 form (or set defaultCountry)' });
    if (numbers.length + errors.length > MAX_DNC_UPLOAD_ROWS) {
      throw new ValidationError([{ field: 'file', message: `at most ${MAX_DNC_UPLOAD_ROWS} numbers per upload` }], 'The file has too many rows.');
    }
  }
  return { numbers: [...new Set(numbers)], errors };
}

/**
 * Imports a CSV of numbers: a header row naming a `phoneNumber` (or `phone`, `number`) column, or one
 * column of numbers with or without a header. Numbers written without `+` are read in `defaultCountry`.
 * The whole file is read before anything is written, so a file over the limit changes nothing.
 */
export async function importDncFile(
  db: Db,
  ws: string,
  form: { fields: ReadonlyMap<string, string>; file?: { bytes: Uint8Array } },
): Promise<DncImportResult> {
  const claimed = form.fields.get('workspaceId');
  if (claimed !== undefined && claimed !== ws) throw new ForbiddenError();
  if (!form.file) throw new ValidationError([{ field: 'file', message: 'a CSV file is required in the form field "file"' }]);
  const defaultCountry = form.fields.get('defaultCountry')?.trim().toUpperCase() || undefined;
  const { numbers, errors } = await readDncFile(form.file.bytes, defaultCountry);
  const now = new Date().toISOString();
  let added = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITE_CONCURRENCY }, async () => {
      for (let i = next++; i < numbers.length; i = next++) {
        if (await addDncEntry(db, { phoneNumber: numbers[i]!, workspaceId: ws, source: 'upload', createdAt: now })) added += 1;
      }
    }),
  );
  return { added, existing: numbers.length - added, errors };
}
