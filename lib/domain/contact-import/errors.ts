import { AppError, type ErrorCode, type ErrorDetail } from '../errors.js';

/** The formats an import accepts, quoted in every 415 so the caller knows what to send instead. */
export const SUPPORTED_FORMATS = 'CSV (UTF-8 text, comma-separated, with a header row) or an Excel .xlsx workbook';

/** 415: the file is not one of the supported formats (decided by its bytes, never by its name). */
export class UnsupportedFileError extends AppError {
  constructor(what: string) {
    super(415, 'unsupported_file_type', `${what} Upload ${SUPPORTED_FORMATS}.`, [{ field: 'file', message: what }]);
  }
}

/** 413: the upload is over one of the import limits. */
export class ImportLimitError extends AppError {
  constructor(code: ErrorCode, message: string, details: readonly ErrorDetail[] = []) {
    super(413, code, message, details);
  }
}

/** 400: the file is of a supported format but cannot be imported as a whole (damaged, bad header). */
export class InvalidImportFileError extends AppError {
  constructor(code: ErrorCode, message: string, details: readonly ErrorDetail[] = [], cause?: unknown) {
    super(400, code, message, details, { cause });
  }
}
