import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csv } from '../support/contact-files.js';
import { checkScreen, fill, openDashboard } from '../support/dashboard.js';
import { dashboardRig } from './dashboard-browser-support.js';

/**
 * The dashboard's webhook, phone number and do-not-call pages in Chromium against the whole local
 * platform, each screen checked with axe and screenshotted ($MEETING_SCREENSHOT-dashboard-*.png).
 */

/** The customer's server a number's inbound webhook asks: it answers as `answer` says (loopback, allowed below). */
let answer: (res: ServerResponse) => void = (res) => res.end('{}');
const customer = createServer((req, res) => {
  req.resume();
  req.on('end', () => answer(res));
});
let customerUrl = '';
// Before the rig's platform starts: it reads the allowed hosts once.
beforeAll(async () => {
  await new Promise<void>((resolve) => customer.listen(0, '127.0.0.1', resolve));
  const { port } = customer.address() as AddressInfo;
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${port}`;
  customerUrl = `http://127.0.0.1:${port}/inbound`;
});
afterAll(async () => {
  customer.closeAllConnections();
  await new Promise((resolve) => customer.close(resolve));
  delete process.env.TOOL_ALLOWED_HOSTS;
});
const json = (status: number, body: unknown) => (res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const rig = dashboardRig();

describe.concurrent('the dashboard in Chromium: webhooks and the do-not-call list', { timeout: 240_000 }, () => {
  it('Webhooks: an endpoint made with its events and secret shown once; test, deliveries, replay, rotate, disable, delete', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'webhooks');
    const key = user.session.apiKey;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhook endpoints yet').waitFor();
    await page.getByRole('button', { name: 'New endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook endpoint' });
    await fill(page, 'URL', 'https://hooks.example.com/voice');
    await fill(page, 'Description', 'CRM sync');
    await dialog.getByRole('checkbox', { name: 'call.ended' }).check();
    await dialog.getByRole('checkbox', { name: 'test.ping' }).check();
    await checkScreen(page, 'webhook-new', ['dialog button[type=submit]']);
    await dialog.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await checkScreen(page, 'webhook-secret', ['[data-testid=webhook-secret]']);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const listed = await rig.p.api(key, 'GET', '/api/webhooks');
    const endpoint = (listed.body as { data: { _id: string; eventTypes: string[] }[] }).data[0]!;
    expect(endpoint.eventTypes).toEqual(['call.ended', 'test.ping']);
    await page.getByRole('link', { name: 'https://hooks.example.com/voice' }).click();
    await page.getByRole('heading', { level: 1, name: 'CRM sync' }).waitFor();
    // Shown once: the endpoint's page and every read leave the secret out.
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('A test.ping event is on its way').waitFor();
    const row = page.getByRole('row', { name: /test\.ping/ });
    await row.first().waitFor();
    await checkScreen(page, 'webhook-deliveries', ['table', '.page-actions']);
    await row.first().getByRole('button', { name: /^Replay/ }).click();
    await page.getByText(/Replayed: 1/).waitFor();
    await page.getByRole('row', { name: /test\.ping/ }).nth(1).waitFor();

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = (await page.getByTestId('webhook-secret').textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByText('The old secret keeps signing too').waitFor();

    await page.getByRole('button', { name: 'Disable' }).click();
    await page.locator('.page-header .badge', { hasText: 'Disabled' }).waitFor();
    expect((await rig.p.api(key, 'GET', `/api/webhooks/${endpoint._id}`)).body).toMatchObject({ status: 'disabled' });
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.locator('.page-header .badge', { hasText: 'Enabled' }).waitFor();

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this endpoint?' }).getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No webhook endpoints yet').waitFor();
    expect((await rig.p.api(key, 'GET', `/api/webhooks/${endpoint._id}`)).status).toBe(404);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("A number's page: its inbound webhook set with the secret shown once (a private URL refused), its answers listed, then removed", async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'inbound');
    const key = user.session.apiKey;
    const { numberId, number } = await rig.p.agentAndNumber(key);
    const billing = await rig.p.api(key, 'POST', '/api/agents', { name: 'Billing', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram', first_message: 'Billing here.' });
    await page.getByRole('link', { name: 'Phone numbers' }).click();
    await page.getByRole('link', { name: number }).click();
    await page.getByRole('heading', { level: 1, name: number }).waitFor();
    await page.getByText('No answers yet').waitFor();
    await page.getByLabel(`Agent answering ${number}`).selectOption({ label: 'Caller' });
    await expect.poll(async () => (await rig.p.api(key, 'GET', `/api/phone-numbers/${numberId}`)).body.agentId).toBeTruthy();

    await fill(page, 'Webhook URL', 'https://10.0.0.7/hook');
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByRole('alert').locator('code', { hasText: 'inbound_webhook_url' }).waitFor();
    expect((await rig.p.api(key, 'GET', `/api/phone-numbers/${numberId}`)).body.inbound_webhook_url).toBeUndefined();
    await fill(page, 'Webhook URL', customerUrl);
    await page.getByRole('button', { name: 'Save webhook' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await checkScreen(page, 'number-webhook', ['[data-testid=webhook-secret]', '#inbound-webhook-heading']);
    expect((await rig.p.api(key, 'GET', `/api/phone-numbers/${numberId}`)).body.inbound_webhook_url).toBe(customerUrl);

    // Two callers: one routed to Billing, one whose ask got a 500 and fell back to the number's agent.
    answer = json(200, { agentId: billing.body._id, variables: { first_name: 'Ada' } });
    await rig.p.platform.twilio!.ringInbound(number, '+14155550761');
    answer = json(500, { error: 'down' });
    await rig.p.platform.twilio!.ringInbound(number, '+14155550762');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: number }).waitFor();
    // Shown once: the page read again leaves the secret out.
    expect(await page.content()).not.toContain(secret);
    const fallback = page.getByRole('row', { name: /Fallback/ });
    await fallback.getByText('HTTP 500: only a 2xx answer is used').waitFor();
    await fallback.getByRole('cell', { name: 'Caller', exact: true }).waitFor();
    const routed = page.getByRole('row', { name: /Routed/ });
    await routed.getByRole('cell', { name: 'Billing', exact: true }).waitFor();
    await routed.getByText(/^200 · \d+ ms/).waitFor();
    await page.locator('#inbound-answers-heading').scrollIntoViewIfNeeded();
    await checkScreen(page, 'number-answers', ['#inbound-answers-heading', 'table']);

    await page.getByRole('button', { name: 'Remove webhook' }).click();
    await page.getByText('Removed: calls are answered').waitFor();
    expect((await rig.p.api(key, 'GET', `/api/phone-numbers/${numberId}`)).body.inbound_webhook_url).toBeUndefined();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Do not call: a number added (a bad one refused with the field named), a CSV uploaded with its report, one removed', async () => {
    const { context, page, problems } = await openDashboard(rig.browser);
    const user = await rig.newUser(page, 'dnc');
    const key = user.session.apiKey;
    await page.getByRole('link', { name: 'Do not call' }).click();
    await page.getByText('Nobody on the list').waitFor();
    await checkScreen(page, 'dnc-empty', ['form', 'main h1']);
    await fill(page, 'Phone number', 'not a number');
    await page.getByRole('button', { name: 'Add number' }).click();
    await page.locator('.field-error').waitFor();
    await fill(page, 'Phone number', '+14155550131');
    await fill(page, 'Reason', 'Asked by email');
    await page.getByRole('button', { name: 'Add number' }).click();
    await page.getByRole('row', { name: /\+14155550131/ }).getByText('Asked by email').waitFor();

    await page.getByRole('button', { name: 'Upload a list' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload a do-not-call list' });
    await page.setInputFiles('#dnc-file', { name: 'dnc.csv', mimeType: 'text/csv', buffer: csv(['phoneNumber', '+14155550132', '(415) 555-0133', '+14155550131', 'nope']) });
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.getByText('2 added, 1 already listed.').waitFor();
    await dialog.getByRole('region', { name: 'Rows not added' }).getByText('nope').waitFor();
    await checkScreen(page, 'dnc-upload', ['.import-report']);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('row', { name: /\+14155550133/ }).waitFor();
    await checkScreen(page, 'dnc-list', ['table']);

    await page.getByRole('button', { name: 'Remove +14155550132' }).click();
    await page.getByRole('dialog', { name: 'Remove this number?' }).getByRole('button', { name: 'Remove number' }).click();
    await page.getByRole('row', { name: /\+14155550132/ }).waitFor({ state: 'detached' });
    const left = (await rig.p.api(key, 'GET', '/api/do-not-call')).body as { data: { phoneNumber: string }[] };
    expect(left.data.map((e) => e.phoneNumber).sort()).toEqual(['+14155550131', '+14155550133']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
