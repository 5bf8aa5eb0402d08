/**
 * Invariant: the vendors' catalogues are read from their own list endpoints, in each vendor's documented
 * shape, and the stand-ins serve those lists from the catalogue they enforce on their sockets: the voices
 * and models the platform would check an agent against are exactly the ones a call could use. A key the
 * vendor refuses reads as "unknown" (never as an empty list); answers are cached ten minutes per key; a
 * withdrawn voice leaves every list.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../lib/config.js';
import { CARTESIA_VOICES, DEEPGRAM_TTS_MODELS, ELEVENLABS_VOICES, LLM_MODELS, restoreStandinEntries, withdrawStandinEntry } from '../../lib/local/standins/catalog.js';
import { startLlmStandins, type LlmStandins } from '../../lib/local/standins/llm.js';
import { startTtsStandins, type TtsStandins } from '../../lib/local/standins/tts.js';
import { CATALOGUE_TTL_MS, forgetCatalogues, vendorModels, vendorVoices, type CatalogueConfig } from '../../lib/vendors/catalogue.js';

let llm: LlmStandins;
let tts: TtsStandins;
let config: CatalogueConfig;

beforeAll(async () => {
  llm = await startLlmStandins({} as Config);
  tts = await startTtsStandins({} as Config);
  config = { ...llm.env, ...tts.env } as unknown as CatalogueConfig;
});
afterAll(async () => {
  await llm?.stop();
  await tts?.stop();
});
afterEach(() => {
  restoreStandinEntries();
  forgetCatalogues();
});

describe('voice catalogues', () => {
  it("list every voice the stand-in's socket accepts, with the vendor's details", async () => {
    const eleven = (await vendorVoices(config, 'elevenlabs'))!;
    expect(eleven.map((v) => v.id)).toEqual([...ELEVENLABS_VOICES]);
    expect(eleven.find((v) => v.id === '21m00Tcm4TlvDq8ikWAM')).toEqual({ id: '21m00Tcm4TlvDq8ikWAM', name: 'Rachel', language: 'en', gender: 'female', previewUrl: null });
    const cartesia = (await vendorVoices(config, 'cartesia'))!;
    expect(cartesia.map((v) => v.id)).toEqual([...CARTESIA_VOICES]);
    expect(cartesia.find((v) => v.name === 'Barbershop Man')).toMatchObject({ gender: 'male', language: 'en' });
    const aura = (await vendorVoices(config, 'deepgram'))!;
    expect(aura.map((v) => v.id)).toEqual([...DEEPGRAM_TTS_MODELS]);
    expect(aura.find((v) => v.id === 'aura-2-helena-en')).toMatchObject({ name: 'Helena', language: 'en-US' });
  });

  it('read a refused key as unknown, and a withdrawn voice as gone once the cache is past', async () => {
    expect(await vendorVoices(config, 'elevenlabs', 'sk_not-an-account')).toBeUndefined();
    expect(await vendorVoices(config, 'cartesia', 'sk_car_not-an-account')).toBeUndefined();
    const now = Date.now();
    expect((await vendorVoices(config, 'elevenlabs', undefined, now))!.map((v) => v.id)).toContain('EXAVITQu4vr4xnSDxMaL');
    withdrawStandinEntry('EXAVITQu4vr4xnSDxMaL');
    // Within ten minutes the cached list answers; after, the vendor is asked again.
    expect((await vendorVoices(config, 'elevenlabs', undefined, now + 60_000))!.map((v) => v.id)).toContain('EXAVITQu4vr4xnSDxMaL');
    expect((await vendorVoices(config, 'elevenlabs', undefined, now + CATALOGUE_TTL_MS + 1))!.map((v) => v.id)).not.toContain('EXAVITQu4vr4xnSDxMaL');
  });

  it("page as Cartesia's cursor pages do", async () => {
    const page = async (query: string) =>
      (await (await fetch(`${tts.env.CARTESIA_BASE_URL}/voices?${query}`, { headers: { 'x-api-key': tts.env.CARTESIA_API_KEY!, 'cartesia-version': '2025-04-16' } })).json()) as { data: { id: string }[]; has_more: boolean };
    const first = await page('limit=3');
    expect(first).toMatchObject({ has_more: true });
    expect(first.data.map((v) => v.id)).toEqual(CARTESIA_VOICES.slice(0, 3));
    const second = await page(`limit=3&starting_after=${first.data.at(-1)!.id}`);
    expect(second.data.map((v) => v.id)).toEqual(CARTESIA_VOICES.slice(3, 6));
  });
});

describe('model catalogues', () => {
  it("list each vendor's models", async () => {
    expect(await vendorModels(config, 'openai')).toEqual(expect.arrayContaining([...LLM_MODELS.openai]));
    expect(await vendorModels(config, 'anthropic')).toEqual([...LLM_MODELS.anthropic]);
    expect(await vendorModels(config, 'google')).toEqual([...LLM_MODELS.google]);
    expect(await vendorModels(config, 'anthropic', 'sk-ant-not-an-account')).toBeUndefined();
  });

  it("page as Anthropic's and Google's lists do", async () => {
    const anthropic = (await (await fetch(`${llm.env.ANTHROPIC_BASE_URL}/v1/models?limit=2`, { headers: { 'x-api-key': llm.env.ANTHROPIC_API_KEY!, 'anthropic-version': '2023-06-01' } })).json()) as { data: { id: string }[]; has_more: boolean; last_id: string };
    expect(anthropic).toMatchObject({ has_more: true, last_id: LLM_MODELS.anthropic[1] });
    const google = (await (await fetch(`${llm.env.GOOGLE_BASE_URL}/v1beta/models?pageSize=2`, { headers: { 'x-goog-api-key': llm.env.GOOGLE_API_KEY! } })).json()) as { models: { name: string }[]; nextPageToken?: string };
    expect(google.models.map((m) => m.name)).toEqual(LLM_MODELS.google.slice(0, 2).map((m) => `models/${m}`));
    expect(google.nextPageToken).toBeDefined();
  });
});
