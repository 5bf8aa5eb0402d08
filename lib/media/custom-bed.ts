import { CUSTOM_BED_MAX_BYTES, CUSTOM_BED_MIN_MS, type AmbienceConfig } from '../domain/ambience.js';
import { isShippedSound } from '../domain/ambience-sounds.js';
import { pinnedFetch, type PinnedFetch } from '../outbound/pinned-fetch.js';
import { resample } from '../vendors/shared/mulaw.js';
import { shippedBed } from './ambience-beds.js';
import { decodeWav } from './wav.js';

/** A call's bed: its samples at the transport's rate (a custom file may still be on its way) and its volume. */
export interface AmbienceSource {
  readonly volume: number;
  loop(sampleRate: number): Promise<Int16Array>;
}

export interface CustomBedOptions {
  /** TOOL_ALLOWED_HOSTS: hosts allowed to resolve to private addresses (local development, tests). */
  readonly allowedHosts: readonly string[];
  /** How long one fetch may take; a call never waits for it (the bed starts when it arrives). */
  readonly timeoutMs?: number;
  readonly fetch?: PinnedFetch;
}

/** A file that cannot be had (refused, unreachable, not a WAV) is asked again no sooner than this. */
const RETRY_AFTER_MS = 60_000;
/** Distinct custom files held per process; the oldest goes first. */
const MAX_FILES = 32;

/**
 * Custom bed files, each fetched once per process and held decoded (docs/voice-pipeline.md, "Ambience"): the
 * request goes through the SSRF guard with the address pinned (lib/outbound/pinned-fetch.ts), redirects are
 * not followed, the body is capped at {@link CUSTOM_BED_MAX_BYTES}, and the file must be a 16-bit PCM WAV.
 */
export class CustomBeds {
  private readonly files = new Map<string, Promise<{ rate: number; samples: Int16Array }>>();
  private readonly atRate = new Map<string, Promise<Int16Array>>();
  private readonly fetch: PinnedFetch;

  constructor(private readonly options: CustomBedOptions) {
    this.fetch = options.fetch ?? pinnedFetch({ allowedHosts: options.allowedHosts, maxResponseBytes: CUSTOM_BED_MAX_BYTES });
  }

  /** The file at `url` as mono samples at `rate`. Rejects with a sentence saying why there is none. */
  loop(url: string, rate: number): Promise<Int16Array> {
    const key = `${rate} ${url}`;
    let out = this.atRate.get(key);
    if (!out) {
      out = this.file(url).then((f) => resample(f.samples, f.rate, rate));
      this.atRate.set(key, out);
      out.catch(() => this.atRate.delete(key));
    }
    return out;
  }

  private file(url: string): Promise<{ rate: number; samples: Int16Array }> {
    let file = this.files.get(url);
    if (file) return file;
    file = this.load(url);
    this.files.set(url, file);
    if (this.files.size > MAX_FILES) {
      const oldest = this.files.keys().next().value as string;
      this.files.delete(oldest);
      for (const k of [...this.atRate.keys()]) if (k.endsWith(` ${oldest}`)) this.atRate.delete(k);
    }
    file.catch(() => setTimeout(() => this.files.get(url) === file && this.files.delete(url), RETRY_AFTER_MS).unref?.());
    return file;
  }

  private async load(url: string): Promise<{ rate: number; samples: Int16Array }> {
    const res = await this.fetch(url, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000) });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new Error(`the ambience file answered ${res.status}`);
    }
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > CUSTOM_BED_MAX_BYTES) {
      await res.body?.cancel();
      throw new Error(`the ambience file is ${declared} bytes, over ${CUSTOM_BED_MAX_BYTES}`);
    }
    const wav = decodeWav(new Uint8Array(await res.arrayBuffer()));
    if ((wav.samples.length / wav.sampleRate) * 1_000 < CUSTOM_BED_MIN_MS) throw new Error(`the ambience file is under ${CUSTOM_BED_MIN_MS} ms long`);
    return { rate: wav.sampleRate, samples: wav.samples };
  }
}

/** What a call with `config` plays: a shipped bed at once, or a custom file once it has been fetched. */
export function ambienceSource(config: AmbienceConfig, custom: CustomBeds): AmbienceSource {
  const { sound, volume } = config;
  return {
    volume,
    // A shipped bed not made yet is made on the next turn of the loop (the container makes them all at start).
    loop: (rate) => (isShippedSound(sound) ? new Promise((resolve) => setImmediate(() => resolve(shippedBed(sound, rate)))) : custom.loop(sound, rate)),
  };
}
