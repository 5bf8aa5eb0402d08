import * as z from 'zod';
import { STT_PROVIDERS, TTS_PROVIDERS, VENDOR_LLM_PROVIDERS } from './providers.js';

/**
 * What a page says when part of an agent runs on a simulated vendor (docs/provider-keys.md, "Simulated
 * vendors"): which capabilities, on which vendor, the variable whose real key makes it real, and one
 * sentence a page shows as is. Built from the configuration alone (STAND_IN_VENDORS, which the composition
 * that starts the stand-ins sets: lib/vendors/stand-ins.ts), so a deployment on the real vendors never has one.
 */

export const STAND_IN_CAPABILITIES = ['stt', 'llm', 'tts', 'telephony'] as const;
export type StandInCapability = (typeof STAND_IN_CAPABILITIES)[number];

/** The vendors of each capability, in the order a notice lists them. */
export const STAND_IN_VENDOR_IDS: Record<StandInCapability, readonly string[]> = {
  stt: STT_PROVIDERS,
  llm: VENDOR_LLM_PROVIDERS,
  tts: TTS_PROVIDERS,
  telephony: ['twilio'],
};

/** One simulated vendor as STAND_IN_VENDORS declares it (`stt:deepgram`). */
export interface DeclaredStandIn {
  readonly capability: StandInCapability;
  readonly vendor: string;
}

/**
 * Parses STAND_IN_VENDORS (lib/config.ts): a comma list of `capability:vendor` pairs, each a known vendor of
 * that capability. A vendor alone is refused: Deepgram and OpenAI serve two capabilities each.
 */
export function parseStandInVendors(text: string): DeclaredStandIn[] | string {
  const pairs: DeclaredStandIn[] = [];
  for (const item of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const [capability, vendor, extra] = item.split(':').map((p) => p.trim());
    if (!STAND_IN_CAPABILITIES.includes(capability as StandInCapability) || extra !== undefined) {
      return `${item} is not capability:vendor (capabilities: ${STAND_IN_CAPABILITIES.join(', ')})`;
    }
    const known = STAND_IN_VENDOR_IDS[capability as StandInCapability];
    if (!vendor || !known.includes(vendor)) return `${item}: the ${capability} vendors are ${known.join(', ')}`;
    pairs.push({ capability: capability as StandInCapability, vendor });
  }
  return pairs;
}

/** The STAND_IN_VENDORS text for these stand-ins (what `npm start` and the tests set). */
export const declareStandInVendors = (pairs: readonly DeclaredStandIn[]): string => pairs.map((p) => `${p.capability}:${p.vendor}`).join(',');

export const StandInPart = z
  .object({
    capability: z.enum(STAND_IN_CAPABILITIES).describe('`stt` speech recognition, `llm` the language model, `tts` the voice, `telephony` phone calls.'),
    vendor: z.string().describe('The vendor the agent names (`deepgram`, `openai`, `twilio`, ...).'),
    keyVariable: z.string().describe('The environment variable whose real key switches this vendor to its real service.'),
  });
export type StandInPart = z.infer<typeof StandInPart>;

export const StandInNotice = z
  .object({
    parts: z.array(StandInPart).min(1),
    message: z.string().describe('What is simulated and how to make it real, one paragraph to show as is.'),
  });
export type StandInNotice = z.infer<typeof StandInNotice>;

/** The answer of `GET /api/stand-ins`: `simulated` false (and no notice) on real vendors. */
export const StandInsView = z
  .object({ simulated: z.boolean(), notice: StandInNotice.optional() })
  .meta({ id: 'StandInsView' });
export type StandInsView = z.infer<typeof StandInsView>;

export const StandInsQuery = z.object({
  workspaceId: z.string().min(1).max(64).optional(),
  agentId: z.string().min(1).max(64).optional().describe("Only this agent's vendors (404 when it is not the workspace's)."),
  channel: z
    .enum(['web', 'phone', 'chat'])
    .optional()
    .describe('`web`: the vendors of a browser call (meeting, widget), so no telephony; `chat`: a text chat, the model only. Default (`phone`): every capability, telephony included.'),
});

const NAMES: Record<string, string> = {
  deepgram: 'Deepgram', assemblyai: 'AssemblyAI', speechmatics: 'Speechmatics', openai: 'OpenAI', anthropic: 'Anthropic',
  google: 'Google', elevenlabs: 'ElevenLabs', cartesia: 'Cartesia', twilio: 'Twilio',
};
const WHAT: Record<StandInCapability, { noun: string; behaviour: string }> = {
  stt: { noun: 'speech recognition', behaviour: 'the recognizer writes a scripted line for whatever you say' },
  llm: { noun: 'the language model', behaviour: 'the model repeats back what it is told' },
  tts: { noun: 'the voice', behaviour: 'the voice is a tone' },
  telephony: { noun: 'phone calls', behaviour: 'phone calls reach a simulated callee' },
};

const list = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** The notice for these simulated parts (in the order given), or undefined when there are none. */
export function standInNotice(parts: readonly StandInPart[]): StandInNotice | undefined {
  if (parts.length === 0) return undefined;
  const named = parts.map((p) => `${WHAT[p.capability].noun} (${NAMES[p.vendor] ?? p.vendor})`);
  const behaviours = parts.map((p) => WHAT[p.capability].behaviour);
  const variables = [...new Set(parts.map((p) => (p.keyVariable === 'TWILIO_ACCOUNT_SID' ? 'TWILIO_ACCOUNT_SID with TWILIO_AUTH_TOKEN' : p.keyVariable)))];
  const message =
    `Simulated: ${list(named)} ${parts.length === 1 ? 'is a local stand-in' : 'are local stand-ins'}. ` +
    `${list(behaviours).replace(/^./, (c) => c.toUpperCase())}. ` +
    `To make ${parts.length === 1 ? 'it' : 'them'} real, set ${list(variables)} where the platform runs (npm start: in its environment) and restart it.`;
  return { parts: [...parts], message };
}
