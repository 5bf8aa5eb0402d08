/**
 * The error every vendor adapter throws: which vendor, whether trying again could help, and the status the
 * vendor answered when there was one. The shared base retries only retryable errors (STYLE 8).
 */
export class VendorError extends Error {
  constructor(
    readonly vendor: string,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`${vendor}: ${message}`, options);
    this.name = 'VendorError';
  }
}

/** HTTP statuses worth retrying: throttling and the vendor's own failures. */
export const isRetryableStatus = (status: number | undefined): boolean =>
  status === undefined || status === 408 || status === 429 || status >= 500;
