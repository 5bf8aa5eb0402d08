/**
 * The model names and voice ids the stand-ins know, so they refuse an unknown one as the real vendor does
 * (a real vendor answers `llm_model: 'm'` with a 404, not with speech). Taken from the vendors' model
 * pages and the installed SDKs' model unions (`openai` `ChatModel`/`AudioModel`, `@anthropic-ai/sdk`
 * `Model`), plus the platform's own defaults (`DEFAULT_VOICE`, the adapters' default models), in
 * November 2026. A vendor's dated snapshot of a listed model (`gpt-4o-2024-08-06`,
 * `claude-haiku-4-5-20251001`, `sonic-2-2025-03-07`) is accepted too. docs/vendors-*.md lists them.
 *
 * A name the real vendor has and this list lacks fails only against the stand-in: add it here.
 */

/** The one placeholder key every stand-in accepts: one value, because Deepgram's STT and TTS share a key. */
export const STANDIN_KEY = 'standin';

/** Chat models each LLM vendor serves. */
export const LLM_MODELS = {
  openai: [
    'gpt-5.4', 'gpt-5.4-mini', 'gpt-5.4-nano', 'gpt-5.3-chat-latest', 'gpt-5.2', 'gpt-5.2-chat-latest', 'gpt-5.1',
    'gpt-5.1-mini', 'gpt-5.1-chat-latest', 'gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-5-chat-latest', 'gpt-4.1',
    'gpt-4.1-mini', 'gpt-4.1-nano', 'o4-mini', 'o3', 'o3-mini', 'o1', 'gpt-4o', 'gpt-4o-mini', 'chatgpt-4o-latest',
    'gpt-4-turbo', 'gpt-4', 'gpt-3.5-turbo',
  ],
  anthropic: [
    'claude-opus-5', 'claude-sonnet-5', 'claude-sonnet-5-5', 'claude-haiku-5-5', 'claude-opus-5-5', 'claude-opus-4-8',
    'claude-opus-4-7', 'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-opus-4-5', 'claude-sonnet-4-5',
    'claude-haiku-4-5',
  ],
  google: [
    'gemini-3.8-flash', 'gemini-3.7-flash', 'gemini-3.6-flash', 'gemini-3.5-flash', 'gemini-3.5-flash-lite',
    'gemini-3.1-flash-lite', 'gemini-3.1-pro-preview', 'gemini-3-flash-preview', 'gemini-2.5-pro', 'gemini-2.5-flash',
    'gemini-2.5-flash-lite', 'gemini-2.0-flash', 'gemini-2.0-flash-001', 'gemini-2.0-flash-lite', 'gemini-flash-latest',
    'gemini-flash-lite-latest', 'gemini-pro-latest',
  ],
} as const;

/** Speech-to-text models (Deepgram `model`, AssemblyAI `speech_model`, Speechmatics model, OpenAI transcription). */
export const STT_MODELS = {
  deepgram: ['nova-3', 'nova-3-general', 'nova-3-medical', 'nova-2', 'nova-2-general', 'nova-2-phonecall', 'nova-2-meeting', 'nova', 'enhanced', 'base'],
  assemblyai: ['universal-streaming-english', 'universal-streaming-multilingual', 'u3-rt-pro', 'u3-pro', 'whisper-rt'],
  speechmatics: ['standard', 'enhanced', 'melia-1'],
  openai: ['gpt-4o-transcribe', 'gpt-4o-mini-transcribe', 'whisper-1'],
} as const;

/** ElevenLabs text-to-speech models and the premade voices every account has. */
export const ELEVENLABS_MODELS = ['eleven_flash_v2_5', 'eleven_flash_v2', 'eleven_turbo_v2_5', 'eleven_turbo_v2', 'eleven_multilingual_v2', 'eleven_v3'] as const;
export const ELEVENLABS_VOICES = [
  '21m00Tcm4TlvDq8ikWAM', // Rachel (the platform's default)
  'EXAVITQu4vr4xnSDxMaL', // Sarah
  'pNInz6obpgDQGcFmaJgB', // Adam
  'JBFqnCBsd6RMkjVDRZzb', // George
  'Xb7hH8MSUJpSbSDYk0k2', // Alice
  'cgSgspJ2msm6clMCkdW9', // Jessica
  'nPczCjzI2devNBz1zQrb', // Brian
  'onwK4e9ZLuTAKqWW03F9', // Daniel
  'pFZP5JQG7iQjIQuC4Bku', // Lily
  'TX3LPaxmHKxFdv7VOQHJ', // Liam
  'iP95p4xoKVk53GoZ742B', // Chris
  'cjVigY5qzO86Huf0OWal', // Eric
  'FGY2WhTYpPnrIDTdsKH5', // Laura
  'XrExE9yKIg1WjnnlVkGX', // Matilda
] as const;

/** Deepgram Aura voices: the voice is the model (`/v1/speak?model=`). */
export const DEEPGRAM_TTS_MODELS = [
  ...['thalia', 'andromeda', 'helena', 'apollo', 'arcas', 'aries', 'amalthea', 'asteria', 'athena', 'atlas', 'aurora', 'callista', 'cora', 'cordelia', 'delia', 'draco', 'electra', 'harmonia', 'hera', 'hermes', 'hyperion', 'iris', 'janus', 'juno', 'jupiter', 'luna', 'mars', 'minerva', 'neptune', 'odysseus', 'ophelia', 'orion', 'orpheus', 'pandora', 'phoebe', 'pluto', 'saturn', 'selene', 'theia', 'vesta', 'zeus'].map((v) => `aura-2-${v}-en`),
  ...['celeste', 'estrella', 'nestor', 'sirio', 'carina', 'alvaro', 'diana', 'aquila', 'selena', 'javier', 'agustina', 'antonia'].map((v) => `aura-2-${v}-es`),
  // Aura-2's other languages (developers.deepgram.com/docs/tts-models; the voice list OpenRouter publishes for deepgram/aura-2).
  'aura-2-aurelia-de', 'aura-2-elara-de', 'aura-2-agathe-fr', 'aura-2-beatrix-nl', 'aura-2-cornelia-nl', 'aura-2-daphne-nl',
  'aura-2-cesare-it', 'aura-2-cinzia-it', 'aura-2-demetra-it', 'aura-2-dionisio-it', 'aura-2-ama-ja', 'aura-2-ebisu-ja',
  ...['asteria', 'luna', 'stella', 'athena', 'hera', 'orion', 'arcas', 'perseus', 'angus', 'orpheus', 'helios', 'zeus'].map((v) => `aura-${v}-en`),
] as readonly string[];

/** Cartesia models and a few of its stock voices (ids are UUIDs). */
export const CARTESIA_MODELS = ['sonic-3', 'sonic-2', 'sonic-turbo', 'sonic', 'sonic-english', 'sonic-multilingual'] as const;
export const CARTESIA_VOICES = [
  'a0e99841-438c-4a64-b679-ae501e7d6091', // Barbershop Man (the platform's default)
  '694f9389-aac1-45b6-b726-9d9369183238', // Sarah
  '79a125e8-cd45-4c13-8a67-188112f4dd22', // British Lady
  '156fb8d2-335b-4950-9cb3-a2d33befec77', // Helpful Woman
  'bf0a246a-8642-498a-9950-80c35e9276b5', // Sophie
  'f786b574-daa5-4673-aa0c-cbe3e8534c02', // Katie
  'e07c00bc-4134-4eae-9ea4-1a55fb45746b', // Brooke
] as const;

/** A dated snapshot suffix: `-2024-08-06` (OpenAI, Cartesia), `-20251001` (Anthropic), `-001` (Gemini). */
const SNAPSHOT = /-(\d{4}-\d{2}-\d{2}|\d{8}|\d{3})$/;

/** Names withdrawn from every stand-in's catalogue ({@link withdrawStandinEntry}). */
const withdrawn = new Set<string>();

/**
 * Withdraws a voice or model from the stand-ins, as a vendor retires a voice or an account deletes one: from
 * then on its list endpoints leave it out and its sockets refuse it as unknown. For tests of what happens
 * to an agent saved with a voice that later disappears; {@link restoreStandinEntries} undoes it.
 */
export function withdrawStandinEntry(name: string): void {
  withdrawn.add(name);
}

export function restoreStandinEntries(): void {
  withdrawn.clear();
}

/** Whether `name` is in `list` (and not withdrawn), directly or as a dated snapshot of a listed name. */
export function isKnown(list: readonly string[], name: unknown): boolean {
  if (typeof name !== 'string' || withdrawn.has(name)) return false;
  return list.includes(name) || list.includes(name.replace(SNAPSHOT, ''));
}

/** The names of `list` the stand-ins still serve. */
export const served = (list: readonly string[]): string[] => list.filter((name) => !withdrawn.has(name));

/**
 * What the stand-ins' voice lists say of each voice (ElevenLabs `labels`, Cartesia `gender`/`language`):
 * the vendors' own descriptions of these premade voices.
 */
export const VOICE_DETAILS: Readonly<Record<string, { readonly name: string; readonly gender: 'female' | 'male'; readonly language: string }>> = {
  '21m00Tcm4TlvDq8ikWAM': { name: 'Rachel', gender: 'female', language: 'en' },
  EXAVITQu4vr4xnSDxMaL: { name: 'Sarah', gender: 'female', language: 'en' },
  pNInz6obpgDQGcFmaJgB: { name: 'Adam', gender: 'male', language: 'en' },
  JBFqnCBsd6RMkjVDRZzb: { name: 'George', gender: 'male', language: 'en' },
  Xb7hH8MSUJpSbSDYk0k2: { name: 'Alice', gender: 'female', language: 'en' },
  cgSgspJ2msm6clMCkdW9: { name: 'Jessica', gender: 'female', language: 'en' },
  nPczCjzI2devNBz1zQrb: { name: 'Brian', gender: 'male', language: 'en' },
  onwK4e9ZLuTAKqWW03F9: { name: 'Daniel', gender: 'male', language: 'en' },
  pFZP5JQG7iQjIQuC4Bku: { name: 'Lily', gender: 'female', language: 'en' },
  TX3LPaxmHKxFdv7VOQHJ: { name: 'Liam', gender: 'male', language: 'en' },
  iP95p4xoKVk53GoZ742B: { name: 'Chris', gender: 'male', language: 'en' },
  cjVigY5qzO86Huf0OWal: { name: 'Eric', gender: 'male', language: 'en' },
  FGY2WhTYpPnrIDTdsKH5: { name: 'Laura', gender: 'female', language: 'en' },
  XrExE9yKIg1WjnnlVkGX: { name: 'Matilda', gender: 'female', language: 'en' },
  'a0e99841-438c-4a64-b679-ae501e7d6091': { name: 'Barbershop Man', gender: 'male', language: 'en' },
  '694f9389-aac1-45b6-b726-9d9369183238': { name: 'Sarah', gender: 'female', language: 'en' },
  '79a125e8-cd45-4c13-8a67-188112f4dd22': { name: 'British Lady', gender: 'female', language: 'en' },
  '156fb8d2-335b-4950-9cb3-a2d33befec77': { name: 'Helpful Woman', gender: 'female', language: 'en' },
  'bf0a246a-8642-498a-9950-80c35e9276b5': { name: 'Sophie', gender: 'female', language: 'en' },
  'f786b574-daa5-4673-aa0c-cbe3e8534c02': { name: 'Katie', gender: 'female', language: 'en' },
  'e07c00bc-4134-4eae-9ea4-1a55fb45746b': { name: 'Brooke', gender: 'female', language: 'en' },
};
