/**
 * Invariant: the call session, driven by in-memory ports, greets first, answers a caller turn with audio
 * followed by one mark per phrase, commits to the transcript only phrases whose marks came back, and ends a
 * call where nobody speaks as `silence_timeout`, hanging up and closing the stream.
 */
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../lib/domain/agent.js';
import { CallSession, type CallSetup } from '../../streaming-service/src/session/call-session.js';
import { FakeLlm, FakeStt, FakeTts } from '../fakes/voice-ports.js';

const agent: Agent = {
  _id: 'agt_1',
  name: 'A',
  llm_provider: 'openai',
  llm_model: 'm',
  tts_provider: 'elevenlabs',
  tts_voice_id: 'v',
  stt_provider: 'deepgram',
  system_prompt: 'Be brief with {{contactName}}.',
  first_message: 'Hello {{contactName}}, welcome.',
  recording_enabled: false,
  ambience_enabled: false,
  workspaceId: 'ws_1',
  createdAt: '',
  updatedAt: '',
};

function session(options: { silenceTimeoutMs?: number } = {}) {
  const stt = new FakeStt();
  const llm = new FakeLlm();
  const tts = new FakeTts();
  const sent: Record<string, any>[] = [];
  const closes: number[] = [];
  const updates: unknown[] = [];
  const setup: CallSetup = {
    callId: 'call_1',
    workspaceId: 'ws_1',
    agent,
    contact: { _id: 'ct_1', contactName: 'Ada', phoneNumber: '+14155550100', region: 'US', workspaceId: 'ws_1', externalFields: {}, createdAt: '', updatedAt: '' },
    callerNumber: '+14155550100',
    tools: [],
    callSid: 'CA1',
    streamSid: 'MZ1',
    startedAt: Date.now(),
  };
  const s = new CallSession(
    setup,
    {
      stt,
      llm,
      tts,
      telephony: {
        port: { updateCall: async (_a: unknown, sid: string, req: unknown) => (updates.push({ sid, req }), {}) } as never,
        account: async () => ({ accountSid: 'AC1', authToken: 't' }),
      },
      loadTool: async () => {
        throw new Error('no tools');
      },
      httpTools: {},
    },
    { send: (m) => sent.push(JSON.parse(m) as Record<string, any>), close: (code) => closes.push(code) },
    options,
  );
  /** Twilio's side: echo every mark sent so far. */
  const echoMarks = () => {
    for (const m of sent.filter((x) => x.event === 'mark')) s.push({ kind: 'mark_echo', name: m.mark.name, atMs: performance.now() });
  };
  return { s, stt, llm, tts, sent, closes, updates, echoMarks };
}

const until = async (probe: () => boolean, timeoutMs = 5_000) => {
  const end = performance.now() + timeoutMs;
  while (!probe()) {
    if (performance.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('call session', () => {
  it('greets, answers a turn, and keeps only heard phrases', async () => {
    const t = session();
    t.s.start();
    expect(t.s.state.state).toBe('greeting');
    await until(() => t.sent.some((m) => m.event === 'mark'));
    expect(t.sent[0]!.event).toBe('media');
    expect(t.tts.spoken[0]).toBe('Hello Ada, welcome.');
    t.echoMarks();
    await until(() => t.s.state.state === 'listening');

    t.stt.emit({ type: 'transcript', text: 'How are you?', isFinal: true, speechFinal: true, atMs: performance.now() });
    await until(() => t.sent.filter((m) => m.event === 'mark').length === 2);
    expect(t.llm.requests[0]!.messages).toEqual([
      { role: 'system', content: 'Be brief with Ada.' },
      { role: 'assistant', content: 'Hello Ada, welcome.' },
      { role: 'user', content: 'How are you?' },
    ]);
    // The reply's mark is never echoed: the caller hangs up first, so the reply was not heard.
    t.s.push({ kind: 'end', reason: 'stop', atMs: performance.now() });
    const outcome = await t.s.ended;
    expect(outcome.reason).toBe('customer_hangup');
    expect(outcome.transcript).toBe('agent: Hello Ada, welcome.\nuser: How are you?');
    expect(t.stt.closed).toBe(true);
    expect(t.updates).toEqual([]);
  });

  it('ends a silent call as silence_timeout and hangs up', async () => {
    const t = session({ silenceTimeoutMs: 50 });
    t.s.start();
    await until(() => t.sent.some((m) => m.event === 'mark'));
    t.echoMarks();
    const outcome = await t.s.ended;
    expect(outcome.reason).toBe('silence_timeout');
    expect(t.updates).toEqual([{ sid: 'CA1', req: { status: 'completed' } }]);
    expect(t.closes).toEqual([1000]);
  });
});
