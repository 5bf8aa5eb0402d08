import * as z from 'zod';
import type { STT_PROVIDERS, TTS_PROVIDERS } from './providers.js';
import { ValidationError } from './errors.js';
import { auraVoiceLanguage, DEFAULT_LANGUAGE, isLanguageTag, MULTI, primarySubtag, providersFor, STT_LANGUAGES, supports, TTS_LANGUAGES } from './language-support.js';

export * from './language-support.js';

/**
 * The language an agent speaks (docs/api.md, "language"): a BCP-47 tag (`es-ES`, `de-DE`, `hi-IN`) or
 * `multi`, the caller's language detected turn by turn. Which vendor hears and speaks which language is
 * below, from each vendor's own language list (read 2026-12); an agent whose transcriber or voice does not
 * have its language is refused with the providers that do.
 */

export const AgentLanguage = z
  .string()
  .trim()
  .max(35)
  .refine(isLanguageTag, 'a BCP-47 language tag such as en-US, es-ES or de-DE, or multi for automatic detection')
  // No vendor takes a tag's variants, extensions or private use (de-DE-1996, en-US-u-ca-buddhist, en-x-acme):
  // refused rather than kept and ignored.
  .refine((tag) => !isLanguageTag(tag) || tag === MULTI || /^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?$/.test(tag), 'a language, an optional script and an optional region (en-US, pt-BR, zh-Hant-TW): variants, extensions (-u-…) and private use (-x-…) do nothing here')
  .describe('BCP-47 tag (en-US, es-ES, de-DE, hi-IN) or `multi`: the caller\'s language is detected each turn and the agent answers in it.');

/** The fields that decide whether an agent's language can be heard and spoken. */
export interface LanguageChoice {
  readonly language?: string;
  readonly stt_provider: (typeof STT_PROVIDERS)[number];
  readonly tts_provider: (typeof TTS_PROVIDERS)[number];
  readonly tts_voice_id?: string;
  readonly fallback?: { readonly stt?: readonly { provider: (typeof STT_PROVIDERS)[number] }[]; readonly tts?: readonly { provider: (typeof TTS_PROVIDERS)[number]; voice_id?: string }[] };
}

const describe = (language: string): string => (language === MULTI ? 'multi (automatic detection)' : language);

/**
 * 400 when the agent's transcriber, voice or a fallback of theirs does not cover its language, naming the
 * providers that do. A Deepgram voice speaks one language: it must be that one.
 */
export function assertLanguageSupported(agent: LanguageChoice, defaultVoices: Readonly<Record<(typeof TTS_PROVIDERS)[number], string>>): void {
  const language = agent.language ?? DEFAULT_LANGUAGE;
  const issues: { field: string; message: string }[] = [];
  const sttOk = providersFor(STT_LANGUAGES, language);
  const ttsOk = providersFor(TTS_LANGUAGES, language);
  const stt = (field: string, p: (typeof STT_PROVIDERS)[number]) => {
    if (!supports(STT_LANGUAGES[p], language)) {
      issues.push({ field, message: `${p} does not transcribe ${describe(language)}; speech-to-text providers that do: ${sttOk.join(', ') || 'none'}` });
    }
  };
  const tts = (field: string, p: (typeof TTS_PROVIDERS)[number], voice: string | undefined) => {
    if (!supports(TTS_LANGUAGES[p], language)) {
      issues.push({ field, message: `${p} does not speak ${describe(language)}; text-to-speech providers that do: ${ttsOk.join(', ') || 'none'}` });
      return;
    }
    const voiceLanguage = p === 'deepgram' ? auraVoiceLanguage(voice ?? defaultVoices.deepgram) : undefined;
    if (voiceLanguage && voiceLanguage !== primarySubtag(language)) {
      issues.push({ field: field.replace(/provider$/, 'voice_id'), message: `the Deepgram voice ${voice ?? defaultVoices.deepgram} speaks ${voiceLanguage}, not ${language}: pick an aura-2-…-${primarySubtag(language)} voice` });
    }
  };
  if (sttOk.length === 0 && ttsOk.length === 0) {
    const message = `no provider here hears or speaks ${language}; docs/api.md ("language") lists each provider's languages`;
    throw new ValidationError([{ field: 'language', message }], message);
  }
  stt('stt_provider', agent.stt_provider);
  tts('tts_provider', agent.tts_provider, agent.tts_voice_id);
  agent.fallback?.stt?.forEach((f, i) => stt(`fallback.stt.${i}.provider`, f.provider));
  agent.fallback?.tts?.forEach((f, i) => tts(`fallback.tts.${i}.provider`, f.provider, f.voice_id));
  if (issues.length > 0) throw new ValidationError(issues, issues[0]!.message);
}

