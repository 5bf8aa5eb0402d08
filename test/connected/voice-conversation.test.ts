/**
 * Invariant: a call admitted with a valid stream token greets the caller with the agent's first message
 * before anything else, answers each caller turn in order through the real STT, LLM and TTS adapters (here
 * against their stand-ins), and when the caller hangs up the call's history record holds the transcript
 * (one `agent:`/`user:` line per turn, in order), a summary from the agent's LLM, the duration, the end
 * reason `customer_hangup`, the cost and per-turn latency figures. The caller's contact (found by number)
 * fills the prompt's variables; unknown variables become empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listLedger } from '../../lib/store/credits.js';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { briefReplies, startVoicePlatform, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => ['I would like to book a table.', 'Tomorrow at seven.'][utterance] ?? 'Thanks.', finalDelayMs: 50 },
    // Short answers that depend on the caller's words (the agent's audio plays in real time).
    llm: { ttftMs: 50, tokensPerSecond: 400, reply: briefReplies((said) => (/table/.test(said) ? 'For when?' : /seven/.test(said) ? 'Booked.' : 'Sorry?')) },
    tts: { firstByteDelayMs: 30, realtimeFactor: 8 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

describe('a two-turn conversation', () => {
  it('greets first, answers each turn in order, and records the call when the caller hangs up', async () => {
    const contact = await fetch(`${vp.platform.baseUrl}/api/contacts`, {
      method: 'POST',
      headers: { 'x-api-key': vp.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ contactName: 'Ada Lovelace', phoneNumber: '+14155550100', externalFields: { plan: 'gold' }, workspaceId: vp.workspaceId }),
    });
    expect(contact.status).toBe(201);
    const agent = await vp.agent({
      first_message: 'Luigi, hello.',
      system_prompt: 'Caller: {{contactName}} on the {{plan}} plan.{{unknown}}',
    });
    const caller = await vp.call(agent, { from: '+14155550100' });

    // Greeting: agent audio arrives before any caller speech, followed by a mark per phrase.
    const firstMedia = await caller.waitFor((m) => m.event === 'media');
    expect(caller.received.filter((m) => m.event === 'clear')).toHaveLength(0);
    await caller.waitFor((m) => m.event === 'mark');
    await caller.whenIdle();
    const greetingMarks = caller.echoed.filter((e) => !e.flushed).length;
    expect(greetingMarks).toBeGreaterThanOrEqual(1);
    expect(firstMedia.atMs).toBeGreaterThan(0);

    // Turn 1: the caller speaks (a tone the STT stand-in transcribes by script), then waits for the answer.
    let before = caller.received.length;
    await caller.play(tone(600));
    await caller.waitForNext((m) => m.event === 'media', WAIT_MS, before);
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();

    // Turn 2.
    before = caller.received.length;
    await caller.play(tone(600));
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();
    // Let the last mark echo reach the service before hanging up.
    await caller.pause(200);

    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('customer_hangup');
    expect(caller.received.filter((m) => m.event === 'clear')).toHaveLength(0);

    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    const lines = String(record.callTranscript).split('\n');
    expect(lines).toEqual([
      'agent: Luigi, hello.',
      'user: I would like to book a table.',
      'agent: For when?',
      'user: Tomorrow at seven.',
      'agent: Booked.',
    ]);
    expect(record.agentType).toBe('voice');
    expect(record.callEndReason).toBe('customer_hangup');
    expect(record.callSummary).toMatch(/^Summary: the caller said/);
    expect(record.callDuration).toBeGreaterThanOrEqual(1);
    // An inbound call pays the outbound price in credits (1 a minute by default) for the seconds it shows.
    expect(record.callCost).toBeGreaterThan(0);
    expect(record.callCost).toBe(Math.round((record.callDuration / 60) * 10_000) / 10_000);
    // Its reservation at answer and the settlement at the end sum to the cost.
    const ledger = (await listLedger(vp.deps.db, vp.workspaceId)).filter((e) => e.callId === ended.callId);
    expect(ledger.map((e) => e.reason)).toEqual(['call_reservation', 'call_settlement']);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBeCloseTo(-record.callCost, 6);
    expect(record.mobileNumber).toBe('+14155550100');
    expect(record.fullName).toBe('Ada Lovelace');
    const firstRequest = vp.platform.voice.llm.control.requestsFor('openai')[0]!.body as { messages: { role: string; content: string }[] };
    expect(firstRequest.messages[0]).toEqual({ role: 'system', content: 'Caller: Ada Lovelace on the gold plan.' });
    // Not recorded: no recording address at all.
    expect(record).not.toHaveProperty('callRecordingUrl');
    expect(record.turnLatencies).toHaveLength(2);
    for (const t of record.turnLatencies) {
      expect(t.llmFirstTokenMs).toBeGreaterThan(0);
      expect(t.ttsFirstByteMs).toBeGreaterThan(0);
      expect(typeof t.overheadMs).toBe('number');
    }
  });
});
