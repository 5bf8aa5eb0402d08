/**
 * Invariant: in a real browser, /docs renders every operation of the route table (method and path) from
 * the served OpenAPI document, loads nothing from any host but the platform's own, and runs without
 * script errors or Content-Security-Policy violations.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteSpec } from '../../lib/infra/routes.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  t = await startTestPlatform();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
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
    await page.waitForFunction((n) => document.querySelectorAll('.opblock').length >= n, routes.length, { timeout: 20_000 });

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
});
