/**
 * The admin CLI. Each command prints one JSON line; `--help` (or `help`) at any level prints its usage.
 *
 *   workspace create --name NAME [--credits N]
 *   key create --workspace ID --name NAME
 *   key revoke --workspace ID --key KEY_ID
 *   credits add --workspace ID --amount N
 *   contacts import FILE --workspace ID [--default-country CC]   (CSV or .xlsx; progress on stderr)
 *
 * Local by default: it uses the stores of the running `npm start` (found through DATA_DIR, or among the
 * running instances when DATA_DIR is not set), or starts DynamoDB Local on a DATA_DIR that `npm start`
 * used for the one command. With `--aws` it acts on the real table named by TABLE_NAME using the usual AWS
 * credential chain. Exit codes: 0 done, 1 failed, 2 usage error (lib/local/cli/cli.ts).
 */
import { parseCommandLine } from '../lib/local/cli/cli-args.js';
import { formatUsageError, UsageError } from '../lib/local/cli/cli-errors.js';

const argv = process.argv.slice(2);
const io = { stdout: process.stdout, stderr: process.stderr };

// The SDK's Node-version notice is a dozen lines on stderr around the one line people need to read.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// Whatever escapes main (a client failing after the answer) is still one line, never a stack trace.
const fatal = (error: unknown) => {
  io.stderr.write(`error: unexpected failure: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}\n`);
  process.exit(1);
};
process.on('uncaughtException', fatal);
process.on('unhandledRejection', fatal);

// Help and usage errors answer before the commands (and the AWS SDK) are loaded; main repeats the parse.
try {
  const parsed = parseCommandLine(argv);
  if (parsed.kind === 'help') {
    io.stdout.write(parsed.text);
    process.exit(0);
  }
} catch (error) {
  if (error instanceof UsageError) {
    io.stderr.write(formatUsageError(error));
    process.exit(2);
  }
}
const { main } = await import('../lib/local/cli/cli.js');
process.exit(await main(argv, process.env, io));
