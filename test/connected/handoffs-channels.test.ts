/**
 * Invariant: handoffs work the same in a browser meeting and in the widget's text chat as in a phone call
 * and an API chat (docs/handoffs.md, "Channels"). In a meeting (the /web-stream browser transport) triage's
 * model takes `handoff_to_booking`; booking's first line is said in booking's voice with the gathered
 * variable and captioned after an `agent` notice naming booking (a reload's `ready` names booking too),
 * booking answers the contact's next words, and the meeting's one history record has a segment per agent. A destination on another STT vendor gets its own recognizer at the switch: the
 * contact's next words reach that vendor and the origin's recognizer is closed. A widget chat (a widget
 * key naming only the agent it starts with) hands off the same way: the page is told, booking's first line
 * is sent, and the record has the segments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedWebCaller } from '../../lib/local/callers/simulated-web-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { createApiKey } from '../../lib/store/workspaces.js';
import type { Agent } from '../../lib/domain/agent.js';
import type { ScriptRequest } from '../../lib/local/standins/llm.js';
import { ChatPage } from '../support/chat-page.js';
import { startVoicePlatform, waitUntil, type VoicePlatform } from './voice-harness.js';

let vp: VoicePlatform;
const ORIGIN = 'https://shop.example';
const TRIAGE_VOICE = '21m00Tcm4TlvDq8ikWAM';
const BOOKING_VOICE = 'EXAVITQu4vr4xnSDxMaL';
/** What the contact says in a meeting, in order, whichever recognizer hears it. */
const SAID = ['I want to book a visit.', 'Which times do you have?'];
let heard = 0;

function reply(req: ScriptRequest) {
  const { system, turns, endsWithToolResult } = req.messages;
  if (/^Summari[sz]e/i.test(system)) return { text: 'Summary.' };
  if (endsWithToolResult) return { text: 'Done.' };
  const last = turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';
  if (/^You are Triage/.test(system)) {
    if (/book/i.test(last)) return { toolCalls: [{ name: 'handoff_to_booking', arguments: { visit_date: 'Friday', summary: 'The contact wants a visit on Friday.' } }] };
    return { text: 'Triage again.' };
  }
  if (/^You are Booking/.test(system)) return { text: 'Nine or ten.' };
  return { text: 'Hello.' };
}

beforeAll(async () => {
  vp = await startVoicePlatform({
    // A counter, not the utterance index: a recognizer opened at the switch starts its own count at 0.
    stt: { transcripts: () => SAID[heard++] ?? 'Bye.', finalDelayMs: 50 },
    llm: { ttftMs: 20, tokensPerSecond: 400, reply },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

/** Triage, handing off to a booking agent made with `booking` (its prompt, first line and voice set here). */
async function triageAndBooking(booking: Partial<Agent> = {}) {
  const dest = await vp.agent({ name: 'Booking', system_prompt: 'You are Booking for {{visit_date}}.', first_message: 'Booking for {{visit_date}}.', tts_voice_id: BOOKING_VOICE, ...booking });
  const triage = await vp.agent({
    name: 'Triage',
    system_prompt: 'You are Triage.',
    first_message: 'Triage.',
    tts_voice_id: TRIAGE_VOICE,
    handoffs: [{ agent_id: dest._id, description: 'the contact wants to book', context: 'summary', variables: [{ name: 'visit_date', type: 'string', description: 'the day', required: true }] }],
  });
  return { triage, booking: dest };
}

/** What the TTS stand-in was asked to say in `voiceId`, joined. */
const saidIn = (voiceId: string) =>
  vp.platform.voice.tts.control
    .elevenlabs!.connections.filter((c) => c.path.includes(voiceId))
    .map((c) => JSON.stringify(c.received))
    .join(' ');

/**
 * A meeting with triage: greeted, hands off on the contact's first words, booking answers the second.
 * `afterSwitch` runs once booking's first line has played, and may hand back another page to go on with.
 */
async function meetingThroughHandoff(triage: Agent, afterSwitch: (page: SimulatedWebCaller, credential: string) => Promise<SimulatedWebCaller | void> = async () => undefined) {
  heard = 0;
  const meeting = await vp.meeting(triage);
  let page = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
  await page.waitFor((m) => m.type === 'mark');
  await page.whenIdle();
  await page.say(SAID[0]!);
  await waitUntil(() => (page.captions('agent').includes('Booking for Friday.') ? true : undefined));
  await page.whenIdle();
  const first = page;
  page = (await afterSwitch(page, meeting.credential())) ?? page;
  await page.say(SAID[1]!);
  await waitUntil(() => (page.captions('agent').includes('Nine or ten.') ? true : undefined));
  await page.whenIdle();
  page.hangUp();
  const ended = await vp.nextCallEnded();
  expect(ended.callId).toBe(meeting.callId);
  expect(ended.error).toBeUndefined();
  const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, meeting.callId)) as unknown as Record<string, any>;
  return { page: first, record };
}

describe('handoffs in a browser meeting', () => {
  it('switches to booking in the same meeting: its first line in its voice, its answer, segments on the record', async () => {
    const { triage, booking } = await triageAndBooking();
    // After the switch the page reloads: the rejoin's `ready` names the agent talking now.
    let rejoined: Record<string, any> | undefined;
    const { page, record } = await meetingThroughHandoff(triage, async (first, credential) => {
      first.drop();
      const again = await SimulatedWebCaller.join(vp.webUrl, credential);
      rejoined = again.received[0]!.raw;
      return again;
    });
    expect(rejoined).toMatchObject({ type: 'ready', resumed: true, agentName: 'Booking' });
    // The page is told who took over, before booking's first line is captioned.
    const types = page.received.map((m) => (m.type === 'caption' && m.raw.final ? `caption: ${m.raw.text}` : m.type === 'agent' ? `agent: ${m.raw.agentId} ${m.raw.agentName}` : undefined)).filter(Boolean);
    expect(types).toEqual(['caption: Triage.', 'caption: I want to book a visit.', `agent: ${booking._id} Booking`, 'caption: Booking for Friday.']);
    expect(saidIn(BOOKING_VOICE)).toContain('Booking for Friday.');
    expect(saidIn(BOOKING_VOICE)).toContain('Nine or ten.');
    expect(saidIn(BOOKING_VOICE)).not.toContain('Triage');
    expect(record).toMatchObject({ agentType: 'video', agentId: triage._id });
    expect(String(record.callTranscript).split('\n')).toEqual(['agent: Triage.', 'user: I want to book a visit.', 'agent: Booking for Friday.', 'user: Which times do you have?', 'agent: Nine or ten.']);
    const segments = record.segments as any[];
    expect(segments.map((s) => [s.agentId, s.handoff?.fromAgentId, s.handoff?.context])).toEqual([
      [triage._id, undefined, undefined],
      [booking._id, triage._id, 'summary'],
    ]);
    expect(segments[1].handoff).toMatchObject({ reason: 'the contact wants to book', variables: { visit_date: 'Friday' }, summary: 'The contact wants a visit on Friday.', switchMs: expect.any(Number) });
  });

  it('gives a destination on another STT vendor its own recognizer: the next words reach it, the origin’s is closed', async () => {
    const deepgram = vp.platform.voice.stt.control.deepgram!;
    const assemblyai = vp.platform.voice.stt.control.assemblyai!;
    const { triage, booking } = await triageAndBooking({ stt_provider: 'assemblyai' });
    const deepgramBefore = deepgram.sessions.length;
    const assemblyBefore = assemblyai.sessions.length;
    // Once booking's line has played, before the contact speaks again: triage's recognizer was told to
    // close (Deepgram's CloseStream) and is closed, booking's is open.
    let atSwitch: unknown;
    const { record } = await meetingThroughHandoff(triage, async () => {
      const [originNow] = deepgram.sessions.slice(deepgramBefore);
      atSwitch = {
        closeStream: originNow?.frames.some((f) => f.dir === 'in' && f.kind === 'text' && (f.json as { type?: string }).type === 'CloseStream'),
        closed: originNow?.closed !== undefined,
        swappedOpen: assemblyai.sessions.slice(assemblyBefore).map((x) => x.closed === undefined),
      };
    });
    expect(atSwitch).toEqual({ closeStream: true, closed: true, swappedOpen: [true] });
    // One recognizer each: triage's on Deepgram for the first words, booking's on AssemblyAI for the second.
    const origin = deepgram.sessions.slice(deepgramBefore);
    const swapped = assemblyai.sessions.slice(assemblyBefore);
    expect(origin).toHaveLength(1);
    expect(swapped).toHaveLength(1);
    expect(swapped[0]!.frames.some((f) => f.dir === 'in' && f.kind === 'binary')).toBe(true);
    // The second words in AssemblyAI's unformatted form (we ask for `format_turns=false`): that vendor heard them.
    expect(String(record.callTranscript).split('\n')).toEqual(['agent: Triage.', 'user: I want to book a visit.', 'agent: Booking for Friday.', 'user: which times do you have', 'agent: Nine or ten.']);
    expect((record.segments as any[]).map((s) => s.agentId)).toEqual([triage._id, booking._id]);
  });
});

describe('handoffs in the widget’s text chat', () => {
  it('hands off in a widget chat whose key names only the first agent: the page is told, booking’s line is sent, segments on the record', async () => {
    const { triage, booking } = await triageAndBooking();
    const { apiKey } = await createApiKey(vp.deps.db, vp.workspaceId, 'site', { agentIds: [triage._id], origins: [ORIGIN] });
    const res = await fetch(`${vp.platform.baseUrl}/widget/chat`, { method: 'POST', headers: { 'content-type': 'text/plain', origin: ORIGIN }, body: JSON.stringify({ apiKey, agentId: triage._id }) });
    expect(res.status).toBe(200);
    const chat = (await res.json()) as { chatId: string; credential: string; chatUrl: string };
    const page = await ChatPage.open(chat.chatUrl, chat.credential);
    expect(await page.waitFor((f) => f.type === 'ready')).toMatchObject({ agentName: 'Triage', messages: [{ role: 'agent', text: 'Triage.' }] });

    const toBooking = await page.ask('I want to book a visit');
    expect(toBooking.find((f) => f.type === 'agent')).toMatchObject({ agentId: booking._id, agentName: 'Booking' });
    expect(toBooking.filter((f) => f.type === 'reply').map((f) => f.text)).toEqual(['Booking for Friday.']);
    expect((await page.ask('Which times do you have?')).find((f) => f.type === 'reply')!.text).toBe('Nine or ten.');

    const ended = new Promise<{ chatId: string; error?: unknown }>((resolve) => {
      const off = vp.platform.voice.streaming.onChatEnded((e) => {
        off();
        resolve(e);
      });
    });
    page.ws.send(JSON.stringify({ type: 'end' }));
    expect((await ended).error).toBeUndefined();
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, chat.chatId)) as unknown as Record<string, any>;
    expect(record).toMatchObject({ agentType: 'chat', agentId: triage._id, fullName: `Web visitor (${ORIGIN})` });
    expect(String(record.callTranscript).split('\n')).toEqual(['agent: Triage.', 'user: I want to book a visit', 'agent: Booking for Friday.', 'user: Which times do you have?', 'agent: Nine or ten.']);
    const segments = record.segments as any[];
    expect(segments.map((s) => [s.agentId, s.agentName, s.handoff?.fromAgentId])).toEqual([
      [triage._id, 'Triage', undefined],
      [booking._id, 'Booking', triage._id],
    ]);
    expect(segments[1].handoff).toMatchObject({ context: 'summary', variables: { visit_date: 'Friday' }, summary: 'The contact wants a visit on Friday.' });
  });
});
