import type { Config } from '../../config.js';
import { startCartesiaStandin } from './cartesia.js';
import { startDeepgramTtsStandin } from './deepgram-tts.js';
import { startElevenLabsStandin } from './elevenlabs.js';
import type { TtsScript, TtsStandin } from './tts-audio.js';

export type { TtsScript, TtsStandin } from './tts-audio.js';
export { DEFAULT_TTS_SCRIPT, toneBytes, synthesize } from './tts-audio.js';

/** The running TTS stand-ins, by vendor (absent where the real key is set), and a way to re-script them all. */
export interface TtsStandinControl {
  readonly elevenlabs?: TtsStandin;
  readonly deepgram?: TtsStandin;
  readonly cartesia?: TtsStandin;
  /** Changes the timing or voice of every running TTS stand-in. */
  setScript(script: Partial<TtsScript>): void;
}

export interface TtsStandins {
  /** Variables that point the adapters at the stand-ins: base URLs and dummy keys. */
  readonly env: Record<string, string>;
  readonly control: TtsStandinControl;
  stop(): Promise<void>;
}

/**
 * Starts a stand-in for each TTS vendor whose real key is not set in `config`, and returns the variables
 * that send that vendor's adapter to it. A vendor with a real key is left to the real service. The Deepgram
 * stand-in serves `/v1/speak` only, through DEEPGRAM_TTS_BASE_URL (Deepgram speech-to-text has its own).
 */
export async function startTtsStandins(config: Config, script: Partial<TtsScript> = {}): Promise<TtsStandins> {
  const [elevenlabs, deepgram, cartesia] = await Promise.all([
    config.ELEVENLABS_API_KEY ? undefined : startElevenLabsStandin({ script }),
    config.DEEPGRAM_API_KEY ? undefined : startDeepgramTtsStandin({ script }),
    config.CARTESIA_API_KEY ? undefined : startCartesiaStandin({ script }),
  ]);
  const env: Record<string, string> = {};
  if (elevenlabs) Object.assign(env, { ELEVENLABS_BASE_URL: elevenlabs.baseUrl, ELEVENLABS_API_KEY: elevenlabs.apiKey });
  if (deepgram) Object.assign(env, { DEEPGRAM_TTS_BASE_URL: deepgram.baseUrl, DEEPGRAM_API_KEY: deepgram.apiKey });
  if (cartesia) Object.assign(env, { CARTESIA_BASE_URL: cartesia.baseUrl, CARTESIA_API_KEY: cartesia.apiKey });
  const running = [elevenlabs, deepgram, cartesia].filter((s): s is TtsStandin => s !== undefined);
  return {
    env,
    control: {
      ...(elevenlabs ? { elevenlabs } : {}),
      ...(deepgram ? { deepgram } : {}),
      ...(cartesia ? { cartesia } : {}),
      setScript: (next) => {
        for (const s of running) s.setScript(next);
      },
    },
    stop: async () => {
      await Promise.all(running.map((s) => s.stop()));
    },
  };
}
