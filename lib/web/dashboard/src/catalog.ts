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

export const defaultVoice = (provider: string) => VOICES[provider]?.[0]?.id ?? '';
export const defaultModel = (provider: string) => LLM_MODELS[provider]?.[0]?.[0] ?? '';

/** A choice list that keeps `current` selectable even when the catalogue does not name it. */
export function withCurrent(options: readonly (readonly [string, string])[], current: string): readonly (readonly [string, string])[] {
  return !current || options.some(([v]) => v === current) ? options : [...options, [current, `${current} (current)`]];
}
