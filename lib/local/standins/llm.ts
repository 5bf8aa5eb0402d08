import type { Config } from '../../config.js';
import { STANDIN_KEY } from './catalog.js';
import { startAnthropicStandin } from './anthropic.js';
import { startGoogleStandin } from './google.js';
import { LlmStandinControl, type LlmScript, type LlmStandinVendor, type StandinServer } from './llm-script.js';
import { startOpenAiLlmStandin } from './openai-llm.js';

export { LlmStandinControl, defaultReply, DEFAULT_LLM_SCRIPT } from './llm-script.js';
export type { LlmFault, LlmFaultScope, LlmScript, LlmStandinVendor, RecordedLlmRequest, ScriptReply, ScriptRequest } from './llm-script.js';

/**
 * The dummy keys the stand-ins accept; each checks its key exactly, as the vendor would. They equal the
 * speech stand-ins' `standin` on purpose: the OpenAI transcription stand-in (lib/local/standins/stt.ts) sets
 * OPENAI_API_KEY too, and when `npm start` merges both environments one key must satisfy both.
 */
export const STANDIN_LLM_KEYS = {
  openai: STANDIN_KEY,
  anthropic: STANDIN_KEY,
  google: STANDIN_KEY,
} as const satisfies Record<LlmStandinVendor, string>;

/** How each vendor's stand-in starts and which config variables point its adapter at it. */
const STANDINS = {
  openai: { keyVar: 'OPENAI_API_KEY', baseUrlVar: 'OPENAI_BASE_URL', start: startOpenAiLlmStandin, baseUrl: (url: string) => `${url}/v1` },
  anthropic: { keyVar: 'ANTHROPIC_API_KEY', baseUrlVar: 'ANTHROPIC_BASE_URL', start: startAnthropicStandin, baseUrl: (url: string) => url },
  google: { keyVar: 'GOOGLE_API_KEY', baseUrlVar: 'GOOGLE_BASE_URL', start: startGoogleStandin, baseUrl: (url: string) => url },
} as const satisfies Record<
  LlmStandinVendor,
  {
    keyVar: keyof Config;
    baseUrlVar: string;
    start: (options: { apiKey: string; control: LlmStandinControl }) => Promise<StandinServer>;
    baseUrl: (url: string) => string;
  }
>;

/** The running LLM stand-ins. */
export interface LlmStandins {
  /** Keys and base URLs that point the adapters at the stand-ins; empty for vendors with a real key. */
  readonly env: Record<string, string>;
  /** Base URL of each stand-in that runs. */
  readonly urls: Partial<Record<LlmStandinVendor, string>>;
  /** The shared script and the record of requests (see {@link LlmStandinControl}). */
  readonly control: LlmStandinControl;
  stop(): Promise<void>;
}

/**
 * Starts a loopback stand-in for every LLM vendor whose real key is not set in `config`, all sharing one
 * script, and returns the environment that points `createLlmProvider` at them: for OpenAI a base URL ending
 * in `/v1` (the SDK's convention), for Anthropic and Google the host alone (their SDKs add the version).
 * A vendor with a real key is left alone, so setting the key switches it to the real service.
 */
export async function startLlmStandins(config: Config, script: Partial<LlmScript> = {}): Promise<LlmStandins> {
  const control = new LlmStandinControl(script);
  const servers: StandinServer[] = [];
  const env: Record<string, string> = {};
  const urls: Partial<Record<LlmStandinVendor, string>> = {};
  try {
    for (const vendor of Object.keys(STANDINS) as LlmStandinVendor[]) {
      const { keyVar, baseUrlVar, start, baseUrl } = STANDINS[vendor];
      if (config[keyVar]) continue;
      const server = await start({ apiKey: STANDIN_LLM_KEYS[vendor], control });
      servers.push(server);
      urls[vendor] = server.url;
      env[keyVar] = STANDIN_LLM_KEYS[vendor];
      env[baseUrlVar] = baseUrl(server.url);
    }
  } catch (error) {
    await Promise.all(servers.map((s) => s.close()));
    throw error;
  }
  return {
    env,
    urls,
    control,
    stop: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
