import { readFile } from 'node:fs/promises';
import { CLI_IMPORT_LIMITS, ContactImportFields, type ContactImportResult } from '../../domain/contact-import/index.js';
import { NotFoundError } from '../../domain/errors.js';
import { importContactFile } from '../../services/contact-import.js';
import { workspaceExists } from '../../store/contact-import.js';
import type { Db } from '../../store/dynamo.js';
import { progressBar, type ProgressSink } from './progress.js';
import { CliFailure } from './cli-errors.js';

/** Reads the file named on the command line before any store is started, so a typo fails fast. */
export async function readImportFile(path: string | undefined): Promise<Buffer> {
  if (!path) throw new CliFailure('contacts import needs a FILE: cli contacts import FILE --workspace ID [--default-country US]');
  return readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw new CliFailure(`Cannot read ${path}: ${error.code ?? error.message}`);
  });
}

/**
 * `cli contacts import FILE --workspace ID [--default-country CC]`: the HTTP import's parse and write path
 * acting on the store directly, with the CLI's larger limits and a progress bar on `stderr`.
 */
export async function importContactsCommand(
  db: Db,
  input: { bytes: Uint8Array; workspaceId: string; defaultCountry?: string },
  stderr: ProgressSink,
): Promise<ContactImportResult> {
  const country = ContactImportFields.shape.defaultCountry.safeParse(input.defaultCountry);
  if (!country.success) throw new CliFailure('--default-country must be an ISO 3166-1 alpha-2 code such as US');
  if (!(await workspaceExists(db, input.workspaceId))) throw new NotFoundError('Workspace');
  const bar = progressBar(stderr);
  const { imported, skipped, errors } = await importContactFile(db, input.workspaceId, input.bytes, {
    defaultCountry: country.data,
    limits: CLI_IMPORT_LIMITS,
    onProgress: (p) => bar.update(p.settled, p.toWrite, p.phase === 'parsed' ? `parsed ${p.rows} rows` : 'contacts'),
  });
  bar.finish();
  return { imported, skipped, errors };
}
