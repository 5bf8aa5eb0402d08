import { openStandinAccount } from './accounts.js';
import type { Config } from '../../config.js';
import type { SttProviderId } from '../../vendors/stt/port.js';
import { STANDIN_KEY } from './catalog.js';
import { startAssemblyAiStandin } from './assemblyai.js';
import { startDeepgramSttStandin } from './deepgram-stt.js';
import { startOpenAiSttStandin } from './openai-stt.js';
import { startSpeechmaticsStandin } from './speechmatics.js';
import type { SttScript, SttStandin, SttStandinControl } from './stt-engine.js';

export type { SttScript, SttScriptContext, SttStandinControl, StandinSession, WireFrame, WireStep } from './stt-engine.js';
export { DEFAULT_STT_SCRIPT, DEFAULT_TRANSCRIPTS, cycleTranscripts, wireSteps } from './stt-engine.js';

/** The placeholder key the stand-ins hand out and accept (one for all vendors: see `STANDIN_KEY`). */
export const STANDIN_API_KEY = STANDIN_KEY;

/** Running STT stand-ins: the environment that points the adapters at them, their controls, and a stop. */
export interface SttStandins {
  /** Base URLs and placeholder keys, to merge into the environment before `loadConfig`. */
  readonly env: Record<string, string>;
  /** One control per stand-in started (vendors with a real key get none). */
  readonly control: Partial<Record<SttProviderId, SttStandinControl>>;
  stop(): Promise<void>;
}

/**
 * Starts a loopback stand-in for every speech-to-text vendor whose real key is not configured, each on its
 * own port, all with the same starting script. The returned `env` sets each such vendor's base URL (and
 * Speechmatics' temporary-key URL) and a placeholder key; vendors with a real key are left alone and reach
 * the real service.
 *
 * Only capability-specific variables are set where a vendor serves several capabilities (OpenAI:
 * `OPENAI_STT_BASE_URL`, never `OPENAI_BASE_URL`). Deepgram's STT variable is the vendor-wide
 * `DEEPGRAM_BASE_URL`; this stand-in serves `/v1/listen` only, so a Deepgram TTS stand-in must set
 * `DEEPGRAM_TTS_BASE_URL`.
 */
export async function startSttStandins(config: Config, script: Partial<SttScript> = {}): Promise<SttStandins> {
  const env: Record<string, string> = {};
  const control: Partial<Record<SttProviderId, SttStandinControl>> = {};
  const running: SttStandin[] = [];
  const stop = async () => {
    await Promise.all(running.map((s) => s.stop()));
  };
  try {
    // The key handed to the platform is an account at each vendor (lib/local/standins/accounts.ts).
    for (const vendor of ['deepgram', 'assemblyai', 'speechmatics', 'openai'] as const) openStandinAccount(vendor, STANDIN_API_KEY);
    if (!config.DEEPGRAM_API_KEY) {
      const s = await startDeepgramSttStandin(script);
      running.push(s);
      control.deepgram = s.control;
      Object.assign(env, { DEEPGRAM_API_KEY: STANDIN_API_KEY, DEEPGRAM_BASE_URL: s.baseUrl });
    }
    if (!config.ASSEMBLYAI_API_KEY) {
      const s = await startAssemblyAiStandin(script);
      running.push(s);
      control.assemblyai = s.control;
      Object.assign(env, { ASSEMBLYAI_API_KEY: STANDIN_API_KEY, ASSEMBLYAI_BASE_URL: s.baseUrl });
    }
    if (!config.SPEECHMATICS_API_KEY) {
      const s = await startSpeechmaticsStandin(script);
      running.push(s);
      control.speechmatics = s.control;
      Object.assign(env, { SPEECHMATICS_API_KEY: STANDIN_API_KEY, SPEECHMATICS_BASE_URL: s.baseUrl, SPEECHMATICS_AUTH_URL: s.authUrl });
    }
    if (!config.OPENAI_API_KEY) {
      const s = await startOpenAiSttStandin(script);
      running.push(s);
      control.openai = s.control;
      Object.assign(env, { OPENAI_API_KEY: STANDIN_API_KEY, OPENAI_STT_BASE_URL: s.baseUrl });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { env, control, stop };
}
