import type { Contact } from '../domain/contact.js';
import {
  ContactImportFields,
  HTTP_IMPORT_LIMITS,
  planContactFile,
  type ContactImportResult,
  type ImportLimits,
} from '../domain/contact-import/index.js';
import { ForbiddenError, ValidationError, type ErrorDetail } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { putNewContacts } from '../store/contact-import.js';
import type { Db } from '../store/dynamo.js';
import { announce, type EventDeps } from './webhook-events.js';

/** Where an import stands, for progress bars: `phase` moves from parsed to writing to done. */
export interface ImportProgress {
  readonly phase: 'parsed' | 'writing' | 'done';
  /** Data rows in the file. */
  readonly rows: number;
  /** Contacts to write (rows minus row errors and in-file duplicates). */
  readonly toWrite: number;
  /** Of those, how many are settled (written, or found already in the workspace). */
  readonly settled: number;
}

export interface ImportOptions {
  readonly defaultCountry?: string;
  readonly limits?: ImportLimits;
  /** No write starts after this moment (epoch ms); rows left unwritten are reported as row errors. */
  readonly deadline?: number;
  readonly onProgress?: (progress: ImportProgress) => void;
}

/**
 * Imports a contact file into a workspace: the one code path of both the HTTP upload and the admin CLI.
 * Whole-file problems throw their 4xx before anything is written; row problems are reported per row.
 */
export async function importContactFile(
  db: Db,
  ws: string,
  bytes: Uint8Array,
  options: ImportOptions = {},
): Promise<ContactImportResult & { rows: number }> {
  const plan = await planContactFile(bytes, {
    defaultCountry: options.defaultCountry,
    limits: options.limits ?? HTTP_IMPORT_LIMITS,
  });
  const toWrite = plan.drafts.length;
  const report = (phase: ImportProgress['phase'], settled: number) =>
    options.onProgress?.({ phase, rows: plan.rows, toWrite, settled });
  report('parsed', 0);
  const now = new Date().toISOString();
  const importId = newId('contactImport');
  const contacts: Contact[] = plan.drafts.map((d) => ({
    _id: newId('contact'),
    contactName: d.contactName,
    phoneNumber: d.phoneNumber,
    region: d.region,
    workspaceId: ws,
    externalFields: d.externalFields,
    importId,
    createdAt: now,
    updatedAt: now,
  }));
  const written = await putNewContacts(db, ws, contacts, {
    deadline: options.deadline,
    onProgress: (settled) => report('writing', settled),
  });
  report('done', toWrite);
  const rowOf = new Map(plan.drafts.map((d, i) => [contacts[i]!, d.row]));
  const unwritten = written.unattempted.map((c) => ({
    row: rowOf.get(c)!,
    column: 'phoneNumber',
    value: c.phoneNumber,
    message: 'not imported: this upload ran out of time; upload the same file again to import the rest (rows already imported are skipped)',
  }));
  return {
    rows: plan.rows,
    importId,
    imported: written.created,
    skipped: plan.duplicates + written.existing,
    errors: unwritten.length === 0 ? plan.errors : [...plan.errors, ...unwritten].sort((a, b) => a.row - b.row),
  };
}

/**
 * How long an upload may keep starting writes. API Gateway answers 504 after 30 s whatever the Lambda
 * does, so writes stop 20 s in: the transactions in flight and the response fit in the rest, and the rows
 * not reached are reported (each as a row error) instead of being lost in a timeout.
 */
export const UPLOAD_WRITE_BUDGET_MS = 20_000;

/** A multipart upload as the HTTP layer read it. */
export interface UploadForm {
  readonly fields: ReadonlyMap<string, string>;
  readonly file?: { readonly bytes: Uint8Array };
}

/**
 * `POST /api/contacts/upload`: checks the form (the middleware checks tenancy only for JSON bodies, so the
 * form's workspaceId is checked here: 403 unless it is the key's own, 400 like any missing field when it is
 * left out, as API_SPEC.md requires it), then imports the file and, given
 * `events`, announces `contacts.import.completed` (with the first 20 row errors; the answer has them all).
 */
export async function importUploadedContacts(
  db: Db,
  ws: string,
  form: UploadForm,
  options: { startedAt?: number; writeBudgetMs?: number; events?: EventDeps } = {},
): Promise<ContactImportResult> {
  const deadline = (options.startedAt ?? Date.now()) + (options.writeBudgetMs ?? UPLOAD_WRITE_BUDGET_MS);
  const claimed = form.fields.get('workspaceId');
  if (claimed !== undefined && claimed !== ws) throw new ForbiddenError();
  const fields = ContactImportFields.safeParse(Object.fromEntries(form.fields));
  const problems: ErrorDetail[] = fields.success
    ? []
    : fields.error.issues.map((i) => ({
        field: i.path.join('.') || 'form',
        message: i.message,
        ...(i.code === 'unrecognized_keys' ? { keys: i.keys } : {}),
      }));
  if (!form.file) problems.push({ field: 'file', message: 'a CSV or .xlsx file is required in the form field "file"' });
  if (!fields.success || !form.file) throw new ValidationError(problems);
  const { imported, skipped, errors, importId } = await importContactFile(db, ws, form.file.bytes, {
    defaultCountry: fields.data.defaultCountry,
    limits: HTTP_IMPORT_LIMITS,
    deadline,
  });
  if (options.events) {
    await announce(options.events, ws, 'contacts.import.completed', { source: 'upload', imported, skipped, errorCount: errors.length, errors: errors.slice(0, 20) });
  }
  return { imported, skipped, errors, importId };
}
