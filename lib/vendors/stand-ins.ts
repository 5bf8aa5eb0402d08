import type { Config } from '../config.js';
import type { LLM_PROVIDERS, STT_PROVIDERS, TTS_PROVIDERS } from '../domain/agent.js';
import { standInNotice, type StandInNotice, type StandInPart } from '../domain/stand-ins.js';

/**
 * Which of an agent's vendors are simulated, decided from the configuration a deployment has too: a vendor
 * whose base-URL variable points at a loopback address is the stand-in `npm start` and the tests run there
 * (a real service, or a proxy in front of one, is never on the platform's own loopback). On AWS with the
 * real vendors no base URL is set, so nothing is ever reported there.
 *
 * A workspace's own key (docs/provider-keys.md) is sent where the platform's would go: while the base URL
 * points at a stand-in, that key reaches the stand-in too, so it does not make the vendor real; the
 * platform's key variable (which makes `npm start` leave the vendor to its real service) does.
 */

type SttVendor = (typeof STT_PROVIDERS)[number];
type LlmVendor = (typeof LLM_PROVIDERS)[number];
type TtsVendor = (typeof TTS_PROVIDERS)[number];

/** Each vendor's base URL per capability, as the adapters read it (lib/vendors/{stt,llm,tts}/index.ts). */
const STT_BASE: Record<SttVendor, (c: Config) => string | undefined> = {
  deepgram: (c) => c.DEEPGRAM_BASE_URL,
  assemblyai: (c) => c.ASSEMBLYAI_BASE_URL,
  speechmatics: (c) => c.SPEECHMATICS_BASE_URL,
  openai: (c) => c.OPENAI_STT_BASE_URL ?? c.OPENAI_BASE_URL,
};
const LLM_BASE: Record<LlmVendor, (c: Config) => string | undefined> = {
  openai: (c) => c.OPENAI_BASE_URL,
  anthropic: (c) => c.ANTHROPIC_BASE_URL,
  google: (c) => c.GOOGLE_BASE_URL,
};
const TTS_BASE: Record<TtsVendor, (c: Config) => string | undefined> = {
  elevenlabs: (c) => c.ELEVENLABS_BASE_URL,
  deepgram: (c) => c.DEEPGRAM_TTS_BASE_URL ?? c.DEEPGRAM_BASE_URL,
  cartesia: (c) => c.CARTESIA_BASE_URL,
};

const keyVariable = (vendor: string) => `${vendor.toUpperCase()}_API_KEY`;

/** Whether a URL's host is a loopback address: 127.0.0.0/8, ::1 (also IPv4-mapped), or `localhost`. */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(host) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/** The vendors an agent runs on (its own, not its fallbacks: those serve only when the own one is down). */
export interface AgentVendors {
  readonly stt_provider: SttVendor;
  readonly llm_provider: LlmVendor;
  readonly tts_provider: TtsVendor;
}

/**
 * The simulated parts of `agent` (every vendor the platform can reach, without one), and telephony when
 * `telephony` is asked for (phone calls; a browser meeting has none). Undefined when nothing is simulated.
 */
export function standInsOf(config: Config, agent: AgentVendors | undefined, options: { telephony: boolean }): StandInNotice | undefined {
  const parts: StandInPart[] = [];
  const check = <V extends string>(capability: StandInPart['capability'], table: Record<V, (c: Config) => string | undefined>, vendors: readonly V[]) => {
    for (const vendor of vendors) if (isLoopbackUrl(table[vendor](config))) parts.push({ capability, vendor, keyVariable: keyVariable(vendor) });
  };
  check('stt', STT_BASE, agent ? [agent.stt_provider] : (Object.keys(STT_BASE) as SttVendor[]));
  check('llm', LLM_BASE, agent ? [agent.llm_provider] : (Object.keys(LLM_BASE) as LlmVendor[]));
  check('tts', TTS_BASE, agent ? [agent.tts_provider] : (Object.keys(TTS_BASE) as TtsVendor[]));
  if (options.telephony && isLoopbackUrl(config.TWILIO_API_BASE_URL)) parts.push({ capability: 'telephony', vendor: 'twilio', keyVariable: 'TWILIO_ACCOUNT_SID' });
  return standInNotice(parts);
}
