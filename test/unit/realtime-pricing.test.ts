/**
 * Invariant: every realtime model an agent may name has the vendor's list prices; a call's tokens are priced
 * per modality with cached input at the cached rates (cached tokens are a subset of the input); the charge is
 * the tokens (unless on the workspace's key) plus the platform's share for the whole call plus the cascade's
 * vendor shares for the seconds after a fallback, its parts add up to the total, and a cap takes from the
 * tokens first.
 */
import { describe, expect, it } from 'vitest';
import { REALTIME_MODELS, type RealtimeUsage } from '../../lib/domain/realtime.js';
import { REALTIME_TOKEN_PRICES, realtimeCostFor, realtimeTokenUsd } from '../../lib/domain/realtime-pricing.js';
import type { CallPricing } from '../../lib/domain/call.js';

const usage = (u: Partial<RealtimeUsage>): RealtimeUsage => ({ model: 'gpt-realtime', inputAudioTokens: 0, inputTextTokens: 0, cachedTokens: 0, outputAudioTokens: 0, outputTextTokens: 0, ...u });
const PRICING: CallPricing = { creditsPerMinute: 1, maxDurationSeconds: 600, shares: { stt: 0.15, llm: 0.35, tts: 0.3 } };

describe('realtime token prices', () => {
  it('has a price for every model the agent schema admits', () => {
    for (const model of [...REALTIME_MODELS.openai, ...REALTIME_MODELS.google]) expect(REALTIME_TOKEN_PRICES[model], model).toBeDefined();
  });

  it('prices each modality at its own rate: a million of each at gpt-realtime', () => {
    expect(realtimeTokenUsd(usage({ inputAudioTokens: 1e6 }))).toBe(32);
    expect(realtimeTokenUsd(usage({ outputAudioTokens: 1e6 }))).toBe(64);
    expect(realtimeTokenUsd(usage({ inputTextTokens: 1e6 }))).toBe(4);
    expect(realtimeTokenUsd(usage({ outputTextTokens: 1e6 }))).toBe(16);
    expect(realtimeTokenUsd(usage({ model: 'gemini-2.5-flash-native-audio-preview-09-2025', inputAudioTokens: 1e6, outputAudioTokens: 1e6 }))).toBe(15);
  });

  it('prices cached input, a subset of the input, at the cached rates', () => {
    // gpt-realtime-mini: text 0.6, cached text 0.06; audio 10, cached audio 0.3.
    const u = usage({ model: 'gpt-realtime-mini', inputTextTokens: 1e6, inputAudioTokens: 1e6, cachedTokens: 1.5e6, cachedAudioTokens: 0.5e6 });
    expect(realtimeTokenUsd(u)).toBeCloseTo(0.5 * 10 + 0.5 * 0.3 + 1 * 0.06, 9);
    // Without the audio detail the cached ones fill the text first, the rest is audio.
    expect(realtimeTokenUsd({ ...u, cachedAudioTokens: undefined })).toBeCloseTo(0.5 * 10 + 0.5 * 0.3 + 1 * 0.06, 9);
  });
});

describe('a realtime call charge', () => {
  const tokens = usage({ inputAudioTokens: 10_000, outputAudioTokens: 10_000 }); // $0.96

  it('is the tokens in credits plus the platform share of the whole call', () => {
    const c = realtimeCostFor(PRICING, 10, 60, { usage: tokens, onWorkspaceKey: false, cascadeSeconds: 0 });
    expect(c).toMatchObject({ realtime: 9.6, platform: 0.2, stt: 0, llm: 0, tts: 0, total: 9.8, vendorUsd: 0.96, realtimeOnWorkspaceKey: false });
  });

  it('leaves the tokens out on the workspace key', () => {
    const c = realtimeCostFor(PRICING, 10, 60, { usage: tokens, onWorkspaceKey: true, cascadeSeconds: 0 });
    expect(c).toMatchObject({ realtime: 0, platform: 0.2, total: 0.2, vendorUsd: 0.96 });
  });

  it('adds the cascade vendor shares for the seconds after a fallback, minus those on workspace keys', () => {
    const c = realtimeCostFor(PRICING, 10, 60, { usage: tokens, onWorkspaceKey: false, cascadeSeconds: 30 }, ['tts']);
    expect(c).toMatchObject({ stt: 0.075, llm: 0.175, tts: 0, platform: 0.2, realtime: 9.6, total: 10.05, workspaceKeys: ['tts'] });
  });

  it('is capped at the reservation, the tokens giving way, and its parts still add up', () => {
    const c = realtimeCostFor(PRICING, 10, 60, { usage: tokens, onWorkspaceKey: false, cascadeSeconds: 0 }, [], 5);
    expect(c.total).toBe(5);
    expect(c.platform).toBe(0.2);
    expect(c.realtime).toBe(4.8);
  });
});
