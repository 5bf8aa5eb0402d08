/**
 * Invariant: an agent's `realtime` names a documented OpenAI realtime or Gemini Live model and voice, or the
 * save is a 400 naming the field; a realtime agent with no key of its provider anywhere (the platform's or
 * the workspace's) is a 400 on `realtime.provider` (another vendor's key does not count); with a key, it
 * saves. PATCH may remove it with null.
 */
import { describe, expect, it } from 'vitest';
import { AgentCreate, AgentUpdate } from '../../lib/domain/agent.js';
import { ValidationError } from '../../lib/domain/errors.js';
import { assertInCatalogues, type CatalogueDeps } from '../../lib/services/agent-catalogue.js';

const base = { name: 'Front desk', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram' };
const issues = (body: unknown) => {
  const r = AgentCreate.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
};

describe('realtime on an agent', () => {
  it('takes a documented model and voice', () => {
    expect(issues({ ...base, realtime: { provider: 'openai', model: 'gpt-realtime', voice: 'marin' } })).toEqual([]);
    expect(issues({ ...base, realtime: { provider: 'openai', model: 'gpt-4o-mini-realtime-preview', voice: 'alloy' } })).toEqual([]);
    expect(issues({ ...base, realtime: { provider: 'google', model: 'gemini-2.5-flash-native-audio-preview-09-2025', voice: 'Puck' } })).toEqual([]);
    expect(issues({ ...base, realtime: { provider: 'google', model: 'gemini-live-2.5-flash-preview', voice: 'Kore' } })).toEqual([]);
  });

  it('refuses an unknown model, voice, provider or field, each by its path', () => {
    expect(issues({ ...base, realtime: { provider: 'openai', model: 'gpt-4o', voice: 'marin' } })).toEqual(['realtime.model']);
    expect(issues({ ...base, realtime: { provider: 'openai', model: 'gpt-realtime', voice: 'nova' } })).toEqual(['realtime.voice']);
    expect(issues({ ...base, realtime: { provider: 'google', model: 'gemini-2.5-flash', voice: 'Puck' } })).toEqual(['realtime.model']);
    expect(issues({ ...base, realtime: { provider: 'google', model: 'gemini-live-2.5-flash-preview', voice: 'marin' } })).toEqual(['realtime.voice']);
    // Voice names are Google's, case and all.
    expect(issues({ ...base, realtime: { provider: 'google', model: 'gemini-live-2.5-flash-preview', voice: 'puck' } })).toEqual(['realtime.voice']);
    expect(issues({ ...base, realtime: { provider: 'azure', model: 'gemini-live-2.5-flash-preview', voice: 'Puck' } })).toContain('realtime.provider');
    expect(issues({ ...base, realtime: { provider: 'openai', model: 'gpt-realtime', voice: 'marin', speed: 2 } })).toEqual(['realtime']);
  });

  it('is removed by a PATCH with null', () => {
    expect(AgentUpdate.parse({ realtime: null })).toEqual({ realtime: null });
  });
});

describe('the save-time key check', () => {
  // A store that cannot be read: the workspace has no keys (the check treats an unreadable store so).
  const deps = (config: Record<string, string | undefined>) => ({ db: {}, secrets: {}, config }) as unknown as CatalogueDeps;
  const realtime = { provider: 'openai', model: 'gpt-realtime', voice: 'marin' } as const;

  it('refuses a realtime agent when no OpenAI key reaches the vendor', async () => {
    const error = await assertInCatalogues(deps({}), 'ws_1', { realtime }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual([expect.objectContaining({ field: 'realtime.provider' })]);
  });

  it('lets it through with the platform key', async () => {
    await expect(assertInCatalogues(deps({ OPENAI_API_KEY: 'sk-platform' }), 'ws_1', { realtime })).resolves.toBeUndefined();
  });

  it('asks a Gemini Live agent for a Google key: an OpenAI key does not reach Google', async () => {
    const gemini = { provider: 'google', model: 'gemini-live-2.5-flash-preview', voice: 'Puck' } as const;
    const error = await assertInCatalogues(deps({ OPENAI_API_KEY: 'sk-platform' }), 'ws_1', { realtime: gemini }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual([expect.objectContaining({ field: 'realtime.provider', message: expect.stringContaining('no google key') })]);
    await expect(assertInCatalogues(deps({ GOOGLE_API_KEY: 'g-platform' }), 'ws_1', { realtime: gemini })).resolves.toBeUndefined();
  });
});
