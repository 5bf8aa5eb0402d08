/**
 * Writes test/durations.json, the order a first run starts its files in (vitest.config.ts), from a whole
 * run's JSON report:
 *
 *   npm test -- --reporter=default --reporter=json --outputFile=/tmp/run.json
 *   npx tsx test/support/record-durations.ts /tmp/run.json
 *
 * Each file's seconds from its start to its end in that run, rounded to a tenth. Run it after a whole run
 * on an otherwise idle machine when files have been added or have changed much; a file missing from it
 * starts first in its group.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = fileURLToPath(new URL('../durations.json', import.meta.url));

interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const report = process.argv[2];
if (!report) {
  console.error('usage: npx tsx test/support/record-durations.ts <vitest JSON report>');
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as Report;
const seconds = testResults
  .map((r) => [relative(ROOT, r.name), Math.round((r.endTime - r.startTime) / 100) / 10] as const)
  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
writeFileSync(OUT, `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`);
console.log(`${OUT}: ${seconds.length} files`);
