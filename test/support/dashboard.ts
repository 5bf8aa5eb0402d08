import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { confirmationCodeOf } from '../../lib/local/platform/cognito.js';
import { axeViolations, expectOnScreen } from './page-checks.js';
import { WAIT_MS } from './progress.js';

/**
 * Driving the dashboard in Chromium: a context per user (its own cookie jar), the page's console errors
 * and failed requests collected, and the sign-up → confirm → sign-in path a new user takes.
 */

export interface DashboardUser {
  readonly email: string;
  readonly password: string;
  /** The session of the last sign-in, as the page received it (its key is a normal x-api-key). */
  session: { apiKey: string; workspace: { id: string; name: string; role: string }; user: { id: string; email: string } };
}

export interface OpenDashboard {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught exceptions; 4xx answers the page expects are not errors. */
  readonly problems: string[];
}

export async function openDashboard(browser: Browser, viewport = { width: 1280, height: 860 }): Promise<OpenDashboard> {
  const context = await browser.newContext({ viewport });
  // Every wait is for an event (an element, a response); the bound only ends a test that went wrong.
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${String(e)}`));
  page.on('console', (m) => {
    // Chromium logs every non-2xx resource load; the tests assert those answers themselves.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
  });
  return { context, page, problems };
}

let seq = 0;
export const newEmail = (tag: string) => `${tag}-${process.pid}-${Date.now()}-${seq++}@example.com`;
export const PASSWORD = 'Correct-horse-9';

/** The page is accessible (axe, WCAG 2.1 AA) and the named elements are on screen; the screenshot is saved. */
export async function checkScreen(page: Page, name: string, selectors: readonly string[]): Promise<void> {
  expect(await axeViolations(page), name).toEqual([]);
  await expectOnScreen(page, `dashboard-${name}`, selectors);
}

/** Fills a field found by its label. */
export const fill = (page: Page, label: string, value: string) => page.getByLabel(label, { exact: true }).fill(value);

/** Signs in through the form and waits for the first signed-in page; returns the session the page got. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<DashboardUser['session']> {
  if (!page.url().includes('/dashboard/sign-in')) await page.goto(`${baseUrl}/dashboard/sign-in`);
  await fill(page, 'Email', email);
  await fill(page, 'Password', password);
  const answer = page.waitForResponse((r) => r.url().endsWith('/auth/sign-in'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  const res = await answer;
  expect(res.status()).toBe(200);
  await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
  return (await res.json()) as DashboardUser['session'];
}

/**
 * The code cognito-local "emailed" to `email` last (sign-up or password reset): the tests' stand-in for
 * reading the mailbox. cognito-local is shared by the test run (global setup).
 */
export async function emailedCode(email: string): Promise<string> {
  const { dataDir, userPoolId } = inject('stores').cognito;
  const code = await confirmationCodeOf(dataDir, userPoolId, email.toLowerCase());
  if (!code) throw new Error(`no code was sent to ${email}`);
  return code;
}
