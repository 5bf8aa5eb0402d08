/**
 * The admin CLI. Each command prints one JSON line.
 *
 *   workspace create --name NAME [--credits N]
 *   key create --workspace ID --name NAME
 *   key revoke --workspace ID --key KEY_ID
 *   credits add --workspace ID --amount N
 *   contacts import FILE --workspace ID [--default-country CC]   (CSV or .xlsx; progress on stderr)
 *
 * Local by default: it uses the stores of a running `npm start` with the same DATA_DIR, or starts DynamoDB
 * Local on that DATA_DIR for the one command. With `--aws` it acts on the real table named by TABLE_NAME
 * using the usual AWS credential chain.
 */
import { parseArgs } from 'node:util';
import { runCli } from '../lib/local/cli.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    credits: { type: 'string' },
    workspace: { type: 'string' },
    key: { type: 'string' },
    amount: { type: 'string' },
    'default-country': { type: 'string' },
    aws: { type: 'boolean', default: false },
  },
});

try {
  const result = await runCli(positionals, values, process.env);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${JSON.stringify({ error: { message } })}\n`);
  process.exit(1);
}
