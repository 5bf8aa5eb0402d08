import type { STT_PROVIDERS, TTS_PROVIDERS } from './providers.js';

/**
 * Which vendor hears and speaks which language, from each vendor's own language list (read 2026-12). No
 * runtime imports: the dashboard's language picker reads these same tables (lib/web/dashboard).
 */

export const MULTI = 'multi';
export const DEFAULT_LANGUAGE = 'en-US';

/** A language tag's primary subtag, lower case ("es-ES" -> "es"); `multi` stays `multi`. */
export const primarySubtag = (tag: string): string => (tag.split(/[-_]/)[0] ?? tag).toLowerCase();

/** Well-formed BCP-47 (as `Intl.getCanonicalLocales` reads it) with a 2-3 letter language, or `multi`. */
export function isLanguageTag(tag: string): boolean {
  if (tag === MULTI) return true;
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag)) return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

const list = (codes: string): ReadonlySet<string> => new Set(codes.split(' '));

/** A vendor's languages: primary subtags it takes, and whether it detects the language itself (`multi`). */
export interface LanguageSupport {
  readonly languages: ReadonlySet<string>;
  readonly multi: boolean;
  /** Where the list comes from. */
  readonly source: string;
}

/** What each recognizer hears, with the model the adapter picks for it (lib/vendors/stt/*). */
export const STT_LANGUAGES: Record<(typeof STT_PROVIDERS)[number], LanguageSupport> = {
  // Nova-3 monolingual models, as Deepgram's changelog added them (2025-08-15 de nl sv da; 2025-09-02 es fr pt;
  // 2025-09-16 it tr no id; 2025-11-04 bg cs fi hi hu ja ko pl ru uk vi; 2025-11-24 ca et el lv lt ms ro sk;
  // 2026-01-21 be bn bs hr kn mk mr sr sl ta tl te; 2026-03-31 zh); `language=multi` is Nova-3 Multilingual
  // (developers.deepgram.com/docs/multilingual-code-switching).
  deepgram: {
    languages: list('en de nl sv da es fr pt it tr no id bg cs fi hi hu ja ko pl ru uk vi ca et el lv lt ms ro sk be bn bs hr kn mk mr sr sl ta tl te zh'),
    multi: true,
    source: 'developers.deepgram.com/docs/models-languages-overview',
  },
  // Universal-Streaming: `universal-streaming-english`, or `universal-streaming-multilingual` for English,
  // Spanish, French, German, Italian and Portuguese, with `language_detection=true` reporting each turn's
  // `language_code` (assemblyai.com/docs/streaming/universal-streaming/multilingual-transcription).
  assemblyai: { languages: list('en es fr de it pt'), multi: true, source: 'assemblyai.com/docs/streaming/universal-streaming/multilingual-transcription' },
  // Speechmatics real-time languages; `language: auto` identifies the language (docs.speechmatics.com, Languages).
  speechmatics: {
    languages: list('ar ba eu be bn bg yue ca hr cs da nl en eo et fi fr gl de el he hi hu id ia ga it ja ko lv lt ms mt cmn mr mn no fa pl pt ro ru sk sl es sw sv tl ta th tr uk ur ug vi cy'),
    multi: true,
    source: 'docs.speechmatics.com/speech-to-text/languages',
  },
  // gpt-4o-transcribe takes Whisper's languages (ISO 639-1 `language`); its realtime events do not say which
  // language it heard, so it cannot mark a `multi` call's turns (platform.openai.com/docs/guides/speech-to-text).
  openai: {
    languages: list('af ar hy az be bs bg ca zh hr cs da nl en et fi fr gl de el he hi hu is id it ja kn kk ko lv lt mk ms mr mi ne no fa pl pt ro ru sr sk sl es sw sv tl ta th tr uk ur vi cy'),
    multi: false,
    source: 'platform.openai.com/docs/guides/speech-to-text#supported-languages',
  },
};

/** What each voice speaks (lib/vendors/tts/*). */
export const TTS_LANGUAGES: Record<(typeof TTS_PROVIDERS)[number], LanguageSupport> = {
  // eleven_flash_v2_5 (the adapter's model): eleven_multilingual_v2's languages plus hu, no, vi. One voice speaks
  // them all; without `language_code` the model follows the text (elevenlabs.io/docs/overview/models).
  elevenlabs: {
    languages: list('en ja zh de hi fr ko pt it es id nl tr fil pl sv bg ro ar cs el fi hr ms sk da ta uk ru hu no vi'),
    multi: true,
    source: 'elevenlabs.io/docs/overview/models',
  },
  // Aura-2: en es de fr nl it ja; each voice speaks one (`aura-2-<name>-<lang>`), so it cannot follow a
  // `multi` caller (developers.deepgram.com/docs/tts-models).
  deepgram: { languages: list('en es de fr nl it ja'), multi: false, source: 'developers.deepgram.com/docs/tts-models' },
  // Sonic: the request's `language` (`@cartesia/cartesia-js` SupportedLanguage); set per utterance, so one voice
  // follows the caller (docs.cartesia.ai/api-reference/tts/websocket).
  cartesia: {
    languages: list('en fr de es pt zh ja hi it ko nl pl ru sv tr tl bg ro ar cs el fi hr ms sk da ta uk hu no vi bn th he ka id te gu kn ml mr pa or ur'),
    multi: true,
    source: 'docs.cartesia.ai/2024-11-13/build-with-cartesia/models',
  },
};

/** Whether `support` covers `language` (a tag or `multi`). */
export function supports(support: LanguageSupport, language: string): boolean {
  return language === MULTI ? support.multi : support.languages.has(primarySubtag(language));
}

/** The providers of `table` that cover `language`, in table order. */
export function providersFor<K extends string>(table: Record<K, LanguageSupport>, language: string): K[] {
  return (Object.keys(table) as K[]).filter((k) => supports(table[k], language));
}

/** The language a Deepgram Aura voice speaks: its last part (`aura-2-celeste-es` -> `es`). */
export const auraVoiceLanguage = (voice: string): string | undefined => /^aura-(?:2-)?[a-z]+-([a-z]{2})$/.exec(voice)?.[1];

/** English names of the languages the fixed phrases are written in, for the model's instruction. */
const NAMES: Record<string, string> = {
  en: 'English', es: 'Spanish', fr: 'French', de: 'German', pt: 'Portuguese', it: 'Italian', nl: 'Dutch', hi: 'Hindi', ja: 'Japanese',
};

/** A language's English name where known (`de` -> German), else its tag. */
export function languageName(tag: string): string {
  const primary = primarySubtag(tag);
  if (NAMES[primary]) return NAMES[primary];
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}
