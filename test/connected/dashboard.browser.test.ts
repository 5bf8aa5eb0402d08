import { describe, expect, it } from 'vitest';
import { PASSWORD_RULE } from '../../lib/domain/password-policy.js';
import { debitItem, readBalance } from '../../lib/store/credits.js';
import { transact } from '../../lib/store/dynamo.js';
import { PASSWORD, checkScreen, emailedCode, fill, newEmail, openDashboard, signIn } from '../support/dashboard.js';
import { codeFor, signedUpUser } from '../support/dashboard-api.js';
import { dashboardRig } from './dashboard-browser-support.js';

/**
 * The dashboard in Chromium against the whole local platform (cognito-local included): what a new user
 * does on the first day, up to a first API key (./dashboard-pages.browser.test.ts has the pages after). Every screen is checked with axe and a screenshot (saved under
 * $MEETING_SCREENSHOT-dashboard-*.png when that variable is set).
 */

const rig = dashboardRig();

// Generous bounds: each test signs a user up through the pages, and the machine may be busy.
describe.concurrent('the dashboard in Chromium', { timeout: 240_000 }, () => {
  it('serves the app for deep links under a strict CSP, and redirects /dashboard', async () => {
    const deep = await fetch(`${rig.p.baseUrl}/dashboard/agents/agt_123`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toMatch(/^text\/html/);
    expect(deep.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    expect(deep.headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
    expect(await deep.text()).toMatch(/<script type="module" crossorigin src="\/dashboard\/assets\/[\w-]+\.js">/);
    const bare = await fetch(`${rig.p.baseUrl}/dashboard`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/dashboard/']);
    const missing = await fetch(`${rig.p.baseUrl}/dashboard/assets/nothing.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('sign up, confirm, sign in; a reload keeps the session; sign out ends it; a password reset works', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    await page.goto(`${rig.p.baseUrl}/dashboard/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await checkScreen(page, 'sign-in', ['form', 'button[type=submit]']);

    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await checkScreen(page, 'sign-up', ['form', 'button[type=submit]']);
    const email = newEmail('ada');
    await fill(page, 'Email', email);
    await fill(page, 'Password', PASSWORD);
    await fill(page, 'Workspace name', 'Acme Clinic');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await checkScreen(page, 'confirm-code', ['form', 'button[type=submit]']);
    // A wrong code is refused in words, and the form stays.
    await fill(page, 'Confirmation code', '000000');
    await page.getByRole('button', { name: 'Confirm account' }).click();
    await page.getByRole('alert').waitFor();
    await fill(page, 'Confirmation code', await emailedCode(email));
    await page.getByRole('button', { name: 'Confirm account' }).click();
    await page.getByText('Your account is confirmed').waitFor();

    const session = await signIn(page, rig.p.baseUrl, email, PASSWORD);
    expect(session.workspace).toMatchObject({ name: 'Acme Clinic', role: 'owner' });
    await checkScreen(page, 'agents-empty', ['nav[aria-label=Workspace]', '#workspace-switcher', 'main h1']);
    // Nothing of the session is kept where a script could read it later.
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto(`${rig.p.baseUrl}/dashboard/agents`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The old session key no longer works.
    expect((await rig.p.api(session.apiKey, 'GET', '/api/agents')).status).toBe(401);

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await fill(page, 'Email', email);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await checkScreen(page, 'reset-password', ['form', 'button[type=submit]']);
    await fill(page, 'Reset code', await emailedCode(email));
    await fill(page, 'New password', 'Another-secret-42');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed').waitFor();
    await signIn(page, rig.p.baseUrl, email, 'Another-secret-42');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('"Resend code" on the confirm and reset forms sends a new code that works where the old one no longer does', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const email = newEmail('resend');
    await page.goto(`${rig.p.baseUrl}/dashboard/sign-up`);
    await fill(page, 'Email', email);
    await fill(page, 'Password', PASSWORD);
    await fill(page, 'Workspace name', 'Resend team');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    const first = await emailedCode(email);
    const resent = page.waitForResponse((r) => r.url().endsWith('/auth/resend-confirmation-code'));
    await page.getByRole('button', { name: 'Resend code' }).click();
    expect((await resent).status()).toBe(202);
    await page.getByText('a new one is on its way').waitFor();
    await checkScreen(page, 'confirm-code-resent', ['form', 'button[type=submit]', '.resend .notice-success']);
    const second = (await codeFor(email, first))!;
    expect(second).toMatch(/^\d{6}$/);
    // The first code was replaced (unless the new one happens to repeat it).
    if (second !== first) {
      await fill(page, 'Confirmation code', first);
      await page.getByRole('button', { name: 'Confirm account' }).click();
      await page.getByRole('alert').waitFor();
    }
    await fill(page, 'Confirmation code', second);
    await page.getByRole('button', { name: 'Confirm account' }).click();
    await page.getByText('Your account is confirmed').waitFor();

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await fill(page, 'Email', email);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    const reset = (await codeFor(email, second))!;
    const again = page.waitForResponse((r) => r.url().endsWith('/auth/forgot-password'));
    await page.getByRole('button', { name: 'Resend code' }).click();
    expect((await again).status()).toBe(202);
    await page.getByText('a new one is on its way').waitFor();
    await checkScreen(page, 'reset-code-resent', ['form', 'button[type=submit]', '.resend .notice-success']);
    const newest = (await codeFor(email, reset))!;
    await fill(page, 'Reset code', newest);
    await fill(page, 'New password', 'Resent-secret-42');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed').waitFor();
    await signIn(page, rig.p.baseUrl, email, 'Resent-secret-42');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sign-up with an address that has an account shows what a new address gets, and the emailed reset code lets the person in', async () => {
    const email = newEmail('existing');
    await signedUpUser(rig.p.baseUrl, email, PASSWORD, 'Existing team');
    const { context, page, problems } = await openDashboard(rig.browser);
    await page.goto(`${rig.p.baseUrl}/dashboard/sign-up`);
    await fill(page, 'Email', email);
    await fill(page, 'Password', 'Forgotten-pass-7');
    await fill(page, 'Workspace name', 'Second try');
    const answered = page.waitForResponse((r) => r.url().endsWith('/auth/sign-up'));
    await page.getByRole('button', { name: 'Create account' }).click();
    expect((await answered).status()).toBe(201);
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByText('If this address already has an account').waitFor();
    await checkScreen(page, 'sign-up-sent', ['form', 'button[type=submit]', 'main a[href$="/forgot-password"]']);
    // What came instead of a confirmation code: a password reset code. The person follows the page's advice
    // and asks for a reset (a new code, which replaces that one).
    const notice = await emailedCode(email);
    await page.getByRole('link', { name: 'reset your password' }).click();
    await fill(page, 'Email', email);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await fill(page, 'Reset code', (await codeFor(email, notice))!);
    await fill(page, 'New password', 'Remembered-pass-8');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed').waitFor();
    const session = await signIn(page, rig.p.baseUrl, email, 'Remembered-pass-8');
    expect(session.workspace.name).toBe('Existing team');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sign-up says the password rule before submit, and a weak password is refused in words; the same form then takes a strong one', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    await page.goto(`${rig.p.baseUrl}/dashboard/sign-up`);
    const password = page.getByLabel('Password', { exact: true });
    await password.waitFor();
    expect(await page.locator(`#${await password.getAttribute('aria-describedby')}`).textContent()).toBe(PASSWORD_RULE);
    const email = newEmail('weak');
    await fill(page, 'Email', email);
    await fill(page, 'Password', 'password');
    await fill(page, 'Workspace name', 'Weak team');
    const answered = page.waitForResponse((r) => r.url().endsWith('/auth/sign-up'));
    await page.getByRole('button', { name: 'Create account' }).click();
    expect((await answered).status()).toBe(400);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/too weak: use at least 8 characters with upper and lower case letters, a digit and a symbol/);
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Too weak for the rule above.').waitFor();
    await checkScreen(page, 'sign-up-weak', ['form .field-invalid', '.notice-error']);
    // The same form then takes a strong one.
    await fill(page, 'Password', PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Credits: an empty balance shows the CLI line that adds credits, locally and on AWS, for this workspace', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'broke');
    const ws = user.session.workspace.id;
    await transact(rig.p.deps.db, [debitItem(rig.p.deps.db, ws, await readBalance(rig.p.deps.db, ws))]);
    await page.getByRole('link', { name: 'Credits' }).click();
    await page.getByRole('heading', { name: 'How to add credits' }).waitFor();
    expect(await page.getByTestId('credit-balance').textContent()).toBe('0');
    expect(await page.getByTestId('add-credits-local').textContent()).toBe(`npm run cli -- credits add --workspace ${ws} --amount 100`);
    expect(await page.getByTestId('add-credits-aws').textContent()).toBe(
      `TABLE_NAME=<the stack's TableName output> npm run cli -- credits add --workspace ${ws} --amount 100 --aws`,
    );
    await checkScreen(page, 'credits-empty', ['#add-credits-heading', '[data-testid=add-credits-local]', '[data-testid=add-credits-aws]']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Settings → API keys: create a key, see it once, use it, revoke it and see it refused', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    await rig.newUser(page, 'keys');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByText('No API keys yet').waitFor();
    await checkScreen(page, 'keys-empty', ['main h1', 'main .btn-primary']);

    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.waitFor();
    await checkScreen(page, 'keys-create', ['dialog input[type=radio][value=full]', 'dialog button[type=submit]']);
    await fill(page, 'Name', 'CRM sync');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.getByText('You will not see it again').waitFor();
    const value = (await shown.getByTestId('new-key-value').textContent())!;
    expect(value).toMatch(/^vak_/);
    await checkScreen(page, 'keys-value', ['[data-testid=new-key-value]', 'dialog .secret-row .btn']);
    await shown.getByRole('button', { name: 'Done' }).click();

    // Once closed, the value is nowhere on the page: the list shows only its prefix.
    const row = page.getByRole('row', { name: /CRM sync/ });
    await row.waitFor();
    expect(await page.content()).not.toContain(value);
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(0, 5)).toEqual(['CRM sync', 'Full access', expect.stringMatching(/…$/), expect.any(String), 'Never']);
    expect(value.startsWith(cells[2]!.replace('…', ''))).toBe(true);
    await checkScreen(page, 'keys-list', ['table', 'td.actions button']);

    // curl-like: the key works against the API.
    const ok = await fetch(`${rig.p.baseUrl}/api/agents`, { headers: { 'x-api-key': value } });
    expect(ok.status).toBe(200);

    await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this key?' });
    await confirm.waitFor();
    await checkScreen(page, 'keys-revoke', ['dialog .btn-danger']);
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No API keys yet').waitFor();
    const refused = await fetch(`${rig.p.baseUrl}/api/agents`, { headers: { 'x-api-key': value } });
    expect(refused.status).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  });
});
