/**
 * `npm run bench -- import`: contact import throughput and memory through the HTTP API.
 *
 * A 10,000-row CSV and the same rows as an .xlsx are uploaded to POST /api/contacts/upload on the local
 * platform (the same handler module Lambda runs) against DynamoDB Local, each into a fresh workspace; then
 * the CSV again, where every row is found existing. Printed: rows settled per second (imported or skipped)
 * and its ratio to the 1,000 rows/s target and to a baseline measured in the same run (the same 10,000
 * contacts written straight through the store's bulk insert: no HTTP, no parsing), and the peak RSS and
 * heap of this process (sampled every 10 ms) above the level before the upload. The process holds the
 * client's copy of the form as well as the handler's, so the peaks overstate the handler.
 *
 * An upload stops starting writes 20 s in (UPLOAD_WRITE_BUDGET_MS) and reports the rest as row errors; on
 * a machine where DynamoDB Local cannot reach 500 rows/s the first case shows that cut.
 *
 * Benchmarks report; they never fail the run. DynamoDB Local is far slower per write than DynamoDB, so the
 * rows/s here are a floor for the write path, not a forecast of production.
 */
import { loadavg } from 'node:os';
import writeXlsxFile from 'write-excel-file/node';
import type { RunningPlatform } from '../lib/local/platform/platform.js';
import type { Contact } from '../lib/domain/contact.js';
import { newId } from '../lib/domain/ids.js';
import { IMPORT_CONCURRENCY, putNewContacts } from '../lib/store/contact-import.js';
import { getDeps } from '../lib/deps.js';
import { createWorkspace } from '../lib/store/workspaces.js';
import { withBenchPlatform } from './_platform.js';

const ROWS = 10_000;
/** Rows of the warm-up upload: enough for the DynamoDB Local JVM to compile its write path. */
const WARMUP_ROWS = 2_000;
const TARGET_ROWS_PER_S = 1_000;
const SAMPLE_MS = 10;
const BENCH_TABLE = 'bench-import';
const BUCKET = 'voice-agents-recordings';
const MiB = 1024 * 1024;

/** A plausible contact row: name, number, region left blank (derived), and three custom columns. */
function rows(count = ROWS): string[][] {
  const out = [['contactName', 'phoneNumber', 'region', 'email', 'company', 'notes']];
  for (let i = 0; i < count; i += 1) {
    out.push([
      `Customer ${i}`,
      `+1415${String(5_550_000 + i).padStart(7, '0')}`,
      '',
      `customer${i}@example.com`,
      `Company ${i % 97}`,
      i % 10 === 0 ? 'Prefers calls after 5pm, "no voicemail"' : '',
    ]);
  }
  return out;
}

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

interface Sample {
  readonly rss: number;
  readonly heap: number;
}

/** Samples memory until stopped; returns the peaks. */
function sampleMemory(): { stop(): Sample } {
  let rss = 0;
  let heap = 0;
  const take = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  take();
  const timer = setInterval(take, SAMPLE_MS);
  return {
    stop() {
      take();
      clearInterval(timer);
      return { rss, heap };
    },
  };
}

interface CaseResult {
  readonly name: string;
  readonly bytes: number;
  readonly seconds: number;
  readonly result: { imported: number; skipped: number; errors: unknown[] };
  readonly base: Sample;
  readonly peak: Sample;
}

async function uploadCase(platform: RunningPlatform, name: string, file: Uint8Array, filename: string, ws?: { workspaceId: string; apiKey: string }) {
  const deps = await getDeps();
  const target = ws ?? (await createWorkspace(deps.db, { name: `bench ${name}`, credits: 0 }));
  const form = new FormData();
  form.append('workspaceId', target.workspaceId);
  form.append('file', new Blob([new Uint8Array(file)]), filename);
  const now = process.memoryUsage();
  const base = { rss: now.rss, heap: now.heapUsed };
  const sampler = sampleMemory();
  const started = performance.now();
  const res = await fetch(`${platform.baseUrl}/api/contacts/upload`, { method: 'POST', headers: { 'x-api-key': target.apiKey }, body: form });
  const body = (await res.json()) as CaseResult['result'];
  const seconds = (performance.now() - started) / 1000;
  const peak = sampler.stop();
  if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { result: { name, bytes: file.length, seconds, result: body, base, peak } satisfies CaseResult, workspace: target };
}

/** The same 10,000 contacts written straight through the store's bulk insert: the write floor of this machine. */
async function storeBaseline(): Promise<number> {
  const deps = await getDeps();
  const ws = await createWorkspace(deps.db, { name: 'bench baseline', credits: 0 });
  const now = new Date().toISOString();
  const contacts: Contact[] = rows().slice(1).map(([contactName, phoneNumber, , email, company]) => ({
    _id: newId('contact'),
    contactName: contactName!,
    phoneNumber: phoneNumber!,
    region: 'US',
    workspaceId: ws.workspaceId,
    externalFields: { email: email!, company: company! },
    createdAt: now,
    updatedAt: now,
  }));
  const started = performance.now();
  const out = await putNewContacts(deps.db, ws.workspaceId, contacts);
  if (out.created !== ROWS) throw new Error(`baseline wrote ${out.created} of ${ROWS}`);
  return ROWS / ((performance.now() - started) / 1000);
}

function print(results: readonly CaseResult[], baseline: number): void {
  const mb = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
  process.stdout.write(`\n${ROWS.toLocaleString('en-US')} rows per file; target ${TARGET_ROWS_PER_S} rows/s; ${IMPORT_CONCURRENCY} transactions in flight\n`);
  process.stdout.write(`baseline (store bulk insert, no HTTP, no parsing): ${baseline.toFixed(0)} rows/s = ${(baseline / TARGET_ROWS_PER_S).toFixed(2)}x target\n\n`);
  process.stdout.write('| case | file | imported / skipped / errors | seconds | rows/s settled | vs target | vs baseline | peak RSS (+ over start) | peak heap (+ over start) |\n');
  process.stdout.write('|---|---|---|---|---|---|---|---|---|\n');
  for (const r of results) {
    const rate = (r.result.imported + r.result.skipped) / r.seconds;
    process.stdout.write(
      `| ${r.name} | ${mb(r.bytes)} | ${r.result.imported} / ${r.result.skipped} / ${r.result.errors.length} | ${r.seconds.toFixed(2)} | ${rate.toFixed(0)} | ${(rate / TARGET_ROWS_PER_S).toFixed(2)}x | ${(rate / baseline).toFixed(2)}x | ${mb(r.peak.rss)} (+${mb(r.peak.rss - r.base.rss)}) | ${mb(r.peak.heap)} (+${mb(r.peak.heap - r.base.heap)}) |\n`,
    );
  }
}

/** Runs the suite against a fresh in-memory DynamoDB Local and a local platform in this process. */
export async function run(): Promise<void> {
  process.stdout.write(`1-minute load average at the start: ${loadavg()[0]!.toFixed(1)}\n`);
  // One JSON log line per request is not what is being measured.
  process.env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'silent';
  await withBenchPlatform({ dataDirPrefix: 'vap-bench-import-', table: BENCH_TABLE, bucket: BUCKET }, async (platform) => {
    const table = rows();
    const csv = Buffer.from(table.map((r) => r.map(csvCell).join(',')).join('\r\n'), 'utf8');
    const xlsx = await writeXlsxFile(table).toBuffer();
    // Warm-up, outside the measurement: loads the handler module, JIT-compiles the parse path, and lets the
    // DynamoDB Local JVM compile its write path (DynamoDB itself has no such warm-up).
    const warm = rows(WARMUP_ROWS);
    await uploadCase(platform, 'warm-up', Buffer.from(warm.map((r) => r.map(csvCell).join(',')).join('\r\n')), 'w.csv');
    const baseline = await storeBaseline();
    const results: CaseResult[] = [];
    const first = await uploadCase(platform, 'CSV, new contacts', csv, 'contacts.csv');
    results.push(first.result);
    results.push((await uploadCase(platform, '.xlsx, new contacts', xlsx, 'contacts.xlsx')).result);
    results.push((await uploadCase(platform, 'CSV again, all existing', csv, 'contacts.csv', first.workspace)).result);
    print(results, baseline);
  });
}
