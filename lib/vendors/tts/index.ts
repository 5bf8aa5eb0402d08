import type { Config } from '../../config.js';
import { VendorError } from '../shared/errors.js';
import type { TtsBaseOptions } from './base.js';
import { cartesiaTts } from './cartesia.js';
import { deepgramTts } from './deepgram.js';
import { elevenLabsTts } from './elevenlabs.js';
import type { TtsProvider, TtsProviderId } from './port.js';

export type { TtsAudioChunk, TtsOptions, TtsProvider, TtsProviderId, TtsSession, TtsUtterance } from './port.js';
export type { TtsBaseOptions, TtsUtteranceMetrics } from './base.js';

const DEFAULT_BASE_URL = {
  elevenlabs: 'https://api.elevenlabs.io',
  cartesia: 'https://api.cartesia.ai',
} as const;

/**
 * The TTS provider an agent names, wired from config: its key, and its base URL (a stand-in's on loopback
 * under `npm start` and in tests, the vendor's own otherwise). A provider without a key still builds, and
 * fails its `connect` with a non-retryable {@link VendorError}, so an agent naming it fails its call, not
 * the process.
 */
export function createTtsProvider(id: TtsProviderId, config: Config, base: Partial<TtsBaseOptions> = {}): TtsProvider {
  switch (id) {
    case 'elevenlabs':
      return config.ELEVENLABS_API_KEY
        ? elevenLabsTts({ apiKey: config.ELEVENLABS_API_KEY, baseUrl: config.ELEVENLABS_BASE_URL ?? DEFAULT_BASE_URL.elevenlabs }, base)
        : missingKey(id, 'ELEVENLABS_API_KEY');
    case 'deepgram': {
      const baseUrl = config.DEEPGRAM_TTS_BASE_URL ?? config.DEEPGRAM_BASE_URL;
      return config.DEEPGRAM_API_KEY
        ? deepgramTts({ apiKey: config.DEEPGRAM_API_KEY, ...(baseUrl ? { baseUrl } : {}) }, base)
        : missingKey(id, 'DEEPGRAM_API_KEY');
    }
    case 'cartesia':
      return config.CARTESIA_API_KEY
        ? cartesiaTts({ apiKey: config.CARTESIA_API_KEY, baseUrl: config.CARTESIA_BASE_URL ?? DEFAULT_BASE_URL.cartesia }, base)
        : missingKey(id, 'CARTESIA_API_KEY');
  }
}

function missingKey(id: TtsProviderId, variable: string): TtsProvider {
  return {
    id,
    connect: () => Promise.reject(new VendorError(id, `${variable} is not set`, false)),
  };
}
