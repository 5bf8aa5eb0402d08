/**
 * Invariant: a Gemini Live call (`realtime.provider: "google"`) whose socket drops mid-call (the stand-in
 * closes it 1011 after the greeting, as a server error would) goes on through the cascade (STT, LLM, TTS)
 * with the conversation so far: the model's greeting is the cascade model's first assistant turn, the
 * timeline notes the fallback, and the record bills the seconds after it as the cascade's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { REALTIME_AGENTS, startRealtimePlatform, transcriptOf, type VoicePlatform, waitUntil } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;
const GEMINI = REALTIME_AGENTS.google;
const live = () => vp.platform.voice!.geminiLive!.control;

beforeAll(async () => {
  vp = await startRealtimePlatform();
});
afterAll(async () => {
  await vp?.stop();
});

describe('a Gemini Live call whose socket drops', () => {
  it('falls back to the cascade with the conversation so far', async () => {
    live().dropAfterResponse(1);
    live().refuseResumption = true;
    const dropsBefore = live().drops;
    const llmBefore = vp.platform.voice!.llm.control.requests.length;
    const agent = await vp.agent({ realtime: GEMINI, first_message: 'Hello from Gemini.' });
    const caller = await vp.call(agent);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    await waitUntil(() => (live().drops > dropsBefore ? true : undefined));
    await caller.pause(300);
    const before = caller.received.length;
    await caller.play(tone(600));
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    expect(ended.outcome.reason).toBe('customer_hangup');
    expect(await transcriptOf(vp, ended.callId)).toEqual(['agent: Hello from Gemini.', 'user: Are you still there?', 'agent: Still here.']);
    // The cascade's model saw Gemini's greeting as the agent's turn.
    type Message = { role: string; content: string };
    const conversations = vp.platform.voice!.llm.control.requests.slice(llmBefore).map((r) => ((r.body as { messages: Message[] }).messages ?? []).filter((m) => m.role !== 'system'));
    expect(conversations.find((m) => m.some((x) => x.role === 'user'))!.map((m) => [m.role, m.content])).toEqual([
      ['assistant', 'Hello from Gemini.'],
      ['user', 'Are you still there?'],
    ]);
    const timeline = ended.outcome.events?.data ?? [];
    expect(timeline.find((e) => e.type === 'vendor_fallback')).toMatchObject({ stage: 'realtime', to: 'cascade' });

    // Billed: Gemini's tokens of the greeting, and the cascade's shares for the seconds after the drop.
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    expect(record.realtimeUsage.outputAudioTokens).toBeGreaterThan(0);
    expect(record.callCostBreakdown.realtime).toBeGreaterThan(0);
    expect(record.callCostBreakdown.stt + record.callCostBreakdown.llm + record.callCostBreakdown.tts).toBeGreaterThan(0);
  });

  it('keeps the caller words Gemini heard but had not answered when the socket dropped', async () => {
    live().setScript({ firstAudioDelayMs: 50, stt: { transcripts: () => 'I would like a table.', finalDelayMs: 50 } });
    live().dropAfterCallerTurn(1);
    live().refuseResumption = true;
    const dropsBefore = live().drops;
    const llmBefore = vp.platform.voice!.llm.control.requests.length;
    const agent = await vp.agent({ realtime: GEMINI, first_message: 'Hello from Gemini.' });
    const caller = await vp.call(agent);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    await caller.play(tone(600));
    await waitUntil(() => (live().drops > dropsBefore ? true : undefined));
    await caller.pause(300);
    const before = caller.received.length;
    await caller.play(tone(600));
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    const lines = await transcriptOf(vp, ended.callId);
    expect(lines[0]).toBe('agent: Hello from Gemini.');
    expect(lines.join('\n')).toContain('I would like a table.');
    expect(lines.at(-1)).toBe('agent: Still here.');
    // The cascade's model was given the words Gemini heard before the drop.
    type Message = { role: string; content: string };
    const asked = vp.platform.voice!.llm.control.requests.slice(llmBefore).map((r) => ((r.body as { messages: Message[] }).messages ?? []).filter((m) => m.role === 'user').map((m) => m.content).join(' '));
    expect(asked.find((u) => u.includes('Are you still there?'))).toContain('I would like a table.');
  });
});
