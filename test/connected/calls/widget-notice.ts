import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, expectOnScreen } from '../../support/page-checks.js';

/**
 * The widget's simulated-vendors notice as a visitor meets it: one short line (at most two lines of text
 * tall) on screen with the rest of the panel, the whole message closed behind "Details"; the disclosure
 * opens from the keyboard and shows `details`, and the panel passes axe both ways. Leaves it closed.
 * Screenshots `<name>` and `<name>-details`.
 */
export async function expectStandInsNotice(page: Page, name: string, expected: { line: string; details: RegExp; alsoOnScreen: readonly string[] }): Promise<void> {
  const notice = page.locator('[data-voice-agent-widget] .stand-ins');
  expect(await notice.locator('.stand-ins-line').textContent()).toBe(expected.line);
  expect(await notice.locator('.stand-ins-text').isVisible()).toBe(false);
  const lines = await notice.evaluate((el) => {
    const style = getComputedStyle(el);
    const inner = el.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
    return Math.round(inner / parseFloat(style.lineHeight));
  });
  expect(lines, 'lines of text in the notice').toBeLessThanOrEqual(2);
  expect(await axeViolations(page)).toEqual([]);
  await expectOnScreen(page, name, [...expected.alsoOnScreen, '[data-voice-agent-widget] .stand-ins']);
  const summary = notice.locator('summary');
  await summary.focus();
  await summary.press('Enter');
  expect(await notice.locator('details').getAttribute('open')).toBe('');
  expect(await notice.locator('.stand-ins-text').textContent()).toMatch(expected.details);
  expect(await axeViolations(page)).toEqual([]);
  await expectOnScreen(page, `${name}-details`, ['[data-voice-agent-widget] .stand-ins-text']);
  await summary.press('Enter');
  expect(await notice.locator('.stand-ins-text').isVisible()).toBe(false);
}
