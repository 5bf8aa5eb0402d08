import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debitItem, readBalance } from '../../lib/store/credits.js';
import { transact } from '../../lib/store/dynamo.js';
import { addCredits } from '../../lib/store/workspaces.js';
import { placeOutboundCall } from '../support/calls.js';
import { csv } from '../support/contact-files.js';
import { checkScreen, fill, openDashboard } from '../support/dashboard.js';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.js';
import { dashboardRig } from './dashboard-browser-support.js';
import { WAIT_MS } from '../support/progress.js';

/**
 * The dashboard in Chromium against the whole local platform (cognito-local included), past the sign-in:
 * agents and their tools, contacts, history and every other page, as a new user fills them on the first
 * day (./dashboard.browser.test.ts has the account and key pages). Every screen is checked with axe and a
 * screenshot (saved under $MEETING_SCREENSHOT-dashboard-*.png when that variable is set).
 */
// An MCP server (the SDK's, on loopback) for the tools page; allowed before the platform reads its config.
let mcp: TestMcpServer;
beforeAll(async () => {
  mcp = await startMcpServer();
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${mcp.port}`;
});
afterAll(async () => {
  await mcp?.close();
  delete process.env.TOOL_ALLOWED_HOSTS;
});
const rig = dashboardRig();

// Generous bounds: each test signs a user up through the pages, and the machine may be busy.
describe.concurrent('the dashboard in Chromium', { timeout: 240_000 }, () => {
  it('Agents: create one with a model, a voice and a prompt whose variables are checked; a test call explains a 402', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'agents');
    await page.getByRole('link', { name: 'New agent' }).first().click();
    await page.getByRole('heading', { name: 'New agent' }).waitFor();
    await fill(page, 'Name', 'Clinic receptionist');
    await page.getByLabel('Language model provider').selectOption('anthropic');
    expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('claude-haiku-4-5');
    await page.getByLabel('Helena').check();
    await fill(page, 'System prompt', 'You help {{contactName}} book visits. Their plan is {{plan}}.');
    // contactName is a field every contact has; no contact has "plan" yet.
    await page.getByText('No contact has the field “plan”').waitFor();
    await checkScreen(page, 'agent-new', ['.voice.selected']);
    await page.getByLabel('How the call opens').selectOption('wait_for_caller');
    await page.getByLabel('The caller can cut the greeting short').check();
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/\/dashboard\/agents\/agt_/);
    const agentId = page.url().split('/').pop()!;
    const stored = await rig.p.api(user.session.apiKey, 'GET', `/api/agents/${agentId}`);
    expect(stored.body).toMatchObject({ name: 'Clinic receptionist', llm_provider: 'anthropic', llm_model: 'claude-haiku-4-5', tts_provider: 'deepgram', tts_voice_id: 'aura-2-helena-en', first_message_mode: 'wait_for_caller', first_message_interruptible: true, tool_ids: [] });

    // The prompt names contactName and plan, and a test call has no contact: the panel asks for both, and a
    // call started without them is refused with the names, under their fields.
    await page.getByRole('button', { name: 'Start a test call' }).click();
    await page.locator('.talk-variables [aria-invalid="true"]').nth(1).waitFor();
    expect(await page.locator('.talk-variables [aria-invalid="true"]').count()).toBe(2);
    await fill(page, 'contactName', 'Ada');
    await fill(page, 'plan', 'gold');
    // A workspace without credits: the test call is refused and the page says why.
    const balance = await readBalance(rig.p.deps.db, user.session.workspace.id);
    await transact(rig.p.deps.db, [debitItem(rig.p.deps.db, user.session.workspace.id, balance)]);
    await page.getByRole('button', { name: 'Start a test call' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/reserves credits/);
    await checkScreen(page, 'agent-402', ['.notice-error']);
    await addCredits(rig.p.deps.db, user.session.workspace.id, 50);
    await page.getByRole('button', { name: 'Start a test call' }).click();
    const open = page.getByRole('link', { name: 'Open the call (new tab)' });
    await open.waitFor();
    expect(await open.getAttribute('href')).toMatch(new RegExp(`^${rig.p.baseUrl}/meeting/call_\\w+\\?token=`));
    expect(await open.getAttribute('target')).toBe('_blank');
    // The talk panel says which of the agent's vendors are simulated here, and the key that makes each real.
    expect(await page.locator('section:has(#talk-heading) .notice-warning').textContent()).toBe(
      'Simulated: this agent runs on local stand-ins (Deepgram, Anthropic), so it does not hear what you say and its voice is a tone. To make them real, set DEEPGRAM_API_KEY, ANTHROPIC_API_KEY where the platform runs and restart it.',
    );
    await page.locator('#talk-heading').scrollIntoViewIfNeeded();
    await checkScreen(page, 'agent-edit', ['#talk-heading', 'section:has(#talk-heading) .notice-warning', '.card a.btn-primary']);

    // The list shows it; an edit saves only what changed.
    await fill(page, 'Name', 'Front desk');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await rig.p.api(user.session.apiKey, 'GET', `/api/agents/${agentId}`)).body.name).toBe('Front desk');
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

  it('Agents: a custom OpenAI-compatible model takes a URL, a model name and a key; a private URL is refused with the reason', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'agent-custom-llm');
    await page.getByRole('link', { name: 'New agent' }).first().click();
    await page.getByRole('heading', { name: 'New agent' }).waitFor();
    await fill(page, 'Name', 'Own brain');
    await page.getByLabel('Language model provider').selectOption({ label: 'Custom (OpenAI-compatible)' });
    await fill(page, 'Model', 'llama3.1:8b');
    await fill(page, 'Model server URL', 'http://10.0.0.7/v1');
    await fill(page, 'API key (optional)', 'sk-own-model-0123456789');
    await page.getByRole('button', { name: 'Create agent' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/llm_base_url.*private, loopback/);
    await checkScreen(page, 'agent-custom-refused', ['.notice-error']);
    await fill(page, 'Model server URL', 'https://llm.example.com/v1');
    await page.locator('main h1').scrollIntoViewIfNeeded();
    await checkScreen(page, 'agent-custom', ['main h1', 'input[type="url"]', 'input[type="password"]']);
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/\/dashboard\/agents\/agt_/);
    const agentId = page.url().split('/').pop()!;
    const stored = await rig.p.api(user.session.apiKey, 'GET', `/api/agents/${agentId}`);
    expect(stored.body).toMatchObject({ llm_provider: 'custom', llm_model: 'llama3.1:8b', llm_base_url: 'https://llm.example.com/v1', llm_api_key: '********' });
    // The edit page holds the mask, never the key, and says one is stored.
    await page.getByText('A key is stored; type a new one to replace it.').waitFor();
    expect(await page.getByLabel('API key (optional)').inputValue()).toBe('********');
    expect(await page.content()).not.toContain('sk-own-model');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("Agents: the agent's tools are every workspace tool by default, or the ones ticked", async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'agent-tools');
    const key = user.session.apiKey;
    const tool = async (name: string) =>
      (await rig.p.api(key, 'POST', '/api/tools', { name, type: 'transfer', description: `Hands the caller to ${name.toLowerCase()}`, config: { url: 'tel:+14155550142' } })).body._id as string;
    const sales = await tool('Sales desk');
    await tool('Support desk');
    const agent = await rig.p.api(key, 'POST', '/api/agents', { name: 'Sales line', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram' });
    const agentId = agent.body._id as string;
    await page.goto(`${rig.p.baseUrl}/dashboard/agents/${agentId}`);
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
    expect((await rig.p.api(key, 'GET', `/api/agents/${agentId}`)).body.tool_ids).toEqual([sales]);

    // The choice is what the page shows next time; going back to every tool stores null.
    await page.reload();
    await page.getByRole('heading', { name: 'Sales line' }).waitFor();
    expect(await page.getByRole('checkbox', { name: /Sales desk/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /Support desk/ }).isChecked()).toBe(false);
    await everyTool.check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await rig.p.api(key, 'GET', `/api/agents/${agentId}`)).body.tool_ids).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Agents: publish a version, see what the draft changed, roll back', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'agent-versions');
    const key = user.session.apiKey;
    const agent = await rig.p.api(key, 'POST', '/api/agents', { name: 'Front desk', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram', first_message: 'Hello, version one.' });
    const agentId = agent.body._id as string;
    await page.goto(`${rig.p.baseUrl}/dashboard/agents/${agentId}`);
    const card = page.getByRole('region', { name: 'Versions' });
    await card.getByText('Not published').waitFor();
    await fill(page, 'What changed (optional)', 'First script');
    await card.getByRole('button', { name: 'Publish version 1' }).click();
    await card.getByText('Published version 1.').waitFor();
    await card.getByText('The settings on this page are published.').waitFor();

    await fill(page, 'First message', 'Hello, version two.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    await card.getByText('have changes that are not published').waitFor();
    await card.getByRole('button', { name: 'Compare with version 1' }).click();
    await card.locator('.changes ins', { hasText: 'Hello, version two.' }).waitFor();
    expect(await card.locator('.changes del').textContent()).toBe('Hello, version one.');
    await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await checkScreen(page, 'agent-versions', ['.versions', '.versions .changes']);
    await card.getByRole('button', { name: 'Publish version 2' }).click();
    await card.getByText('Published version 2.').waitFor();

    // Rolling back publishes version 1's settings as version 3, and the form shows them.
    await card.getByRole('button', { name: 'Roll back to version 1' }).click();
    await card.getByText('Version 1 is live again, as version 3.').waitFor();
    await expect.poll(() => page.getByLabel('First message', { exact: true }).inputValue()).toBe('Hello, version one.');
    expect((await rig.p.api(key, 'GET', `/api/agents/${agentId}`)).body).toMatchObject({ published_version: 3, first_message: 'Hello, version one.', has_unpublished_changes: false });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Contacts: a CSV upload shows progress and the rows it refused; search finds the others', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    await rig.newUser(page, 'contacts');
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

  it('History: a call’s transcript, summary, cost, the caller’s wait per turn, the data it ran with, and its recording plays', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'history');
    await addCredits(rig.p.deps.db, user.session.workspace.id, 100);
    // A phone call in the user's workspace, placed with their session key as any API client would.
    const setup = { workspaceId: user.session.workspace.id, apiKey: user.session.apiKey, ...(await rig.p.agentAndNumber(user.session.apiKey)) };
    // Started with its own data: variables, a first message for this call only, and metadata (docs/call-data.md).
    const body = { variables: { first_name: 'Grace', plan: 'gold' }, agent_overrides: { first_message: 'Hello {{first_name}}, this is the clinic calling about your {{plan}} plan.' }, metadata: { crm_id: 'lead-42', vip: true } };
    const { callId, record } = await placeOutboundCall(rig.p, '+14155550177', { kind: 'answer', lines: ['Hello?'] }, { setup, agentPatch: { recording_enabled: true }, contactName: 'Grace Hopper', body });
    const said = String(record.callTranscript).split('\n');
    expect(said.length).toBeGreaterThan(1);

    await page.getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row', { name: /Grace Hopper/ });
    await row.waitFor();
    // History says its calls ran on simulated vendors (the record's transcript is the stand-ins' script).
    expect(await page.locator('.notice-warning').textContent()).toMatch(/^Simulated: calls here run on local stand-ins for speech recognition, the language model, the voice and telephony\. .*DEEPGRAM_API_KEY/);
    await checkScreen(page, 'history-list', ['.notice-warning', 'table', 'form[role=search]']);
    await row.getByRole('link').click();
    await page.waitForURL(new RegExp(`/dashboard/history/${callId}$`));
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    const transcript = page.locator('.transcript');
    // Each line of the record is a turn of the conversation, agent and caller told apart.
    await transcript.getByText('Hello Grace, this is the clinic calling about your gold plan.').waitFor();
    const turns = await transcript.locator('li').evaluateAll((items) => items.map((li) => `${li.classList.contains('turn-agent') ? 'agent' : 'user'}: ${li.querySelector('p')!.textContent}`));
    expect(turns).toEqual(said);
    await page.getByText('Caller hung up').or(page.getByText('Agent ended the call')).first().waitFor();
    expect(await page.locator('[data-testid=caller-wait] rect.stage-llm').count()).toBeGreaterThan(0);

    // What the call ran with: each variable by name, the overridden field by name, the metadata as sent.
    const data = page.getByRole('region', { name: 'Call data' });
    await data.scrollIntoViewIfNeeded();
    const variables = await data.getByTestId('call-variables').locator('dt, dd').allTextContents();
    expect(variables).toEqual(['first_name', 'Grace', 'plan', 'gold']);
    expect(await data.getByTestId('call-overrides').locator('code').allTextContents()).toEqual(['first_message']);
    expect(JSON.parse((await data.getByTestId('call-metadata').textContent())!)).toEqual(body.metadata);
    await checkScreen(page, 'call-data', ['#call-data-heading', '[data-testid=call-metadata]']);

    // The recording: a presigned URL the page's CSP lets the audio element load, and it plays.
    const audio = page.locator('audio');
    await audio.waitFor();
    await page.waitForFunction(() => (document.querySelector('audio')?.duration ?? 0) > 0.5, undefined, { timeout: WAIT_MS });
    await audio.evaluate((a: HTMLAudioElement) => a.play());
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.2, undefined, { timeout: WAIT_MS });
    await checkScreen(page, 'call', ['.transcript', 'audio']);

    // The call's cost is in today's usage on the Credits page, drawn as a chart.
    await page.getByRole('link', { name: 'Credits' }).click();
    await page.locator('rect.usage-bar').last().waitFor();
    await checkScreen(page, 'credits-usage', ['.stats', '.chart svg']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Tools: an MCP server is added, its tools are shown, an allow-list picks some, and a refresh lists them again', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'mcp-tools');
    await page.getByRole('link', { name: 'Tools' }).click();
    await page.getByText('No tools yet').waitFor();
    await page.getByRole('button', { name: 'Add MCP server' }).click();
    const add = page.getByRole('dialog', { name: 'Add an MCP server' });
    await fill(page, 'Name', 'Weather');
    await fill(page, 'Description', 'Weather forecasts.');
    await fill(page, 'Server URL', mcp.url);
    await page.getByRole('button', { name: '+ Add header' }).click();
    await fill(page, 'Header 1 name', 'Authorization');
    await fill(page, 'Header 1 value', 'Bearer mcp-s3cr3t');
    await checkScreen(page, 'mcp-add', ['dialog button[type=submit]']);
    await add.getByRole('button', { name: 'Add server' }).click();
    await page.getByRole('button', { name: 'Weather' }).click();
    const details = page.getByRole('dialog', { name: 'Weather' });
    await details.getByRole('heading', { name: 'Server tools (3)' }).waitFor();
    expect(await details.textContent()).toContain('city (string, required)');
    expect(await details.textContent()).toContain('Agents may call every tool the server lists.');
    expect(await page.content()).not.toContain('mcp-s3cr3t');
    expect(mcp.headersSeen.at(-1)?.authorization).toBe('Bearer mcp-s3cr3t');
    await checkScreen(page, 'mcp-detail', ['dialog .facts', 'dialog section']);

    // Only get_forecast: the others are shown as not offered, and the API holds the allow-list.
    await details.getByRole('button', { name: 'Edit tool' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Weather' });
    await edit.getByLabel('Every tool the server lists').uncheck();
    await edit.getByLabel('fail_always').uncheck();
    await edit.getByLabel('slow').uncheck();
    await checkScreen(page, 'mcp-edit', ['dialog fieldset:has(input[type=checkbox])']);
    await edit.getByRole('button', { name: 'Save server' }).click();
    await edit.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Weather' }).click();
    await details.getByText('Agents may call the 1 ticked').waitFor();
    const id = (await rig.p.api(user.session.apiKey, 'GET', '/api/tools')).body.data[0]._id as string;
    expect((await rig.p.api(user.session.apiKey, 'GET', `/api/tools/${id}`)).body.config.allowed_tools).toEqual(['get_forecast']);
    expect(await details.locator('li:has-text("not offered")').count()).toBe(2);
    await details.getByRole('button', { name: 'Refresh tools' }).click();
    await details.getByRole('button', { name: 'Refresh tools', disabled: false }).waitFor();
    // Back to every tool: the allow-list is cleared, so tools the server adds later are offered too.
    await details.getByRole('button', { name: 'Edit tool' }).click();
    await edit.getByLabel('Every tool the server lists').check();
    await edit.getByRole('button', { name: 'Save server' }).click();
    await edit.waitFor({ state: 'hidden' });
    expect((await rig.p.api(user.session.apiKey, 'GET', `/api/tools/${id}`)).body.config.allowed_tools).toBeUndefined();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('every other page: accessible, usable on a phone, with its empty and filled states', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'pages');
    await addCredits(rig.p.deps.db, user.session.workspace.id, 25);

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
    // Nothing is bought before the confirmation, which says what it costs.
    const confirm = buy.getByRole('region', { name: /^Buy / });
    await confirm.getByTestId('number-price').getByText('No credits').waitFor();
    await checkScreen(page, 'numbers-confirm', ['dialog .confirm']);
    expect((await rig.p.api(user.session.apiKey, 'GET', '/api/phone-numbers')).body).toMatchObject({ total: 0 });
    await confirm.getByRole('button', { name: /^Buy / }).click();
    await page.getByRole('row', { name: /\+1415/ }).waitFor();
    await checkScreen(page, 'numbers-list', ['table']);

    await page.getByRole('link', { name: 'Credits' }).click();
    await page.getByTestId('credit-balance').waitFor();
    expect(await page.getByTestId('credit-balance').textContent()).toBe(String(await readBalance(rig.p.deps.db, user.session.workspace.id)));
    await checkScreen(page, 'credits', ['.stats', '#refused-heading']);

    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('row', { name: new RegExp(user.email) }).waitFor();
    const invitee = await openDashboard(rig.browser);
    const guest = await rig.newUser(invitee.page, 'guest');
    await fill(page, 'Email', guest.email);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(/Invitation for/).waitFor();
    const link = (await page.locator('.notice-success .secret-value').textContent())!;
    expect(link).toMatch(new RegExp(`^${rig.p.baseUrl}/dashboard/accept-invitation#token=`));
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
