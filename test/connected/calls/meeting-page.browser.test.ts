/**
 * Invariant: in a real browser with scripts turned off, a meeting link still behaves: the Join page names
 * the agent, its Join button takes keyboard focus, clicking it POSTs the token in the body (the URL after
 * joining carries no token) and lands on the joined page, which says the call needs JavaScript; nothing
 * violates the page's CSP or loads from anywhere but this origin; opening the link again shows it used
 * (410). Every state of the page (Join, joined, used, not found) passes axe-core's WCAG 2.1 AA rules.
 * (The page with its script, in a call, is test/connected/calls/meeting-call.browser.test.ts.)
 */
import axe from 'axe-core';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from '../../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
let browser: Browser;

beforeAll(async () => {
  p = await startCallsPlatform({ dispatchPoller: false });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await p?.stop();
});

/**
 * axe-core's WCAG A/AA violations on the page as it is now. This page runs no script, so axe runs in a
 * second context that does: the same document at the same URL (so its stylesheet loads), the page's own
 * script held back so the copy stays as the person sees it.
 */
async function axeViolations(page: Page): Promise<string[]> {
  const html = await page.content();
  const url = page.url();
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const copy = await context.newPage();
    await copy.route('**/meeting/assets/meeting.js', (route) => route.abort());
    await copy.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await copy.goto(url);
    await copy.addScriptTag({ content: axe.source });
    const result = await copy.evaluate(() =>
      (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }),
    );
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
  } finally {
    await context.close();
  }
}

describe('meeting link in Chromium', () => {
  it('shows the agent, joins on click, and is used afterwards', async () => {
    const s = await p.callerSetup(100);
    const created = await p.api(s.apiKey, 'POST', '/api/optimus/meeting-link', { assistantId: s.agentId, workspaceId: s.workspaceId });
    expect(created.status).toBe(201);
    const roomUrl = String(created.body.room_url).replace(/^http:\/\/[^/]+/, p.baseUrl);

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== p.baseUrl) foreign.push(r.url());
      if (r.resourceType() === 'document') requests.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // The used link's 410 is expected; Chromium logs every 4xx document as a failed load.
      if (/status of 4(04|10)/.test(m.text())) return;
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
    });

    const opened = await page.goto(roomUrl);
    expect(opened?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Call with Caller');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    // Before joining, the page warns that the call needs JavaScript (joining uses the link up).
    expect(await page.locator('p.notice').textContent()).toContain('before you join');
    const join = page.getByRole('button', { name: 'Join' });
    expect(await join.count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    if (process.env.MEETING_SCREENSHOT) await page.screenshot({ path: `${process.env.MEETING_SCREENSHOT}-join.png` });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Join');

    const [joined] = await Promise.all([page.waitForNavigation(), join.click()]);
    expect(joined?.status()).toBe(200);
    expect(joined?.request().method()).toBe('POST');
    expect(new URL(page.url()).pathname).toBe(`/meeting/${created.body.call_id}/join`);
    expect(page.url()).not.toContain('token');
    expect(await page.textContent('h1')).toBe('Call with Caller');
    expect(await page.locator('p.notice').textContent()).toContain('ask for a new link');
    expect(await axeViolations(page)).toEqual([]);
    if (process.env.MEETING_SCREENSHOT) await page.screenshot({ path: `${process.env.MEETING_SCREENSHOT}-joined.png` });

    const again = await page.goto(roomUrl);
    expect(again?.status()).toBe(410);
    expect(await axeViolations(page)).toEqual([]);
    if (process.env.MEETING_SCREENSHOT) await page.screenshot({ path: `${process.env.MEETING_SCREENSHOT}-used.png` });
    const unknown = await page.goto(roomUrl.replace(/token=[^&]+/, 'token=wrong'));
    expect(unknown?.status()).toBe(404);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
    expect(requests).toEqual([`GET /meeting/${created.body.call_id}`, `POST /meeting/${created.body.call_id}/join`, `GET /meeting/${created.body.call_id}`, `GET /meeting/${created.body.call_id}`]);
    await context.close();
  });
});
