/**
 * Invariant: when the caller goes quiet the agent asks whether they are still there (the agent's own words,
 * after its own delay), as many times as configured, then says goodbye (never a bare click), ends the call
 * as `silence_timeout` and hangs up; the re-prompts and the goodbye are part of the transcript. The `silence` settings are validated by the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getHistoryRecord } from '../../lib/store/history.js';
import { startVoicePlatform, type VoicePlatform } from './voice-harness.js';

let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({
    llm: { ttftMs: 50, tokensPerSecond: 400, reply: () => ({ text: 'Summary.' }) },
    tts: { firstByteDelayMs: 30, realtimeFactor: 8 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

describe('a quiet caller', () => {
  it('is asked whether they are still there, then the call ends as silence_timeout', async () => {
    const agent = await vp.agent({
      first_message: 'Hello, Luigi speaking.',
      silence: { reprompt_after_ms: 2_000, max_reprompts: 1, reprompt_message: 'Are you still there?' },
    });
    const caller = await vp.call(agent);
    const closed = await caller.closed;
    expect(closed.reason).toBe('silence_timeout');
    // Three utterances played to their end: the greeting, the re-prompt and the goodbye.
    expect(caller.echoed.filter((e) => !e.flushed).length).toBe(3);
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('silence_timeout');
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    expect(String(record.callTranscript).split('\n')).toEqual(['agent: Hello, Luigi speaking.', 'agent: Are you still there?', 'agent: Goodbye!']);
  });

  it('validates the silence settings', async () => {
    const base = { name: 'S', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram', workspaceId: vp.workspaceId };
    for (const silence of [{ reprompt_after_ms: 10 }, { max_reprompts: 9 }, { reprompt_message: '' }, { other: 1 }]) {
      const bad = await vp.api('POST', '/api/agents', { ...base, silence });
      expect(bad.status).toBe(400);
    }
    const ok = await vp.api('POST', '/api/agents', { ...base, silence: { max_reprompts: 0 } });
    expect(ok.status).toBe(201);
  });
});
