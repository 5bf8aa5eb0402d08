import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * axe-core's WCAG 2.1 A/AA violations on the page as it is now, run inside the page itself. Playwright's
 * evaluate is not subject to the page's CSP (which rightly refuses injected script tags), so axe sees the
 * real page: its stylesheet, its hidden sections, its live state.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Once per document: a single-page app keeps it across screens, and axe's 1.5 MB of script is parsed only once.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const result = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }),
  );
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * What a person sees: each selector's element is visible, lies wholly inside the viewport, and is the
 * topmost thing at its centre (not covered by anything else). With MEETING_SCREENSHOT set, the screen is
 * saved as `$MEETING_SCREENSHOT-<name>.png` for a person to look at (a screenshot the run keeps in memory
 * only proves nothing the checks above do not, and cost the dashboard file a sixth of its browser's CPU).
 */
export async function expectOnScreen(page: Page, name: string, selectors: readonly string[]): Promise<void> {
  const viewport = page.viewportSize()!;
  for (const selector of selectors) {
    const element = page.locator(selector);
    expect(await element.isVisible(), `${name}: ${selector} visible`).toBe(true);
    const box = (await element.boundingBox())!;
    expect(box.width > 0 && box.height > 0, `${name}: ${selector} has a size`).toBe(true);
    expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width + 0.5 && box.y + box.height <= viewport.height + 0.5, `${name}: ${selector} inside the ${viewport.width}x${viewport.height} viewport (${JSON.stringify(box)})`).toBe(true);
    const onTop = await element.evaluate((el) => {
      const r = el.getBoundingClientRect();
      // Inside a shadow root (the widget), the document's hit test stops at the host: ask the root itself.
      const scope = el.getRootNode() as Document | ShadowRoot;
      const hit = scope.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return hit !== null && (hit === el || el.contains(hit));
    });
    expect(onTop, `${name}: ${selector} not covered`).toBe(true);
  }
  if (process.env.MEETING_SCREENSHOT) await page.screenshot({ path: `${process.env.MEETING_SCREENSHOT}-${name}.png` });
}
