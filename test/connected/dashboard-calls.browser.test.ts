import { describe, expect, it, vi } from 'vitest';
import { getTool } from '../../lib/store/tools.js';
import { addCredits } from '../../lib/store/workspaces.js';
import { checkScreen, fill, openDashboard } from '../support/dashboard.js';
import { dashboardRig } from './dashboard-browser-support.js';
import { WAIT_MS } from '../support/progress.js';

/**
 * The dashboard's pages for calls and what surrounds them, in Chromium against the whole local platform:
 * placing a call, campaigns, live calls in History, tool and contact editing. Each screen is checked with
 * axe and screenshotted ($MEETING_SCREENSHOT-dashboard-*.png). ./dashboard-lists.browser.test.ts has
 * webhooks and the do-not-call list.
 */
const rig = dashboardRig();

const api = async (apiKey: string, method: string, path: string, body?: unknown) => {
  const res = await rig.p.api(apiKey, method, path, body);
  return res as { status: number; body: Record<string, unknown> & { _id: string } };
};

describe.concurrent('the dashboard in Chromium: calls, campaigns, editing', { timeout: 240_000 }, () => {
  it('Place a call: a destination checked like the API does, the 202 and the call followed to its transcript', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'place');
    const key = user.session.apiKey;
    await addCredits(rig.p.deps.db, user.session.workspace.id, 100);
    const { number } = await rig.p.agentAndNumber(key);
    await api(key, 'POST', '/api/contacts', { contactName: 'Grace Hopper', phoneNumber: '+14155550178' });

    await page.getByRole('link', { name: 'Place a call' }).click();
    await page.getByRole('heading', { level: 1, name: 'Place a call' }).waitFor();
    // The form shows once the agents and numbers are read (the heading comes first).
    await page.getByLabel('Call from').waitFor();
    expect(await page.getByLabel('Call from').locator('option').allTextContents()).toEqual([number]);
    await fill(page, 'Destination', '4155550178');
    await page.getByRole('button', { name: 'Call now' }).click();
    await page.getByText('Write the number in E.164 form').waitFor();
    // Well-formed to the eye but no number of any plan: the API's own field error shows under the field.
    await fill(page, 'Destination', '+99912345678');
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/optimus/phone-call'));
    await page.getByRole('button', { name: 'Call now' }).click();
    expect((await refused).status()).toBe(400);
    await page.locator('.field-error', { hasText: 'E.164' }).waitFor();
    await checkScreen(page, 'place-call-refused', ['form .field-error', 'button[type=submit]']);

    // A contact chosen fills the destination.
    await fill(page, 'Find a contact', 'Grace');
    await page.getByRole('button', { name: /Grace Hopper/ }).click();
    expect(await page.getByLabel('Destination').inputValue()).toBe('+14155550178');
    const placed = page.waitForResponse((r) => r.url().endsWith('/api/optimus/phone-call'));
    await page.getByRole('button', { name: 'Call now' }).click();
    const answer = await placed;
    expect(answer.status()).toBe(202);
    const { call_id: callId } = (await answer.json()) as { call_id: string };
    await page.getByText('Call started').waitFor();
    await checkScreen(page, 'place-call-started', ['.notice-success a']);

    // The call page refreshes itself until the call has ended and its record is there.
    await page.getByRole('link', { name: 'Follow the call' }).click();
    await page.waitForURL(new RegExp(`/dashboard/history/${callId}$`));
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor({ timeout: 120_000 });
    await page.locator('.transcript li').first().waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('History: a real call live at the top with its state, then gone and its record listed; the call page moves to the record', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'live');
    const key = user.session.apiKey;
    await addCredits(rig.p.deps.db, user.session.workspace.id, 100);
    const { agentId, numberId, number } = await rig.p.agentAndNumber(key);
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByText('No calls yet').waitFor();
    expect(await page.getByRole('heading', { name: /In progress/ }).count()).toBe(0);

    // A callee of the Twilio stand-in who answers, then stays on the line a while before saying goodbye:
    // long enough for the page, asking every 3 s, to see the call in progress.
    const to = '+14155550299';
    rig.p.platform.callSimulator!.setRule(to, { kind: 'answer', lines: ['Hi, yes, speaking.', { pauseMs: 25_000 }, 'Thank you. Goodbye.'] });
    const started = await api(key, 'POST', '/api/optimus/phone-call', { assistantId: agentId, phoneNumber: to, phoneNumberId: numberId });
    expect(started.status).toBe(202);
    const callId = started.body.call_id as string;

    // The page asked once and saw nothing live, so it is not asking: a reload shows the call.
    await page.reload();
    const row = page.locator('.live-calls').getByRole('row', { name: new RegExp(`\\${to}`) });
    await row.getByText('In progress').waitFor({ timeout: 120_000 });
    expect(await row.textContent()).toContain(number);
    // The caller's first line reaches the row's transcript after the greeting: later on a loaded machine.
    await vi.waitFor(async () => expect(await row.textContent()).toContain('Caller'), { timeout: WAIT_MS });
    await checkScreen(page, 'history-live', ['.live-calls table']);

    // The call's own page, in another tab, shows it live from GET /api/calls/{id}.
    const callPage = await context.newPage();
    const calls: string[] = [];
    callPage.on('request', (r) => calls.push(new URL(r.url()).pathname));
    await callPage.goto(`${rig.p.baseUrl}/dashboard/history/${callId}`);
    await callPage.getByRole('heading', { level: 1, name: 'Call in progress' }).waitFor();
    expect(await callPage.getByTestId('live-state').textContent()).toBe('In progress');
    await checkScreen(callPage, 'call-live', ['[data-testid=live-state]']);

    // It ends: History drops the live row and lists the record; the call page shows the record.
    await row.waitFor({ state: 'detached', timeout: 120_000 });
    await page.getByRole('table', { name: 'Calls', exact: true }).getByRole('row', { name: new RegExp(`\\${to}`) }).waitFor();
    expect(await page.getByRole('heading', { name: /In progress/ }).count()).toBe(0);
    await callPage.locator('.transcript li').first().waitFor({ timeout: 120_000 });
    expect(await callPage.getByRole('heading', { level: 1, name: 'Call in progress' }).count()).toBe(0);
    // The call page asked the call, not the history, until the call named its record: one record read.
    expect(calls.filter((path) => path === `/api/history/${callId}`)).toHaveLength(1);
    expect(calls.filter((path) => path === `/api/calls/${callId}`).length).toBeGreaterThan(1);
    await checkScreen(page, 'history-ended', ['table']);

    // Nothing live any more: History stops asking (several refresh periods of 3 s pass without a question).
    let asked = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/calls') asked++;
    });
    await page.waitForTimeout(10_000);
    expect(asked).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Campaigns: created with chosen contacts and the defaults, started, paused, resumed, cancelled; counts and results', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'campaign');
    const key = user.session.apiKey;
    await rig.p.agentAndNumber(key);
    for (const [name, phone] of [['Ada Lovelace', '+14155550111'], ['Alan Turing', '+14155550112']]) await api(key, 'POST', '/api/contacts', { contactName: name, phoneNumber: phone });

    await page.getByRole('link', { name: 'Campaigns' }).click();
    await page.getByText('No campaigns yet').waitFor();
    await page.getByRole('button', { name: 'New campaign' }).click();
    const dialog = page.getByRole('dialog', { name: 'New campaign' });
    await fill(page, 'Name', 'Reminders');
    await dialog.getByRole('checkbox', { name: /Ada Lovelace/ }).check();
    await dialog.getByRole('checkbox', { name: /Alan Turing/ }).check();
    await dialog.getByText('2 chosen').waitFor();
    // The API's defaults, prefilled.
    expect(await page.getByLabel('From (local time)').inputValue()).toBe('09:00');
    expect(await page.getByLabel('Until (local time)').inputValue()).toBe('20:00');
    expect(await page.getByLabel('Calls at once').inputValue()).toBe('5');
    expect(await dialog.getByRole('checkbox', { name: 'Saturday' }).isChecked()).toBe(false);
    await checkScreen(page, 'campaign-new', ['dialog h2', 'dialog .check-list']);
    await dialog.getByText('Retries per outcome').click();
    expect(await page.getByLabel('No answer: retries').inputValue()).toBe('2');
    await fill(page, 'Busy: retries', '3');
    await dialog.getByRole('button', { name: 'Create campaign' }).click();

    await page.getByRole('heading', { level: 1, name: 'Reminders' }).waitFor();
    const id = page.url().split('/').pop()!;
    const made = await api(key, 'GET', `/api/campaigns/${id}`);
    expect(made.body.retry).toMatchObject({ busy: { retries: 3, delayMinutes: 15 }, no_answer: { retries: 2, delayMinutes: 60 } });
    expect(made.body.contacts).toEqual({ contactIds: expect.arrayContaining([expect.any(String), expect.any(String)]) });
    await page.locator('.badge', { hasText: 'Draft' }).waitFor();
    await page.getByRole('row', { name: /Ada Lovelace/ }).getByText('Waiting').waitFor();
    await checkScreen(page, 'campaign-draft', ['.stats', '#outcomes-heading']);

    for (const [action, status] of [['Start', 'Scheduled'], ['Pause', 'Paused'], ['Resume', 'Scheduled']] as const) {
      await page.getByRole('button', { name: action, exact: true }).click();
      await page.locator('.page-header .badge', { hasText: status }).waitFor();
    }
    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    const cancelDialog = page.getByRole('dialog', { name: 'Cancel this campaign?' });
    // The way back says what it keeps, not a second "Cancel".
    expect(await cancelDialog.getByRole('button').allTextContents()).toEqual(['Keep running', 'Cancel campaign']);
    await checkScreen(page, 'campaign-cancel', ['dialog[open] .dialog-footer']);
    await cancelDialog.getByRole('button', { name: 'Cancel campaign' }).click();
    await page.locator('.page-header .badge', { hasText: 'Cancelled' }).waitFor();
    expect(await page.getByRole('button', { name: 'Start', exact: true }).count()).toBe(0);
    expect((await api(key, 'GET', `/api/campaigns/${id}`)).body.status).toBe('cancelled');

    await page.getByRole('link', { name: '← Campaigns' }).click();
    const listed = page.getByRole('row', { name: /Reminders/ });
    await listed.getByText('Cancelled').waitFor();
    await listed.getByText('/ 2').waitFor();
    await checkScreen(page, 'campaigns-list', ['table']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Tools: an existing tool edited with typed parameters; a masked header is kept, a new value replaces it', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'tool-edit');
    const key = user.session.apiKey;
    const ws = user.session.workspace.id;
    const made = await api(key, 'POST', '/api/tools', {
      name: 'book_slot',
      type: 'http',
      description: 'Books a slot.',
      config: { method: 'POST', url: 'https://api.example.com/book', headers: { Authorization: 'Bearer first-secret' } },
      parameters: [{ name: 'day', description: 'The day', required: true }],
    });
    expect(made.status).toBe(201);

    await page.getByRole('link', { name: 'Tools' }).click();
    await page.getByRole('button', { name: 'book_slot' }).click();
    await page.getByRole('button', { name: 'Edit tool' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit book_slot' });
    expect(await page.getByLabel('Header 1 value').inputValue()).toBe('');
    await fill(page, 'URL', 'https://api.example.com/v2/book');
    await dialog.getByRole('button', { name: '+ Add parameter' }).click();
    await fill(page, 'Parameter 2 name', 'part_of_day');
    await page.getByLabel('Parameter 2 type').selectOption('string');
    await fill(page, 'Parameter 2 description', 'Morning or afternoon');
    await fill(page, 'Parameter 2 allowed values', 'morning, afternoon');
    await page.getByLabel('Parameter 2 required').uncheck();
    await dialog.getByRole('button', { name: '+ Add parameter' }).click();
    await fill(page, 'Parameter 3 name', 'people');
    await page.getByLabel('Parameter 3 type').selectOption('integer');
    await fill(page, 'Parameter 3 description', 'How many people');
    await checkScreen(page, 'tool-edit', ['dialog [aria-label="Parameter 3"]', 'dialog button[type=submit]']);
    // Touch the headers (a new one) so they are sent: the stored one goes back as the mask, which keeps it.
    await dialog.getByRole('button', { name: '+ Add header' }).click();
    await fill(page, 'Header 2 name', 'X-Client');
    await fill(page, 'Header 2 value', 'dashboard');
    await dialog.getByRole('button', { name: 'Save tool' }).click();
    await dialog.waitFor({ state: 'hidden' });

    let stored = await getTool(rig.p.deps.db, rig.p.deps.secrets, ws, made.body._id);
    expect(stored.config?.url).toBe('https://api.example.com/v2/book');
    expect(stored.config?.headers).toEqual({ Authorization: 'Bearer first-secret', 'X-Client': 'dashboard' });
    expect(stored.parameters).toEqual([
      { name: 'day', description: 'The day', required: true, type: 'string' },
      { name: 'part_of_day', description: 'Morning or afternoon', required: false, type: 'string', enum: ['morning', 'afternoon'] },
      { name: 'people', description: 'How many people', required: true, type: 'integer' },
    ]);

    // A typed value replaces the stored one; a removed header is gone.
    await page.getByRole('button', { name: 'book_slot' }).click();
    await page.getByRole('dialog', { name: 'book_slot' }).getByText('one of').waitFor();
    await page.getByRole('button', { name: 'Edit tool' }).click();
    await fill(page, 'Header 1 value', 'Bearer second-secret');
    await page.getByRole('button', { name: 'Remove header 2' }).click();
    await page.getByRole('button', { name: 'Save tool' }).click();
    await page.getByRole('dialog', { name: 'Edit book_slot' }).waitFor({ state: 'hidden' });
    stored = await getTool(rig.p.deps.db, rig.p.deps.secrets, ws, made.body._id);
    expect(stored.config?.headers).toEqual({ Authorization: 'Bearer second-secret' });
    expect(await page.content()).not.toContain('second-secret');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Contacts: a contact edited (name, a field changed, one removed, one added) with a merge patch', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'contact-edit');
    const key = user.session.apiKey;
    const made = await api(key, 'POST', '/api/contacts', { contactName: 'Ada Lovelace', phoneNumber: '+14155550121', externalFields: { plan: 'gold', visits: 3, old: 'x' } });
    expect(made.status).toBe(201);
    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Ada Lovelace' });
    await fill(page, 'Name', 'Ada King');
    await page.getByRole('button', { name: 'Remove field old' }).click();
    const plan = dialog.locator('.header-row', { has: page.locator('input[value="plan"]') });
    await plan.getByLabel(/value/).fill('platinum');
    await dialog.getByRole('button', { name: '+ Add field' }).click();
    await fill(page, 'Field 3 name', 'doctor');
    await fill(page, 'Field 3 value', 'Dr. Babbage');
    await checkScreen(page, 'contact-edit', ['dialog button[type=submit]']);
    await dialog.getByRole('button', { name: 'Save contact' }).click();
    await page.getByRole('button', { name: 'Edit Ada King' }).waitFor();
    const after = await api(key, 'GET', `/api/contacts/${made.body._id}`);
    expect(after.body).toMatchObject({ contactName: 'Ada King', phoneNumber: '+14155550121', externalFields: { plan: 'platinum', visits: 3, doctor: 'Dr. Babbage' } });
    expect(Object.keys(after.body.externalFields as object).sort()).toEqual(['doctor', 'plan', 'visits']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
