import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ContactImportFields } from '../../domain/contact-import/schema.js';
import { UsageError } from './cli-errors.js';
import { canonicalOrigin } from '../../domain/widget.js';
import { Email, ROLES } from '../../domain/dashboard.js';

/**
 * The admin CLI's command line: the commands, their usage, and the parser that checks everything a command
 * needs before any store is opened. Kept apart from the commands (lib/local/cli/cli.ts) so help and usage
 * errors answer at once, without loading the AWS SDK.
 */

/** How people run it (package.json's `cli` script); every usage line and hint starts with this. */
export const CLI = 'npm run --silent cli --';


type Flag = 'name' | 'credits' | 'workspace' | 'key' | 'amount' | 'default-country' | 'scope' | 'agents' | 'origins' | 'email' | 'role' | 'suite' | 'agent' | 'version';
export type CliFlags = Partial<Record<Flag, string>> & { aws?: boolean };

interface CommandSpec {
  readonly usage: string;
  readonly summary: string;
  readonly flags: readonly Flag[];
  /** The positional argument the command takes after its name, if any. */
  readonly positional?: string;
}

export const COMMANDS = {
  'workspace create': { usage: 'workspace create --name NAME [--credits N]', summary: 'create a workspace and its first API key', flags: ['name', 'credits'] },
  'key create': {
    usage: 'key create --workspace ID --name NAME [--scope widget --agents AGENT_ID,… --origins https://site,…]',
    summary: 'create another API key; --scope widget: a key for the web widget only (docs/widget.md)',
    flags: ['workspace', 'name', 'scope', 'agents', 'origins'],
  },
  'key revoke': { usage: 'key revoke --workspace ID --key KEY_ID', summary: 'revoke an API key (refused from the next request on; on AWS within 30 s, the authorizer cache)', flags: ['workspace', 'key'] },
  'user create': {
    usage: 'user create --email EMAIL --workspace ID [--role owner|member]',
    summary: 'create a dashboard user in a workspace (password: USER_PASSWORD, else one is made and printed once)',
    flags: ['email', 'workspace', 'role'],
  },
  'user add': {
    usage: 'user add --email EMAIL --workspace ID [--role owner|member]',
    summary: 'add an existing dashboard user (signed up, or made by user create) to another workspace; default role member',
    flags: ['email', 'workspace', 'role'],
  },
  'credits add': { usage: 'credits add --workspace ID --amount N', summary: 'add N credits (N > 0) to a workspace', flags: ['workspace', 'amount'] },
  'contacts import': {
    usage: 'contacts import FILE --workspace ID [--default-country CC]',
    summary: 'import contacts from a CSV or .xlsx file (progress on stderr)',
    flags: ['workspace', 'default-country'],
    positional: 'FILE',
  },
  'agent test': {
    usage: 'agent test --suite NAME --agent ID [--version N]',
    summary: "run a suite of agent tests through the API (API_KEY, API_URL or the running npm start); JUnit report on stdout, exit 1 when a check fails (docs/agent-tests.md)",
    flags: ['suite', 'agent', 'version'],
  },
  'data-key rotate': {
    usage: 'data-key rotate',
    summary: 'add a data-key version to DATA_DIR/secret.key and seal new secrets with it (restart npm start; docs/data-key.md)',
    flags: [],
  },
} as const satisfies Record<string, CommandSpec>;
export type CommandName = keyof typeof COMMANDS;
const NAMES = Object.keys(COMMANDS) as CommandName[];

const GLOBAL_OPTIONS = '[--aws]';

/** The usage text of one command, of a group (`key`), or of the whole CLI. */
export function usage(scope?: string): string {
  const names = scope ? NAMES.filter((n) => n === scope || n.startsWith(`${scope} `)) : NAMES;
  if (names.length === 1) return `usage: ${CLI} ${COMMANDS[names[0]!].usage} ${GLOBAL_OPTIONS}\n`;
  const width = Math.max(...names.map((n) => COMMANDS[n].usage.length));
  return [
    `usage: ${CLI} COMMAND ${GLOBAL_OPTIONS}`,
    '',
    ...names.map((n) => `  ${COMMANDS[n].usage.padEnd(width)}   ${COMMANDS[n].summary}`),
    '',
    'Each command prints one JSON line on stdout. It acts on the running `npm start`, found through DATA_DIR',
    '(default .data) or, when DATA_DIR is not set, among the running instances; --aws acts on the DynamoDB',
    'table TABLE_NAME in AWS with the usual credential chain. --help, -h or `help` works after any command.',
    '',
  ].join('\n');
}

/** A decimal number such as 10 or 2.5: no signs, exponents, hex or blanks, which Number() would take. */
const DECIMAL = /^\d+(\.\d+)?$/;
const MAX_CREDITS = 1_000_000_000;

function amount(flag: 'amount' | 'credits', raw: string, command: CommandName, allowZero: boolean): number {
  const n = Number(raw);
  const ok = DECIMAL.test(raw) && n <= MAX_CREDITS && (allowZero || n > 0);
  if (!ok) {
    const range = allowZero ? `from 0 to ${MAX_CREDITS}` : `greater than 0, at most ${MAX_CREDITS}`;
    throw new UsageError(`--${flag} must be a number ${range} (got ${JSON.stringify(raw)})`, usage(command));
  }
  return n;
}

/**
 * node:util's parseArgs refuses `--amount -5` as ambiguous; we take a value that reads as a negative number
 * so the command can say what is wrong with it ("must be greater than 0") instead.
 */
function joinNegativeValues(args: readonly string[], flags: readonly Flag[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (arg.startsWith('--') && flags.includes(arg.slice(2) as Flag) && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i += 1;
    } else out.push(arg);
  }
  return out;
}

const HELP = new Set(['--help', '-h', 'help']);

/** What a command line asks for: help text, or a command with its checked inputs. */
export type Parsed =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'command'; readonly command: CommandName; readonly flags: CliFlags; readonly file?: string };

/** Parses argv (without node and the script). Throws {@link UsageError}. */
export function parseCommandLine(argv: readonly string[]): Parsed {
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-') || words.length === 2) break;
    words.push(arg);
  }
  // `help`, `help key`, `help key create`, and `--help`/`-h`/`help` anywhere after the command words.
  if (argv[0] === 'help') {
    const scope = argv.slice(1).filter((a) => !a.startsWith('-')).slice(0, 2).join(' ');
    return { kind: 'help', text: usage(scope && NAMES.some((n) => n === scope || n.startsWith(`${scope} `)) ? scope : undefined) };
  }
  const group = words[0];
  const name = words.slice(0, 2).join(' ') as CommandName;
  const spec: CommandSpec | undefined = COMMANDS[name];
  const groupKnown = group !== undefined && NAMES.some((n) => n.startsWith(`${group} `));
  if (!spec) {
    const scope = groupKnown ? group : undefined;
    if (argv.some((a) => HELP.has(a))) return { kind: 'help', text: usage(scope) };
    if (argv.length === 0) throw new UsageError('a command is required', usage());
    if (!groupKnown) throw new UsageError(`Unknown command "${argv.filter((a) => !a.startsWith('-')).join(' ')}"`, usage());
    const what = words.length === 1 ? `${group} needs a subcommand` : `Unknown command "${words.join(' ')}"`;
    throw new UsageError(`${what}; ${group} takes: ${NAMES.filter((n) => n.startsWith(`${group} `)).map((n) => n.split(' ')[1]).join(', ')}`, usage(group));
  }
  const rest = argv.slice(2);
  // `help` only right after the command, so `--name help` still names a workspace "help".
  if (rest[0] === 'help' || rest.some((a) => a === '--help' || a === '-h')) return { kind: 'help', text: usage(name) };
  const options = Object.fromEntries([
    ...spec.flags.map((f) => [f, { type: 'string' as const }]),
    ['aws', { type: 'boolean' as const }],
  ]);
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: joinNegativeValues(rest, spec.flags), options, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    // parseArgs' messages are one clear sentence; its hints about `--` are noise here.
    const message = (error as Error).message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '');
    throw new UsageError(message, usage(name));
  }
  const { values, positionals } = parsed;
  const maxPositionals = spec.positional ? 1 : 0;
  if (positionals.length > maxPositionals) {
    throw new UsageError(`Unexpected argument "${positionals[maxPositionals]}"`, usage(name));
  }
  if (spec.positional && positionals.length === 0) throw new UsageError(`${name} needs a ${spec.positional}`, usage(name));
  const flags: CliFlags = { aws: values.aws === true };
  for (const f of spec.flags) {
    const v = values[f];
    if (typeof v === 'string') flags[f] = v;
  }
  checkFlags(name, flags);
  return { kind: 'command', command: name, flags, file: positionals[0] };
}

/** The checks that need no store: required flags, and values the command could not use. */
function checkFlags(name: CommandName, flags: CliFlags): void {
  const needed: Partial<Record<CommandName, Flag[]>> = {
    'workspace create': ['name'],
    'key create': ['workspace', 'name'],
    'key revoke': ['workspace', 'key'],
    'credits add': ['workspace', 'amount'],
    'contacts import': ['workspace'],
    'user create': ['email', 'workspace'],
    'user add': ['email', 'workspace'],
    'agent test': ['suite', 'agent'],
  };
  for (const f of needed[name] ?? []) {
    if (flags[f] === undefined) throw new UsageError(`--${f} is required`, usage(name));
  }
  if (flags.version !== undefined && !(/^[1-9]\d{0,6}$/.test(flags.version))) throw new UsageError(`--version must be a published version number such as 3 (got ${JSON.stringify(flags.version)})`, usage(name));
  for (const f of ['name', 'workspace', 'key', 'suite', 'agent'] as const) {
    if (flags[f] !== undefined && !flags[f].trim()) throw new UsageError(`--${f} must not be empty`, usage(name));
  }
  if (flags.name !== undefined && flags.name.trim().length > 200) throw new UsageError('--name must be at most 200 characters', usage(name));
  if (flags.credits !== undefined) amount('credits', flags.credits, name, true);
  if (flags.amount !== undefined) amount('amount', flags.amount, name, false);
  checkWidgetFlags(name, flags);
  if (flags.email !== undefined && !Email.safeParse(flags.email).success) throw new UsageError(`--email must be an email address (got ${JSON.stringify(flags.email)})`, usage(name));
  if (flags.role !== undefined && !(ROLES as readonly string[]).includes(flags.role)) throw new UsageError(`--role must be owner or member (got ${JSON.stringify(flags.role)})`, usage(name));
  if (flags['default-country'] !== undefined && !ContactImportFields.shape.defaultCountry.safeParse(flags['default-country']).success) {
    throw new UsageError('--default-country must be an ISO 3166-1 alpha-2 code such as US', usage(name));
  }
}

/** A comma-separated list flag, blanks dropped. */
export const listFlag = (value: string | undefined): string[] => (value ?? '').split(',').map((v) => v.trim()).filter(Boolean);

/** A widget key names its agents and origins; a full key takes neither (it can do everything anyway). */
function checkWidgetFlags(name: CommandName, flags: CliFlags): void {
  const scope = flags.scope ?? 'full';
  if (scope !== 'full' && scope !== 'widget') throw new UsageError(`--scope must be full or widget (got ${JSON.stringify(scope)})`, usage(name));
  if (scope === 'full') {
    if (flags.agents !== undefined || flags.origins !== undefined) throw new UsageError('--agents and --origins go with --scope widget', usage(name));
    return;
  }
  const agents = listFlag(flags.agents);
  const origins = listFlag(flags.origins);
  if (agents.length === 0) throw new UsageError('--scope widget needs --agents (the agent ids the widget may talk to)', usage(name));
  if (origins.length === 0) throw new UsageError('--scope widget needs --origins (the web sites allowed to use the key)', usage(name));
  if (agents.length > 50 || origins.length > 50) throw new UsageError('--agents and --origins take at most 50 values each', usage(name));
  const bad = origins.find((o) => canonicalOrigin(o) === undefined);
  if (bad !== undefined) throw new UsageError(`--origins takes origins such as https://shop.example (scheme, host, port; no path): ${JSON.stringify(bad)}`, usage(name));
}

const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The command line that reaches the platform in `dataDir` (shown in hints and by `npm start`). */
export function cliCommandFor(dataDir: string, args: readonly string[], defaultDataDir?: string): string {
  const prefix = defaultDataDir !== undefined && resolve(dataDir) === resolve(defaultDataDir) ? '' : `DATA_DIR=${shellQuote(resolve(dataDir))} `;
  return `${prefix}${CLI} ${args.map(shellQuote).join(' ')}`;
}

