/**
 * Invariant: an agent with `realtime: {provider: "google"}` talks through Gemini Live (here its stand-in,
 * reached by the `@google/genai` SDK's live WebSocket): the caller's mu-law 8 kHz reaches the model as
 * `audio/pcm;rate=16000`, the model's 24 kHz PCM plays on the phone line, both sides' transcripts
 * (`inputTranscription`, `outputTranscription`) make the history record, which bills the call and keeps the
 * model's `usageMetadata` counts; the model's function call runs through the call's tools (end_call hangs up);
 * a caller talking over the model (Gemini's server VAD, its `interrupted`) cuts its audio, and the history
 * keeps only the words that played (Gemini has no truncate call: our transcript is clipped instead); in a
 * browser meeting the page's 16 kHz PCM goes in as is and both sides show as captions.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { SimulatedWebCaller } from '../../lib/local/callers/simulated-web-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { defaultRealtimeReply, type RealtimeScriptRequest } from '../../lib/local/standins/openai-realtime.js';
import { REALTIME_AGENTS, startRealtimePlatform, transcriptOf, type VoicePlatform, waitUntil } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;
const GEMINI = REALTIME_AGENTS.google;

const live = () => vp.platform.voice!.geminiLive!.control;
const LONG = 'Let me tell you everything about our menu, starting with the starters, then the mains, the desserts, and finally the long list of wines we keep in the cellar.';
const lastUser = (r: RealtimeScriptRequest) => [...r.items].reverse().find((i) => i.role === 'user')?.text ?? '';

beforeAll(async () => {
  vp = await startRealtimePlatform();
});
afterAll(async () => {
  await vp?.stop();
});
beforeEach(() => {
  live().setScript({ firstAudioDelayMs: 50, stt: { finalDelayMs: 50 } });
});

describe('a Gemini Live phone call', () => {
  it('greets in the model voice, answers a turn, and writes a billed history record with both sides', async () => {
    live().setScript({ firstAudioDelayMs: 50, stt: { transcripts: () => 'I would like a table.', finalDelayMs: 50 } });
    const sessionsBefore = live().received.length;
    const agent = await vp.agent({ realtime: GEMINI, first_message: 'Hello from Gemini.' });
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

    expect(await transcriptOf(vp, ended.callId)).toEqual(['agent: Hello from Gemini.', 'user: I would like a table.', 'agent: You said: I would like a table.']);
    // The session as set up: the model and voice, both transcriptions, the agent's tools, 16 kHz PCM in.
    const messages = live().received[sessionsBefore]!.map((r) => r.event as Record<string, any>);
    expect(messages[0]!.setup.model).toBe(`models/${GEMINI.model}`);
    expect(messages[0]!.setup.generationConfig.speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName).toBe('Kore');
    expect(messages[0]!.setup.inputAudioTranscription).toEqual({});
    expect(messages[0]!.setup.tools[0].functionDeclarations.map((f: { name: string }) => f.name)).toContain('end_call');
    const audio = messages.filter((m) => m.realtimeInput?.audio);
    expect(audio.length).toBeGreaterThan(10);
    expect(new Set(audio.map((m) => m.realtimeInput.audio.mimeType))).toEqual(new Set(['audio/pcm;rate=16000']));

    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    expect(record.callCost).toBeGreaterThan(0);
    expect(record.realtimeUsage.model).toBe(GEMINI.model);
    expect(record.realtimeUsage.outputAudioTokens).toBeGreaterThan(0);
    expect(record.realtimeUsage.inputAudioTokens).toBeGreaterThan(0);
  });

  it('runs the model function call through the call tools: end_call hangs up', async () => {
    live().setScript({
      firstAudioDelayMs: 50,
      stt: { transcripts: () => 'That is all, goodbye.', finalDelayMs: 50 },
      reply: (r) => (/goodbye/.test(lastUser(r)) && !r.items.some((i) => i.role === 'tool') ? { toolCall: { name: 'end_call', arguments: '{}' } } : defaultRealtimeReply(r)),
    });
    const sessionsBefore = live().received.length;
    const agent = await vp.agent({ realtime: GEMINI, first_message: 'Hi.' });
    const caller = await vp.call(agent);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    await caller.play(tone(600));
    const ended = await vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('agent_hangup');
    expect(ended.outcome.events?.data.find((e) => e.type === 'tool_call')).toMatchObject({ name: 'end_call', status: 'ok' });
    // The call's answer went back as a toolResponse carrying the id the model issued.
    const messages = live().received[sessionsBefore]!.map((r) => r.event as Record<string, any>);
    const answer = messages.find((m) => m.toolResponse);
    expect(answer?.toolResponse.functionResponses[0]).toMatchObject({ name: 'end_call', id: expect.stringMatching(/^function-call-/) });
  });

  it('cuts the model on its interrupted signal and keeps only the heard words in the history', async () => {
    live().setScript({
      firstAudioDelayMs: 50,
      stt: { transcripts: () => 'Just the wine list.', finalDelayMs: 50 },
      reply: (r) => (lastUser(r) ? { text: 'Sure.' } : { text: LONG }),
    });
    const sessionsBefore = live().received.length;
    const agent = await vp.agent({ realtime: GEMINI, first_message_mode: 'model_generated' });
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

    const lines = await transcriptOf(vp, ended.callId);
    expect(lines[0]).toMatch(/^agent: Let me tell you .*—$/);
    expect(lines[0]!.length).toBeLessThan(`agent: ${LONG}`.length);
    expect(lines.slice(1)).toEqual(['user: Just the wine list.', 'agent: Sure.']);
    // Only Live API messages went out (the stand-in closes 1007 on anything else): no truncation exists.
    const kinds = live().received[sessionsBefore]!.map((r) => Object.keys(r.event)[0]);
    expect(new Set(kinds)).toEqual(new Set(['setup', 'clientContent', 'realtimeInput']));
  });
});

const endedFor = async (callId: string) => {
  for (;;) {
    const e = await vp.nextCallEnded();
    if (e.callId === callId) return e;
  }
};

describe('a Gemini Live meeting', () => {
  it('sends the page 16 kHz PCM as is, shows both sides as captions, and ends on the model end_call', async () => {
    live().setScript({
      firstAudioDelayMs: 50,
      stt: { transcripts: () => 'Thanks, that is all.', finalDelayMs: 50 },
      reply: (r) => (/all/.test(lastUser(r)) && !r.items.some((i) => i.role === 'tool') ? { toolCall: { name: 'end_call', arguments: '{}' } } : defaultRealtimeReply(r)),
    });
    const sessionsBefore = live().received.length;
    const agent = await vp.agent({ realtime: GEMINI, first_message: 'Welcome to the meeting.' });
    const meeting = await vp.meeting(agent);
    const page = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
    await waitUntil(() => (page.captions('agent').includes('Welcome to the meeting.') ? true : undefined));
    await page.whenIdle();
    await page.say('Thanks, that is all.');
    const ended = await endedFor(meeting.callId);
    expect(ended.outcome.reason).toBe('agent_hangup');
    expect(page.captions('user')).toContain('Thanks, that is all.');
    const messages = live().received[sessionsBefore]!.map((r) => r.event as Record<string, any>);
    expect(new Set(messages.filter((m) => m.realtimeInput).map((m) => m.realtimeInput.audio.mimeType))).toEqual(new Set(['audio/pcm;rate=16000']));
    expect(await transcriptOf(vp, meeting.callId)).toEqual(['agent: Welcome to the meeting.', 'user: Thanks, that is all.']);
  });
});
