import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { debitItem, readBalance } from '../../lib/store/credits.js';
import { transact } from '../../lib/store/dynamo.js';
import { addCredits } from '../../lib/store/workspaces.js';
import { launchChromium } from '../support/browser.js';
import { placeOutboundCall, startCallsPlatform, type CallsPlatform } from '../support/calls.js';
import { csv } from '../support/contact-files.js';
import { PASSWORD, checkScreen, emailedCode, fill, newEmail, openDashboard, signIn, type DashboardUser } from '../support/dashboard.js';
import { codeFor, signedUpUser } from '../support/dashboard-api.js';

/**
 * The dashboard in Chromium against the whole local platform (cognito-local included): what a new user
 * does on the first day. Every screen is checked with axe and a screenshot (saved under
 * $MEETING_SCREENSHOT-dashboard-*.png when that variable is set).
 */

let p: CallsPlatform;
let browser: Browser;

beforeAll(async () => {
  p = await startCallsPlatform();
  // Recordings play without a click in the test (a person presses Play).
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await p?.stop();
});

/** A user who signed up through the pages and is signed in on `page`. */
async function newUser(page: Page, tag: string): Promise<DashboardUser> {
  const email = newEmail(tag);
  await page.goto(`${p.baseUrl}/dashboard/sign-up`);
  await fill(page, 'Email', email);
  await fill(page, 'Password', PASSWORD);
  await fill(page, 'Workspace name', `${tag} team`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  await fill(page, 'Confirmation code', await emailedCode(email));
  await page.getByRole('button', { name: 'Confirm account' }).click();
  await page.getByText('Your account is confirmed').waitFor();
  const session = await signIn(page, p.baseUrl, email, PASSWORD);
  return { email, password: PASSWORD, session };
}

// Generous bounds: each test signs a user up through the pages, and the machine may be busy.
describe.concurrent('the dashboard in Chromium', { timeout: 240_000 }, () => {
  it('serves the app for deep links under a strict CSP, and redirects /dashboard', async () => {
    const deep = await fetch(`${p.baseUrl}/dashboard/agents/agt_123`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toMatch(/^text\/html/);
    expect(deep.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    expect(deep.headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
    expect(await deep.text()).toMatch(/<script type="module" crossorigin src="\/dashboard\/assets\/[\w-]+\.js">/);
    const bare = await fetch(`${p.baseUrl}/dashboard`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/dashboard/']);
    const missing = await fetch(`${p.baseUrl}/dashboard/assets/nothing.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('sign up, confirm, sign in; a reload keeps the session; sign out ends it; a password reset works', async () => {
    const { context, page, problems } = await openDashboard(browser);
    await page.goto(`${p.baseUrl}/dashboard/`);
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

    const session = await signIn(page, p.baseUrl, email, PASSWORD);
    expect(session.workspace).toMatchObject({ name: 'Acme Clinic', role: 'owner' });
    await checkScreen(page, 'agents-empty', ['nav[aria-label=Workspace]', '#workspace-switcher', 'main h1']);
    // Nothing of the session is kept where a script could read it later.
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto(`${p.baseUrl}/dashboard/agents`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The old session key no longer works.
    expect((await p.api(session.apiKey, 'GET', '/api/agents')).status).toBe(401);

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await fill(page, 'Email', email);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await checkScreen(page, 'reset-password', ['form', 'button[type=submit]']);
    await fill(page, 'Reset code', await emailedCode(email));
    await fill(page, 'New password', 'Another-secret-42');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed').waitFor();
    await signIn(page, p.baseUrl, email, 'Another-secret-42');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sign-up with an address that has an account shows what a new address gets, and the emailed reset code lets the person in', async () => {
    const email = newEmail('existing');
    await signedUpUser(p.baseUrl, email, PASSWORD, 'Existing team');
    const { context, page, problems } = await openDashboard(browser);
    await page.goto(`${p.baseUrl}/dashboard/sign-up`);
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
    const session = await signIn(page, p.baseUrl, email, 'Remembered-pass-8');
    expect(session.workspace.name).toBe('Existing team');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Settings → API keys: create a key, see it once, use it, revoke it and see it refused', async () => {
    const { context, page, problems } = await openDashboard(browser);
    await newUser(page, 'keys');
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
    const ok = await fetch(`${p.baseUrl}/api/agents`, { headers: { 'x-api-key': value } });
    expect(ok.status).toBe(200);

    await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this key?' });
    await confirm.waitFor();
    await checkScreen(page, 'keys-revoke', ['dialog .btn-danger']);
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No API keys yet').waitFor();
    const refused = await fetch(`${p.baseUrl}/api/agents`, { headers: { 'x-api-key': value } });
    expect(refused.status).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Agents: create one with a model, a voice and a prompt whose variables are checked; a test call explains a 402', async () => {
    const { context, page, problems } = await openDashboard(browser);
    const user = await newUser(page, 'agents');
    await page.getByRole('link', { name: 'New agent' }).first().click();
    await page.getByRole('heading', { name: 'New agent' }).waitFor();
    await fill(page, 'Name', 'Clinic receptionist');
    await page.getByLabel('Language model provider').selectOption('anthropic');
    expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('claude-haiku-4-5');
    await page.getByLabel('Helena').check();
    await fill(page, 'System prompt', 'You help {{contactName}} book visits. Their plan is {{plan}}.');
    // contactName is a field every contact has; no contact has "plan" yet.
    await page.getByText('No contact has the field “plan”').waitFor();
    await checkScreen(page, 'agent-new', ['main h1', '.voice.selected', '#vars-heading']);
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/\/dashboard\/agents\/agt_/);
    const agentId = page.url().split('/').pop()!;
    const stored = await p.api(user.session.apiKey, 'GET', `/api/agents/${agentId}`);
    expect(stored.body).toMatchObject({ name: 'Clinic receptionist', llm_provider: 'anthropic', llm_model: 'claude-haiku-4-5', tts_provider: 'deepgram', tts_voice_id: 'aura-2-helena-en' });

    // A workspace without credits: the test call is refused and the page says why.
    const balance = await readBalance(p.deps.db, user.session.workspace.id);
    await transact(p.deps.db, [debitItem(p.deps.db, user.session.workspace.id, balance)]);
    await page.getByRole('button', { name: 'Start a test call' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/reserves credits/);
    await checkScreen(page, 'agent-402', ['.notice-error']);
    await addCredits(p.deps.db, user.session.workspace.id, 50);
    await page.getByRole('button', { name: 'Start a test call' }).click();
    const open = page.getByRole('link', { name: 'Open the call (new tab)' });
    await open.waitFor();
    expect(await open.getAttribute('href')).toMatch(new RegExp(`^${p.baseUrl}/meeting/call_\\w+\\?token=`));
    expect(await open.getAttribute('target')).toBe('_blank');
    await checkScreen(page, 'agent-edit', ['main h1', '#talk-heading', '.card a.btn-primary']);

    // The list shows it; an edit saves only what changed.
    await fill(page, 'Name', 'Front desk');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await p.api(user.session.apiKey, 'GET', `/api/agents/${agentId}`)).body.name).toBe('Front desk');
    await page.getByRole('link', { name: 'Agents', exact: true }).click();
    await page.getByRole('row', { name: /Front desk/ }).waitFor();
    // Each cell says what the list carries: the model and the speech vendor (the list has no voice id).
    expect((await page.getByRole('row', { name: /Front desk/ }).getByRole('cell').allInnerTexts()).slice(1, 3)).toEqual([
      'Anthropic · claude-haiku-4-5',
      'Deepgram Aura',
    ]);
    await checkScreen(page, 'agents-list', ['table']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("Agents: the agent's tools are every workspace tool by default, or the ones ticked", async () => {
    const { context, page, problems } = await openDashboard(browser);
    const user = await newUser(page, 'agent-tools');
    const key = user.session.apiKey;
    const tool = async (name: string) =>
      (await p.api(key, 'POST', '/api/tools', { name, type: 'transfer', description: `Hands the caller to ${name.toLowerCase()}`, config: { url: 'tel:+14155550142' } })).body._id as string;
    const sales = await tool('Sales desk');
    await tool('Support desk');
    const agent = await p.api(key, 'POST', '/api/agents', { name: 'Sales line', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram' });
    const agentId = agent.body._id as string;
    await page.goto(`${p.baseUrl}/dashboard/agents/${agentId}`);
    await page.getByRole('heading', { name: 'Sales line' }).waitFor();
    const everyTool = page.getByLabel('All workspace tools, including tools added later');
    expect(await everyTool.isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /Sales desk/ }).count()).toBe(0);

    await page.getByLabel('Only the tools chosen below').check();
    await page.getByRole('checkbox', { name: /Sales desk/ }).check();
    expect(await page.getByRole('checkbox', { name: /Support desk/ }).isChecked()).toBe(false);
    await checkScreen(page, 'agent-tools', ['.tools-picker', '.tool-choices']);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await p.api(key, 'GET', `/api/agents/${agentId}`)).body.tool_ids).toEqual([sales]);

    // The choice is what the page shows next time; going back to every tool stores null.
    await page.reload();
    await page.getByRole('heading', { name: 'Sales line' }).waitFor();
    expect(await page.getByRole('checkbox', { name: /Sales desk/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /Support desk/ }).isChecked()).toBe(false);
    await everyTool.check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await p.api(key, 'GET', `/api/agents/${agentId}`)).body.tool_ids).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Contacts: a CSV upload shows progress and the rows it refused; search finds the others', async () => {
    const { context, page, problems } = await openDashboard(browser);
    await newUser(page, 'contacts');
    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.getByText('No contacts yet').waitFor();
    await page.getByRole('button', { name: 'Upload contacts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload contacts' });
    await checkScreen(page, 'contacts-upload', ['#contact-file', 'dialog button[type=submit]']);
    await page.setInputFiles('#contact-file', {
      name: 'patients.csv',
      mimeType: 'text/csv',
      buffer: csv(['contactName,phoneNumber,plan', 'Ada Lovelace,+14155550101,gold', 'Alan Turing,(415) 555-0102,silver', 'Nobody,not a number,bronze']),
    });
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.getByText('2 imported, 0 skipped.').waitFor();
    const report = dialog.getByRole('region', { name: 'Rows not imported' });
    const errorRow = await report.getByRole('row').nth(1).getByRole('cell').allTextContents();
    expect(errorRow.slice(0, 3)).toEqual(['4', 'phoneNumber', 'not a number']);
    await checkScreen(page, 'contacts-report', ['.import-report']);
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('row', { name: /Alan Turing/ }).waitFor();
    await fill(page, 'Search', 'Ada');
    await page.getByRole('row', { name: /Alan Turing/ }).waitFor({ state: 'detached' });
    expect(await page.getByRole('row', { name: /Ada Lovelace/ }).getByRole('cell').allTextContents()).toEqual(['Ada Lovelace', '+14155550101', 'US']);
    await checkScreen(page, 'contacts-list', ['table', 'input[type=search]']);

    // The prompt editor now knows the uploaded "plan" column.
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('link', { name: 'New agent' }).first().click();
    await fill(page, 'System prompt', 'Their plan is {{plan}}.');
    await page.locator('code.var-known', { hasText: '{{plan}}' }).first().waitFor();
    expect(await page.locator('.var-warning').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('History: a call’s transcript, summary, cost, latency waterfall, and its recording plays', async () => {
    const { context, page, problems } = await openDashboard(browser);
    const user = await newUser(page, 'history');
    await addCredits(p.deps.db, user.session.workspace.id, 100);
    // A phone call in the user's workspace, placed with their session key as any API client would.
    const setup = { workspaceId: user.session.workspace.id, apiKey: user.session.apiKey, ...(await p.agentAndNumber(user.session.apiKey)) };
    const { callId, record } = await placeOutboundCall(p, '+14155550177', { kind: 'answer', lines: ['Hello?'] }, { setup, agentPatch: { recording_enabled: true }, contactName: 'Grace Hopper' });
    const said = String(record.callTranscript).split('\n');
    expect(said.length).toBeGreaterThan(1);

    await page.getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row', { name: /Grace Hopper/ });
    await row.waitFor();
    await checkScreen(page, 'history-list', ['table', 'form[role=search]']);
    await row.getByRole('link').click();
    await page.waitForURL(new RegExp(`/dashboard/history/${callId}$`));
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    const transcript = page.locator('.transcript');
    // Each line of the record is a turn of the conversation, agent and caller told apart.
    await transcript.getByText('Hello Grace Hopper, this is the clinic calling.').waitFor();
    const turns = await transcript.locator('li').evaluateAll((items) => items.map((li) => `${li.classList.contains('turn-agent') ? 'agent' : 'user'}: ${li.querySelector('p')!.textContent}`));
    expect(turns).toEqual(said);
    await page.getByText('Caller hung up').or(page.getByText('Agent ended the call')).first().waitFor();
    expect(await page.locator('.chart svg rect.stage-llm').count()).toBeGreaterThan(0);

    // The recording: a presigned URL the page's CSP lets the audio element load, and it plays.
    const audio = page.locator('audio');
    await audio.waitFor();
    await page.waitForFunction(() => (document.querySelector('audio')?.duration ?? 0) > 0.5, undefined, { timeout: 20_000 });
    await audio.evaluate((a: HTMLAudioElement) => a.play());
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.2, undefined, { timeout: 20_000 });
    await checkScreen(page, 'call', ['.transcript', 'audio']);

    // The call's cost is in today's usage on the Credits page, drawn as a chart.
    await page.getByRole('link', { name: 'Credits' }).click();
    await page.locator('rect.usage-bar').last().waitFor();
    await checkScreen(page, 'credits-usage', ['.stats', '.chart svg']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('every other page: accessible, usable on a phone, with its empty and filled states', async () => {
    const { context, page, problems } = await openDashboard(browser);
    const user = await newUser(page, 'pages');
    await addCredits(p.deps.db, user.session.workspace.id, 25);

    await page.getByRole('link', { name: 'Tools' }).click();
    await page.getByText('No tools yet').waitFor();
    await page.getByRole('button', { name: 'New tool' }).click();
    await fill(page, 'Name', 'check_availability');
    await fill(page, 'Description', 'Looks up free appointment slots for a day.');
    await fill(page, 'URL', 'https://api.example.com/slots');
    await page.getByRole('button', { name: '+ Add header' }).click();
    await fill(page, 'Header 1 name', 'Authorization');
    await fill(page, 'Header 1 value', 'Bearer s3cr3t-value');
    await checkScreen(page, 'tools-create', ['dialog button[type=submit]']);
    await page.getByRole('button', { name: 'Create tool' }).click();
    await page.getByRole('button', { name: 'check_availability' }).click();
    const details = page.getByRole('dialog', { name: 'check_availability' });
    await details.getByText('Authorization').waitFor();
    expect(await details.textContent()).toContain('********');
    expect(await page.content()).not.toContain('s3cr3t-value');
    await checkScreen(page, 'tools-detail', ['dialog .facts']);
    await details.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('link', { name: 'Phone numbers' }).click();
    await page.getByText('No phone numbers yet').waitFor();
    await page.getByRole('button', { name: 'Buy a number' }).click();
    const buy = page.getByRole('dialog', { name: 'Buy a phone number' });
    await fill(page, 'Area code', '415');
    await buy.getByRole('button', { name: 'Search' }).click();
    const first = buy.getByRole('button', { name: /^Buy / }).first();
    await first.waitFor();
    await checkScreen(page, 'numbers-search', ['dialog .number-results']);
    await first.click();
    await page.getByRole('row', { name: /\+1415/ }).waitFor();
    await checkScreen(page, 'numbers-list', ['table']);

    await page.getByRole('link', { name: 'Credits' }).click();
    await page.getByTestId('credit-balance').waitFor();
    expect(await page.getByTestId('credit-balance').textContent()).toBe(String(await readBalance(p.deps.db, user.session.workspace.id)));
    await checkScreen(page, 'credits', ['.stats', '#refused-heading']);

    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('row', { name: new RegExp(user.email) }).waitFor();
    const invitee = await openDashboard(browser);
    const guest = await newUser(invitee.page, 'guest');
    await fill(page, 'Email', guest.email);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(/Invitation for/).waitFor();
    const link = (await page.locator('.notice-success .secret-value').textContent())!;
    expect(link).toMatch(new RegExp(`^${p.baseUrl}/dashboard/accept-invitation#token=`));
    await checkScreen(page, 'members', ['#invite-heading', 'table']);

    // The invited user opens the link signed in, accepts, and lands in the workspace as a member.
    await invitee.page.goto(link);
    await invitee.page.getByRole('heading', { name: 'Join a workspace' }).waitFor();
    await checkScreen(invitee.page, 'invitation', ['button.btn-primary']);
    await invitee.page.getByRole('button', { name: 'Accept invitation' }).click();
    await invitee.page.getByRole('option', { name: 'pages team (member)', selected: true }).waitFor({ state: 'attached' });
    await invitee.page.getByRole('link', { name: 'API keys' }).click();
    await invitee.page.getByText('Only an owner of pages team can see and manage its API keys.').waitFor();
    expect(invitee.problems).toEqual([]);
    await invitee.context.close();
    await page.reload();
    await page.getByRole('row', { name: new RegExp(guest.email) }).waitFor();

    // A second workspace: created from the switcher, which then switches between the two.
    await page.getByRole('button', { name: '+ New workspace' }).click();
    const create = page.getByRole('dialog', { name: 'New workspace' });
    await fill(page, 'Name', 'Second team');
    await checkScreen(page, 'workspace-new', ['dialog button[type=submit]']);
    await create.getByRole('button', { name: 'Create workspace' }).click();
    const switcher = page.getByRole('combobox', { name: 'Workspace' });
    await page.getByRole('option', { name: 'Second team (owner)', selected: true }).waitFor({ state: 'attached' });
    await page.getByText('No agents yet').waitFor();
    await switcher.selectOption(user.session.workspace.id);
    // The switch is done once the select shows the first workspace and is enabled again (it is disabled while switching).
    await page.waitForFunction((id) => {
      const select = document.querySelector<HTMLSelectElement>('#workspace-switcher');
      return select !== null && select.value === id && !select.disabled;
    }, user.session.workspace.id);
    // Back in the first workspace: its number is listed again.
    await page.getByRole('link', { name: 'Phone numbers' }).click();
    await page.getByRole('row', { name: /\+1415/ }).waitFor();
    expect(await switcher.inputValue()).toBe(user.session.workspace.id);

    // A phone: the sidebar is a drawer behind the Menu button.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menu' }).click();
    await checkScreen(page, 'phone-menu', ['#workspace-switcher', 'nav[aria-label=Workspace] a[href$="/history"]']);
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByText('No calls yet').waitFor();
    await checkScreen(page, 'phone-history', ['main h1', 'input[type=search]']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
