/**
 * Invariant: GET / (the first URL `npm start` prints) is an HTML page, not a JSON 404: it names the
 * dashboard, the API reference and the OpenAPI document with links that answer 200, runs no script,
 * carries the same strict headers as the other pages (a CSP with no 'unsafe-inline', nosniff, no framing),
 * and in Chromium it renders without CSP violations or WCAG 2.1 A/AA violations.
 */
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_LINKS } from '../../lib/web/home/page.js';
import { launchChromium } from '../support/browser.js';
import { axeViolations, expectOnScreen } from '../support/page-checks.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

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

describe('GET / over HTTP', () => {
  it('answers an HTML page under a strict CSP, without an API key', async () => {
    const res = await fetch(`${t.baseUrl}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('script-src');
    const html = await res.text();
    expect(html).not.toContain('<script');
    for (const link of START_LINKS) expect(html).toContain(`href="${link.href}"`);
  });

  it('links only to places that answer 200', async () => {
    expect(START_LINKS.map((l) => l.href)).toEqual(['/dashboard/', '/docs', '/api/openapi.json']);
    for (const link of START_LINKS) expect((await fetch(`${t.baseUrl}${link.href}`)).status, link.href).toBe(200);
  });

  it('other methods on / are the JSON 405 naming GET', async () => {
    const res = await fetch(`${t.baseUrl}/`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect((await res.json()).error.code).toBe('method_not_allowed');
  });
});

describe('GET / in Chromium', () => {
  it('renders its links with no CSP or accessibility violations', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    expect((await page.goto(`${t.baseUrl}/`))?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Voice Agent Platform');
    // The inline style applied (its hash is in the CSP): the list lost its bullets.
    expect(await page.$eval('ul', (ul) => getComputedStyle(ul).listStyleType)).toBe('none');
    const names = await page.$$eval('nav a', (as) => as.map((a) => a.textContent));
    expect(names).toEqual(START_LINKS.map((l) => l.label));
    await expectOnScreen(page, 'start', ['h1', 'nav a[href="/dashboard/"]', 'nav a[href="/docs"]', 'nav a[href="/api/openapi.json"]']);
    expect(await axeViolations(page)).toEqual([]);
    await page.click('nav a[href="/docs"]');
    await page.waitForURL(`${t.baseUrl}/docs`);
    expect(problems).toEqual([]);
    await page.close();
  });
});
