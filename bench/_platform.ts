import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform, type RunningPlatform } from '../lib/local/platform/platform.js';
import { startStores, type LocalStores } from '../lib/local/platform/stores.js';
import type { LocalVoiceOptions } from '../streaming-service/src/local.js';

/** Where a benchmark's private platform keeps its data. */
export interface BenchPlatformOptions {
  /** Prefix of the temporary DATA_DIR, so a leftover directory says which suite left it. */
  readonly dataDirPrefix: string;
  readonly table: string;
  readonly bucket: string;
  /** Scripts for the voice stand-ins (the voice benchmarks). */
  readonly voice?: LocalVoiceOptions;
  /** Run the platform's own campaign timer (off for the campaign benchmark, which ticks itself). */
  readonly campaignScheduler?: boolean;
}

/**
 * Runs `body` against a platform of its own: fresh stores (an in-memory DynamoDB Local among them), a
 * temporary DATA_DIR and the given table, all stopped and removed afterwards. Ctrl-C or a timeout's SIGTERM
 * stops them too before exiting, because the DynamoDB Local JVM does not die with its parent.
 */
export async function withBenchPlatform<T>(options: BenchPlatformOptions, body: (platform: RunningPlatform) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), options.dataDirPrefix));
  let stores: LocalStores | undefined;
  let platform: RunningPlatform | undefined;
  const stopOnSignal = (signal: NodeJS.Signals) => {
    void Promise.allSettled([platform?.stop(), stores?.stop(), rm(dataDir, { recursive: true, force: true })]).finally(() =>
      process.exit(signal === 'SIGINT' ? 130 : 143),
    );
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    stores = await startStores(undefined, options.bucket);
    platform = await startPlatform(
      { PORT: 0, HOST: '127.0.0.1', DATA_DIR: dataDir, TABLE_NAME: options.table, BUCKET_NAME: options.bucket },
      { stores, persist: false, voice: options.voice, campaignScheduler: options.campaignScheduler },
    );
    return await body(platform);
  } finally {
    await platform?.stop();
    await stores?.stop();
    await rm(dataDir, { recursive: true, force: true });
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
  }
}
