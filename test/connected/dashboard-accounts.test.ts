/**
 * Invariant: the CLI's workspaces and the dashboard's accounts meet, and the local pool refuses what the AWS
 * pool refuses. `user add` makes an existing user (signed up, or made by `user create`) a member of another
 * workspace with a role (member unless told), which their next sign-in lists and can switch to; an unknown
 * email, an unconfirmed sign-up, an unknown workspace, an existing membership (named with its role) and a bad
 * role each exit non-zero with one line and change nothing. Sign-up, password reset and `user create` refuse
 * a password that breaks the one policy (lib/domain/password-policy.ts) with `weak_password`. The command the
 * Credits page offers for an empty balance is a real CLI command that adds the credits.
 */
import { CognitoIdentityProviderClient, DescribeUserPoolCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { COGNITO_PASSWORD_POLICY } from '../../lib/domain/password-policy.js';
import { main } from '../../lib/local/cli/cli.js';
import { parseCommandLine } from '../../lib/local/cli/cli-args.js';
import { listMemberships } from '../../lib/store/users.js';
import { creditBalance } from '../../lib/store/workspaces.js';
import { addCreditsCommand, SUGGESTED_CREDITS } from '../../lib/web/dashboard/src/add-credits.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { codeFor, DashboardBrowser, signedUpUser } from '../support/dashboard-api.js';

let t: TestPlatform;

beforeAll(async () => {
  // Persisted: the admin CLI finds a platform (and its cognito-local) through DATA_DIR's endpoints file.
  t = await startTestPlatform({ persist: true });
});

afterAll(async () => {
  await t?.stop();
});

const PASSWORD = 'Correct-horse-9';
let n = 0;
const newEmail = () => `accounts${Date.now()}${n++}@example.com`;

/** The CLI as a person runs it (parse, run, one line out, the exit code), in this process. */
async function cli(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { DATA_DIR: t.dataDir, TABLE_NAME: t.table, ...env }, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
  });
  return { code, stdout, stderr, json: code === 0 ? (JSON.parse(stdout) as Record<string, unknown>) : undefined };
}

const signIn = (email: string, password = PASSWORD) => new DashboardBrowser(t.baseUrl).auth('sign-in', { email, password });

describe('user add', () => {
  it('adds a signed-up user to the CLI workspace as a member; their sign-in lists it and switches to it', async () => {
    const { email, session } = await signedUpUser(t.baseUrl, newEmail(), PASSWORD, 'Own team');
    const cliWs = await t.workspace(500);
    const added = await cli(['user', 'add', '--email', email.toUpperCase(), '--workspace', cliWs.workspaceId]);
    expect(added.stderr).toBe('');
    expect(added.json).toEqual({ userId: session.user.id, email, workspaceId: cliWs.workspaceId, workspaceName: 'test', role: 'member' });

    const b = new DashboardBrowser(t.baseUrl);
    const again = await b.auth('sign-in', { email, password: PASSWORD });
    expect(again.status).toBe(200);
    // The workspace they were in stays the one they open; the new one is in the list, with its role.
    expect(again.body.workspace).toMatchObject({ id: session.workspace.id, role: 'owner' });
    expect(again.body.workspaces).toEqual(expect.arrayContaining([{ id: cliWs.workspaceId, name: 'test', role: 'member' }]));
    const switched = await b.auth('refresh', { workspaceId: cliWs.workspaceId });
    expect(switched.body.workspace).toEqual({ id: cliWs.workspaceId, name: 'test', role: 'member' });
    expect((await t.api(switched.body.apiKey, 'GET', '/api/credits')).body.balance).toBe(500);
  });

  it('takes --role owner, and a user that user create made', async () => {
    const home = await t.workspace();
    const email = newEmail();
    const made = await cli(['user', 'create', '--email', email, '--workspace', home.workspaceId], { USER_PASSWORD: 'Cli-password-7' });
    expect(made.code).toBe(0);
    const other = await t.workspace();
    const added = await cli(['user', 'add', '--email', email, '--workspace', other.workspaceId, '--role', 'owner']);
    expect(added.json).toMatchObject({ workspaceId: other.workspaceId, role: 'owner' });
    const session = await signIn(email, 'Cli-password-7');
    expect(session.body.workspaces.map((w: { id: string; role: string }) => [w.id, w.role]).sort()).toEqual(
      [[home.workspaceId, 'owner'], [other.workspaceId, 'owner']].sort(),
    );
  });

  it('refuses, with one line and a non-zero exit, what it cannot do, and changes nothing', async () => {
    const { email, session } = await signedUpUser(t.baseUrl, newEmail(), PASSWORD, 'Solo');
    const ws = await t.workspace();
    const unconfirmed = newEmail();
    await new DashboardBrowser(t.baseUrl).auth('sign-up', { email: unconfirmed, password: PASSWORD, workspaceName: 'Later' });
    expect(await codeFor(unconfirmed)).toMatch(/^\d{6}$/);
    const cases: [string[], number, RegExp][] = [
      [['--email', 'nobody-here@example.com', '--workspace', ws.workspaceId], 1, /^error: No dashboard user has the email nobody-here@example\.com: they sign up first, or make them with user create\.\n$/],
      [['--email', unconfirmed, '--workspace', ws.workspaceId], 1, /^error: .* has not entered their confirmation code yet; run this again once they have\.\n$/],
      [['--email', email, '--workspace', 'ws_nope'], 1, /^error: There is no workspace ws_nope\.\n$/],
      [['--email', email, '--workspace', session.workspace.id], 1, new RegExp(`^error: ${email.replace(/\./g, '\\.')} is already a member of workspace ${session.workspace.id} \\(Solo\\) as owner\\.\\n$`)],
      [['--email', email, '--workspace', ws.workspaceId, '--role', 'admin'], 2, /^error: --role must be owner or member \(got "admin"\)\n/],
      [['--email', 'not-an-email', '--workspace', ws.workspaceId], 2, /^error: --email must be an email address/],
    ];
    for (const [flags, code, stderr] of cases) {
      const r = await cli(['user', 'add', ...flags]);
      expect({ flags, code: r.code, stdout: r.stdout }).toEqual({ flags, code, stdout: '' });
      expect(r.stderr).toMatch(stderr);
    }
    expect((await listMemberships(t.deps.db, session.user.id)).map((m) => m.id)).toEqual([session.workspace.id]);
    const members = await t.api(session.apiKey, 'GET', '/api/members');
    expect(members.body.data).toHaveLength(1);
  });
});

describe('the password policy, the same as the AWS pool', () => {
  // One password per rule of PASSWORD_POLICY, each breaking only that rule (a short one is the request
  // schema's to refuse, before Cognito: validation_failed, naming the field).
  const weak = ['password', 'lower-case-1', 'UPPER-CASE-1', 'No-digits-here', 'NoSymbols123'];

  it('is the local pool’s own policy, from the shared constant', async () => {
    const { endpoint, userPoolId } = inject('stores').cognito;
    const client = new CognitoIdentityProviderClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const out = await client.send(new DescribeUserPoolCommand({ UserPoolId: userPoolId }));
    client.destroy();
    expect(out.UserPool?.Policies?.PasswordPolicy).toMatchObject(COGNITO_PASSWORD_POLICY);
    expect(out.UserPool?.AutoVerifiedAttributes).toEqual(['email']);
  });

  it('refuses each weak password at sign-up with weak_password, and the address can still sign up', async () => {
    const email = newEmail();
    for (const password of weak) {
      const r = await new DashboardBrowser(t.baseUrl).auth('sign-up', { email, password, workspaceName: 'Weak' });
      expect({ password, status: r.status, code: r.body.error?.code }).toEqual({ password, status: 400, code: 'weak_password' });
      expect(r.body.error.message).toMatch(/upper and lower case letters, a digit and a symbol/);
    }
    const short = await new DashboardBrowser(t.baseUrl).auth('sign-up', { email, password: 'Sh0rt-p', workspaceName: 'Weak' });
    expect(short.body.error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'password' })] });
    expect((await signIn(email)).status).toBe(401);
    await signedUpUser(t.baseUrl, email, PASSWORD, 'Strong');
  });

  it('refuses a weak password on reset and from user create, keeping the old password and creating no one', async () => {
    const { email } = await signedUpUser(t.baseUrl, newEmail(), PASSWORD, 'Reset');
    const b = new DashboardBrowser(t.baseUrl);
    expect((await b.auth('forgot-password', { email })).status).toBe(202);
    const code = await codeFor(email);
    const reset = await b.auth('reset-password', { email, code, password: 'password' });
    expect(reset.body.error?.code).toBe('weak_password');
    expect((await signIn(email)).status).toBe(200);

    const ws = await t.workspace();
    const fresh = newEmail();
    const made = await cli(['user', 'create', '--email', fresh, '--workspace', ws.workspaceId], { USER_PASSWORD: 'password' });
    expect(made.code).toBe(1);
    expect(made.stderr).toBe('error: USER_PASSWORD does not meet the password policy: At least 8 characters, with upper and lower case letters, a digit and a symbol.\n');
    expect((await cli(['user', 'add', '--email', fresh, '--workspace', ws.workspaceId])).stderr).toMatch(/No dashboard user has the email/);
  });
});

describe('the Credits page\'s command for an empty balance', () => {
  it('adds the credits when run locally, and is a valid command with --aws', async () => {
    const ws = await t.workspace(0);
    const [prefix, args] = addCreditsCommand(ws.workspaceId, false).split(' -- ');
    expect(prefix).toBe('npm run cli');
    const ran = await cli(args!.split(' '));
    expect(ran.json).toEqual({ workspaceId: ws.workspaceId, balance: SUGGESTED_CREDITS });
    expect(await creditBalance(t.deps.db, ws.workspaceId)).toBe(SUGGESTED_CREDITS);

    const aws = addCreditsCommand(ws.workspaceId, true);
    expect(aws).toMatch(/^TABLE_NAME=<the stack's TableName output> npm run cli -- /);
    expect(parseCommandLine(aws.split(' -- ')[1]!.split(' '))).toMatchObject({
      kind: 'command',
      command: 'credits add',
      flags: { workspace: ws.workspaceId, amount: String(SUGGESTED_CREDITS), aws: true },
    });
  });
});
