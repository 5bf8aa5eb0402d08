import type { Config } from '../config.js';
import type { LLM_PROVIDERS, STT_PROVIDERS, TTS_PROVIDERS } from '../domain/agent.js';
import { STAND_IN_VENDOR_IDS, standInNotice, type StandInCapability, type StandInNotice, type StandInPart } from '../domain/stand-ins.js';

/**
 * Which of an agent's vendors are simulated, as the deployment declares it: STAND_IN_VENDORS (lib/config.ts)
 * lists the stand-ins that the composition starting them runs (`npm start` and the tests:
 * lib/local/platform/platform.ts). The stack never sets it, so nothing is ever reported on AWS. This is
 * read only to tell users what is simulated; it changes no behaviour (where a call goes is its vendor's
 * base URL and key), and nothing is inferred from addresses: an operator's own base URL (a proxy, a
 * self-hosted compatible server, on loopback or not) with its key is real.
 *
 * A workspace's own key (docs/provider-keys.md) is sent where the platform's would go: while the platform
 * runs a vendor's stand-in, that key reaches the stand-in too, so it does not make the vendor real; the
 * platform's key variable (which makes `npm start` leave the vendor to its real service) does.
 */

type SttVendor = (typeof STT_PROVIDERS)[number];
type LlmVendor = (typeof LLM_PROVIDERS)[number];
type TtsVendor = (typeof TTS_PROVIDERS)[number];

/** The vendors an agent runs on (its own, not its fallbacks: those serve only when the own one is down). */
export interface AgentVendors {
  readonly stt_provider: SttVendor;
  readonly llm_provider: LlmVendor;
  readonly tts_provider: TtsVendor;
}

/** Where a conversation runs: a phone call has every capability, a browser call no telephony, a chat the model only. */
export type StandInChannel = 'phone' | 'web' | 'chat';
const CAPABILITIES: Record<StandInChannel, readonly StandInCapability[]> = {
  phone: ['stt', 'llm', 'tts', 'telephony'],
  web: ['stt', 'llm', 'tts'],
  chat: ['llm'],
};

const keyVariable = (capability: StandInCapability, vendor: string) =>
  capability === 'telephony' ? 'TWILIO_ACCOUNT_SID' : `${vendor.toUpperCase()}_API_KEY`;

/**
 * The simulated parts of `agent` on `channel` (without an agent: every vendor declared simulated).
 * Undefined when nothing is simulated.
 */
export function standInsOf(config: Pick<Config, 'STAND_IN_VENDORS'>, agent: AgentVendors | undefined, options: { channel: StandInChannel }): StandInNotice | undefined {
  const declared = new Set(config.STAND_IN_VENDORS.map((p) => `${p.capability}:${p.vendor}`));
  const own: Record<StandInCapability, string | undefined> | undefined = agent && {
    stt: agent.stt_provider, llm: agent.llm_provider, tts: agent.tts_provider, telephony: 'twilio',
  };
  const parts: StandInPart[] = [];
  for (const capability of CAPABILITIES[options.channel]) {
    const vendors = own ? [own[capability]!] : STAND_IN_VENDOR_IDS[capability];
    for (const vendor of vendors) if (declared.has(`${capability}:${vendor}`)) parts.push({ capability, vendor, keyVariable: keyVariable(capability, vendor) });
  }
  return standInNotice(parts);
}
