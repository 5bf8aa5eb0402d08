/**
 * Invariant: an agent's `language` holds the whole call. A Spanish agent opens the recognizer in Spanish,
 * its voice is told Spanish, its model is told to answer in Spanish, and its fixed lines are Spanish; a
 * `multi` agent follows a caller who switches from English to German: each caller line of the transcript
 * carries the language the recognizer detected, the model is told it, the voice speaks it within the same
 * voice, and the fixed lines switch with it. An agent whose transcriber or voice lacks its language is
 * refused with a 400 naming the providers that have it, and nothing is stored.
 *
 * The caller speaks real espeak-ng speech in each language; the recognizer stand-ins know those lines by
 * their samples (lib/local/standins/spoken-lines.ts), so a line is "transcribed" only when its audio reached
 * them, and a detecting recognizer reports the language it was spoken in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../lib/domain/agent.js';
import { speech, type SimulatedCaller } from '../../lib/local/callers/simulated-caller.js';
import { knownLinesOr, SpokenLines } from '../../lib/local/standins/spoken-lines.js';
import { PHONE_AUDIO } from '../../lib/vendors/shared/audio-format.js';
import { PHRASES } from '../../streaming-service/src/call/phrases.js';
import { briefReplies, startVoicePlatform, transcriptOf, waitUntil, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

const lines = new SpokenLines();
let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({
    // Only speech the caller registered is heard: anything else (a blip, the line's noise) has no words.
    stt: { transcripts: knownLinesOr(lines, () => ''), finalDelayMs: 50 },
    llm: {
      ttftMs: 30,
      tokensPerSecond: 400,
      reply: briefReplies((said) =>
        /mesa/.test(said) ? '¿Para qué día?' : /siete/.test(said) ? 'Reservado.' : /table/.test(said) ? 'For when?' : /sieben/.test(said) ? 'Gebucht.' : '?',
      ),
    },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

/** The caller says `text` in `language` (espeak-ng's voice for it) and waits until the agent's answer has played. */
async function say(caller: SimulatedCaller, text: string, language: string): Promise<void> {
  const audio = await speech(text, PHONE_AUDIO, language);
  const before = caller.received.length;
  lines.say(text, audio, language);
  await caller.play(audio);
  await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
  await caller.whenIdle();
}

/** Waits, silent, until the agent has said something more (the silence re-prompt) and it has played. */
async function hearReprompt(caller: SimulatedCaller): Promise<void> {
  const before = caller.received.length;
  await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
  await caller.whenIdle();
}

async function greetedBy(agent: Agent): Promise<SimulatedCaller> {
  const caller = await vp.call(agent);
  await waitUntil(() => caller.echoed.find((e) => !e.flushed));
  await caller.whenIdle();
  return caller;
}

/** What the model was sent as its system message, for each request of the call (summaries excluded). */
const systemPrompts = (from: number) =>
  vp.platform.voice.llm.control
    .requestsFor('openai')
    .slice(from)
    .map((r) => (r.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'system')?.content ?? '')
    .filter((s) => !/summar/i.test(s));

describe('a Spanish agent', () => {
  it('greets, hears, answers and re-prompts in Spanish', async () => {
    const agent = await vp.agent({
      language: 'es-ES',
      tts_provider: 'elevenlabs',
      first_message: 'Hola, ¿en qué puedo ayudarle?',
      system_prompt: 'Eres la recepcionista de un restaurante.',
      silence: { reprompt_after_ms: 2_000, max_reprompts: 2 },
    });
    const llmBefore = vp.platform.voice.llm.control.requestsFor('openai').length;
    const sttBefore = vp.platform.voice.stt.control.deepgram!.sessions.length;
    const ttsBefore = vp.platform.voice.tts.control.elevenlabs!.connections.length;
    const caller = await greetedBy(agent);
    await say(caller, 'Quisiera reservar una mesa para dos.', 'es');
    await hearReprompt(caller);
    await say(caller, 'Mañana a las siete por favor.', 'es');
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    expect(await transcriptOf(vp, ended.callId)).toEqual([
      'agent: Hola, ¿en qué puedo ayudarle?',
      'user: Quisiera reservar una mesa para dos.',
      'agent: ¿Para qué día?',
      `agent: ${PHRASES.es.repromptMessage}`,
      'user: Mañana a las siete por favor.',
      'agent: Reservado.',
    ]);
    // The recognizer was asked for Spanish (Nova-3 takes `es`, not `es-ES`).
    const stt = vp.platform.voice.stt.control.deepgram!.sessions.slice(sttBefore);
    expect(stt.map((s) => [s.query.model, s.query.language])).toEqual([['nova-3', 'es']]);
    // The voice was told Spanish.
    const tts = vp.platform.voice.tts.control.elevenlabs!.connections.slice(ttsBefore);
    expect(tts.map((c) => c.query.language_code)).toEqual(['es']);
    // And the model: after the agent's own prompt, every request of the call.
    const prompts = systemPrompts(llmBefore);
    expect(prompts).toHaveLength(2);
    for (const p of prompts) expect(p).toBe('Eres la recepcionista de un restaurante.\n\nThe call is in Spanish (es-ES). Always reply in Spanish, even if these instructions are written in another language.');
  });
});

describe('a multi agent', () => {
  it('follows a caller from English to German, turn by turn', async () => {
    const agent = await vp.agent({
      language: 'multi',
      tts_provider: 'cartesia',
      tts_voice_id: 'a0e99841-438c-4a64-b679-ae501e7d6091',
      first_message: 'Hello!',
      system_prompt: 'You take bookings.',
      silence: { reprompt_after_ms: 2_000, max_reprompts: 2 },
    });
    const llmBefore = vp.platform.voice.llm.control.requestsFor('openai').length;
    const sttBefore = vp.platform.voice.stt.control.deepgram!.sessions.length;
    const ttsBefore = vp.platform.voice.tts.control.cartesia!.connections.length;
    const caller = await greetedBy(agent);
    await say(caller, 'I would like a table for two.', 'en');
    await say(caller, 'Morgen um sieben bitte.', 'de');
    await hearReprompt(caller);
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    expect(await transcriptOf(vp, ended.callId)).toEqual([
      'agent: Hello!',
      'user [en]: I would like a table for two.',
      'agent: For when?',
      'user [de]: Morgen um sieben bitte.',
      'agent: Gebucht.',
      `agent: ${PHRASES.de.repromptMessage}`,
    ]);
    // Nova-3 Multilingual: the recognizer detects the language.
    const stt = vp.platform.voice.stt.control.deepgram!.sessions.slice(sttBefore);
    expect(stt.map((s) => [s.query.model, s.query.language])).toEqual([['nova-3', 'multi']]);
    // One voice, told each utterance's language as the caller switched.
    const requests = vp.platform.voice.tts.control.cartesia!.connections.slice(ttsBefore)
      .flatMap((c) => c.received.map((m) => m.json))
      .filter((m): m is Record<string, unknown> => typeof m?.transcript === 'string' && m.transcript.trim() !== '');
    const spokenIn = (text: string) => requests.filter((r) => String(r.transcript).includes(text)).map((r) => [r.voice, r.language]);
    const voice = { mode: 'id', id: 'a0e99841-438c-4a64-b679-ae501e7d6091' };
    expect(spokenIn('For when?')).toEqual([[voice, 'en']]);
    expect(spokenIn('Gebucht.')).toEqual([[voice, 'de']]);
    expect(spokenIn(PHRASES.de.repromptMessage)).toEqual([[voice, 'de']]);
    // The model is told to follow the caller, and which language their last message was in.
    // A request started ahead of the German turn, while its words were still taken for English, is thrown
    // away once the recognizer's final says German: the answer comes from the one asked after it.
    const prompts = systemPrompts(llmBefore);
    expect(prompts.length === 2 || (prompts.length === 3 && prompts[1]!.includes('in English (en).'))).toBe(true);
    expect(prompts[0]).toContain("The caller's last message was in English (en).");
    expect(prompts.at(-1)).toContain("The caller's last message was in German (de).");
    for (const p of prompts) expect(p.startsWith('You take bookings.\n\nAlways reply in the language the caller is speaking')).toBe(true);
  });
});

describe('language validation', () => {
  const base = { name: 'L', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram' };
  const count = async () => ((await vp.api('GET', '/api/agents?limit=100', undefined)).body as { total: number }).total;

  it('refuses a language the transcriber or voice lacks, naming the providers that have it', async () => {
    const before = await count();
    const hindi = await vp.api('POST', '/api/agents', { ...base, workspaceId: vp.workspaceId, language: 'hi-IN', stt_provider: 'assemblyai' });
    expect(hindi.status).toBe(400);
    expect(hindi.body).toMatchObject({
      error: { code: 'validation_failed', details: [{ field: 'stt_provider', message: 'assemblyai does not transcribe hi-IN; speech-to-text providers that do: deepgram, speechmatics, openai' }] },
    });
    const multi = await vp.api('POST', '/api/agents', { ...base, workspaceId: vp.workspaceId, language: 'multi', stt_provider: 'openai', tts_provider: 'deepgram' });
    expect(multi.status).toBe(400);
    expect((multi.body as { error: { details: { field: string }[] } }).error.details.map((d) => d.field)).toEqual(['stt_provider', 'tts_provider']);
    const voice = await vp.api('POST', '/api/agents', { ...base, workspaceId: vp.workspaceId, language: 'de-DE', tts_provider: 'deepgram', tts_voice_id: 'aura-2-thalia-en' });
    expect(voice.status).toBe(400);
    expect((voice.body as { error: { details: { field: string }[] } }).error.details.map((d) => d.field)).toEqual(['tts_voice_id']);
    const malformed = await vp.api('POST', '/api/agents', { ...base, workspaceId: vp.workspaceId, language: 'spanish!' });
    expect(malformed.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it('checks a call’s agent_overrides the same way', async () => {
    const agent = await vp.agent({ stt_provider: 'assemblyai' });
    const refused = await vp.api('POST', '/api/optimus/meeting-link', { assistantId: agent._id, agent_overrides: { language: 'nl-NL' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: 'validation_failed', details: [{ field: 'agent_overrides.stt_provider' }] } });
    const ok = await vp.api('POST', '/api/optimus/meeting-link', { assistantId: agent._id, agent_overrides: { language: 'nl-NL', stt_provider: 'deepgram' } });
    expect(ok.status).toBe(201);
  });

  it('stores and returns the language, and checks an update against the stored agent', async () => {
    const created = await vp.api('POST', '/api/agents', { ...base, workspaceId: vp.workspaceId, language: 'de-DE' });
    expect(created.status).toBe(201);
    const id = (created.body as { _id: string })._id;
    expect(((await vp.api('GET', `/api/agents/${id}`, undefined)).body as { language: string }).language).toBe('de-DE');
    const refused = await vp.api('PATCH', `/api/agents/${id}`, { stt_provider: 'assemblyai', language: 'ja-JP' });
    expect(refused.status).toBe(400);
    expect(((await vp.api('GET', `/api/agents/${id}`, undefined)).body as { language: string; stt_provider: string })).toMatchObject({ language: 'de-DE', stt_provider: 'deepgram' });
    const changed = await vp.api('PATCH', `/api/agents/${id}`, { language: 'multi' });
    expect(changed.status).toBe(200);
    expect((changed.body as { language: string }).language).toBe('multi');
  });
});
