/**
 * Invariant: in a real browser a meeting link works by keyboard and mouse without any script: the Join page
 * names the agent, its Join button takes keyboard focus, clicking it POSTs the token in the body (the URL
 * after joining carries no token) and lands on the admitted page; nothing violates the page's CSP or loads
 * from anywhere; opening the link again shows it used (410).
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
let browser: Browser;

beforeAll(async () => {
  p = await startCallsPlatform({ dispatchPoller: false });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
afterAll(async () => {
  await browser?.close();
  await p?.stop();
});

describe('meeting link in Chromium', () => {
  it('shows the agent, joins on click, and is used afterwards', async () => {
    const s = await p.callerSetup(100);
    const created = await p.api(s.apiKey, 'POST', '/api/optimus/meeting-link', { assistantId: s.agentId, workspaceId: s.workspaceId });
    expect(created.status).toBe(201);
    const roomUrl = String(created.body.room_url).replace(/^http:\/\/[^/]+/, p.baseUrl);

    const page = await browser.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // The used link's 410 is expected; Chromium logs every 4xx document as a failed load.
      if (/status of 410/.test(m.text())) return;
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
    });

    const opened = await page.goto(roomUrl);
    expect(opened?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Call with Caller');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    const join = page.getByRole('button', { name: 'Join' });
    expect(await join.count()).toBe(1);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Join');

    const [joined] = await Promise.all([page.waitForNavigation(), join.click()]);
    expect(joined?.status()).toBe(200);
    expect(joined?.request().method()).toBe('POST');
    expect(new URL(page.url()).pathname).toBe(`/meeting/${created.body.call_id}/join`);
    expect(page.url()).not.toContain('token');
    expect(await page.textContent('h1')).toBe('Connecting you to Caller…');

    const again = await page.goto(roomUrl);
    expect(again?.status()).toBe(410);
    expect(problems).toEqual([]);
    expect(requests).toEqual([`GET /meeting/${created.body.call_id}`, `POST /meeting/${created.body.call_id}/join`, `GET /meeting/${created.body.call_id}`]);
    await page.close();
  });
});
