/**
 * The limits of a contact import. Each one is a clear 4xx when exceeded (see docs/contact-import.md), and
 * each exists so a hostile or mistaken file costs a bounded amount of memory and time.
 */
export interface ImportLimits {
  /** Largest file accepted, in bytes. */
  readonly maxFileBytes: number;
  /** Most data rows (the header and blank rows are not counted). */
  readonly maxRows: number;
  /** Most columns in the header row. */
  readonly maxColumns: number;
  /** Longest cell, in characters (the limit of an external field value). */
  readonly maxCellChars: number;
  /** Largest summed uncompressed size of the entries of an `.xlsx` archive (zip-bomb guard). */
  readonly maxWorkbookBytes: number;
}

const MiB = 1024 * 1024;

/** Limits of `POST /api/contacts/upload`. */
export const HTTP_IMPORT_LIMITS = {
  // A synchronous Lambda invocation carries at most 6 MB; the body arrives base64-encoded (4/3 of the file)
  // with multipart framing around it, so 4 MiB is the largest file that always fits.
  maxFileBytes: 4 * MiB,
  // 10,000 rows write in about ten seconds at the target rate, well inside API Gateway's 30-second limit.
  maxRows: 10_000,
  // Matches the 50 external fields a contact may hold.
  maxColumns: 50,
  // Matches the longest external field value a contact may hold.
  maxCellChars: 1_000,
  // A 4 MiB workbook of real contacts expands to well under 50 MiB; more is a zip bomb or not a contact list.
  maxWorkbookBytes: 50 * MiB,
} as const satisfies ImportLimits;

/**
 * Limits of `cli contacts import`: the operator's own file on their own machine, so no gateway payload
 * ceiling and far more rows. Memory grows with the rows (roughly 1 KB each), which bounds these.
 */
export const CLI_IMPORT_LIMITS = {
  ...HTTP_IMPORT_LIMITS,
  maxFileBytes: 256 * MiB,
  maxRows: 1_000_000,
  maxWorkbookBytes: 1024 * MiB,
} as const satisfies ImportLimits;
