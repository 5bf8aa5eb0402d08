import * as z from 'zod';
import type { Agent } from './agent.js';
import { BodyWorkspaceId, Timestamp } from './common.js';

/**
 * A workspace's own keys at the voice vendors (docs/provider-keys.md), as Vapi and Retell offer: calls of a
 * workspace that registered a vendor's key reach that vendor with it, and the call's price leaves out the
 * share of the capabilities that ran entirely on the workspace's keys.
 */

/** The vendors a workspace may bring a key for: every vendor an agent can name. */
export const PROVIDER_KEY_VENDORS = ['openai', 'anthropic', 'google', 'deepgram', 'assemblyai', 'speechmatics', 'elevenlabs', 'cartesia'] as const;
export type ProviderKeyVendor = (typeof PROVIDER_KEY_VENDORS)[number];

/** The parts of a call a vendor serves; each is a share of the call's price (docs/provider-keys.md). */
export const CALL_CAPABILITIES = ['stt', 'llm', 'tts'] as const;
export type CallCapability = (typeof CALL_CAPABILITIES)[number];

/** The keys a workspace registered, in the clear: only ever held in memory for one call's setup. */
export type WorkspaceProviderKeys = Partial<Record<ProviderKeyVendor, string>>;

export const ProviderParams = z.object({ provider: z.enum(PROVIDER_KEY_VENDORS) });

/**
 * A vendor key as sent: printable ASCII without spaces (every vendor's keys are), long enough to be a key
 * and short enough to be one. Never echoed in a validation message.
 */
const ApiKeyValue = z
  .string()
  .min(8, 'a vendor API key is at least 8 characters')
  .max(512, 'a vendor API key is at most 512 characters')
  .regex(/^[\x21-\x7e]+$/, 'a vendor API key is printable ASCII without spaces');

/** PUT /api/provider-keys/{provider}. */
export const ProviderKeySet = z
  .strictObject({ apiKey: ApiKeyValue, workspaceId: BodyWorkspaceId })
  .meta({ id: 'ProviderKeySet' });
export type ProviderKeySet = z.infer<typeof ProviderKeySet>;

export const KEY_TEST_RESULTS = ['valid', 'invalid', 'unreachable'] as const;
export type KeyTestResult = (typeof KEY_TEST_RESULTS)[number];

/** A registered key as every answer shows it: never the key, only its last four characters. */
export const ProviderKeyView = z
  .object({
    provider: z.enum(PROVIDER_KEY_VENDORS),
    last4: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    lastTestedAt: Timestamp.optional(),
    lastTestResult: z.enum(KEY_TEST_RESULTS).optional(),
  })
  .meta({ id: 'ProviderKey' });
export type ProviderKeyView = z.infer<typeof ProviderKeyView>;

/** POST /api/provider-keys/{provider}/test: what the vendor said to one cheap authenticated request. */
export const ProviderKeyTested = z
  .object({
    provider: z.enum(PROVIDER_KEY_VENDORS),
    result: z.enum(KEY_TEST_RESULTS),
    /** The vendor's HTTP status, when it answered. */
    vendorStatus: z.number().int().optional(),
    message: z.string(),
    testedAt: Timestamp,
  })
  .meta({ id: 'ProviderKeyTested' });
export type ProviderKeyTested = z.infer<typeof ProviderKeyTested>;

/** The share of the call price that pays each capability's vendor; the rest is the platform's own. */
export type PriceShares = Readonly<Record<CallCapability, number>>;

/** `stt=0.15,llm=0.35,tts=0.3`: every capability once, each 0..1, together at most 1; undefined otherwise. */
export function parsePriceShares(text: string): PriceShares | undefined {
  const entries = text.split(',').map((part) => part.trim().split('='));
  const shares: Partial<Record<string, number>> = {};
  for (const [name, value] of entries) {
    const n = Number(value);
    if (!name || !(CALL_CAPABILITIES as readonly string[]).includes(name) || name in shares || value === undefined || value.trim() === '' || !(n >= 0 && n <= 1)) return undefined;
    shares[name] = n;
  }
  if (CALL_CAPABILITIES.some((c) => shares[c] === undefined)) return undefined;
  const out = shares as Record<CallCapability, number>;
  return out.stt + out.llm + out.tts <= 1 + 1e-9 ? out : undefined;
}

/**
 * The capabilities of a call that run entirely on the workspace's own keys: every vendor the agent may use
 * for it (its own and its fallbacks) has a workspace key. Only those are left out of the price: a fallback on
 * the platform's key costs the platform that vendor. A `custom` model runs on the workspace's own server
 * (docs/vendors-llm.md), so it counts as on the workspace's keys.
 */
export function capabilitiesOnWorkspaceKeys(agent: Pick<Agent, 'stt_provider' | 'llm_provider' | 'tts_provider' | 'fallback'>, keys: WorkspaceProviderKeys): CallCapability[] {
  const vendors: Record<CallCapability, readonly (ProviderKeyVendor | 'custom')[]> = {
    stt: [agent.stt_provider, ...(agent.fallback?.stt ?? []).map((f) => f.provider)],
    llm: [agent.llm_provider, ...(agent.fallback?.llm ?? []).map((f) => f.provider)],
    tts: [agent.tts_provider, ...(agent.fallback?.tts ?? []).map((f) => f.provider)],
  };
  // A custom model is the workspace's own server: it costs the platform nothing, as a workspace key does.
  return CALL_CAPABILITIES.filter((c) => vendors[c].every((v) => v === 'custom' || keys[v] !== undefined));
}

/** Whether a realtime agent's model is reached with the workspace's own key for its vendor (`openai`, `google`). */
export const realtimeOnWorkspaceKey = (agent: Pick<Agent, 'realtime'>, keys: WorkspaceProviderKeys): boolean =>
  agent.realtime ? keys[agent.realtime.provider] !== undefined : false;

/** The last four characters shown for a key (a key is at least 8, so at most half of it). */
export const last4 = (apiKey: string): string => apiKey.slice(-4);
