/**
 * Invariant: in a real browser, /docs renders every operation of the route table (method and path) from
 * the served OpenAPI document, loads nothing from any host but the platform's own, and runs without
 * script errors or Content-Security-Policy violations. A try-out pre-fills the documented example and,
 * after Authorize and with the workspaceId replaced as the page says, creates the record.
 */
import { type Browser } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_IDS, OPERATION_EXAMPLES } from '../../lib/http/openapi-examples/index.js';
import { ROUTES, type RouteSpec } from '../../lib/infra/routes.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { WAIT_MS } from '../support/progress.js';

let t: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  t = await startTestPlatform();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

describe('docs page in Chromium', () => {
  it('renders every route as an operation, using only the platform origin', async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
    });

    const routes = Object.entries(ROUTES as Record<string, RouteSpec>);
    const res = await page.goto(`${t.baseUrl}/docs`);
    expect(res?.status()).toBe(200);
    await page.waitForFunction((n) => document.querySelectorAll('.opblock').length >= n, routes.length, { timeout: WAIT_MS });

    const rendered = await page.$$eval('.opblock', (blocks) =>
      blocks.map((b) => ({
        id: b.id,
        method: b.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '',
        path: b.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
        text: (b.querySelector('.opblock-summary-path')?.textContent ?? '').replace(/\u200b/g, ''),
      })),
    );
    expect(rendered.length).toBe(routes.length);
    const seen = rendered.map((r) => `${r.method} ${r.path}`).sort();
    expect(seen).toEqual(routes.map(([, r]) => `${r.method} ${r.path}`).sort());
    for (const [id, route] of routes) {
      const block = rendered.find((r) => r.id.endsWith(`-${id}`));
      expect(block, id).toBeDefined();
      expect(block!.method).toBe(route.method);
      expect(block!.text).toContain(route.path);
    }
    const intro = await page.textContent('.information-container');
    expect(intro).toContain('x-api-key');
    if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: false });

    expect(requests.some((u) => new URL(u).pathname === '/api/openapi.json')).toBe(true);
    const foreign = requests.filter((u) => !u.startsWith('data:') && new URL(u).hostname !== '127.0.0.1');
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a try-out pre-fills the documented example and, after Authorize, creates the agent', async () => {
    const ws = await t.workspace();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(`${t.baseUrl}/docs`);
    await page.waitForSelector('.btn.authorize');
    await page.click('.btn.authorize');
    await page.fill('.modal-ux input[type=text], .modal-ux input[type=password]', ws.apiKey);
    await page.click('.modal-ux .auth-btn-wrapper button[type=submit]');
    await page.click('.modal-ux .btn-done, .modal-ux .close-modal');

    const op = '#operations-Agents-createAgent';
    await page.click(`${op} .opblock-summary`);
    await page.click(`${op} .try-out__btn`);
    const textarea = `${op} textarea.body-param__text`;
    await page.waitForSelector(textarea);
    const prefilled = JSON.parse(await page.inputValue(textarea));
    expect(prefilled).toEqual(OPERATION_EXAMPLES.createAgent!.request);
    await page.fill(textarea, JSON.stringify(prefilled, null, 2).replace(EXAMPLE_IDS.workspace, ws.workspaceId));
    await page.click(`${op} .btn.execute`);
    const status = `${op} .live-responses-table tr.response .response-col_status`;
    await page.waitForSelector(status, { timeout: WAIT_MS });
    expect((await page.textContent(status))?.trim()).toBe('201');
    const listed = await t.api(ws.apiKey, 'GET', '/api/agents');
    expect(listed.body.data.map((a: { name: string }) => a.name)).toEqual([prefilled.name]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
