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
 * credential chain. Exit codes: 0 done, 1 failed, 2 usage error (lib/local/cli.ts).
 */
import { main } from '../lib/local/cli.js';

process.exit(await main(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr }));
