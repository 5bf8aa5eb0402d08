import type { Page } from 'playwright-core';
import { PASSWORD, emailedCode, fill, newEmail, signIn, type DashboardUser } from '../support/dashboard.js';

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
