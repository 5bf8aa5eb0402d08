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
  const contacts: Contact[] = plan.drafts.map((d) => ({
    _id: newId('contact'),
    contactName: d.contactName,
    phoneNumber: d.phoneNumber,
    region: d.region,
    workspaceId: ws,
    externalFields: d.externalFields,
    createdAt: now,
    updatedAt: now,
  }));
  const written = await putNewContacts(db, ws, contacts, { onProgress: (settled) => report('writing', settled) });
  report('done', toWrite);
  return {
    rows: plan.rows,
    imported: written.created,
    skipped: plan.duplicates + written.existing,
    errors: plan.errors,
  };
}

/** A multipart upload as the HTTP layer read it. */
export interface UploadForm {
  readonly fields: ReadonlyMap<string, string>;
  readonly file?: { readonly bytes: Uint8Array };
}

/**
 * `POST /api/contacts/upload`: checks the form (the middleware checks tenancy only for JSON bodies, so the
 * form's workspaceId is checked here: 403 unless it is the key's own), then imports the file.
 */
export async function importUploadedContacts(db: Db, ws: string, form: UploadForm): Promise<ContactImportResult> {
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
  const { imported, skipped, errors } = await importContactFile(db, ws, form.file.bytes, {
    defaultCountry: fields.data.defaultCountry,
    limits: HTTP_IMPORT_LIMITS,
  });
  return { imported, skipped, errors };
}
