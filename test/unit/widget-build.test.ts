import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildWidgetScript, GENERATED_BANNER, WIDGET_BUNDLE } from '../../lib/web/widget/build.js';

/** The served widget script is the bundle of its sources as they are now (lib/web/widget/build.ts). */
describe('the widget bundle', () => {
  it('is current: `npm run build:widget` writes what is committed', async () => {
    const built = await buildWidgetScript();
    expect(built.startsWith(`${GENERATED_BANNER}\n`)).toBe(true);
    expect(readFileSync(WIDGET_BUNDLE, 'utf8') === built, 'lib/web/widget/assets/widget.js is stale: run `npm run build:widget`').toBe(true);
  });

  it('is one classic script: no import or export left for a page to resolve', async () => {
    const built = await buildWidgetScript();
    expect(built).not.toMatch(/^\s*(import|export)\s/m);
    expect(built).toContain('document.currentScript');
  });
});
