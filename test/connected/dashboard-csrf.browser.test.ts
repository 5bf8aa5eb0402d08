/**
 * Invariant: a page of another origin cannot drive the dashboard's /auth routes in a signed-in person's
 * Chromium. A login CSRF (a form auto-submitted as text/plain whose field name and value concatenate into
 * the attacker's JSON credentials) to /auth/sign-in, from another site (localhost against 127.0.0.1) or
 * from another port of the same host (same site, so even a SameSite=Strict cookie goes along), is refused
 * with the JSON error body: the person's refresh cookie is unchanged, no session key is made for the
 * attacker, and the next visit to the dashboard opens the person's own workspace.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryPrefix } from '../../lib/store/dynamo.js';
import { launchChromium } from '../support/browser.js';
import { PASSWORD, newEmail, openDashboard, signIn } from '../support/dashboard.js';
import { signedUpUser } from '../support/dashboard-api.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let browser: Browser;
let attacker: Server;
let attackerPort: number;

/** The attacker's password ends in `=`: the text/plain encoding puts one between the field's name and value. */
const ATTACKER_PASSWORD = 'Attacker-pass-9=';
const attackerEmail = newEmail('mallory');

/**
 * The attacker's page: a form posted as text/plain to the platform's sign-in, sent as soon as it loads.
 * Chromium encodes it as `name=value\r\n`, so the body reads `{"email":…,"password":"Attacker-pass-9="}`.
 */
function attackerPage(target: string): string {
  const name = `{"email":"${attackerEmail}","password":"${ATTACKER_PASSWORD.slice(0, -1)}`;
  return `<!doctype html><html><body>
<form method="POST" action="${target}/auth/sign-in" enctype="text/plain"><input type="hidden" name='${name}' value='"}'></form>
<script>document.forms[0].submit()</script>
</body></html>`;
}

beforeAll(async () => {
  t = await startTestPlatform();
  browser = await launchChromium();
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(attackerPage(t.baseUrl));
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  await t?.stop();
});

const sessionKeysOf = async (userId: string) => {
  let n = 0;
  for await (const _ of queryPrefix(t.deps.db, `USER#${userId}`, 'SESSION#')) n += 1;
  return n;
};

describe('login CSRF in Chromium', { timeout: 120_000 }, () => {
  it('a cross-site or cross-port text/plain form to /auth/sign-in changes neither the cookie nor the session', async () => {
    // The attacker has an account of their own (one session key from signing up through the API).
    const mallory = await signedUpUser(t.baseUrl, attackerEmail, ATTACKER_PASSWORD, 'Mallory Ltd');
    const malloryKeys = await sessionKeysOf(mallory.session.user.id);

    const victim = await signedUpUser(t.baseUrl, newEmail('victim'), PASSWORD, 'Victim Clinic');
    const { context, page } = await openDashboard(browser);
    await signIn(page, t.baseUrl, victim.email, PASSWORD);
    const refreshCookie = async () => (await context.cookies(`${t.baseUrl}/auth/refresh`)).find((c) => c.name === 'vas_refresh')?.value;
    const before = await refreshCookie();
    expect(before).toBeTruthy();

    // localhost is another site than 127.0.0.1; 127.0.0.1 on another port is the same site, another origin.
    for (const origin of [`http://localhost:${attackerPort}`, `http://127.0.0.1:${attackerPort}`]) {
      const answered = page.waitForResponse((r) => r.url() === `${t.baseUrl}/auth/sign-in`);
      await page.goto(`${origin}/`);
      const res = await answered;
      // The navigation has committed: any cookie its answer set is in the jar now.
      await page.waitForURL(`${t.baseUrl}/auth/sign-in`);
      expect(await refreshCookie(), origin).toBe(before);
      expect(res.status(), origin).toBe(403);
      expect(res.headers()['set-cookie'], origin).toBeUndefined();
      expect(await res.json(), origin).toMatchObject({ error: { code: 'csrf_refused', message: expect.any(String), details: [] } });
    }
    expect(await sessionKeysOf(mallory.session.user.id)).toBe(malloryKeys);

    // The next visit opens the victim's own workspace.
    const refreshed = page.waitForResponse((r) => r.url() === `${t.baseUrl}/auth/refresh`);
    await page.goto(`${t.baseUrl}/dashboard/`);
    const session = await (await refreshed).json();
    expect(session.user.email).toBe(victim.email);
    expect(session.workspace.id).toBe(victim.session.workspace.id);
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    expect(await page.locator('#workspace-switcher option:checked').textContent()).toBe('Victim Clinic (owner)');
    await context.close();
  });
});
