import { createHash } from 'node:crypto';
import type { Config } from '../config.js';
import type { VoiceEntry } from '../domain/voices.js';

/**
 * The vendors' catalogues: the voices and models an account may use, read from each vendor's own list
 * endpoint with the key the call would use (the workspace's, else the platform's), for the agent save-time
 * checks and `GET /api/voices` (docs/api.md, "Voices and models"). Plain `fetch`, no SDK, as in
 * key-check.ts: the API functions stay small. A base URL variable points a vendor at its stand-in, which
 * serves the same lists (lib/local/standins/catalog-lists.ts).
 *
 * - ElevenLabs `GET /v1/voices` (`xi-api-key`): `{voices: [{voice_id, name, labels, preview_url}]}`;
 * - Cartesia `GET /voices?limit=100&starting_after=` (`X-API-Key`, `Cartesia-Version`): `{data, has_more}`;
 * - Deepgram `GET /v1/models` (`Authorization: Token`): the Aura voices are its `tts` models;
 * - OpenAI `GET /v1/models` (Bearer), Anthropic `GET /v1/models?limit=1000&after_id=` (`x-api-key`,
 *   `anthropic-version`), Google `GET /v1beta/models?pageSize=1000&pageToken=` (`x-goog-api-key`).
 *
 * Answers are cached for ten minutes per vendor, base URL and key (a hash of it), so saving agents does not
 * cost a vendor request each time, and a voice added at the vendor is seen within minutes. A catalogue that
 * cannot be read (no key, a timeout, a refusal, a body of an unexpected shape) is `undefined`: the caller
 * then cannot know, and says nothing.
 */

/**
 * One catalogue read, every page of it, gets this long: vendors answer these reads in well under a second,
 * and a save must finish inside the API function's 10 s even when voices and models are both read.
 */
const CATALOGUE_TIMEOUT_MS = 5_000;
/** How long a catalogue is trusted: long enough to spare the vendor, short enough to see a new voice soon. */
export const CATALOGUE_TTL_MS = 10 * 60_000;
/** Pages read at most per catalogue: a thousand-voice account is ten pages of Cartesia's largest. */
const MAX_PAGES = 20;

export type CatalogueConfig = Pick<
  Config,
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'ANTHROPIC_API_KEY'
  | 'ANTHROPIC_BASE_URL'
  | 'GOOGLE_API_KEY'
  | 'GOOGLE_BASE_URL'
  | 'DEEPGRAM_API_KEY'
  | 'DEEPGRAM_BASE_URL'
  | 'DEEPGRAM_TTS_BASE_URL'
  | 'ELEVENLABS_API_KEY'
  | 'ELEVENLABS_BASE_URL'
  | 'CARTESIA_API_KEY'
  | 'CARTESIA_BASE_URL'
>;

export type VoiceVendor = 'elevenlabs' | 'deepgram' | 'cartesia';
export type ModelVendor = 'openai' | 'anthropic' | 'google';

const httpOrigin = (base: string): string => {
  const url = new URL(base);
  url.protocol = url.protocol === 'wss:' ? 'https:' : url.protocol === 'ws:' ? 'http:' : url.protocol;
  return url.origin;
};
const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

type Json = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

async function getJson(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(url, { headers, signal });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`HTTP ${res.status}`);
  }
  return res.json();
}

/** Cartesia's genders (`feminine`, `masculine`, `gender_neutral`) in the words the other vendors use. */
const GENDER: Record<string, string> = { feminine: 'female', masculine: 'male', gender_neutral: 'neutral' };

interface VendorRead<T> {
  readonly key: (c: CatalogueConfig) => string | undefined;
  readonly base: (c: CatalogueConfig) => string;
  readonly read: (base: string, key: string, signal: AbortSignal) => Promise<T[]>;
}

const VOICES: Record<VoiceVendor, VendorRead<VoiceEntry>> = {
  elevenlabs: {
    key: (c) => c.ELEVENLABS_API_KEY,
    base: (c) => httpOrigin(c.ELEVENLABS_BASE_URL ?? 'https://api.elevenlabs.io'),
    read: async (base, key, signal) => {
      const body = obj(await getJson(join(base, '/v1/voices'), { 'xi-api-key': key }, signal));
      if (!Array.isArray(body.voices)) throw new Error('no voices array');
      return body.voices.flatMap((v) => {
        const voice = obj(v);
        const id = str(voice.voice_id);
        const labels = obj(voice.labels);
        return id ? [{ id, name: str(voice.name) ?? id, language: str(labels.language), gender: str(labels.gender), previewUrl: str(voice.preview_url) }] : [];
      });
    },
  },
  cartesia: {
    key: (c) => c.CARTESIA_API_KEY,
    base: (c) => httpOrigin(c.CARTESIA_BASE_URL ?? 'https://api.cartesia.ai'),
    read: async (base, key, signal) => {
      const out: VoiceEntry[] = [];
      let after: string | undefined;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const q = `/voices?limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ''}`;
        const body = obj(await getJson(join(base, q), { 'x-api-key': key, 'cartesia-version': '2025-04-16' }, signal));
        if (!Array.isArray(body.data)) throw new Error('no data array');
        for (const v of body.data) {
          const voice = obj(v);
          const id = str(voice.id);
          if (id) out.push({ id, name: str(voice.name) ?? id, language: str(voice.language), gender: GENDER[str(voice.gender) ?? ''] ?? str(voice.gender), previewUrl: str(voice.preview_file_url) });
        }
        after = out.at(-1)?.id;
        if (body.has_more !== true || !after) break;
      }
      return out;
    },
  },
  deepgram: {
    key: (c) => c.DEEPGRAM_API_KEY,
    base: (c) => httpOrigin(c.DEEPGRAM_TTS_BASE_URL ?? c.DEEPGRAM_BASE_URL ?? 'https://api.deepgram.com'),
    read: async (base, key, signal) => {
      const body = obj(await getJson(join(base, '/v1/models'), { authorization: `Token ${key}` }, signal));
      if (!Array.isArray(body.tts)) throw new Error('no tts array');
      return body.tts.flatMap((m) => {
        const model = obj(m);
        const id = str(model.canonical_name);
        const meta = obj(model.metadata);
        const name = str(model.name);
        return id ? [{ id, name: name ? name[0]!.toUpperCase() + name.slice(1) : id, language: str(arr(model.languages)[0]), gender: null, previewUrl: str(meta.sample) }] : [];
      });
    },
  },
};

const MODELS: Record<ModelVendor, VendorRead<string>> = {
  openai: {
    key: (c) => c.OPENAI_API_KEY,
    base: (c) => c.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    read: async (base, key, signal) => {
      const body = obj(await getJson(join(base, '/models'), { authorization: `Bearer ${key}` }, signal));
      if (!Array.isArray(body.data)) throw new Error('no data array');
      return body.data.flatMap((m) => str(obj(m).id) ?? []);
    },
  },
  anthropic: {
    key: (c) => c.ANTHROPIC_API_KEY,
    base: (c) => c.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com',
    read: async (base, key, signal) => {
      const out: string[] = [];
      let after: string | undefined;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const q = `/v1/models?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`;
        const body = obj(await getJson(join(base, q), { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, signal));
        if (!Array.isArray(body.data)) throw new Error('no data array');
        out.push(...body.data.flatMap((m) => str(obj(m).id) ?? []));
        after = str(body.last_id) ?? undefined;
        if (body.has_more !== true || !after) break;
      }
      return out;
    },
  },
  google: {
    key: (c) => c.GOOGLE_API_KEY,
    base: (c) => c.GOOGLE_BASE_URL ?? 'https://generativelanguage.googleapis.com',
    read: async (base, key, signal) => {
      const out: string[] = [];
      let token: string | undefined;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const q = `/v1beta/models?pageSize=1000${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
        const body = obj(await getJson(join(base, q), { 'x-goog-api-key': key }, signal));
        if (!Array.isArray(body.models)) throw new Error('no models array');
        out.push(...body.models.flatMap((m) => str(obj(m).name)?.replace(/^models\//, '') ?? []));
        token = str(body.nextPageToken) ?? undefined;
        if (!token) break;
      }
      return out;
    },
  },
};

const cache = new Map<string, { at: number; value: Promise<unknown[] | undefined> }>();

/** Reads through the cache; a failed read is not kept, so the next save tries the vendor again. */
function cached<T>(what: string, vendor: string, spec: VendorRead<T>, config: CatalogueConfig, workspaceKey: string | undefined, now: number): Promise<T[] | undefined> {
  const key = workspaceKey ?? spec.key(config);
  if (!key) return Promise.resolve(undefined);
  const base = spec.base(config);
  const id = `${what}|${vendor}|${base}|${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
  const hit = cache.get(id);
  if (hit && now - hit.at < CATALOGUE_TTL_MS) return hit.value as Promise<T[] | undefined>;
  const value = spec.read(base, key, AbortSignal.timeout(CATALOGUE_TIMEOUT_MS)).catch(() => undefined);
  cache.set(id, { at: now, value });
  void value.then((v) => {
    if (v === undefined && cache.get(id)?.value === value) cache.delete(id);
  });
  // Bounded: stale entries go when the map grows (one per workspace key and vendor).
  if (cache.size > 1_000) for (const [k, e] of cache) if (now - e.at >= CATALOGUE_TTL_MS) cache.delete(k);
  return value;
}

/** The voices the account behind `workspaceKey` (else the platform's key) may use at `vendor`; undefined when unknown. */
export const vendorVoices = (config: CatalogueConfig, vendor: VoiceVendor, workspaceKey?: string, now = Date.now()): Promise<VoiceEntry[] | undefined> =>
  cached('voices', vendor, VOICES[vendor], config, workspaceKey, now);

/** The model names the account may use at `vendor`; undefined when unknown. */
export const vendorModels = (config: CatalogueConfig, vendor: ModelVendor, workspaceKey?: string, now = Date.now()): Promise<string[] | undefined> =>
  cached('models', vendor, MODELS[vendor], config, workspaceKey, now);

/** Forgets every cached catalogue (a workspace that changed its vendor key sees its new account at once). */
export function forgetCatalogues(): void {
  cache.clear();
}
