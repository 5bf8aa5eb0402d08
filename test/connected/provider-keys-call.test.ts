/**
 * Invariant: a call of a workspace that brought its own vendor keys reaches each of those vendors with the
 * workspace's key, never the platform's, and is charged only the shares of the capabilities that did not
 * run on its keys (docs/provider-keys.md); the history record shows the split. A vendor without a
 * workspace key (or whose workspace key cannot be opened) is reached with the platform's key and its share
 * is charged.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costBreakdownFor } from '../../lib/domain/call.js';
import type { Agent } from '../../lib/domain/agent.js';
import { issueStandinKey, takePresentedKeys, type StandinVendor } from '../../lib/local/standins/accounts.js';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { callPricing } from '../../lib/services/credits.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { putProviderKey } from '../../lib/store/provider-keys.js';
import { createSecretBox } from '../../lib/store/secret-box.js';
import { briefReplies, startVoicePlatform, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'I would like to book a table.', finalDelayMs: 50 },
    // Short lines: the agent's audio plays in real time.
    llm: { ttftMs: 20, tokensPerSecond: 400, reply: briefReplies() },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

const SHORT = { first_message: 'Luigi.' };

const VENDORS = ['deepgram', 'openai', 'elevenlabs'] as const satisfies readonly StandinVendor[];

/** One short conversation: the greeting, one caller turn and its answer, then the caller hangs up. */
async function converse(agent: Agent) {
  for (const vendor of VENDORS) takePresentedKeys(vendor);
  const caller = await vp.call(agent, { playbackSpeed: 4 });
  await caller.waitFor((m) => m.event === 'mark', WAIT_MS);
  await caller.whenIdle();
  const before = caller.received.length;
  await caller.play(tone(600));
  await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
  await caller.whenIdle();
  caller.hangUp();
  const ended = await vp.nextCallEnded();
  const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
  const presented = Object.fromEntries(VENDORS.map((v) => [v, takePresentedKeys(v)])) as Record<(typeof VENDORS)[number], string[]>;
  return { record, presented };
}

describe('a call on the workspace\'s own keys', () => {
  it('reaches every vendor with the workspace\'s key and is charged the platform\'s share only', async () => {
    const keys = Object.fromEntries(VENDORS.map((v) => [v, issueStandinKey(v)])) as Record<(typeof VENDORS)[number], string>;
    for (const vendor of VENDORS) {
      const set = await vp.api('PUT', `/api/provider-keys/${vendor}`, { apiKey: keys[vendor] });
      expect(set.status).toBe(200);
    }
    const agent = await vp.agent(SHORT);
    const { record, presented } = await converse(agent);

    // Speech recognition, the reply and the summary, and the voice: each vendor saw the workspace's key only.
    for (const vendor of VENDORS) {
      expect(presented[vendor].length, vendor).toBeGreaterThan(0);
      expect(new Set(presented[vendor]), vendor).toEqual(new Set([keys[vendor]]));
    }
    expect(record.callTranscript).toContain('user: I would like to book a table.');

    const pricing = callPricing(vp.deps.config);
    const expected = costBreakdownFor(pricing, record.callDuration, ['stt', 'llm', 'tts']);
    expect(record.callDuration).toBeGreaterThan(0);
    expect(record.callCost).toBe(expected.total);
    expect(record.callCost).toBeLessThan(costBreakdownFor(pricing, record.callDuration).total);
    expect(record.callCostBreakdown).toEqual({ platform: expected.platform, stt: 0, llm: 0, tts: 0, workspaceKeys: ['stt', 'llm', 'tts'] });

    // The API's history record shows the split too.
    const shown = await fetch(`${vp.platform.baseUrl}/api/history/${record._id}`, { headers: { 'x-api-key': vp.apiKey } });
    expect(((await shown.json()) as Record<string, unknown>).callCostBreakdown).toEqual(record.callCostBreakdown);
  });

  it('a vendor whose key was deleted is reached with the platform\'s key again, and its share is charged', async () => {
    const sttKey = issueStandinKey('deepgram');
    expect((await vp.api('PUT', '/api/provider-keys/deepgram', { apiKey: sttKey })).status).toBe(200);
    for (const vendor of ['openai', 'elevenlabs']) {
      const res = await fetch(`${vp.platform.baseUrl}/api/provider-keys/${vendor}`, { method: 'DELETE', headers: { 'x-api-key': vp.apiKey } });
      expect(res.status).toBe(204);
    }
    const agent = await vp.agent(SHORT);
    const { record, presented } = await converse(agent);

    expect(new Set(presented.deepgram)).toEqual(new Set([sttKey]));
    // The platform's keys: what the stand-ins handed the platform at start (never a workspace's).
    expect(new Set(presented.openai)).toEqual(new Set([vp.deps.config.OPENAI_API_KEY]));
    expect(new Set(presented.elevenlabs)).toEqual(new Set([vp.deps.config.ELEVENLABS_API_KEY]));

    const expected = costBreakdownFor(callPricing(vp.deps.config), record.callDuration, ['stt']);
    expect(record.callCost).toBe(expected.total);
    expect(record.callCostBreakdown).toMatchObject({ stt: 0, workspaceKeys: ['stt'] });
    expect(record.callCostBreakdown.llm).toBeGreaterThan(0);
    expect(record.callCostBreakdown.tts).toBeGreaterThan(0);
  });

  it('a workspace key the streaming service cannot open does not cost the call: it runs on the platform\'s keys at the full price', async () => {
    // Sealed with a data key this platform does not hold (as during a rotation, before every task has it).
    const foreign = createSecretBox(randomBytes(32));
    for (const vendor of VENDORS) {
      const value = issueStandinKey(vendor);
      await putProviderKey(vp.deps.db, foreign, vp.workspaceId, vendor, value, value.slice(-4), new Date().toISOString());
    }
    const { record, presented } = await converse(await vp.agent(SHORT));
    expect(new Set(presented.deepgram)).toEqual(new Set([vp.deps.config.DEEPGRAM_API_KEY]));
    expect(new Set(presented.openai)).toEqual(new Set([vp.deps.config.OPENAI_API_KEY]));
    expect(record.callCost).toBe(costBreakdownFor(callPricing(vp.deps.config), record.callDuration).total);
    expect(record.callCostBreakdown.workspaceKeys).toEqual([]);
  });
});

