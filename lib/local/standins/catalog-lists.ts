import { CARTESIA_VOICES, DEEPGRAM_TTS_MODELS, ELEVENLABS_MODELS, ELEVENLABS_VOICES, LLM_MODELS, STT_MODELS, VOICE_DETAILS, served } from './catalog.js';

/**
 * The vendors' list endpoints, answered from the stand-ins' catalogue (catalog.ts) in each vendor's
 * documented shape, so the platform's save-time checks and `GET /api/voices` (lib/vendors/catalogue.ts) run
 * unchanged against a stand-in:
 *
 * - OpenAI `GET /v1/models`: `{object: "list", data: [{id, object: "model", created, owned_by}]}`, unpaged;
 * - Anthropic `GET /v1/models?limit&after_id`: `{data: [{type: "model", id, display_name, created_at}],
 *   has_more, first_id, last_id}`, `limit` 1..1000, default 20;
 * - Google `GET /v1beta/models?pageSize&pageToken`: `{models: [{name: "models/<id>", displayName,
 *   supportedGenerationMethods}], nextPageToken}`, `pageSize` default 50, at most 1000;
 * - Deepgram `GET /v1/models`: `{stt: [{name, canonical_name, architecture, languages, version, uuid,
 *   batch, streaming}], tts: [{..., metadata: {accent, sample, tags}}]}` (developers.deepgram.com
 *   "List All Available Models"; no key needed);
 * - ElevenLabs `GET /v1/voices`: `{voices: [{voice_id, name, category, labels: {gender, accent, language},
 *   preview_url}]}`; `GET /v1/models`: `[{model_id, name}]`;
 * - Cartesia `GET /voices?limit&starting_after`: `{data: [{id, name, description, language, gender,
 *   is_owner, ...}], has_more}` (the SDK's CursorIDPage), `limit` 1..100, default 10.
 *
 * A withdrawn entry (catalog.ts `withdrawStandinEntry`) is left out of every list. The stand-ins have no
 * recorded samples, so their voices carry no preview (`preview_url: null`, no Deepgram `sample`), as a
 * vendor's voice without one does.
 */

const CREATED = 1_700_000_000;

/** A cursor page over `items`: from after `after` (an id), at most `limit`. */
function cursorPage<T extends { id: string }>(items: readonly T[], limit: number, after: string | null): { page: T[]; hasMore: boolean } {
  const from = after ? items.findIndex((i) => i.id === after) + 1 : 0;
  const page = items.slice(from, from + limit);
  return { page, hasMore: from + limit < items.length };
}

const clampInt = (raw: string | null, fallback: number, max: number) => {
  const n = raw === null ? fallback : Number(raw);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
};

type Lists = Partial<Record<string, (url: URL) => unknown>>;

/** Each vendor's list endpoints by path. */
const LISTS: Record<string, Lists> = {
  openai: {
    '/v1/models': () => ({
      object: 'list',
      data: served([...LLM_MODELS.openai, ...STT_MODELS.openai]).map((id) => ({ id, object: 'model', created: CREATED, owned_by: 'system' })),
    }),
  },
  anthropic: {
    '/v1/models': (url) => {
      const all = served(LLM_MODELS.anthropic).map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-10-01T00:00:00Z' }));
      const { page, hasMore } = cursorPage(all, clampInt(url.searchParams.get('limit'), 20, 1_000), url.searchParams.get('after_id'));
      return { data: page, has_more: hasMore, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null };
    },
  },
  google: {
    '/v1beta/models': (url) => {
      const all = served(LLM_MODELS.google).map((id) => ({ id, name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'] }));
      const token = url.searchParams.get('pageToken');
      const { page, hasMore } = cursorPage(all, clampInt(url.searchParams.get('pageSize'), 50, 1_000), token);
      return { models: page.map(({ id: _id, ...m }) => m), ...(hasMore ? { nextPageToken: page.at(-1)!.id } : {}) };
    },
  },
  deepgram: {
    '/v1/models': () => ({
      stt: served(STT_MODELS.deepgram).map((id) => ({ name: id.split('-').at(-1), canonical_name: id, architecture: id.split('-').slice(0, 2).join(''), languages: ['en', 'en-US'], version: '2025-01-09.0', uuid: `00000000-0000-4000-8000-${id.length.toString().padStart(12, '0')}`, batch: true, streaming: true, formatted_output: true })),
      tts: served(DEEPGRAM_TTS_MODELS).map((id) => {
        const [, , who = '', lang = 'en'] = /^aura-(2-)?([a-z]+)-([a-z]+)$/.exec(id) ?? [];
        return { name: who, canonical_name: id, architecture: id.startsWith('aura-2') ? 'aura-2' : 'aura', languages: [lang === 'es' ? 'es' : 'en-US'], version: '2025-04-07.0', uuid: `00000000-0000-4000-9000-${id.length.toString().padStart(12, '0')}`, metadata: { accent: lang === 'es' ? 'Mexican' : 'American', tags: [] } };
      }),
    }),
  },
  elevenlabs: {
    '/v1/voices': () => ({
      voices: served(ELEVENLABS_VOICES).map((id) => {
        const d = VOICE_DETAILS[id];
        return { voice_id: id, name: d?.name ?? id, category: 'premade', labels: { gender: d?.gender ?? '', accent: 'american', language: d?.language ?? 'en' }, preview_url: null };
      }),
    }),
    '/v1/models': () => served(ELEVENLABS_MODELS).map((id) => ({ model_id: id, name: id, can_do_text_to_speech: true })),
  },
  cartesia: {
    '/voices': (url) => {
      const all = served(CARTESIA_VOICES).map((id) => {
        const d = VOICE_DETAILS[id];
        return { id, name: d?.name ?? id, description: '', language: d?.language ?? 'en', gender: d?.gender === 'female' ? 'feminine' : 'masculine', is_owner: false, access: 'public', visibility: 'all', created_at: '2024-06-01T00:00:00Z' };
      });
      const { page, hasMore } = cursorPage(all, clampInt(url.searchParams.get('limit'), 10, 100), url.searchParams.get('starting_after'));
      return { data: page, has_more: hasMore };
    },
  },
};

/** The list a vendor's `GET path` answers, or undefined when the stand-in has no such list. */
export function catalogueList(vendor: string, url: URL): unknown {
  const path = url.pathname.replace(/\/+$/, '') || '/';
  return LISTS[vendor]?.[path]?.(url);
}

/** Deepgram serves its model list without a key (developers.deepgram.com, "Model Metadata"). */
export const listNeedsNoKey = (vendor: string, url: URL): boolean => vendor === 'deepgram' && url.pathname.replace(/\/+$/, '') === '/v1/models';
