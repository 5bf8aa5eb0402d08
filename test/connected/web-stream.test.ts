/**
 * Invariant: a meeting is a call like a phone call, on the browser transport (docs/meeting.md). The page's
 * first socket, with a valid web session credential, is admitted once: it claims the call and reserves its
 * credits in one write; the agent greets with its first message (contact variables filled) in PCM16
 * 16 kHz, answers the contact's speech, shows captions of both sides, and the call's history record (the
 * meeting's placeholder) becomes the call's: `video`, transcript, cost, a 16 kHz stereo recording. A
 * dropped page rejoins the same call with the same credential within the grace; any other socket is
 * refused; a page that never comes back ends the call after the grace, billed to then.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedWebCaller } from '../../lib/local/callers/simulated-web-caller.js';
import { findCall } from '../../lib/store/calls.js';
import { listLedger, readBalance } from '../../lib/store/credits.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { briefReplies, startVoicePlatform, waitUntil, type VoicePlatform } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;

beforeAll(async () => {
  // A short rejoin grace, so the test of a page that never comes back is quick (each test file has its own process).
  process.env.WEB_REJOIN_GRACE_MS = '2000';
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'What time do you open tomorrow?', finalDelayMs: 50 },
    // A short answer to the question (the agent's audio plays in real time).
    llm: { ttftMs: 50, tokensPerSecond: 400, reply: briefReplies((said) => (/open tomorrow/.test(said) ? 'At nine.' : 'Sorry?')) },
    tts: { firstByteDelayMs: 30, realtimeFactor: 8 },
    session: {},
  });
});
afterAll(async () => {
  await vp?.stop();
});

/** Whether PCM16 bytes carry sound (not silence). */
const loud = (chunks: Uint8Array[]) => {
  const all = Buffer.concat(chunks);
  let peak = 0;
  for (let i = 0; i + 1 < all.length; i += 2) peak = Math.max(peak, Math.abs(all.readInt16LE(i)));
  return peak > 1_000;
};

describe('a meeting on the browser transport', () => {
  it('greets, answers, captions both sides, and records the call as the meeting history record', async () => {
    const contact = await vp.api('POST', '/api/contacts', { contactName: 'Grace Hopper', phoneNumber: '+14155550123' });
    expect(contact.status).toBe(201);
    const agent = await vp.agent({ name: 'Ava', first_message: 'Hi {{contactName}}, this is Ava.', recording_enabled: true });
    const balanceBefore = await readBalance(vp.deps.db, vp.workspaceId);
    const meeting = await vp.meeting(agent, { phoneNumber: '+14155550123' });
    // The link only checked the balance; nothing is held until someone is in the call.
    expect(await readBalance(vp.deps.db, vp.workspaceId)).toBe(balanceBefore);

    const page = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
    expect(page.received[0]).toMatchObject({ type: 'ready', raw: { callId: meeting.callId, agentName: 'Ava', resumed: false } });
    const call = await findCall(vp.deps.db, vp.workspaceId, meeting.callId);
    expect(call?.reserved).toBeGreaterThan(0);
    expect(await readBalance(vp.deps.db, vp.workspaceId)).toBe(balanceBefore - call!.reserved);

    // The greeting: wideband audio (whole samples), its marks, and the agent's caption.
    await page.waitFor((m) => m.type === 'mark');
    await page.whenIdle();
    expect(page.audioBytes % 2).toBe(0);
    expect(loud(page.heard)).toBe(true);
    await waitUntil(() => (page.captions('agent').includes('Hi Grace Hopper, this is Ava.') ? true : undefined));

    // The contact asks; the agent answers after the contact's caption.
    const heardBefore = page.heard.length;
    await page.say('What time do you open tomorrow?');
    await page.waitFor((m) => m.type === 'caption' && m.raw.role === 'user' && m.raw.final === true);
    await waitUntil(() => (page.captions('agent').includes('At nine.') ? true : undefined));
    await page.whenIdle();
    expect(page.heard.length).toBeGreaterThan(heardBefore);
    // The status line's states, in order: the greeting, listening, the answer being thought and spoken.
    const states = page.received.filter((m) => m.type === 'state').map((m) => m.raw.state as string);
    expect(states.filter((x, i) => x !== states[i - 1])).toEqual(['speaking', 'listening', 'thinking', 'speaking', 'listening']);
    await new Promise((r) => setTimeout(r, 200));

    page.hangUp();
    const ended = await vp.nextCallEnded();
    expect(ended.callId).toBe(meeting.callId);
    expect(ended.outcome.reason).toBe('customer_hangup');
    const closed = await page.closed;
    expect(closed.code).toBe(1000);
    expect(page.received.at(-1)).toMatchObject({ type: 'ended', raw: { reason: 'customer_hangup' } });

    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, meeting.callId)) as unknown as Record<string, any>;
    expect(record.agentType).toBe('video');
    expect(record.callEndReason).toBe('customer_hangup');
    expect(record.fullName).toBe('Grace Hopper');
    expect(String(record.callTranscript).split('\n')).toEqual([
      'agent: Hi Grace Hopper, this is Ava.',
      'user: What time do you open tomorrow?',
      'agent: At nine.',
    ]);
    expect(record.callDuration).toBeGreaterThan(0);
    expect(record.callCost).toBeGreaterThan(0);
    // Settled: the reservation came back, the call's cost was charged, once.
    expect(await readBalance(vp.deps.db, vp.workspaceId)).toBeCloseTo(balanceBefore - record.callCost, 4);
    const ledger = (await listLedger(vp.deps.db, vp.workspaceId)).filter((e) => e.callId === meeting.callId);
    expect(ledger.map((e) => e.reason).sort()).toEqual(['call_reservation', 'call_settlement']);
    // The recording: a stereo WAV at the browser's 16 kHz, through the API's presigned URL.
    const got = await vp.api('GET', `/api/history/${meeting.callId}/recording-url`, undefined);
    const { url } = got.body as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*X-Amz-Signature=/);
    const wav = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(wav.readUInt32LE(24)).toBe(16_000);
  });

  it('rejoins the same call from the same tab after a drop, and refuses every other socket', async () => {
    const agent = await vp.agent({ first_message: 'Hello there.' });
    const meeting = await vp.meeting(agent);
    const first = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
    await first.waitFor((m) => m.type === 'mark');

    // Another tab (another sessionId) while the call runs: refused, and the call is untouched.
    const other = SimulatedWebCaller.attempt(vp.webUrl, meeting.credential(randomBytes(16).toString('base64url')));
    expect(await other.waitFor((m) => m.type === 'error')).toMatchObject({ raw: { code: 'already_connected' } });
    expect((await other.closed).code).toBe(1008);
    // A forged credential.
    const forged = SimulatedWebCaller.attempt(vp.webUrl, `${meeting.credential().slice(0, -4)}AAAA`);
    expect(await forged.waitFor((m) => m.type === 'error')).toMatchObject({ raw: { code: 'bad_credential' } });

    // The page drops (a reload): the same credential rejoins the same call.
    first.drop();
    const again = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
    expect(again.received[0]).toMatchObject({ type: 'ready', raw: { callId: meeting.callId, resumed: true } });
    // The same tab again while that socket is still open (a reload racing the old socket's close): the
    // newest socket takes the call over and the older one is told why it was closed.
    const newest = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
    expect(newest.received[0]).toMatchObject({ type: 'ready', raw: { resumed: true } });
    expect(await again.waitFor((m) => m.type === 'error')).toMatchObject({ raw: { code: 'replaced' } });
    expect((await again.closed).code).toBe(1008);
    await newest.say('What time do you open tomorrow?');
    await newest.waitFor((m) => m.type === 'caption' && m.raw.role === 'agent' && m.raw.text === 'At nine.');
    newest.hangUp();
    const ended = await vp.nextCallEnded();
    expect(ended.callId).toBe(meeting.callId);
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, meeting.callId)) as unknown as Record<string, any>;
    expect(String(record.callTranscript)).toContain('user: What time do you open tomorrow?');

    // After the call: the credential opens nothing.
    const late = SimulatedWebCaller.attempt(vp.webUrl, meeting.credential());
    expect(await late.waitFor((m) => m.type === 'error')).toMatchObject({ raw: { code: 'ended' } });
  });

  it('ends a call whose page never comes back after the grace, billed to then', async () => {
    const agent = await vp.agent({ first_message: 'Hello there.' });
    const meeting = await vp.meeting(agent);
    const page = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
    await page.waitFor((m) => m.type === 'mark');
    page.drop();
    const ended = await vp.nextCallEnded(WAIT_MS);
    expect(ended.callId).toBe(meeting.callId);
    expect(ended.outcome.reason).toBe('customer_hangup');
    // The grace is part of the call: the contact could have come back during it.
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, meeting.callId)) as unknown as Record<string, any>;
    expect(record.callDuration).toBeGreaterThanOrEqual(2);
    expect(record.callCost).toBeGreaterThan(0);
    const late = SimulatedWebCaller.attempt(vp.webUrl, meeting.credential());
    expect(await late.waitFor((m) => m.type === 'error')).toMatchObject({ raw: { code: 'ended' } });
  });
});
