import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/**
 * The widget's served script (lib/web/widget/assets/widget.js) is the bundle of its ES module sources in
 * src/: one classic script (an IIFE), because a customer page includes it with one `<script src>` tag and
 * nothing else. The bundle is committed, so serving, deploying and the benchmarks read a plain file as
 * before; `npm run build:widget` writes it and test/unit/widget-build.test.ts fails when it is stale.
 * Not minified: the served file stays readable in a browser's devtools, and it is gzipped on the wire.
 */
export const WIDGET_ENTRY = fileURLToPath(new URL('./src/main.js', import.meta.url));
export const WIDGET_BUNDLE = fileURLToPath(new URL('./assets/widget.js', import.meta.url));

/** The first line of the bundle: what it is and where to edit it. */
export const GENERATED_BANNER = '// Generated from lib/web/widget/src/ by `npm run build:widget`: edit the sources, not this file.';

/** The bundle's text, built in memory. */
export async function buildWidgetScript(): Promise<string> {
  const result = await build({
    entryPoints: [WIDGET_ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    // The sources' own syntax, untouched: the bundle only joins the modules.
    target: 'es2022',
    legalComments: 'none',
    charset: 'utf8',
    banner: { js: GENERATED_BANNER },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
