/**
 * The admin CLI's two kinds of error, told apart by their exit code: a mistake in how it was called (2, with
 * the usage of the command concerned) and a failure with a message that already says what to do (1).
 */
export class UsageError extends Error {
  constructor(message: string, readonly usage: string) {
    super(message);
  }
}

export class CliFailure extends Error {}

/** What a usage error prints on stderr: the one-line error, then the usage. */
export const formatUsageError = (error: UsageError) =>
  `error: ${error.message}\n${error.usage}${error.usage.endsWith('\n') ? '' : '\n'}`;
