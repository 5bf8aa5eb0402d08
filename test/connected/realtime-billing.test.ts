/**
 * Invariant: a speech-to-speech call is charged by its model's tokens at the vendor's list price (turned into
 * credits at `CREDITS_PER_USD`) plus the platform's own share of the per-minute price, and the history record
 * shows the split (`callCostBreakdown.realtime`, `realtimeCost`) that adds up to `callCost`, which is what
 * left the balance; a workspace on its own key for the model's vendor pays the vendor itself, so the tokens
 * are not charged in credits (their list price is still shown) and the vendor saw only the workspace's key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../lib/domain/agent.js';
import { realtimeCostFor, realtimeTokenUsd } from '../../lib/domain/realtime-pricing.js';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { issueStandinKey, takePresentedKeys } from '../../lib/local/standins/accounts.js';
import { callPricing } from '../../lib/services/credits.js';
import { readBalance } from '../../lib/store/credits.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { briefReplies, startVoicePlatform, waitUntil, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;
const OPENAI = { provider: 'openai', model: 'gpt-realtime', voice: 'marin' } as const;
const GEMINI = { provider: 'google', model: 'gemini-2.5-flash-native-audio-preview-09-2025', voice: 'Kore' } as const;

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'Are you still there?', finalDelayMs: 50 },
    llm: { ttftMs: 50, tokensPerSecond: 400, reply: briefReplies(() => 'Still here.') },
    tts: { firstByteDelayMs: 30, realtimeFactor: 8 },
    realtime: { firstAudioDelayMs: 50, stt: { transcripts: () => 'I would like a table.', finalDelayMs: 50 } },
    geminiLive: { firstAudioDelayMs: 50, stt: { transcripts: () => 'I would like a table.', finalDelayMs: 50 } },
  });
});
afterAll(async () => {
  await vp?.stop();
});

/** The greeting, one caller turn and the model's answer; then the caller hangs up. The record and the balance change. */
async function converse(agent: Agent) {
  const before = await readBalance(vp.deps.db, vp.workspaceId);
  const caller = await vp.call(agent);
  await waitUntil(() => caller.echoed.find((e) => !e.flushed));
  await caller.whenIdle();
  const at = caller.received.length;
  await caller.play(tone(600));
  await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, at);
  await caller.whenIdle();
  caller.hangUp();
  const ended = await vp.nextCallEnded();
  const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
  const view = (await vp.api('GET', `/api/history/${ended.callId}`, undefined)).body as Record<string, any>;
  return { record, view, spent: Math.round((before - (await readBalance(vp.deps.db, vp.workspaceId))) * 10_000) / 10_000 };
}

const expectedCharge = (record: Record<string, any>, onWorkspaceKey: boolean) =>
  realtimeCostFor(callPricing(vp.deps.config), vp.deps.config.CREDITS_PER_USD, record.callDuration, { usage: record.realtimeUsage, onWorkspaceKey, cascadeSeconds: 0 });

describe('a realtime call on the platform keys', () => {
  it('is charged the model tokens at OpenAI list price and the platform share, split on the record', async () => {
    const agent = await vp.agent({ realtime: OPENAI, first_message: 'Hello from the model.' });
    const { record, view, spent } = await converse(agent);
    expect(record.callTranscript).toContain('agent: You said: I would like a table.');

    const usd = realtimeTokenUsd(record.realtimeUsage);
    expect(usd).toBeGreaterThan(0);
    const charge = expectedCharge(record, false);
    expect(charge.realtime).toBeGreaterThan(0);
    expect(record.callCost).toBe(charge.total);
    expect(record.callCostBreakdown).toEqual({ platform: charge.platform, stt: 0, llm: 0, tts: 0, realtime: charge.realtime, workspaceKeys: [] });
    expect(record.realtimeCost).toEqual({ model: 'gpt-realtime', vendorUsd: charge.vendorUsd, vendor: charge.realtime, platform: charge.platform, total: charge.total, onWorkspaceKey: false });
    // The parts add up to what the call cost, which is what the balance lost.
    expect(Math.round((charge.platform + charge.realtime) * 10_000) / 10_000).toBe(record.callCost);
    expect(spent).toBe(record.callCost);
    // The API shows the split and the counts.
    expect(view.realtimeCost).toEqual(record.realtimeCost);
    expect(view.realtimeUsage.outputAudioTokens).toBe(record.realtimeUsage.outputAudioTokens);
    expect(view.callCostBreakdown.realtime).toBe(charge.realtime);
  });

  it('prices a Gemini Live call at Google list prices', async () => {
    const agent = await vp.agent({ realtime: GEMINI, first_message: 'Hello from Gemini.' });
    const { record, spent } = await converse(agent);
    const charge = expectedCharge(record, false);
    expect(record.realtimeUsage.model).toBe(GEMINI.model);
    expect(charge.realtime).toBeGreaterThan(0);
    expect(record.realtimeCost).toMatchObject({ model: GEMINI.model, vendor: charge.realtime, platform: charge.platform, total: record.callCost, onWorkspaceKey: false });
    expect(record.callCost).toBe(charge.total);
    expect(spent).toBe(record.callCost);
  });
});

describe('a realtime call on the workspace key', () => {
  it('is not charged the model tokens: OpenAI bills the workspace, which is charged the platform share only', async () => {
    const key = issueStandinKey('openai');
    expect((await vp.api('PUT', '/api/provider-keys/openai', { apiKey: key })).status).toBe(200);
    try {
      takePresentedKeys('openai');
      const agent = await vp.agent({ realtime: OPENAI, first_message: 'Hello from the model.' });
      const { record, view, spent } = await converse(agent);
      // The model was reached with the workspace's key, never the platform's.
      const presented = takePresentedKeys('openai');
      expect(presented.length).toBeGreaterThan(0);
      expect(new Set(presented)).toEqual(new Set([key]));

      const charge = expectedCharge(record, true);
      expect(record.realtimeCost.vendorUsd).toBeGreaterThan(0);
      expect(record.realtimeCost).toEqual({ model: 'gpt-realtime', vendorUsd: charge.vendorUsd, vendor: 0, platform: charge.platform, total: charge.platform, onWorkspaceKey: true });
      expect(record.callCostBreakdown.realtime).toBe(0);
      expect(record.callCost).toBe(charge.platform);
      // Less than the same usage on the platform's key by exactly the tokens' credits.
      const onPlatform = expectedCharge(record, false);
      expect(record.callCost).toBeLessThan(onPlatform.total);
      expect(spent).toBe(record.callCost);
      expect(view.realtimeCost.onWorkspaceKey).toBe(true);
    } finally {
      await vp.api('DELETE', '/api/provider-keys/openai', undefined);
    }
  });
});
