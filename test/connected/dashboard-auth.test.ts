/**
 * Invariant: a dashboard user signs up, confirms, signs in and gets a short-lived session key that works as
 * `x-api-key` on the public API; only an owner's session manages keys (a key's value is shown once, a revoked
 * key is refused at once) and members; invitations, workspace switches, refresh through the HttpOnly cookie
 * (refused without the CSRF header), sign-out (which revokes) and password reset all work against
 * cognito-local; refusals change nothing, and no secret reaches the logs.
 */
import { createHash } from 'node:crypto';
import { CognitoIdentityProviderClient, InitiateAuthCommand, UpdateUserAttributesCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryPrefix } from '../../lib/store/dynamo.js';
import { key } from '../../lib/store/model.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { runCli } from '../../lib/local/cli/cli.js';
import { codeFor, DashboardBrowser, signedUpUser, type DashboardSession } from '../support/dashboard-api.js';

let t: TestPlatform;
const logs: string[] = [];
const realWrite = process.stdout.write.bind(process.stdout);

beforeAll(async () => {
  // Persisted: the admin CLI finds a platform (and its cognito-local) through DATA_DIR's endpoints file.
  t = await startTestPlatform({ persist: true });
  // Every log line the platform writes during these tests, to check no secret is among them.
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logs.push(String(chunk));
    return (realWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
});

afterAll(async () => {
  process.stdout.write = realWrite;
  await t?.stop();
});

const PASSWORD = 'Correct-horse-9';
let n = 0;
const newEmail = () => `user${Date.now()}${n++}@example.com`;

const newUser = (workspaceName = 'Acme') => signedUpUser(t.baseUrl, newEmail(), PASSWORD, workspaceName);
type Session = DashboardSession;
const Browser = class extends DashboardBrowser {
  constructor() {
    super(t.baseUrl);
  }
};

describe('sign-up, sign-in and the session key', () => {
  it('signs up with a new workspace and answers a session key that works on the public API', async () => {
    const { email, browser, session } = await newUser('Acme Support');
    expect(session.apiKey).toMatch(/^vas_/);
    expect(session.user.email).toBe(email);
    expect(session.workspace).toMatchObject({ name: 'Acme Support', role: 'owner' });
    expect(session.workspaces).toEqual([session.workspace]);
    const ttl = Date.parse(session.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(10 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    const cookie = browser.setCookies[0]!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/auth/);

    const agents = await t.api(session.apiKey, 'GET', '/api/agents');
    expect(agents.status).toBe(200);
    expect(agents.body.total).toBe(0);
    const credits = await t.api(session.apiKey, 'GET', '/api/credits');
    expect(credits.status).toBe(200);
    expect(credits.body.balance).toBe(100);
    expect(credits.body.usage).toHaveLength(30);
  });

  it('refuses a wrong password, an unconfirmed account and a wrong code, changing nothing', async () => {
    const { email } = await newUser();
    const b = new Browser();
    expect((await b.auth('sign-in', { email, password: 'Wrong-pass-1' })).body.error.code).toBe('invalid_credentials');
    expect(b.cookie).toBeUndefined();
    const other = newEmail();
    await b.auth('sign-up', { email: other, password: PASSWORD, workspaceName: 'Later' });
    const refused = await b.auth('sign-in', { email: other, password: PASSWORD });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'user_not_confirmed' } } });
    const wrongCode = await b.auth('confirm-sign-up', { email: other, code: '000000' === (await codeFor(other)) ? '111111' : '000000' });
    expect(wrongCode).toMatchObject({ status: 400, body: { error: { code: 'invalid_code' } } });
    expect((await b.auth('sign-up', { email: 'not-an-email', password: PASSWORD, workspaceName: 'x' })).status).toBe(400);
  });
});

describe('sign-up of an address that has an account', () => {
  it('answers exactly as for a new address, and emails the account a reset code instead; nothing of the account changes', async () => {
    const { email } = await newUser('First Co');
    const fresh = await new Browser().auth('sign-up', { email: newEmail(), password: PASSWORD, workspaceName: 'New' });
    const again = await new Browser().auth('sign-up', { email, password: 'Other-pass-3', workspaceName: 'Again' });
    expect(again).toEqual(fresh);
    expect(again).toEqual({ status: 201, body: { confirmationRequired: true } });
    // The notice: a password reset code, which works.
    const code = await codeFor(email);
    expect(code).toMatch(/^\d{6}$/);
    // The account kept its password and its workspace; no sign-up was recorded for the address.
    const b = new Browser();
    const signIn = await b.auth('sign-in', { email, password: PASSWORD });
    expect(signIn.body.workspaces.map((w: { name: string }) => w.name)).toEqual(['First Co']);
    expect((await b.auth('sign-in', { email, password: 'Other-pass-3' })).status).toBe(401);
    expect((await t.deps.db.doc.send(new GetCommand({ TableName: t.table, Key: key.pendingSignUp(email) }))).Item).toBeUndefined();
    expect((await b.auth('reset-password', { email, code, password: 'New-password-2' })).status).toBe(204);
    expect((await b.auth('sign-in', { email, password: 'New-password-2' })).status).toBe(200);
  });

  it('sends an unconfirmed account a new confirmation code, which confirms it as first signed up', async () => {
    const email = newEmail();
    const b = new Browser();
    expect((await b.auth('sign-up', { email, password: PASSWORD, workspaceName: 'First try' })).status).toBe(201);
    const first = await codeFor(email);
    expect(await b.auth('sign-up', { email, password: 'Other-pass-3', workspaceName: 'Second try' })).toEqual({ status: 201, body: { confirmationRequired: true } });
    const second = await codeFor(email, first);
    expect(second).toMatch(/^\d{6}$/);
    // The first code is replaced (unless the new one happens to repeat it).
    if (second !== first) expect((await b.auth('confirm-sign-up', { email, code: first! })).status).toBe(400);
    expect((await b.auth('confirm-sign-up', { email, code: second! })).status).toBe(204);
    const signIn = await b.auth('sign-in', { email, password: PASSWORD });
    expect(signIn.body.workspace.name).toBe('First try');
  });
});

describe('resend confirmation code', () => {
  it('sends an unconfirmed account a new code that replaces the last; an unknown or confirmed address gets the same answer and nothing', async () => {
    const email = newEmail();
    const b = new Browser();
    expect((await b.auth('sign-up', { email, password: PASSWORD, workspaceName: 'Resent Co' })).status).toBe(201);
    const first = await codeFor(email);
    const answer = await b.auth('resend-confirmation-code', { email });
    expect(answer).toEqual({ status: 202, body: { message: 'If this address is waiting for confirmation, a new code is on its way.' } });
    const second = await codeFor(email, first);
    expect(second).toMatch(/^\d{6}$/);
    if (second !== first) expect((await b.auth('confirm-sign-up', { email, code: first! })).status).toBe(400);
    expect((await b.auth('confirm-sign-up', { email, code: second! })).status).toBe(204);
    expect((await b.auth('sign-in', { email, password: PASSWORD })).body.workspace.name).toBe('Resent Co');
    // Confirmed now, and an address nobody has: the same answer, and no code is sent.
    for (const other of [email, newEmail()]) expect(await b.auth('resend-confirmation-code', { email: other })).toEqual(answer);
    // (Confirming used the code up; none was sent since.)
    expect(await codeFor(email)).toBeUndefined();
    const bad = await b.auth('resend-confirmation-code', { email: 'not an email' });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'validation_failed']);
  });
});

describe('the CSRF rule of every /auth route', () => {
  it('refuses a request without the dashboard header, from another origin or with a body that is not JSON, changing nothing', async () => {
    const owner = await newUser('Owner Co');
    const member = await newUser('Member Home');
    const invited = await t.api(owner.session.apiKey, 'POST', '/api/invitations', { email: member.email, role: 'member' });
    const token = new URLSearchParams(new URL(invited.body.invitation.link).hash.slice(1)).get('token')!;
    const unconfirmed = newEmail();
    await new Browser().auth('sign-up', { email: unconfirmed, password: PASSWORD, workspaceName: 'Later' });
    const code = (await codeFor(unconfirmed))!;
    const fresh = newEmail();
    const bodies: Record<string, unknown> = {
      'sign-up': { email: fresh, password: PASSWORD, workspaceName: 'Fresh' },
      'confirm-sign-up': { email: unconfirmed, code },
      'sign-in': { email: member.email, password: PASSWORD },
      refresh: { workspaceId: owner.session.workspace.id },
      'sign-out': {},
      'forgot-password': { email: member.email },
      'resend-confirmation-code': { email: unconfirmed },
      'reset-password': { email: member.email, code: '123456', password: 'New-password-2' },
      'accept-invitation': { token },
    };
    const otherPort = `http://127.0.0.1:${Number(new URL(t.baseUrl).port) + 1}`;
    const refusals: [string, Record<string, string>, number][] = [
      ['no header', { 'content-type': 'application/json' }, 403],
      ['another site', { 'content-type': 'application/json', 'x-requested-with': 'dashboard', origin: 'https://evil.example' }, 403],
      ['another port of this host', { 'content-type': 'application/json', 'x-requested-with': 'dashboard', origin: otherPort }, 403],
      ['a text/plain form', { 'content-type': 'text/plain', 'x-requested-with': 'dashboard' }, 415],
      ['an urlencoded form', { 'content-type': 'application/x-www-form-urlencoded', 'x-requested-with': 'dashboard' }, 415],
      ['no content type', { 'x-requested-with': 'dashboard' }, 415],
    ];
    for (const [path, body] of Object.entries(bodies)) {
      for (const [what, headers, status] of refusals) {
        const res = await fetch(`${t.baseUrl}/auth/${path}`, { method: 'POST', headers: { ...headers, cookie: member.browser.cookie! }, body: JSON.stringify(body) });
        const answer = await res.json();
        expect(res.status, `${path}, ${what}`).toBe(status);
        expect(answer.error, `${path}, ${what}`).toMatchObject({ code: status === 403 ? 'csrf_refused' : 'unsupported_media_type', message: expect.any(String) });
        expect(res.headers.get('set-cookie'), `${path}, ${what}`).toBeNull();
      }
    }
    // Nothing was done: no sign-up was recorded, the session key and the cookie still work, the invitation
    // and the confirmation code are still unused.
    expect((await t.deps.db.doc.send(new GetCommand({ TableName: t.table, Key: key.pendingSignUp(fresh) }))).Item).toBeUndefined();
    expect((await t.api(member.session.apiKey, 'GET', '/api/agents')).status).toBe(200);
    expect((await member.browser.auth('refresh')).body.workspace.id).toBe(member.session.workspace.id);
    expect((await member.browser.auth('accept-invitation', { token })).body.workspace.id).toBe(owner.session.workspace.id);
    expect((await new Browser().auth('confirm-sign-up', { email: unconfirmed, code })).status).toBe(204);
    // The dashboard's own requests pass: a JSON body with a charset, and no body without a content type.
    const charset = await fetch(`${t.baseUrl}/auth/forgot-password`, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8', 'x-requested-with': 'dashboard', origin: t.baseUrl }, body: JSON.stringify({ email: fresh }) });
    expect(charset.status).toBe(202);
    expect((await member.browser.auth('refresh', undefined)).status).toBe(200);
  });
});

describe('Settings → API keys', () => {
  it('creates a key whose value is shown once, lists it with its use, and refuses it once revoked', async () => {
    const { session } = await newUser();
    const created = await t.api(session.apiKey, 'POST', '/api/keys', { name: 'Production server' });
    expect(created.status).toBe(201);
    const value: string = created.body.value;
    expect(value).toMatch(/^vak_/);
    expect(created.body.key).toMatchObject({ name: 'Production server', scope: 'full', lastUsedAt: null });
    expect(value.startsWith(created.body.key.prefix)).toBe(true);

    expect((await t.api(value, 'GET', '/api/agents')).status).toBe(200);
    const list = await t.api(session.apiKey, 'GET', '/api/keys');
    expect(list.status).toBe(200);
    const listed = list.body.data.find((k: { id: string }) => k.id === created.body.key.id);
    expect(listed.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(value);

    const widget = await t.api(session.apiKey, 'POST', '/api/keys', { name: 'Site widget', scope: 'widget', agentIds: ['agt_01JWRF9YVRV07ZX0MV7YH6S11D'], origins: ['https://shop.example'] });
    expect(widget.status).toBe(201);
    expect(widget.body.key).toMatchObject({ scope: 'widget', origins: ['https://shop.example'] });
    expect((await t.api(session.apiKey, 'POST', '/api/keys', { name: 'x', scope: 'widget' })).status).toBe(400);

    expect((await t.api(session.apiKey, 'DELETE', `/api/keys/${created.body.key.id}`)).status).toBe(204);
    const refused = await t.api(value, 'GET', '/api/agents');
    expect(refused.status).toBe(401);
    const after = await t.api(session.apiKey, 'GET', '/api/keys');
    expect(after.body.data.map((k: { id: string }) => k.id)).not.toContain(created.body.key.id);
  });

  it('refuses key and member management to a plain API key, and key management to a member', async () => {
    const own = await t.workspace();
    for (const [method, path, body] of [['GET', '/api/keys'], ['POST', '/api/keys', { name: 'k' }], ['GET', '/api/members'], ['POST', '/api/invitations', { email: 'a@example.com' }], ['POST', '/api/workspaces', { name: 'w' }]] as const) {
      const res = await t.api(own.apiKey, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('user_session_required');
    }
    expect((await t.api(own.apiKey, 'GET', '/api/credits')).status).toBe(200);
  });
});

describe('members, invitations and workspaces', () => {
  it('invites a member who accepts, switches workspace, and cannot manage keys there', async () => {
    const owner = await newUser('Owner Co');
    const member = await newUser('Member Home');
    const invited = await t.api(owner.session.apiKey, 'POST', '/api/invitations', { email: member.email, role: 'member' });
    expect(invited.status).toBe(201);
    const link = new URL(invited.body.invitation.link);
    expect(link.pathname).toBe('/dashboard/accept-invitation');
    const token = new URLSearchParams(link.hash.slice(1)).get('token')!;

    // Someone else's invitation is refused, and the token stays usable.
    const stranger = await newUser();
    expect((await stranger.browser.auth('accept-invitation', { token })).body.error.code).toBe('invitation_for_another');
    // Without the CSRF header the cookie is not honoured.
    expect((await member.browser.auth('accept-invitation', { token }, {})).body.error.code).toBe('csrf_refused');

    const accepted = await member.browser.auth('accept-invitation', { token });
    expect(accepted.status).toBe(200);
    const session: Session = accepted.body;
    expect(session.workspace).toMatchObject({ id: owner.session.workspace.id, role: 'member' });
    expect(session.workspaces.map((w) => w.name).sort()).toEqual(['Member Home', 'Owner Co']);
    expect((await member.browser.auth('accept-invitation', { token })).body.error.code).toBe('invitation_invalid');

    const members = await t.api(session.apiKey, 'GET', '/api/members');
    expect(members.body.data.map((m: { email: string; role: string }) => `${m.email}:${m.role}`).sort()).toEqual(
      [`${member.email}:member`, `${owner.email}:owner`].sort(),
    );
    const keys = await t.api(session.apiKey, 'POST', '/api/keys', { name: 'nope' });
    expect(keys).toMatchObject({ status: 403, body: { error: { code: 'owner_required' } } });
    expect((await t.api(owner.session.apiKey, 'GET', '/api/keys')).body.data.map((k: { name: string }) => k.name)).not.toContain('nope');
    // The member's session key works on the invited workspace's public API.
    expect((await t.api(session.apiKey, 'GET', '/api/agents')).status).toBe(200);

    // Switching back to their own workspace, where they are owner.
    const home = member.session.workspace.id;
    const switched = await member.browser.auth('refresh', { workspaceId: home });
    expect(switched.body.workspace).toMatchObject({ id: home, role: 'owner' });
    // A plain refresh opens the workspace used last.
    expect((await member.browser.auth('refresh')).body.workspace.id).toBe(home);
    const foreign = await member.browser.auth('refresh', { workspaceId: stranger.session.workspace.id });
    expect(foreign).toMatchObject({ status: 403, body: { error: { code: 'not_a_member' } } });
  });

  it('refuses an invitation to a user whose email is the invited one but unverified, and keeps it for the address', async () => {
    const owner = await newUser('Owner Co');
    const invitedEmail = newEmail();
    const invited = await t.api(owner.session.apiKey, 'POST', '/api/invitations', { email: invitedEmail, role: 'owner' });
    const token = new URLSearchParams(new URL(invited.body.invitation.link).hash.slice(1)).get('token')!;
    // Mallory points her own email at the invited address through Cognito's API (UpdateUserAttributes with
    // her access token), as any signed-in Cognito user may; Cognito keeps the new address unverified.
    const mallory = await newUser('Mallory Home');
    const cognito = inject('stores').cognito;
    const client = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    try {
      const signedIn = await client.send(new InitiateAuthCommand({ ClientId: cognito.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: mallory.email, PASSWORD } }));
      await client.send(new UpdateUserAttributesCommand({ AccessToken: signedIn.AuthenticationResult!.AccessToken!, UserAttributes: [{ Name: 'email', Value: invitedEmail }] }));
    } finally {
      client.destroy();
    }
    // Her next ID token names the invited address.
    expect((await mallory.browser.auth('refresh')).body.user.email).toBe(invitedEmail);
    const refused = await mallory.browser.auth('accept-invitation', { token });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'email_not_verified', message: expect.any(String) } } });
    // Nothing changed: the workspace has its one owner, and the invitation is still there, unused.
    expect((await t.api(owner.session.apiKey, 'GET', '/api/members')).body.data.map((m: { email: string }) => m.email)).toEqual([owner.email]);
    const stored = await t.deps.db.doc.send(new GetCommand({ TableName: t.table, Key: key.invitation(createHash('sha256').update(token).digest('hex')) }));
    expect(stored.Item?.email).toBe(invitedEmail);
  });

  it('creates another workspace owned by the user', async () => {
    const { browser, session } = await newUser();
    const created = await t.api(session.apiKey, 'POST', '/api/workspaces', { name: 'Second' });
    expect(created.status).toBe(201);
    expect(created.body.workspace).toMatchObject({ name: 'Second', role: 'owner' });
    const switched = await browser.auth('refresh', { workspaceId: created.body.workspace.id });
    expect(switched.body.workspaces).toHaveLength(2);
    expect((await t.api(switched.body.apiKey, 'GET', '/api/credits')).body.balance).toBe(0);
  });
});

describe('refresh, sign-out and password reset', () => {
  it('refreshes with the cookie only with the CSRF header and a same-site origin', async () => {
    const { browser, session } = await newUser();
    expect((await browser.auth('refresh', undefined, {})).body.error.code).toBe('csrf_refused');
    expect((await browser.auth('refresh', undefined, { 'x-requested-with': 'dashboard', origin: 'https://evil.example' })).body.error.code).toBe('csrf_refused');
    const fresh = await browser.auth('refresh', undefined, { 'x-requested-with': 'dashboard', origin: t.baseUrl });
    expect(fresh.status).toBe(200);
    expect(fresh.body.apiKey).not.toBe(session.apiKey);
    expect((await new Browser().auth('refresh')).body.error.code).toBe('session_required');
  });

  it('keeps at most 10 live session keys per user: each new one revokes the oldest, in a burst too', async () => {
    const { browser, session } = await newUser();
    const keys = [session.apiKey];
    for (let i = 0; i < 14; i += 1) keys.push((await browser.auth('refresh')).body.apiKey);
    const works = async (key: string) => (await t.api(key, 'GET', '/api/agents')).status === 200;
    expect(await Promise.all(keys.map(works))).toEqual([...Array(5).fill(false), ...Array(10).fill(true)]);
    const burst = await Promise.all(Array.from({ length: 30 }, () => browser.auth('refresh')));
    expect(burst.map((r) => r.status)).toEqual(Array(30).fill(200));
    const live = (await Promise.all([...keys, ...burst.map((r) => r.body.apiKey as string)].map(works))).filter(Boolean);
    expect(live.length).toBeGreaterThan(0);
    expect(live.length).toBeLessThanOrEqual(10);
    let refs = 0;
    for await (const _ of queryPrefix(t.deps.db, `USER#${session.user.id}`, 'SESSION#')) refs += 1;
    expect(refs).toBeLessThanOrEqual(10);
  });

  it('signs out: the session keys are refused, the cookie cleared and the refresh token revoked', async () => {
    const { browser, session } = await newUser();
    const second = await browser.auth('refresh');
    const cookie = browser.cookie;
    expect((await browser.auth('sign-out', undefined, {})).status).toBe(403);
    expect((await t.api(session.apiKey, 'GET', '/api/agents')).status).toBe(200);
    expect((await browser.auth('sign-out')).status).toBe(204);
    expect(browser.setCookies.at(-1)).toMatch(/Max-Age=0/);
    for (const key of [session.apiKey, second.body.apiKey]) expect((await t.api(key, 'GET', '/api/agents')).status).toBe(401);
    const replay = new Browser();
    replay.cookie = cookie;
    expect((await replay.auth('refresh')).status).toBe(401);
  });

  it('resets a forgotten password with the emailed code', async () => {
    const { email } = await newUser();
    const b = new Browser();
    expect((await b.auth('forgot-password', { email })).status).toBe(202);
    expect((await b.auth('forgot-password', { email: newEmail() })).status).toBe(202);
    const code = await codeFor(email);
    expect((await b.auth('reset-password', { email, code: '000000' === code ? '111111' : '000000', password: 'New-password-2' })).status).toBe(400);
    expect((await b.auth('reset-password', { email, code, password: 'New-password-2' })).status).toBe(204);
    expect((await b.auth('sign-in', { email, password: PASSWORD })).status).toBe(401);
    expect((await b.auth('sign-in', { email, password: 'New-password-2' })).status).toBe(200);
  });

  it('never logs a password, a session key or a refresh token', async () => {
    const { browser, session } = await newUser();
    await browser.auth('refresh');
    const text = logs.join('');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(session.apiKey);
    expect(text).not.toContain(browser.cookie!.split('=')[1]!);
  });
});

describe('the admin CLI', () => {
  it('creates a user in an existing workspace, with the password from USER_PASSWORD or one it prints once', async () => {
    const ws = await t.workspace();
    const env = { DATA_DIR: t.dataDir, TABLE_NAME: t.table };
    const given = newEmail();
    const out = await runCli(['user', 'create'], { email: given, workspace: ws.workspaceId, role: 'member' }, { ...env, USER_PASSWORD: 'Cli-password-7' }, { stderr: { write: () => true } });
    expect(out).toMatchObject({ email: given, workspaceId: ws.workspaceId, role: 'member' });
    expect(out.password).toBeUndefined();
    const signIn = await new Browser().auth('sign-in', { email: given, password: 'Cli-password-7' });
    expect(signIn.body.workspace).toMatchObject({ id: ws.workspaceId, role: 'member' });

    const made = newEmail();
    const second = await runCli(['user', 'create'], { email: made, workspace: ws.workspaceId }, env, { stderr: { write: () => true } });
    expect(second.role).toBe('owner');
    const owner = await new Browser().auth('sign-in', { email: made, password: second.password });
    expect(owner.status).toBe(200);
    expect((await t.api(owner.body.apiKey, 'GET', '/api/keys')).status).toBe(200);
    // The same email again is refused, and the workspace keeps its two members.
    await expect(runCli(['user', 'create'], { email: made, workspace: ws.workspaceId }, env, { stderr: { write: () => true } })).rejects.toMatchObject({ code: 'email_taken' });
    expect((await t.api(owner.body.apiKey, 'GET', '/api/members')).body.data).toHaveLength(2);
  });
});
