/**
 * `npm run bench -- NAME [NAME...]`: runs the named benchmark suites (bench/NAME.ts, each exporting
 * `run(): Promise<void>`), or every suite when none is named. Benchmarks print ratios against a baseline
 * measured in the same run, never absolute pass/fail thresholds.
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const available = (await readdir(here))
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length > 0) {
  process.stderr.write(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${available.join(', ')}\n`);
  process.exit(2);
}
for (const name of wanted.length > 0 ? wanted : available) {
  process.stdout.write(`\n## ${name}\n`);
  const suite = (await import(pathToFileURL(`${here}${name}.ts`).href)) as { run(): Promise<void> };
  await suite.run();
}
process.exit(0);
