/**
 * The choices the agent editor offers. Providers are the API's enums (lib/domain/agent.ts); models and voices
 * are each vendor's current, commonly used ones (docs/vendors-*.md). The API takes any model or voice id the
 * vendor knows, so the editor also keeps an agent's current value when it is not in these lists.
 */

export const LLM_MODELS: Record<string, readonly (readonly [string, string])[]> = {
  openai: [
    ['gpt-4o-mini', 'GPT-4o mini (fast, low cost)'],
    ['gpt-4o', 'GPT-4o'],
    ['gpt-4.1-mini', 'GPT-4.1 mini'],
    ['gpt-4.1', 'GPT-4.1'],
  ],
  anthropic: [
    ['claude-haiku-4-5', 'Claude Haiku 4.5 (fast)'],
    ['claude-sonnet-4-5', 'Claude Sonnet 4.5'],
  ],
  google: [
    ['gemini-2.5-flash', 'Gemini 2.5 Flash (fast)'],
    ['gemini-2.5-pro', 'Gemini 2.5 Pro'],
  ],
};

import type { Schemas } from './api.js';
import { auraVoiceLanguage, DEFAULT_LANGUAGE, MULTI, primarySubtag } from '../../../domain/language-support.js';

export type LlmProvider = Schemas['AgentCreate']['llm_provider'];
export type SttProvider = Schemas['AgentCreate']['stt_provider'];
export type TtsProvider = Schemas['AgentCreate']['tts_provider'];

/** The option of `options` whose value is `value` (a select's choice back to its typed value). */
export const chosen = <T extends string>(options: readonly (readonly [T, string])[], value: string): T | undefined => options.find(([v]) => v === value)?.[0];

export const LLM_PROVIDERS: readonly (readonly [LlmProvider, string])[] = [
  ['openai', 'OpenAI'],
  ['anthropic', 'Anthropic'],
  ['google', 'Google Gemini'],
  ['custom', 'Custom (OpenAI-compatible)'],
];

export const STT_PROVIDERS: readonly (readonly [SttProvider, string])[] = [
  ['deepgram', 'Deepgram (Nova-3)'],
  ['assemblyai', 'AssemblyAI (Universal Streaming)'],
  ['speechmatics', 'Speechmatics'],
  ['openai', 'OpenAI (gpt-4o-transcribe)'],
];

export const TTS_PROVIDERS: readonly (readonly [TtsProvider, string])[] = [
  ['deepgram', 'Deepgram Aura'],
  ['elevenlabs', 'ElevenLabs'],
  ['cartesia', 'Cartesia'],
];

export interface Voice {
  readonly id: string;
  readonly name: string;
  readonly description: string;
}

/** The first voice of each provider is the API's default for it (DEFAULT_VOICE in lib/domain/agent.ts). */
export const VOICES: Record<string, readonly Voice[]> = {
  deepgram: [
    { id: 'aura-2-thalia-en', name: 'Thalia', description: 'Clear, confident, energetic · American English, feminine' },
    { id: 'aura-2-andromeda-en', name: 'Andromeda', description: 'Casual, expressive · American English, feminine' },
    { id: 'aura-2-helena-en', name: 'Helena', description: 'Caring, natural, friendly · American English, feminine' },
    { id: 'aura-2-apollo-en', name: 'Apollo', description: 'Confident, comfortable · American English, masculine' },
    { id: 'aura-2-arcas-en', name: 'Arcas', description: 'Natural, smooth, clear · American English, masculine' },
    // Aura-2 speaks one language per voice; the picker shows those of the agent's language.
    { id: 'aura-2-celeste-es', name: 'Celeste', description: 'Spanish' },
    { id: 'aura-2-nestor-es', name: 'Nestor', description: 'Spanish' },
    { id: 'aura-2-aurelia-de', name: 'Aurelia', description: 'German' },
    { id: 'aura-2-elara-de', name: 'Elara', description: 'German' },
    { id: 'aura-2-agathe-fr', name: 'Agathe', description: 'French' },
    { id: 'aura-2-beatrix-nl', name: 'Beatrix', description: 'Dutch' },
    { id: 'aura-2-cinzia-it', name: 'Cinzia', description: 'Italian' },
    { id: 'aura-2-cesare-it', name: 'Cesare', description: 'Italian' },
    { id: 'aura-2-ama-ja', name: 'Ama', description: 'Japanese' },
    { id: 'aura-2-ebisu-ja', name: 'Ebisu', description: 'Japanese' },
  ],
  elevenlabs: [
    { id: '21m00Tcm4TlvDq8ikWAM', name: 'Rachel', description: 'Calm, young · American English, feminine' },
    { id: 'EXAVITQu4vr4xnSDxMaL', name: 'Sarah', description: 'Soft, reassuring · American English, feminine' },
    { id: 'pNInz6obpgDQGcFmaJgB', name: 'Adam', description: 'Deep, narrative · American English, masculine' },
    { id: 'JBFqnCBsd6RMkjVDRZzb', name: 'George', description: 'Warm, mature · British English, masculine' },
  ],
  cartesia: [
    { id: 'a0e99841-438c-4a64-b679-ae501e7d6091', name: 'Barbershop Man', description: 'Friendly, conversational · American English, masculine' },
    { id: '79a125e8-cd45-4c13-8a67-188112f4dd22', name: 'British Lady', description: 'Elegant · British English, feminine' },
    { id: '156fb8d2-335b-4950-9cb3-a2d33befec77', name: 'Helpful Woman', description: 'Warm support voice · American English, feminine' },
  ],
};

/**
 * The voices of `provider` that speak `language`: a Deepgram voice speaks the language its id ends in
 * (`aura-2-celeste-es`); the other vendors' voices speak every language of their model.
 */
export function voicesFor(provider: string, language: string): readonly Voice[] {
  const all = VOICES[provider] ?? [];
  if (provider !== 'deepgram' || language === MULTI) return all;
  return all.filter((v) => auraVoiceLanguage(v.id) === primarySubtag(language));
}

export const defaultVoice = (provider: string, language = DEFAULT_LANGUAGE) => voicesFor(provider, language)[0]?.id ?? VOICES[provider]?.[0]?.id ?? '';

/** The languages the picker offers (any BCP-47 tag is accepted by the API; an agent's own stays selectable). */
export const LANGUAGES: readonly (readonly [string, string])[] = [
  [MULTI, 'Automatic: follow the caller (multi)'],
  ['en-US', 'English (US)'],
  ['en-GB', 'English (UK)'],
  ['es-ES', 'Spanish (Spain)'],
  ['es-MX', 'Spanish (Mexico)'],
  ['fr-FR', 'French'],
  ['de-DE', 'German'],
  ['pt-BR', 'Portuguese (Brazil)'],
  ['pt-PT', 'Portuguese (Portugal)'],
  ['it-IT', 'Italian'],
  ['nl-NL', 'Dutch'],
  ['hi-IN', 'Hindi'],
  ['ja-JP', 'Japanese'],
  ['zh-CN', 'Chinese (Mandarin)'],
  ['ko-KR', 'Korean'],
  ['pl-PL', 'Polish'],
  ['ru-RU', 'Russian'],
  ['sv-SE', 'Swedish'],
  ['tr-TR', 'Turkish'],
];
export const defaultModel = (provider: string) => LLM_MODELS[provider]?.[0]?.[0] ?? '';

/** A choice list that keeps `current` selectable even when the catalogue does not name it. */
export function withCurrent(options: readonly (readonly [string, string])[], current: string): readonly (readonly [string, string])[] {
  return !current || options.some(([v]) => v === current) ? options : [...options, [current, `${current} (current)`]];
}
