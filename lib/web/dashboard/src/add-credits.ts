/**
 * How an operator adds credits to a workspace: the admin CLI's `credits add` (lib/local/cli/cli-args.ts), run
 * in the platform's folder. The dashboard has no payments, so an empty balance shows these lines; a test runs
 * the local one against a running platform and parses the AWS one, so the page cannot offer a command that
 * does not exist.
 */

/** A few test calls' worth with the defaults (each reserves 10 credits). */
export const SUGGESTED_CREDITS = 100;

/** The command line for the local platform (`npm start`) or, with `aws`, for the deployed stack's table. */
export function addCreditsCommand(workspaceId: string, aws: boolean): string {
  const line = `npm run cli -- credits add --workspace ${workspaceId} --amount ${SUGGESTED_CREDITS}`;
  // On AWS the CLI writes the stack's table (its TableName output) with the usual AWS credentials.
  return aws ? `TABLE_NAME=<the stack's TableName output> ${line} --aws` : line;
}
