import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as z from 'zod';
import { AppError, NotFoundError } from '../../domain/errors.js';
import { createDb, type Db } from '../../store/dynamo.js';
import { addKeyVersion, loadOrCreateKeyFile, writeKeyFile } from '../../store/secret-box.js';
import { addCredits, createApiKey, createWorkspace, revokeApiKey } from '../../store/workspaces.js';
import { ensureTable, startDynamoLocal } from '../platform/dynamodb.js';
import { importContactsCommand, readImportFile } from './contact-import-cli.js';
import { runningAt, runningInstances, usedByPlatform, type PlatformEndpoints } from '../platform/instances.js';
import type { ProgressSink } from './progress.js';
import { CliFailure, formatUsageError, UsageError } from './cli-errors.js';
import { cliCommandFor, listFlag, parseCommandLine, usage, type CliFlags } from './cli-args.js';
import { canonicalOrigin } from '../../domain/widget.js';
import { randomBytes } from 'node:crypto';
import { Email, type Role } from '../../domain/dashboard.js';
import { meetsPasswordPolicy, PASSWORD_RULE } from '../../domain/password-policy.js';
import { addMembership, addUserToWorkspace, findUser, listMemberships } from '../../store/users.js';
import { createCognitoIdentity } from '../../vendors/identity/cognito.js';
import { junitReport, runAgentTests, summary } from './agent-test-cli.js';

export { CliFailure, UsageError };
export { CLI, cliCommandFor, usage } from './cli-args.js';

/**
 * The admin CLI's commands (the command line is parsed in lib/local/cli/cli-args.ts). Usage errors (unknown
 * command or flag, missing or bad value) exit 2 with the command's usage; failures (unknown workspace, no
 * store to act on) exit 1; neither ever prints a stack trace.
 */

/** The settings the CLI reads; the defaults are `npm start`'s (lib/local/platform/platform.ts), whose module is too heavy to load here. */
const CliEnv = z.object({
  DATA_DIR: z.string().default('.data'),
  TABLE_NAME: z.string().default('voice-agents'),
  AWS_REGION: z.string().default('us-east-1'),
  /** `user create --aws`: the stack's user pool (its UserPoolId output). */
  COGNITO_USER_POOL_ID: z.string().optional(),
  /** `user create`: the new user's password; without it one is made and printed once. */
  USER_PASSWORD: z.string().min(8).max(256).optional(),
  /** `agent test`: the workspace's API key (a CI secret). */
  API_KEY: z.string().min(1).optional(),
  /** `agent test`: the platform's API origin; without it, the running `npm start`'s. */
  API_URL: z.url().optional(),
});
type CliEnv = z.infer<typeof CliEnv>;

interface Target {
  readonly db: Db;
  /** The running platform's cognito-local (its COGNITO_* environment); absent when none runs. */
  readonly cognito?: Record<string, string>;
  close(): Promise<void>;
}

const describeInstance = (e: PlatformEndpoints) => `${e.baseUrl} (pid ${e.pid}, DATA_DIR=${e.dataDir})`;

/**
 * The store of the running `npm start`: the one at DATA_DIR, else (DATA_DIR not set) the only one running.
 * With no platform running, DynamoDB Local is started on DATA_DIR for this one command, but only where
 * `npm start` has kept data before: a fresh directory would hold a store the platform never reads.
 */
async function localTarget(env: CliEnv, dataDirSet: boolean, args: readonly string[], stderr: ProgressSink): Promise<Target> {
  const dataDir = resolve(env.DATA_DIR);
  const connect = (e: PlatformEndpoints): Target => {
    const db = createDb({ table: e.table, region: 'us-east-1', endpoint: e.dynamodb });
    return { db, ...(e.cognito ? { cognito: e.cognito } : {}), close: async () => db.doc.destroy() };
  };
  const here = await runningAt(dataDir);
  if (here) return connect(here);
  const elsewhere = (await runningInstances()).filter((e) => e.dataDir !== dataDir);
  if (elsewhere.length === 1 && !dataDirSet) {
    stderr.write(`Using the platform running at ${describeInstance(elsewhere[0]!)}.\n`);
    return connect(elsewhere[0]!);
  }
  if (elsewhere.length > 0) {
    const hints = elsewhere.map((e) => `  ${describeInstance(e)}:\n    ${cliCommandFor(e.dataDir, args)}`);
    throw new CliFailure(
      `No platform is running with DATA_DIR=${dataDir}, but ${elsewhere.length === 1 ? 'one runs' : 'these run'} elsewhere; ` +
        `point the CLI at ${elsewhere.length === 1 ? 'it' : 'one of them'} with DATA_DIR:\n${hints.join('\n')}`,
    );
  }
  if (!(await usedByPlatform(dataDir))) {
    throw new CliFailure(
      `No platform is running, and DATA_DIR=${dataDir} holds no store of one: a key created there would not work. ` +
        `Start the platform first (npm start, with the same DATA_DIR), or set DATA_DIR to the directory npm start uses.`,
    );
  }
  const dynamo = await startDynamoLocal(resolve(dataDir, 'dynamodb'));
  await ensureTable(dynamo.endpoint, env.TABLE_NAME);
  const db = createDb({ table: env.TABLE_NAME, region: 'us-east-1', endpoint: dynamo.endpoint });
  return { db, close: async () => { db.doc.destroy(); await dynamo.stop(); } };
}

/**
 * Runs one admin command and returns what it prints. Throws {@link UsageError} for a bad command line,
 * {@link CliFailure} or the domain's errors otherwise. `argv` is only used to repeat the command in hints.
 */
export async function runCli(
  positionals: string[],
  flags: CliFlags,
  rawEnv: NodeJS.ProcessEnv,
  io: { stderr: ProgressSink } = { stderr: process.stderr },
  argv?: readonly string[],
): Promise<Record<string, unknown>> {
  // Rebuilds the command line from already split parts, so both entry points share one parser.
  const line = argv ?? [
    ...positionals,
    ...Object.entries(flags).flatMap(([k, v]) => (typeof v === 'string' ? [`--${k}`, v] : v === true ? [`--${k}`] : [])),
  ];
  const parsed = parseCommandLine(line);
  if (parsed.kind === 'help') throw new UsageError('help is not a command', parsed.text);
  const envParsed = CliEnv.safeParse(rawEnv);
  if (!envParsed.success) {
    throw new CliFailure(`bad environment: ${envParsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  }
  const env = envParsed.data;
  const { command, flags: f } = parsed;
  if (command === 'data-key rotate') return rotateLocalDataKey(env, f.aws === true);
  if (command === 'agent test') throw new UsageError('agent test prints a report, not a JSON line: run it through main', usage(command));
  const importFile = command === 'contacts import' ? await readImportFile(parsed.file) : undefined;
  const target: Target = f.aws
    ? (() => {
        const db = createDb({ table: env.TABLE_NAME, region: env.AWS_REGION });
        return { db, close: async () => db.doc.destroy() };
      })()
    : await localTarget(env, rawEnv.DATA_DIR !== undefined, line, io.stderr);
  try {
    const { db } = target;
    switch (command) {
      case 'workspace create': {
        const created = await createWorkspace(db, { name: f.name!.trim(), credits: f.credits === undefined ? 0 : Number(f.credits) });
        return { workspaceId: created.workspaceId, apiKey: created.apiKey };
      }
      case 'key create': {
        const widget = f.scope === 'widget'
          ? { agentIds: listFlag(f.agents), origins: listFlag(f.origins).map((o) => canonicalOrigin(o)!) }
          : undefined;
        const created = await createApiKey(db, f.workspace!, f.name!.trim(), widget);
        return { workspaceId: f.workspace, keyId: created.keyId, apiKey: created.apiKey, scope: widget ? 'widget' : 'full', ...widget };
      }
      case 'key revoke': {
        await revokeApiKey(db, f.workspace!, f.key!);
        return { workspaceId: f.workspace, keyId: f.key, revoked: true };
      }
      case 'contacts import': {
        const result = await importContactsCommand(
          db,
          { bytes: importFile!, workspaceId: f.workspace!, defaultCountry: f['default-country'] },
          io.stderr,
        );
        return { ...result };
      }
      case 'user create': {
        return await createUserCommand(target, env, { email: f.email!, workspaceId: f.workspace!, role: (f.role ?? 'owner') as Role });
      }
      case 'user add': {
        return await addUserCommand(target, env, { email: f.email!, workspaceId: f.workspace!, role: (f.role ?? 'member') as Role });
      }
      case 'credits add': {
        const balance = await addCredits(db, f.workspace!, Number(f.amount));
        return { workspaceId: f.workspace, balance };
      }
    }
  } finally {
    await target.close();
  }
}

/**
 * Adds a version to the local data keyring (DATA_DIR/secret.key, where `npm start` keeps it) and makes it
 * current; older versions stay, so everything sealed before still opens. Prints versions, never a key. On
 * AWS the keyring lives in Secrets Manager and is rotated there (docs/data-key.md).
 */
async function rotateLocalDataKey(env: CliEnv, aws: boolean): Promise<Record<string, unknown>> {
  if (aws) throw new CliFailure('On AWS the data keyring is the Secrets Manager secret: rotate it as docs/data-key.md says.');
  const file = resolve(env.DATA_DIR, 'secret.key');
  // Never a fresh key file: a keyring npm start never read would seal nothing it can open.
  if (!(await stat(file).then(() => true, () => false))) {
    throw new CliFailure(`There is no data key at ${file}: npm start creates it on its first run (set DATA_DIR to the directory it uses).`);
  }
  const rotated = addKeyVersion(await loadOrCreateKeyFile(file));
  await writeKeyFile(file, rotated);
  return { file, current: rotated.current, versions: [...rotated.keys.keys()].sort((a, b) => a - b), restart: 'restart npm start to seal with the new version' };
}

/**
 * `user create`: the user in Cognito (cognito-local for a local platform, the stack's pool with --aws),
 * confirmed with a permanent password, and in the workspace with the role. The password comes from
 * USER_PASSWORD (never a flag: flags stay in shell history and process lists); without it one is made
 * and printed, once, in the answer.
 */
async function createUserCommand(target: Target, env: CliEnv, input: { email: string; workspaceId: string; role: Role }) {
  // Checked first: Cognito creates the user before it takes the password, and would keep a user with none.
  if (env.USER_PASSWORD !== undefined && !meetsPasswordPolicy(env.USER_PASSWORD)) {
    throw new CliFailure(`USER_PASSWORD does not meet the password policy: ${PASSWORD_RULE}`);
  }
  const identity = identityOf(target, env, 'user create');
  const email = Email.parse(input.email);
  const generated = env.USER_PASSWORD ? undefined : `${randomBytes(15).toString('base64url')}-Aa1`;
  const { userId } = await identity.adminCreateUser(email, env.USER_PASSWORD ?? generated!);
  const workspace = await addUserToWorkspace(target.db, { userId, email }, input.workspaceId, input.role);
  return { userId, email, workspaceId: workspace.id, role: workspace.role, ...(generated ? { password: generated } : {}) };
}

/** The user pool: the running platform's cognito-local, or with --aws the stack's pool (COGNITO_USER_POOL_ID). */
function identityOf(target: Target, env: CliEnv, command: string) {
  const cognitoEnv = target.cognito ?? (env.COGNITO_USER_POOL_ID ? { COGNITO_USER_POOL_ID: env.COGNITO_USER_POOL_ID } : undefined);
  if (!cognitoEnv) {
    throw new CliFailure(`${command} needs the running platform (npm start) for its cognito-local, or --aws with COGNITO_USER_POOL_ID set.`);
  }
  return createCognitoIdentity({ ...cognitoEnv, AWS_REGION: env.AWS_REGION } as Parameters<typeof createCognitoIdentity>[0]);
}

/**
 * `user add`: a user who exists already (signed up and confirmed, or made by `user create`) becomes a member
 * of another workspace. Default role member, the least privilege: an owner also manages keys and members.
 * Every refusal comes before the one write, so a refused command changes nothing. The workspace they open
 * on a plain refresh stays the one they last chose; the new one is in their workspace switcher.
 */
async function addUserCommand(target: Target, env: CliEnv, input: { email: string; workspaceId: string; role: Role }) {
  const identity = identityOf(target, env, 'user add');
  const email = Email.parse(input.email);
  const found = await identity.adminFindUser(email);
  if (!found) throw new CliFailure(`No dashboard user has the email ${email}: they sign up first, or make them with user create.`);
  if (!found.confirmed) throw new CliFailure(`${email} signed up but has not entered their confirmation code yet; run this again once they have.`);
  const profile = await findUser(target.db, found.userId);
  if (!profile) throw new CliFailure(`${email} has an account but has never signed in to the dashboard; run this again once they have.`);
  const current = (await listMemberships(target.db, found.userId)).find((m) => m.id === input.workspaceId);
  if (current) throw new CliFailure(`${email} is already a member of workspace ${input.workspaceId} (${current.name}) as ${current.role}.`);
  const workspace = await addMembership(target.db, { userId: found.userId, email }, input.workspaceId, input.role).catch((e: unknown) => {
    if (e instanceof NotFoundError) throw new CliFailure(`There is no workspace ${input.workspaceId}.`);
    throw e;
  });
  return { userId: found.userId, email, workspaceId: workspace.id, workspaceName: workspace.name, role: workspace.role };
}

/**
 * `agent test`: the run through the API with API_KEY, at API_URL or the running `npm start` (found as the
 * admin commands find it). The JUnit report goes to stdout, the summary to stderr; 1 when anything failed.
 */
async function agentTestMain(flags: CliFlags, rawEnv: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const env = CliEnv.safeParse(rawEnv);
  if (!env.success) throw new CliFailure(`bad environment: ${env.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  if (!env.data.API_KEY) throw new CliFailure('agent test needs the workspace\'s API key in API_KEY (a CI secret, never a flag)');
  const baseUrl = env.data.API_URL ?? (await localBaseUrl(env.data, rawEnv.DATA_DIR !== undefined));
  const run = await runAgentTests({ baseUrl, apiKey: env.data.API_KEY, suite: flags.suite!, agentId: flags.agent!, version: flags.version === undefined ? undefined : Number(flags.version) }, io.stderr);
  io.stdout.write(junitReport(run));
  io.stderr.write(summary(run));
  return run.status === 'passed' ? 0 : 1;
}

/** The running `npm start`'s origin: the one at DATA_DIR, else (DATA_DIR not set) the only one running. */
async function localBaseUrl(env: CliEnv, dataDirSet: boolean): Promise<string> {
  const here = await runningAt(resolve(env.DATA_DIR));
  if (here) return here.baseUrl;
  const running = await runningInstances();
  if (running.length === 1 && !dataDirSet) return running[0]!.baseUrl;
  throw new CliFailure('agent test needs API_URL (the platform\'s API origin), or a running npm start to test against');
}

interface Io {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: ProgressSink;
}

/**
 * The CLI's whole life: parse, run, print, and the exit code (0 done or help, 1 failed, 2 usage error).
 * One line per error on stderr, never a stack trace: these are messages for a person at a terminal.
 */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  try {
    const parsed = parseCommandLine(argv);
    if (parsed.kind === 'help') {
      io.stdout.write(parsed.text);
      return 0;
    }
    if (parsed.command === 'agent test') return await agentTestMain(parsed.flags, env, io);
    const result = await runCli([], {}, env, { stderr: io.stderr }, argv);
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(formatUsageError(error));
      return 2;
    }
    const known = error instanceof AppError || error instanceof CliFailure;
    const text = error instanceof Error ? error.message : String(error);
    // An unexpected error's message can span lines (the AWS SDK's do); its first line says what happened.
    const message = known ? text : `unexpected failure: ${text.split('\n')[0]}`;
    io.stderr.write(`error: ${message}\n`);
    return 1;
  }
}
