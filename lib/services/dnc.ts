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

/**
 * Imports a CSV of numbers: a header row naming a `phoneNumber` (or `phone`, `number`) column, or one
 * column of numbers with or without a header. Numbers written without `+` are read in `defaultCountry`.
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
  const result: DncImportResult = { added: 0, existing: 0, errors: [] };
  let column = 0;
  const now = new Date().toISOString();
  for await (const { row, cells } of csvRows(form.file.bytes, HTTP_IMPORT_LIMITS)) {
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
    if (!phone) {
      result.errors.push({ row, value: value.slice(0, 100), message: 'not a phone number in E.164 form (or set defaultCountry)' });
      continue;
    }
    const added = await addDncEntry(db, { phoneNumber: phone.e164, workspaceId: ws, source: 'upload', createdAt: now });
    if (added) result.added += 1;
    else result.existing += 1;
  }
  return result;
}
