/**
 * Contact import: from the bytes of an uploaded file to a plan of contacts, duplicates and row errors.
 * Pure: no AWS, no HTTP. The rules are in docs/contact-import.md.
 */
import { csvRows } from './csv.js';
import { detectFile } from './detect.js';
import { ImportLimitError } from './errors.js';
import type { ImportLimits } from './limits.js';
import { planImport, type ImportPlan } from './plan.js';
import { xlsxRows } from './xlsx.js';

export { ContactImportFields, ContactImportForm, ContactImportResult, ContactImportRowError } from './schema.js';
export { CLI_IMPORT_LIMITS, HTTP_IMPORT_LIMITS, type ImportLimits } from './limits.js';
export { ERROR_VALUE_CHARS, type ContactDraft, type ImportPlan, type ImportRowError } from './plan.js';

const MiB = 1024 * 1024;

/** 413 for a file over the size limit (the HTTP route raises it while the upload is still streaming). */
export const fileTooLarge = (limitBytes: number) =>
  new ImportLimitError('file_too_large', `The file is larger than ${limitBytes / MiB} MiB; split it into smaller files.`, [
    { field: 'file', message: 'file too large', limitBytes },
  ]);

/**
 * Reads an uploaded file into an import plan: detects the format from the bytes, parses it within the
 * limits, and applies the row rules. Throws the 4xx of a whole-file problem.
 */
export async function planContactFile(
  bytes: Uint8Array,
  options: { defaultCountry?: string; limits: ImportLimits },
): Promise<ImportPlan> {
  if (bytes.length > options.limits.maxFileBytes) throw fileTooLarge(options.limits.maxFileBytes);
  const detected = detectFile(bytes);
  // xlsxRows loads the spreadsheet reader on the first workbook, from its own file on Lambda (./xlsx.ts).
  const rows = detected.format === 'csv' ? csvRows(bytes, options.limits) : await xlsxRows(bytes, detected.entries, options.limits);
  return planImport(rows, options);
}
