/**
 * Invariant: a phone call hands off between agents within the same call (docs/handoffs.md). Triage's model
 * takes `handoff_to_booking` with the variables gathered; booking's first line is said in booking's own
 * voice (another TTS voice id on the wire) with those variables filled, booking's model runs with its own
 * prompt and only the summary of what came before; booking hands back (`context: full`) and triage's voice
 * and prompt return with the whole conversation. One history record, one segment per stretch (with the
 * switch time of each handoff), and a `call.handoff` per switch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import type { ScriptRequest } from '../../lib/local/standins/llm.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { startVoicePlatform, waitUntil, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;
const receiver = new WebhookReceiver();
const CALLER = ['I want to book a visit.', 'Which times do you have?', 'Thanks, take me back.', 'Nothing else.'];
const TRIAGE_VOICE = '21m00Tcm4TlvDq8ikWAM';
const BOOKING_VOICE = 'EXAVITQu4vr4xnSDxMaL';

function reply(req: ScriptRequest) {
  const { system, turns } = req.messages;
  if (/^Summari[sz]e/i.test(system)) return { text: 'Summary.' };
  const last = turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';
  if (/^You are Triage/.test(system)) {
    if (/book/i.test(last)) return { toolCalls: [{ name: 'handoff_to_booking', arguments: { visit_date: 'Friday', summary: 'The caller wants a visit on Friday.' } }] };
    return { text: 'Triage again.' };
  }
  if (/^You are Booking/.test(system)) {
    if (/back/i.test(last)) return { toolCalls: [{ name: 'handoff_to_triage', arguments: {} }] };
    return { text: 'Nine or ten.' };
  }
  return { text: 'Hello.' };
}

beforeAll(async () => {
  await receiver.start();
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${receiver.port}`;
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => CALLER[utterance] ?? 'Bye.', finalDelayMs: 50 },
    llm: { ttftMs: 20, tokensPerSecond: 400, reply },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
  expect((await vp.api('POST', '/api/webhooks', { url: receiver.url('/hooks'), eventTypes: ['call.handoff'] })).status).toBe(201);
});
afterAll(async () => {
  await vp?.stop();
  await receiver.stop();
  delete process.env.TOOL_ALLOWED_HOSTS;
});

/** What the TTS stand-in was asked to say in `voiceId`, joined. */
const saidIn = (voiceId: string) =>
  vp.platform.voice.tts.control
    .elevenlabs!.connections.filter((c) => c.path.includes(voiceId))
    .map((c) => JSON.stringify(c.received))
    .join(' ');

describe('handoffs in a phone call', () => {
  it('hands off twice (triage → booking → triage) in one call: voice, prompt and first line switch, segments and call.handoff', async () => {
    const booking = await vp.agent({ name: 'Booking', system_prompt: 'You are Booking for {{visit_date}}.', first_message: 'Booking for {{visit_date}}.', tts_voice_id: BOOKING_VOICE });
    const triage = await vp.agent({
      name: 'Triage',
      system_prompt: 'You are Triage.',
      first_message: 'Triage.',
      tts_voice_id: TRIAGE_VOICE,
      handoffs: [{ agent_id: booking._id, description: 'the caller wants to book', context: 'summary', variables: [{ name: 'visit_date', type: 'string', description: 'the day', required: true }] }],
    });
    expect((await vp.api('PATCH', `/api/agents/${booking._id}`, { handoffs: [{ agent_id: triage._id, description: 'the caller is done booking', context: 'full' }] })).status).toBe(200);

    const caller = await vp.call(triage);
    await caller.waitFor((m) => m.event === 'mark');
    await caller.whenIdle();
    const requestsBefore: number[] = [];
    for (let turn = 0; turn < CALLER.length; turn += 1) {
      const before = caller.received.length;
      requestsBefore.push(vp.platform.voice.llm.control.requestsFor('openai').length);
      await caller.play(tone(300));
      await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
      await caller.whenIdle();
      await caller.pause(300);
      await caller.whenIdle();
    }
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(ended.error).toBeUndefined();
    const callId = ended.outcome.setup.callId;

    // Booking's line and answer in booking's voice; triage's greeting, its return line and its answer in triage's.
    expect(saidIn(BOOKING_VOICE)).toContain('Booking for Friday.');
    expect(saidIn(BOOKING_VOICE)).toContain('Nine or ten.');
    expect(saidIn(BOOKING_VOICE)).not.toContain('Triage');
    expect(saidIn(TRIAGE_VOICE)).toContain('Triage again.');

    // Booking's model: its prompt with the gathered variable, the summary, nothing said before the handoff.
    const bookingRequest = vp.platform.voice.llm.control.requestsFor('openai')[requestsBefore[1]!]!.body as { messages: { role: string; content: string }[] };
    expect(bookingRequest.messages[0]).toEqual({ role: 'system', content: expect.stringMatching(/^You are Booking for Friday\./) });
    expect(bookingRequest.messages[1]!.content).toContain('Summary of the conversation so far: The caller wants a visit on Friday.');
    expect(bookingRequest.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Which times do you have?']);
    // Back at triage (context full): the whole conversation.
    const triageRequest = vp.platform.voice.llm.control.requestsFor('openai')[requestsBefore[3]!]!.body as { messages: { role: string; content: string }[] };
    expect(triageRequest.messages[0]!.content).toMatch(/^You are Triage\./);
    expect(triageRequest.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(CALLER);

    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, callId)) as unknown as Record<string, any>;
    expect(record.agentId).toBe(triage._id);
    expect(String(record.callTranscript).split('\n')).toEqual([
      'agent: Triage.',
      'user: I want to book a visit.',
      'agent: Booking for Friday.',
      'user: Which times do you have?',
      'agent: Nine or ten.',
      'user: Thanks, take me back.',
      'agent: Triage.',
      'user: Nothing else.',
      'agent: Triage again.',
    ]);
    const segments = record.segments as any[];
    expect(segments.map((s) => [s.agentId, s.handoff?.fromAgentId, s.handoff?.context])).toEqual([
      [triage._id, undefined, undefined],
      [booking._id, triage._id, 'summary'],
      [triage._id, booking._id, 'full'],
    ]);
    expect(segments[1].handoff).toMatchObject({ reason: 'the caller wants to book', variables: { visit_date: 'Friday' } });
    for (const s of segments.slice(1)) expect(s.handoff.switchMs).toEqual(expect.any(Number));

    await waitUntil(() => (receiver.received.filter((h) => h.json.data.callId === callId).length >= 2 ? true : undefined));
    expect(receiver.received.filter((h) => h.json.data.callId === callId).map((h) => [h.json.type, h.json.data.fromAgentId, h.json.data.toAgentId])).toEqual([
      ['call.handoff', triage._id, booking._id],
      ['call.handoff', booking._id, triage._id],
    ]);
  });
});
