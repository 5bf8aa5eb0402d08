/**
 * Invariant: an agent with `realtime` talks through the vendor's speech-to-speech model (here the OpenAI
 * Realtime stand-in, reached by the `openai` SDK's realtime WebSocket client): the caller's mu-law goes to
 * the model as `audio/pcmu`, the model's audio plays on the phone line, both sides' transcripts make the
 * history record (which bills the call and keeps the model's token counts); the model's function calls run
 * through the call's tools (end_call hangs up); a caller talking over the model cuts its audio and truncates
 * the model's item at what was heard; and when the realtime socket drops mid-call the cascade (STT, LLM,
 * TTS) carries on with the conversation so far.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { SimulatedWebCaller } from '../../lib/local/callers/simulated-web-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { defaultRealtimeReply, type RealtimeScriptRequest } from '../../lib/local/standins/openai-realtime.js';
import { REALTIME_AGENTS, startRealtimePlatform, transcriptOf, type VoicePlatform, waitUntil } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;
const REALTIME = REALTIME_AGENTS.openai;
const LONG = 'Let me tell you everything about our menu, starting with the starters, then the mains, the desserts, and finally the long list of wines we keep in the cellar.';

const realtime = () => vp.platform.voice!.realtime!.control;
const lastUser = (r: RealtimeScriptRequest) => [...r.items].reverse().find((i) => i.role === 'user')?.text ?? '';

beforeAll(async () => {
  vp = await startRealtimePlatform();
});
afterAll(async () => {
  await vp?.stop();
});
beforeEach(() => {
  realtime().setScript({ firstAudioDelayMs: 50, stt: { finalDelayMs: 50 } });
});

const endedFor = async (callId: string) => {
  for (;;) {
    const e = await vp.nextCallEnded();
    if (e.callId === callId) return e;
  }
};

describe('a realtime phone call', () => {
  it('greets in the model voice, answers a turn, and writes a billed history record with both sides', async () => {
    realtime().setScript({ firstAudioDelayMs: 50, stt: { transcripts: () => 'I would like a table.', finalDelayMs: 50 } });
    const sessionsBefore = realtime().received.length;
    const agent = await vp.agent({ realtime: REALTIME, first_message: 'Hello from the model.' });
    const caller = await vp.call(agent);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    const before = caller.received.length;
    await caller.play(tone(600));
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('customer_hangup');

    expect(await transcriptOf(vp, ended.callId)).toEqual(['agent: Hello from the model.', 'user: I would like a table.', 'agent: You said: I would like a table.']);
    // The session as configured: phone audio both ways, the agent's voice, server VAD.
    const events = realtime().received[sessionsBefore]!.map((r) => r.event);
    const update = events.find((e) => e.type === 'session.update') as { session: Record<string, any> };
    expect(update.session.audio.input.format).toEqual({ type: 'audio/pcmu' });
    expect(update.session.audio.output).toEqual({ format: { type: 'audio/pcmu' }, voice: 'marin' });
    expect(update.session.audio.input.turn_detection.type).toBe('server_vad');
    expect(update.session.tools.map((t: { name: string }) => t.name)).toContain('end_call');
    expect(events.filter((e) => e.type === 'input_audio_buffer.append').length).toBeGreaterThan(10);

    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    expect(record.callCost).toBeGreaterThan(0);
    expect(record.realtimeUsage.model).toBe('gpt-realtime');
    expect(record.realtimeUsage.outputAudioTokens).toBeGreaterThan(0);
    expect(record.realtimeUsage.inputAudioTokens).toBeGreaterThan(0);
  });

  it('runs the model function call through the call tools: end_call hangs up after the goodbye', async () => {
    realtime().setScript({
      firstAudioDelayMs: 50,
      stt: { transcripts: () => 'That is all, goodbye.', finalDelayMs: 50 },
      reply: (r) => (/goodbye/.test(lastUser(r)) && !r.items.some((i) => i.role === 'tool') ? { toolCall: { name: 'end_call', arguments: '{}' } } : defaultRealtimeReply(r)),
    });
    const sessionsBefore = realtime().received.length;
    const agent = await vp.agent({ realtime: REALTIME, first_message: 'Hi.' });
    const caller = await vp.call(agent);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    await caller.play(tone(600));
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('agent_hangup');
    // The model's call ran as a tool call of the call (its timeline), and the model's item was a function call.
    expect(ended.outcome.events?.data.find((e) => e.type === 'tool_call')).toMatchObject({ name: 'end_call', status: 'ok' });
    const events = realtime().received[sessionsBefore]!.map((r) => r.event);
    expect(events.filter((e) => e.type === 'response.create')).toHaveLength(1);
  });

  it('cuts the model when the caller talks over it and truncates its item at what was heard', async () => {
    realtime().setScript({
      firstAudioDelayMs: 50,
      stt: { transcripts: () => 'Just the wine list.', finalDelayMs: 50 },
      reply: (r) => (lastUser(r) ? { text: 'Sure.' } : { text: LONG }),
    });
    const truncationsBefore = realtime().truncations.length;
    const agent = await vp.agent({ realtime: REALTIME, first_message_mode: 'model_generated' });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(1_500);
    const talkAt = caller.received.length;
    await caller.play(tone(600));
    await caller.waitForNext((m) => m.event === 'clear', WAIT_MS, talkAt);
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, talkAt);
    await caller.whenIdle();
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    const cut = realtime().truncations[truncationsBefore]!;
    expect(cut.audioEndMs).toBeGreaterThan(500);
    expect(cut.audioEndMs).toBeLessThan(cut.audioMs);
    const lines = await transcriptOf(vp, ended.callId);
    expect(lines[0]).toMatch(/^agent: Let me tell you .*—$/);
    expect(lines[0]!.length).toBeLessThan(`agent: ${LONG}`.length);
    expect(lines.slice(1)).toEqual(['user: Just the wine list.', 'agent: Sure.']);
  });

  it('falls back to the cascade with the conversation so far when the realtime socket drops', async () => {
    realtime().dropAfterResponse(1);
    const llmBefore = vp.platform.voice!.llm.control.requests.length;
    const agent = await vp.agent({ realtime: REALTIME, first_message: 'Hello from the model.' });
    const caller = await vp.call(agent);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    await waitUntil(() => (realtime().drops > 0 ? true : undefined));
    await caller.pause(300);
    const before = caller.received.length;
    await caller.play(tone(600));
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    expect(await transcriptOf(vp, ended.callId)).toEqual(['agent: Hello from the model.', 'user: Are you still there?', 'agent: Still here.']);
    // The cascade's model saw the realtime greeting as the agent's turn.
    type Message = { role: string; content: string };
    const conversations = vp.platform.voice!.llm.control.requests.slice(llmBefore).map((r) => ((r.body as { messages: Message[] }).messages ?? []).filter((m) => m.role !== 'system'));
    expect(conversations.find((m) => m.some((x) => x.role === 'user'))!.map((m) => [m.role, m.content])).toEqual([
      ['assistant', 'Hello from the model.'],
      ['user', 'Are you still there?'],
    ]);
    const timeline = ended.outcome.events?.data ?? [];
    expect(timeline.find((e) => e.type === 'vendor_fallback')).toMatchObject({ stage: 'realtime', to: 'cascade' });
  });
});

describe('a realtime meeting', () => {
  it('speaks 24 kHz PCM with the model, shows both sides as captions, and ends on the model end_call', async () => {
    realtime().setScript({
      firstAudioDelayMs: 50,
      stt: { transcripts: () => 'Thanks, that is all.', finalDelayMs: 50 },
      reply: (r) => (/all/.test(lastUser(r)) && !r.items.some((i) => i.role === 'tool') ? { toolCall: { name: 'end_call', arguments: '{}' } } : defaultRealtimeReply(r)),
    });
    const sessionsBefore = realtime().received.length;
    const agent = await vp.agent({ realtime: REALTIME, first_message: 'Welcome to the meeting.' });
    const meeting = await vp.meeting(agent);
    const page = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
    await waitUntil(() => (page.captions('agent').includes('Welcome to the meeting.') ? true : undefined));
    await page.whenIdle();
    await page.say('Thanks, that is all.');
    const ended = await endedFor(meeting.callId);
    expect(ended.outcome.reason).toBe('agent_hangup');
    expect(page.captions('user')).toContain('Thanks, that is all.');
    const events = realtime().received[sessionsBefore]!.map((r) => r.event);
    const update = events.find((e) => e.type === 'session.update') as { session: Record<string, any> };
    expect(update.session.audio.input.format).toEqual({ type: 'audio/pcm', rate: 24_000 });
    expect(update.session.audio.output.format).toEqual({ type: 'audio/pcm', rate: 24_000 });
    expect(ended.outcome.events?.data.find((e) => e.type === 'tool_call')).toMatchObject({ name: 'end_call', status: 'ok' });
    expect(await transcriptOf(vp, meeting.callId)).toEqual(['agent: Welcome to the meeting.', 'user: Thanks, that is all.']);
  });
});
