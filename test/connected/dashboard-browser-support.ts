import type { Browser, Page } from 'playwright-core';
import { PASSWORD, emailedCode, fill, newEmail, signIn, type DashboardUser } from '../support/dashboard.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { startCallsPlatform, type CallsPlatform } from '../support/calls.js';
import type { CalleeBehaviour } from '../../lib/local/standins/twilio/callee.js';
import { addCredits } from '../../lib/store/workspaces.js';

/** What the dashboard's browser files share (./dashboard.browser.test.ts, ./dashboard-pages.browser.test.ts). */

/** A user who signed up through the pages and is signed in on `page`. */
export async function signUpThroughPages(page: Page, baseUrl: string, tag: string): Promise<DashboardUser> {
  const email = newEmail(tag);
  await page.goto(`${baseUrl}/dashboard/sign-up`);
  await fill(page, 'Email', email);
  await fill(page, 'Password', PASSWORD);
  await fill(page, 'Workspace name', `${tag} team`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  await fill(page, 'Confirmation code', await emailedCode(email));
  await page.getByRole('button', { name: 'Confirm account' }).click();
  await page.getByText('Your account is confirmed').waitFor();
  const session = await signIn(page, baseUrl, email, PASSWORD);
  return { email, password: PASSWORD, session };
}

/**
 * A dashboard browser file's platform and Chromium, started before its tests and stopped after them, and a
 * new user signed up through the pages.
 */
export function dashboardRig() {
  const rig = {
    p: undefined as unknown as CallsPlatform,
    browser: undefined as unknown as Browser,
    /** A user who signed up through the pages and is signed in on `page`. */
    newUser: (page: Page, tag: string): Promise<DashboardUser> => signUpThroughPages(page, rig.p.baseUrl, tag),
    /** A new user signed in on `page` whose workspace has 100 credits, an agent and a number to call from. */
    caller: async (page: Page, tag: string) => {
      const user = await rig.newUser(page, tag);
      const key = user.session.apiKey;
      await addCredits(rig.p.deps.db, user.session.workspace.id, 100);
      return { user, key, ...(await rig.p.agentAndNumber(key)) };
    },
    /** Places a call from the caller's number to `to`, where the Twilio stand-in's person does `callee`; its id. */
    call: async (from: { key: string; agentId: string; numberId: string }, to: string, callee: CalleeBehaviour): Promise<string> => {
      rig.p.platform.callSimulator!.setRule(to, callee);
      const started = await rig.p.api(from.key, 'POST', '/api/optimus/phone-call', { assistantId: from.agentId, phoneNumber: to, phoneNumberId: from.numberId });
      expect(started.status).toBe(202);
      return (started.body as { call_id: string }).call_id;
    },
  };
  beforeAll(async () => {
    rig.p = await startCallsPlatform();
    // Recordings play without a click in the test (a person presses Play).
    rig.browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  });
  afterAll(async () => {
    await rig.browser?.close();
    await rig.p?.stop();
  });
  return rig;
}
