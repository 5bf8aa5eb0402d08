/**
 * The embeddable widget's weight on a visitor's page (docs/widget.md, docs/benchmarks.md): the bytes the
 * browser downloads, gzipped exactly as the server sends them (lib/http/static-assets.ts), for the loader
 * with its panel (every page view) and for the audio module and worklets (the first voice call only). The
 * budget is 35 KB gzipped for the loader and panel; the ratio says how much of it is used.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { transform } from 'esbuild';
import { MEETING_ASSETS_SOURCE } from '../lib/web/meeting/assets.js';
import { WIDGET_ASSETS_SOURCE, WIDGET_SCRIPT } from '../lib/web/widget/assets.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUDGET_BYTES = 35 * 1024;

/** Loaded on every page view that has the tag. */
const PAGE_VIEW = [`${WIDGET_ASSETS_SOURCE}/${WIDGET_SCRIPT}`];
/** Loaded from our origin when a visitor starts a voice call (shared with the meeting page). */
const FIRST_CALL = ['meeting-media.js', 'web-call.js', 'capture-worklet.js', 'playback-worklet.js'].map((f) => `${MEETING_ASSETS_SOURCE}/${f}`);

interface Row { file: string; raw: number; gzip: number; minGzip: number }

async function measure(file: string): Promise<Row> {
  const text = await readFile(`${root}${file}`, 'utf8');
  // What a build step would save (there is none: the files are served as written).
  const minified = (await transform(text, { minify: true, loader: 'js', format: file.endsWith('widget.js') ? 'iife' : 'esm' })).code;
  return { file, raw: Buffer.byteLength(text), gzip: gzipSync(text).length, minGzip: gzipSync(minified).length };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

export async function run(): Promise<void> {
  const rows = await Promise.all([...PAGE_VIEW, ...FIRST_CALL].map(measure));
  process.stdout.write('| file | raw | gzip (served) | minified + gzip |\n|---|---|---|---|\n');
  for (const r of rows) process.stdout.write(`| ${r.file} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.minGzip)} |\n`);
  const sum = (files: string[]) => rows.filter((r) => files.includes(r.file)).reduce((n, r) => n + r.gzip, 0);
  const pageView = sum(PAGE_VIEW);
  const total = pageView + sum(FIRST_CALL);
  process.stdout.write(`\nEvery page view (loader + panel): ${kb(pageView)} gzipped = ${((pageView / BUDGET_BYTES) * 100).toFixed(0)}% of the ${kb(BUDGET_BYTES)} budget\n`);
  process.stdout.write(`With a voice call (+ audio module and worklets): ${kb(total)} gzipped = ${((total / BUDGET_BYTES) * 100).toFixed(0)}% of the budget\n`);
  // The last line: one JSON object of the figures, like every suite.
  process.stdout.write(
    `${JSON.stringify({ suite: 'widget', pageViewGzipBytes: pageView, withCallGzipBytes: total, budgetBytes: BUDGET_BYTES, pageViewShareOfBudget: Math.round((pageView / BUDGET_BYTES) * 1000) / 1000 })}\n`,
  );
}
