import type { RealtimeUsage } from './realtime.js';
import { CALL_CAPABILITIES, type CallCapability } from './provider-key.js';
import { billedSecondsFor, roundCredits, type CallPricing, type CostBreakdown } from './call.js';

/**
 * What a speech-to-speech call costs (docs/realtime.md, "Billing"): the realtime model's tokens at the
 * vendor's list price (the vendor's share, left out when the workspace's own key paid the vendor), the
 * platform's own share of the per-minute price (telephony, hosting: what `CALL_PRICE_SHARES` leaves) for the
 * whole call, and, after a fallback, the cascade vendors' shares for the seconds the cascade answered.
 */

/** A realtime model's list prices, in US dollars per million tokens. */
export interface TokenPrices {
  readonly textIn: number;
  readonly cachedTextIn: number;
  readonly textOut: number;
  readonly audioIn: number;
  readonly cachedAudioIn: number;
  readonly audioOut: number;
}

const price = (textIn: number, cachedTextIn: number, textOut: number, audioIn: number, cachedAudioIn: number, audioOut: number): TokenPrices => ({
  textIn,
  cachedTextIn,
  textOut,
  audioIn,
  cachedAudioIn,
  audioOut,
});

// OpenAI: the "Pricing" tables of each model's page, developers.openai.com/api/docs/models/<model> ("Text
// tokens" and "Audio tokens", per 1M: input, cached input, output), read December 2026.
const GPT_REALTIME = price(4, 0.4, 16, 32, 0.4, 64); // gpt-realtime, gpt-realtime-1.5
const GPT_REALTIME_2 = price(4, 0.4, 24, 32, 0.4, 64); // gpt-realtime-2, gpt-realtime-2.1
const GPT_REALTIME_MINI = price(0.6, 0.06, 2.4, 10, 0.3, 20); // gpt-realtime-mini, gpt-realtime-2.1-mini
const GPT_4O_REALTIME = price(5, 2.5, 20, 40, 2.5, 80); // gpt-4o-realtime-preview (2024-12-17 and later)
// The first snapshot's audio was 100 / 20 cached / 200 (OpenAI's pricing page as quoted on
// community.openai.com, "Help me understand the realtime usage block": cached audio "$20 / 1M" for 2024-10-01).
const GPT_4O_REALTIME_2024_10 = price(5, 2.5, 20, 100, 20, 200);
const GPT_4O_MINI_REALTIME = price(0.6, 0.3, 2.4, 10, 0.3, 20); // gpt-4o-mini-realtime-preview
// Google: ai.google.dev/gemini-api/docs/pricing, paid tier, per 1M tokens: Gemini 2.5 Flash Native Audio (Live
// API) input $0.50 text / $3.00 audio, output $2.00 text / $12.00 audio; Gemini 2.0 Flash Live input $0.35 text /
// $2.10 audio, output $1.50 text / $8.50 audio (as quoted by Google on discuss.ai.google.dev, "Pricing and usages
// for S2S models"). The Live models take no context cache ("Caching: Not supported" on the model pages), so a
// cached token, should one be counted, is priced as an input token.
const GEMINI_25_LIVE = price(0.5, 0.5, 2, 3, 3, 12);
const GEMINI_20_LIVE = price(0.35, 0.35, 1.5, 2.1, 2.1, 8.5);

/** Every realtime model an agent may name (lib/domain/realtime.ts), with its list prices. */
export const REALTIME_TOKEN_PRICES: Readonly<Record<string, TokenPrices>> = {
  'gpt-realtime': GPT_REALTIME,
  'gpt-realtime-2025-08-28': GPT_REALTIME,
  'gpt-realtime-1.5': GPT_REALTIME,
  'gpt-realtime-2': GPT_REALTIME_2,
  'gpt-realtime-2.1': GPT_REALTIME_2,
  'gpt-realtime-mini': GPT_REALTIME_MINI,
  'gpt-realtime-mini-2025-10-06': GPT_REALTIME_MINI,
  'gpt-realtime-mini-2025-12-15': GPT_REALTIME_MINI,
  'gpt-realtime-2.1-mini': GPT_REALTIME_MINI,
  'gpt-4o-realtime-preview': GPT_4O_REALTIME,
  'gpt-4o-realtime-preview-2024-10-01': GPT_4O_REALTIME_2024_10,
  'gpt-4o-realtime-preview-2024-12-17': GPT_4O_REALTIME,
  'gpt-4o-realtime-preview-2025-06-03': GPT_4O_REALTIME,
  'gpt-4o-mini-realtime-preview': GPT_4O_MINI_REALTIME,
  'gpt-4o-mini-realtime-preview-2024-12-17': GPT_4O_MINI_REALTIME,
  'gemini-live-2.5-flash-preview': GEMINI_25_LIVE,
  'gemini-2.5-flash-native-audio-preview-09-2025': GEMINI_25_LIVE,
  'gemini-2.5-flash-native-audio-preview-12-2025': GEMINI_25_LIVE,
  'gemini-2.5-flash-preview-native-audio-dialog': GEMINI_25_LIVE,
  'gemini-2.5-flash-native-audio-latest': GEMINI_25_LIVE,
  'gemini-2.0-flash-live-001': GEMINI_20_LIVE,
};

/**
 * The model's tokens at the vendor's list price, in dollars. Cached tokens are a subset of the input tokens
 * (OpenAI: "input tokens will include cached and uncached tokens"): the cached audio ones at the cached audio
 * price, the rest of the cached ones at the cached text price, the remaining input at the input prices.
 * A model without a price (none the agent schema admits) costs 0 and is logged by the caller.
 */
export function realtimeTokenUsd(usage: RealtimeUsage): number {
  const p = REALTIME_TOKEN_PRICES[usage.model];
  if (!p) return 0;
  const cachedAudio = Math.min(usage.cachedAudioTokens ?? 0, usage.inputAudioTokens);
  const cachedText = Math.min(Math.max(0, usage.cachedTokens - cachedAudio), usage.inputTextTokens);
  // Cached tokens beyond the text ones were audio (a count without the audio detail).
  const cachedAudioAll = Math.min(usage.inputAudioTokens, cachedAudio + Math.max(0, usage.cachedTokens - cachedAudio - cachedText));
  const perMillion =
    (usage.inputTextTokens - cachedText) * p.textIn +
    cachedText * p.cachedTextIn +
    (usage.inputAudioTokens - cachedAudioAll) * p.audioIn +
    cachedAudioAll * p.cachedAudioIn +
    usage.outputTextTokens * p.textOut +
    usage.outputAudioTokens * p.audioOut;
  return perMillion / 1_000_000;
}

/** What the streaming service knows of a realtime call's billing. */
export interface RealtimeBilling {
  readonly usage: RealtimeUsage;
  /** The workspace's own key for the model's vendor carried the session: the vendor bills the workspace. */
  readonly onWorkspaceKey: boolean;
  /** Seconds the cascade answered after the realtime session fell back (0 when it never did). */
  readonly cascadeSeconds: number;
}

/** A realtime call's charge: the breakdown's parts (the model's tokens as `realtime`) add up to `total`. */
export type RealtimeCharge = CostBreakdown & { readonly total: number; readonly realtime: number; readonly vendorUsd: number; readonly realtimeOnWorkspaceKey: boolean };

/**
 * A realtime call's cost in credits and its parts. `creditsPerUsd` turns the vendor's dollars into credits;
 * `cap` (the call's reservation) bounds the total, the model's part giving way first. Each part is rounded
 * to 4 decimals and the platform's part takes the remainder, so the parts add up to the total.
 */
export function realtimeCostFor(
  p: CallPricing,
  creditsPerUsd: number,
  durationSeconds: number,
  billing: RealtimeBilling,
  onWorkspaceKeys: readonly CallCapability[] = [],
  cap = Number.POSITIVE_INFINITY,
): RealtimeCharge {
  const billed = billedSecondsFor(p, durationSeconds);
  const perSecond = p.creditsPerMinute / 60;
  const shares = p.shares ?? { stt: 0, llm: 0, tts: 0 };
  const platformShare = 1 - CALL_CAPABILITIES.reduce((sum, c) => sum + shares[c], 0);
  const cascadeSeconds = Math.min(Math.max(0, Math.ceil(billing.cascadeSeconds)), billed);
  const part = (c: CallCapability) => (onWorkspaceKeys.includes(c) ? 0 : roundCredits(perSecond * cascadeSeconds * shares[c]));
  const [stt, llm, tts] = [part('stt'), part('llm'), part('tts')];
  const platform = roundCredits(perSecond * billed * platformShare);
  const vendorUsd = realtimeTokenUsd(billing.usage);
  const tokens = billing.onWorkspaceKey ? 0 : roundCredits(vendorUsd * creditsPerUsd);
  const uncapped = roundCredits(platform + stt + llm + tts + tokens);
  const total = Math.min(uncapped, roundCredits(cap));
  const realtime = Math.max(0, roundCredits(tokens - (uncapped - total)));
  return {
    total,
    platform: Math.max(0, roundCredits(total - stt - llm - tts - realtime)),
    stt,
    llm,
    tts,
    realtime,
    workspaceKeys: CALL_CAPABILITIES.filter((c) => onWorkspaceKeys.includes(c)),
    vendorUsd: Math.round(vendorUsd * 1e6) / 1e6,
    realtimeOnWorkspaceKey: billing.onWorkspaceKey,
  };
}

/**
 * The history record's `realtimeCost`: the model's tokens at the vendor's list price in dollars
 * (`vendorUsd`, whoever paid them), the credits charged for them (`vendor`, 0 on the workspace's key), the
 * platform's share (`platform`), and the call's whole charge (`total`, the record's `callCost`; after a
 * fallback it also holds the cascade's vendor shares, in `callCostBreakdown`).
 */
export interface RealtimeCost {
  readonly model: string;
  readonly vendorUsd: number;
  readonly vendor: number;
  readonly platform: number;
  readonly total: number;
  readonly onWorkspaceKey: boolean;
}

/** The record's `realtimeCost` from the settled call's breakdown (so a second end shows the first's charge). */
export function realtimeCostOf(usage: RealtimeUsage, breakdown: CostBreakdown, total: number, onWorkspaceKey: boolean): RealtimeCost {
  return {
    model: usage.model,
    vendorUsd: Math.round(realtimeTokenUsd(usage) * 1e6) / 1e6,
    vendor: breakdown.realtime ?? 0,
    platform: breakdown.platform,
    total,
    onWorkspaceKey,
  };
}
