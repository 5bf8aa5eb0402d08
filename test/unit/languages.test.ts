/**
 * Invariant: an agent's `language` is a BCP-47 tag or `multi`, `en-US` when omitted; a transcriber or voice
 * (or a fallback of one) that does not take it is a 400 naming the providers that do, and a Deepgram voice
 * must speak it. Every phrase table (en, es, fr, de, pt, it, nl, hi, ja) has every fixed line, backchannel and
 * continuation word list, in its own words; a call follows its language for the lines, the model's
 * instruction and, under `multi`, the caller's detected language turn by turn, while lines a deployment set
 * stay as set; the transcript marks a detected language on the caller's line.
 */
import { describe, expect, it } from 'vitest';
import { AgentCreate, AgentUpdate, DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { ValidationError } from '../../lib/domain/errors.js';
import { assertLanguageSupported, isLanguageTag, languageName, providersFor, STT_LANGUAGES, TTS_LANGUAGES } from '../../lib/domain/languages.js';
import { deepgramLanguage } from '../../lib/vendors/stt/deepgram.js';
import { PHRASES, phrasesFor, type LanguagePhrases } from '../../streaming-service/src/call/phrases.js';
import { DEFAULT_SESSION_OPTIONS } from '../../streaming-service/src/call/types.js';
import { Conversation } from '../../streaming-service/src/conversation/conversation.js';
import { CallLanguage, promptWithLanguage, silenceIn } from '../../streaming-service/src/session/language.js';
import { defaultReply } from '../../lib/local/standins/llm-script.js';
import { silenceSettings } from '../../streaming-service/src/session/silence.js';

const agent = { name: 'A', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram' } as const;

/** The 400's details, or [] when the combination is accepted. */
function refusal(choice: Parameters<typeof assertLanguageSupported>[0]): { field: string; message: string }[] {
  try {
    assertLanguageSupported(choice, DEFAULT_VOICE);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(400);
    return (error as ValidationError).details as { field: string; message: string }[];
  }
}

describe('the language field', () => {
  it('defaults to en-US and takes BCP-47 tags and multi', () => {
    expect(AgentCreate.parse(agent).language).toBe('en-US');
    for (const tag of ['es-ES', 'de-DE', 'hi-IN', 'pt-BR', 'zh-Hans-CN', 'es-419', 'ja', 'multi']) expect(AgentCreate.parse({ ...agent, language: tag }).language).toBe(tag);
  });

  it.each(['', 'english', 'es_ES', 'e', 'es-', '12-ES', 'es-ES-!', 'MULTI ', 'x'.repeat(40)])('refuses %j', (tag) => {
    expect(AgentCreate.safeParse({ ...agent, language: tag }).success).toBe(false);
    expect(AgentUpdate.safeParse({ language: tag }).success).toBe(false);
  });

  it('refuses the parts of a tag no vendor takes, saying so', () => {
    for (const tag of ['de-DE-1996', 'en-US-u-ca-buddhist', 'en-x-acme', 'sl-rozaj']) {
      const result = AgentCreate.safeParse({ ...agent, language: tag });
      expect(result.success, tag).toBe(false);
      expect(result.error?.issues.map((i) => i.message), tag).toEqual([expect.stringContaining('variants, extensions')]);
    }
  });

  it('reads tags as Intl does', () => {
    expect(isLanguageTag('de-CH')).toBe(true);
    expect(isLanguageTag('de-CH-1996')).toBe(true);
    expect(isLanguageTag('en-US-u-ca-gregory')).toBe(true);
    expect(isLanguageTag('abcd')).toBe(false);
  });
});

describe('which providers take a language', () => {
  it('accepts combinations every vendor documents', () => {
    expect(refusal({ language: 'es-ES', stt_provider: 'deepgram', tts_provider: 'elevenlabs' })).toEqual([]);
    expect(refusal({ language: 'de-DE', stt_provider: 'assemblyai', tts_provider: 'cartesia' })).toEqual([]);
    expect(refusal({ language: 'ja-JP', stt_provider: 'speechmatics', tts_provider: 'deepgram', tts_voice_id: 'aura-2-ama-ja' })).toEqual([]);
    expect(refusal({ language: 'multi', stt_provider: 'deepgram', tts_provider: 'cartesia' })).toEqual([]);
    expect(refusal({ stt_provider: 'openai', tts_provider: 'deepgram' })).toEqual([]);
  });

  it('names the providers that have the language when the chosen one lacks it', () => {
    expect(refusal({ language: 'hi-IN', stt_provider: 'assemblyai', tts_provider: 'deepgram' })).toEqual([
      { field: 'stt_provider', message: 'assemblyai does not transcribe hi-IN; speech-to-text providers that do: deepgram, speechmatics, openai' },
      { field: 'tts_provider', message: 'deepgram does not speak hi-IN; text-to-speech providers that do: elevenlabs, cartesia' },
    ]);
    expect(refusal({ language: 'multi', stt_provider: 'openai', tts_provider: 'elevenlabs' })).toEqual([
      { field: 'stt_provider', message: 'openai does not transcribe multi (automatic detection); speech-to-text providers that do: deepgram, assemblyai, speechmatics' },
    ]);
  });

  it('refuses on language itself a language no provider hears or speaks', () => {
    expect(refusal({ language: 'xx-YY', stt_provider: 'deepgram', tts_provider: 'elevenlabs' })).toEqual([
      { field: 'language', message: 'no provider here hears or speaks xx-YY; docs/api.md ("language") lists each provider\'s languages' },
    ]);
  });

  it('holds a Deepgram voice, and the fallbacks, to the language', () => {
    expect(refusal({ language: 'es-MX', stt_provider: 'deepgram', tts_provider: 'deepgram', tts_voice_id: 'aura-2-thalia-en' })).toEqual([
      { field: 'tts_voice_id', message: 'the Deepgram voice aura-2-thalia-en speaks en, not es-MX: pick an aura-2-…-es voice' },
    ]);
    expect(refusal({ language: 'es-MX', stt_provider: 'deepgram', tts_provider: 'deepgram', tts_voice_id: 'aura-2-celeste-es' })).toEqual([]);
    const fields = refusal({
      language: 'fr-FR',
      stt_provider: 'deepgram',
      tts_provider: 'elevenlabs',
      fallback: { stt: [{ provider: 'assemblyai' }, { provider: 'speechmatics' }], tts: [{ provider: 'deepgram' }] },
    }).map((d) => d.field);
    // AssemblyAI's Multilingual takes French; the Deepgram fallback without a voice gets its default, which is English.
    expect(fields).toEqual(['fallback.tts.0.voice_id']);
    expect(refusal({ language: 'nl-NL', stt_provider: 'deepgram', tts_provider: 'elevenlabs', fallback: { stt: [{ provider: 'assemblyai' }] } }).map((d) => d.field)).toEqual(['fallback.stt.0.provider']);
  });

  it('lists the nine phrase languages for at least one transcriber and one voice each', () => {
    for (const language of Object.keys(PHRASES)) {
      expect(providersFor(STT_LANGUAGES, language).length, language).toBeGreaterThan(0);
      expect(providersFor(TTS_LANGUAGES, language).length, language).toBeGreaterThan(0);
    }
    expect(providersFor(STT_LANGUAGES, 'multi')).toEqual(['deepgram', 'assemblyai', 'speechmatics']);
    expect(providersFor(TTS_LANGUAGES, 'multi')).toEqual(['elevenlabs', 'cartesia']);
  });

  it('sends Deepgram the codes Nova-3 lists', () => {
    expect(deepgramLanguage('es-ES')).toBe('es');
    expect(deepgramLanguage('pt-BR')).toBe('pt-BR');
    expect(deepgramLanguage('en-US')).toBe('en-US');
    expect(deepgramLanguage('multi')).toBe('multi');
  });
});

describe('the phrase tables', () => {
  const keys = Object.keys(PHRASES.en) as (keyof LanguagePhrases)[];

  it.each(Object.keys(PHRASES))('%s has every line and list, in its own words', (language) => {
    const table = PHRASES[language as keyof typeof PHRASES] as LanguagePhrases;
    expect(Object.keys(table).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      const value = table[key];
      if (Array.isArray(value)) {
        expect(value.length, `${language}.${key}`).toBeGreaterThan(0);
        for (const w of value) expect(w.trim(), `${language}.${key}`).toBe(w);
        // Backchannels and continuation words are compared lower-cased and one word at a time.
        if (key === 'backchannels' || key === 'continuationWords') for (const w of value) expect(w, `${language}.${key}`).toBe(w.toLowerCase());
      } else {
        expect(String(value).trim().length, `${language}.${key}`).toBeGreaterThan(0);
      }
      if (language !== 'en' && !Array.isArray(value)) expect(value, `${language}.${key}`).not.toBe(PHRASES.en[key as 'goodbyePhrase']);
    }
    expect(new Set(table.fillerPhrases).size).toBe(table.fillerPhrases.length);
  });

  it('falls back to English for a language without a table, and reads regions as their language', () => {
    expect(phrasesFor('es-MX')).toBe(PHRASES.es);
    expect(phrasesFor('sv-SE')).toBe(PHRASES.en);
    expect(DEFAULT_SESSION_OPTIONS.apologyPhrase).toBe(PHRASES.en.apologyPhrase);
  });
});

describe('a call in a language', () => {
  it('says its lines in the agent’s language, except those the deployment set', () => {
    const language = new CallLanguage('de-DE');
    const o = language.withLines({ ...DEFAULT_SESSION_OPTIONS, apologyPhrase: 'Bitte?' }, { apologyPhrase: 'Bitte?' });
    expect(o.goodbyePhrase).toBe(PHRASES.de.goodbyePhrase);
    expect(o.fillerPhrases).toEqual(PHRASES.de.fillerPhrases);
    expect(o.apologyPhrase).toBe('Bitte?');
    expect(language.backchannels).toEqual(PHRASES.de.backchannels);
    // A fixed language is not moved by what the recognizer reports.
    language.heard('en');
    expect(o.goodbyePhrase).toBe(PHRASES.de.goodbyePhrase);
    expect(promptWithLanguage('Sei freundlich.', language)).toBe('Sei freundlich.\n\nThe call is in German (de-DE). Always reply in German, even if these instructions are written in another language.');
  });

  it('gets the local model’s answers in the language the prompt asks for', () => {
    const ask = (system: string, said?: string): string =>
      defaultReply({ vendor: 'openai', model: 'gpt-4o-mini', tools: [], messages: { system, turns: said ? [{ role: 'user', text: said, toolCalls: [] }] : [], toolResults: [], endsWithToolResult: false } }).text!;
    const spanish = new CallLanguage('es-ES');
    expect(ask(promptWithLanguage('Confirma citas.', spanish), 'Quiero una cita.')).toBe('Ha dicho: Quiero una cita. ¿En qué puedo ayudarle con eso?');
    expect(ask(promptWithLanguage('', spanish))).toBe('¡Hola! ¿En qué puedo ayudarle hoy?');
    const multi = new CallLanguage('multi');
    multi.heard('de');
    expect(ask(promptWithLanguage('Be brief.', multi), 'Guten Tag.')).toBe('Sie sagten: Guten Tag. Wie kann ich Ihnen dabei helfen?');
    expect(ask(promptWithLanguage('Be brief.', new CallLanguage('en-GB')), 'Hello.')).toBe('You said: Hello. How can I help with that?');
    // A language without phrase tables is answered in English, as its fixed lines are.
    expect(ask(promptWithLanguage('', new CallLanguage('sv-SE')), 'Hej.')).toBe('You said: Hej. How can I help with that?');
  });

  it('leaves an English call’s prompt as the agent wrote it', () => {
    const language = new CallLanguage('en-GB');
    expect(promptWithLanguage('Be brief.', language)).toBe('Be brief.');
    expect(promptWithLanguage('', language)).toBe('');
  });

  it('under multi, follows the caller’s detected language for lines, re-prompts and the model', () => {
    const language = new CallLanguage('multi');
    const o = language.withLines({ ...DEFAULT_SESSION_OPTIONS }, {});
    const silence = silenceIn(silenceSettings({ reprompt_after_ms: 4_000 }), undefined, language);
    const own = silenceIn(silenceSettings({ reprompt_message: 'Hallo?' }), 'Hallo?', language);
    expect(language.current).toBe('en');
    expect(o.transferHoldPhrase).toBe(PHRASES.en.transferHoldPhrase);
    language.heard('de');
    expect(language.current).toBe('de');
    expect(o.transferHoldPhrase).toBe(PHRASES.de.transferHoldPhrase);
    expect(silence.repromptMessage).toBe(PHRASES.de.repromptMessage);
    expect(silence.repromptAfterMs).toBe(4_000);
    expect(own.repromptMessage).toBe('Hallo?');
    expect(promptWithLanguage('', language)).toContain("The caller's last message was in German (de).");
    language.heard(undefined);
    expect(language.current).toBe('de');
    expect(language.backchannels).toEqual(expect.arrayContaining(['uh-huh', 'vale', 'genau', 'はい']));
    expect(languageName('pt-BR')).toBe('Portuguese');
  });

  it('marks a detected language on the caller’s transcript line', () => {
    const c = new Conversation(() => 'prompt');
    c.addUser('Hello', 'en');
    c.addUser('und morgen', 'de');
    c.addUser('plain');
    expect(c.transcript()).toBe('user [de]: Hello und morgen plain');
    expect(c.messages()[0]).toEqual({ role: 'system', content: 'prompt' });
  });
});
