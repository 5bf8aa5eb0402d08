import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListUserPoolsCommand,
  UpdateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { COGNITO_PASSWORD_POLICY } from '../../domain/password-policy.js';
import { endWithThisProcess, freePort, waitFor } from './ports.js';

/**
 * cognito-local (npm; it speaks Amazon Cognito's JSON API) for dashboard sign-in, run as a child process
 * the way DynamoDB Local is: `npm start` keeps its users under DATA_DIR/cognito, the tests in a temporary
 * directory. The platform reaches it with the real Cognito SDK client and a changed endpoint
 * (COGNITO_ENDPOINT); its tokens are RS256 with the issuer `http://127.0.0.1:PORT/<poolId>`.
 */
export interface LocalCognito {
  readonly endpoint: string;
  readonly userPoolId: string;
  readonly clientId: string;
  /** The `iss` of its tokens (the JWKS is at `${issuer}/.well-known/jwks.json`). */
  readonly issuer: string;
  /** Where cognito-local keeps its users (see confirmationCodeOf). */
  readonly dataDir: string;
  stop(): Promise<void>;
}

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
const POOL_FILE = 'pool.json';

/**
 * The same settings as the stack's pool (lib/infra/constructs/dashboard.ts): email as the user name, verified
 * by code, and the one password policy (lib/domain/password-policy.ts), which cognito-local-start.cjs enforces.
 */
const POOL_SETTINGS = { AutoVerifiedAttributes: ['email' as const], Policies: { PasswordPolicy: COGNITO_PASSWORD_POLICY } };

/**
 * The pool and app client the dashboard uses, made once per data directory and remembered there. A pool
 * kept from before gets the current settings again (UpdateUserPool), so an older DATA_DIR cannot keep a
 * laxer password policy than AWS.
 */
async function ensurePool(endpoint: string, dataDir: string): Promise<{ userPoolId: string; clientId: string }> {
  const file = join(dataDir, POOL_FILE);
  const saved = await readFile(file, 'utf8').then((t) => JSON.parse(t) as { userPoolId: string; clientId: string }, () => undefined);
  const client = new CognitoIdentityProviderClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  try {
    if (saved) {
      await client.send(new UpdateUserPoolCommand({ UserPoolId: saved.userPoolId, ...POOL_SETTINGS }));
      return saved;
    }
    const pool = await client.send(new CreateUserPoolCommand({ PoolName: 'dashboard', UsernameAttributes: ['email'], ...POOL_SETTINGS }));
    const userPoolId = pool.UserPool!.Id!;
    const app = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: 'dashboard',
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      }),
    );
    const ids = { userPoolId, clientId: app.UserPoolClient!.ClientId! };
    await writeFile(file, JSON.stringify(ids));
    return ids;
  } finally {
    client.destroy();
  }
}

// cognito-local prints each code it "sends" in a box: `│ Destination: ada@example.com │` ... `│ Code: 123456 │`.
const ANSI = /\u001b\[[0-9;]*m/g;
const FIELD = /(Destination|Code):\s+(\S+)/;

/**
 * Relays the codes cognito-local would have emailed as one plain line each (`npm start` shows them to the
 * developer signing up); the rest of its request log is dropped.
 */
function relayCodes(child: ChildProcess, print: (line: string) => void): void {
  if (!child.stdout) return;
  let destination: string | undefined;
  createInterface({ input: child.stdout }).on('line', (raw) => {
    const match = FIELD.exec(raw.replace(ANSI, ''));
    if (!match) return;
    if (match[1] === 'Destination') destination = match[2];
    else print(`dashboard: code for ${destination ?? 'a user'}: ${match[2]}\n`);
  });
}

/**
 * Starts cognito-local keeping its users under `dir` (a temporary directory, removed on stop, when
 * undefined) and makes sure the dashboard's pool exists. `print` receives the relayed codes.
 */
export async function startCognitoLocal(dir: string | undefined, print?: (line: string) => void): Promise<LocalCognito> {
  const dataDir = dir ?? (await mkdtemp(join(tmpdir(), 'cognito-local-')));
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  // Its start script, behind Cognito's email-verification rules (cognito-local-start.cjs says which).
  const start = fileURLToPath(new URL('./cognito-local-start.cjs', import.meta.url));
  // HOST decides the issuer in its tokens; 127.0.0.1 matches the address the platform calls.
  const child = spawn(process.execPath, [start], {
    cwd: dataDir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DEBUG: '' },
    stdio: ['ignore', print ? 'pipe' : 'ignore', 'ignore'],
  });
  endWithThisProcess(child);
  if (print) relayCodes(child, print);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const probe = new CognitoIdentityProviderClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  try {
    await waitFor(async () => {
      if (exited) throw new Error('cognito-local exited');
      await probe.send(new ListUserPoolsCommand({ MaxResults: 1 }));
    }, 30_000, 'cognito-local');
  } finally {
    probe.destroy();
  }
  const ids = await ensurePool(endpoint, dataDir);
  return {
    endpoint,
    ...ids,
    issuer: `${endpoint}/${ids.userPoolId}`,
    dataDir,
    async stop() {
      if (!exited) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      if (!dir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The platform's environment for a local pool (lib/config.ts reads these). */
export const cognitoEnvironment = (c: Pick<LocalCognito, 'endpoint' | 'userPoolId' | 'clientId' | 'issuer'>): Record<string, string> => ({
  COGNITO_ENDPOINT: c.endpoint,
  COGNITO_USER_POOL_ID: c.userPoolId,
  COGNITO_CLIENT_ID: c.clientId,
  COGNITO_ISSUER: c.issuer,
});

/**
 * cognito-local's user store. It saves the file with overlapping writes, so two sign-ups at once (test files
 * run side by side) can leave a shorter, newer document followed by the tail of a longer, older one, until
 * its next save. The newer document is whole at the start of the file: that is what is read then.
 */
function parseStore(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const at = /after JSON at position (\d+)/.exec(error instanceof Error ? error.message : '');
    if (!at) throw error;
    return JSON.parse(text.slice(0, Number(at[1])));
  }
}

/** The store, read again while a save is half written (a document cut short), for up to a second. */
async function readStore(file: string): Promise<unknown> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return parseStore(await readFile(file, 'utf8'));
    } catch (error) {
      if (!(error instanceof SyntaxError) || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * The code cognito-local last issued to an email (sign-up or password reset), read from its store: the
 * tests' stand-in for reading the email. Undefined when there is none after `waitMs`.
 *
 * The file can lag the server for a moment: cognito-local saves the whole store with overlapping
 * asynchronous writes, and an older snapshot may land after a newer one (a sign-up from another test file
 * in the same instant), to be corrected by the next save. A code that is not there yet is read again.
 */
export async function confirmationCodeOf(dataDir: string, userPoolId: string, email: string, waitMs = 5_000): Promise<string | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const code = await storedCodeOf(dataDir, userPoolId, email);
    if (code !== undefined || Date.now() >= deadline) return code;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function storedCodeOf(dataDir: string, userPoolId: string, email: string): Promise<string | undefined> {
  const users = ((await readStore(join(dataDir, '.cognito', 'db', `${userPoolId}.json`))) as { Users?: Record<string, { Attributes?: { Name: string; Value: string }[]; ConfirmationCode?: string }> }).Users ?? {};
  for (const user of Object.values(users)) {
    if (user.Attributes?.some((a) => a.Name === 'email' && a.Value.toLowerCase() === email)) return user.ConfirmationCode;
  }
  return undefined;
}
