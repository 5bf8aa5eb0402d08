/**
 * Invariant: a vendor socket that drops mid-call does not end the call, and the caller loses nothing.
 * - The STT socket closed by the vendor (1011) while the caller is talking is reopened; the caller's audio
 *   since the last final is sent again on the new socket, so the turn is recognized whole, once, and
 *   answered; the call ends as the caller's hang-up, not `error`.
 * - The TTS socket cut mid-greeting is reopened and the phrase's unspoken rest is synthesized again: the
 *   caller hears the whole greeting once (byte for byte the stand-in's audio for it), and history keeps it.
 * - A TTS vendor that stays down (its socket cut, every reconnect refused) hands over to the agent's
 *   fallback voice at another vendor: the greeting is said whole in that voice and the call goes on.
 * - An STT vendor that stays down (every reconnect refused) ends the call as `error`, but only after the
 *   caller heard a short apology.
 */
import { describe, expect, it } from 'vitest';
import { speech } from '../../lib/local/callers/simulated-caller.js';
import { toneBytes } from '../../lib/local/standins/tts-audio.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { mediaBytes, SHORT_LINES, turnConversation, waitUntil } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

// Short lines: each is played in real time, and their length is not what these tests are about. The
// greeting is long enough (3 s) for a socket to be cut a second into it.
const SAID = 'A table for two at seven.';
const GREETING = 'Welcome to Luigi, for fresh pasta and pizza.';
const HELLO = 'Hello, Luigi.';
const ANSWER = 'Noted.';

const turn = turnConversation(SAID, ANSWER);

describe('vendor socket drops', () => {
  it('reopens a dropped STT socket and recognizes the interrupted turn whole', async () => {
    const dg = turn.vp.platform.voice.stt.control.deepgram!;
    const agent = await turn.vp.agent({ first_message: HELLO });
    const caller = await turn.vp.call(agent);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    const connectionsBefore = dg.sessions.length;
    const talk = await speech(SAID);
    // Cut the socket half a second into the caller's sentence.
    dg.dropMidStream(4_000);
    const before = caller.received.length;
    await caller.play(talk);
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();
    caller.hangUp();
    const ended = await turn.vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('customer_hangup');

    const sessions = dg.sessions.slice(connectionsBefore - 1);
    expect(sessions[0]!.closed).toMatchObject({ code: 1011, by: 'server' });
    expect(sessions.length).toBe(2);
    // The new socket got every byte of the sentence (replayed, then live), so no word was lost.
    const sentToNew = sessions[1]!.frames.filter((f) => f.dir === 'in' && f.kind === 'binary').reduce((n, f) => n + (f.kind === 'binary' ? f.bytes : 0), 0);
    expect(sentToNew).toBeGreaterThanOrEqual(talk.length);
    const record = (await getHistoryRecord(turn.vp.deps.db, turn.vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${HELLO}`, `user: ${SAID}`, `agent: ${ANSWER}`]);
  });

  it('reopens a TTS socket cut mid-greeting and plays the rest once', async () => {
    const eleven = turn.vp.platform.voice.tts.control.elevenlabs!;
    const connectionsBefore = eleven.connections.length;
    // About a second of audio into the greeting (JSON frames with base64 audio).
    eleven.dropMidStream(12_000);
    const agent = await turn.vp.agent({ first_message: GREETING });
    const caller = await turn.vp.call(agent);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    expect(eleven.connections.length - connectionsBefore).toBeGreaterThanOrEqual(2);
    expect(mediaBytes(caller)).toBe(toneBytes(GREETING));
    caller.hangUp();
    const ended = await turn.vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('customer_hangup');
    const record = (await getHistoryRecord(turn.vp.deps.db, turn.vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${GREETING}`]);
  });

  it('apologizes before ending the call when the STT vendor stays down', async () => {
    const dg = turn.vp.platform.voice.stt.control.deepgram!;
    // A failed assertion must not leave the recognizer refusing the next test's calls.
    try {
      const agent = await turn.vp.agent({ first_message: HELLO });
      const caller = await turn.vp.call(agent);
      await waitUntil(() => caller.echoed.find((e) => !e.flushed));
      await caller.whenIdle();
      const heardBefore = caller.echoed.length;
      // Every reconnect is refused, then the open socket goes.
      dg.failNext(100, 503);
      dg.dropAll(1011);
      const closed = await caller.closed;
      expect(closed.reason).toBe('stt_unavailable');
      // The apology played (its mark came back played) before the stream closed.
      expect(caller.echoed.slice(heardBefore).some((e) => !e.flushed)).toBe(true);
      const ended = await turn.vp.nextCallEnded();
      expect(ended.outcome.reason).toBe('stt_unavailable');
      expect(ended.record?.callError).toMatchObject({ stage: 'stt', vendor: 'deepgram' });
      // The timeline has the reconnects' errors, then the one that ended the call.
      const events = ((await turn.vp.api('GET', `/api/history/${ended.callId}/events`, undefined)).body as { data: { type: string; fatal?: boolean }[] }).data;
      const errors = events.filter((e) => e.type === 'error');
      expect(errors.length).toBeGreaterThan(1);
      expect(errors.map((e) => e.fatal)).toEqual([...errors.slice(1).map(() => false), true]);
      const record = (await getHistoryRecord(turn.vp.deps.db, turn.vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
      expect(String(record.callTranscript).split('\n')).toEqual([
        `agent: ${HELLO}`,
        `agent: ${SHORT_LINES.failurePhrase}`,
      ]);
    } finally {
      dg.reset();
    }
  });

  it('switches to the fallback voice when the TTS vendor stays down', async () => {
    const eleven = turn.vp.platform.voice.tts.control.elevenlabs!;
    const cartesia = turn.vp.platform.voice.tts.control.cartesia!;
    const cartesiaBefore = cartesia.connections.length;
    const agent = await turn.vp.agent({ first_message: GREETING, fallback: { tts: [{ provider: 'cartesia' }] } });
    try {
      const caller = await turn.vp.call(agent);
      await caller.waitFor((m) => m.event === 'media');
      // The greeting is flowing: now the vendor goes down, socket and all.
      eleven.refuseNext(1_000);
      eleven.dropMidStream(12_000);
      await waitUntil(() => caller.echoed.find((e) => !e.flushed));
      await caller.whenIdle();
      expect(cartesia.connections.length).toBeGreaterThan(cartesiaBefore);
      caller.hangUp();
      const ended = await turn.vp.nextCallEnded();
      expect(ended.outcome.reason).toBe('customer_hangup');
      const record = (await getHistoryRecord(turn.vp.deps.db, turn.vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
      expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${GREETING}`]);
      // A fallback that took over is no failure: no callError, and the timeline says who took over.
      expect(record.callError).toBeUndefined();
      const events = ((await turn.vp.api('GET', `/api/history/${ended.callId}/events`, undefined)).body as { data: { type: string }[] }).data;
      expect(events.filter((e) => e.type === 'vendor_fallback')).toEqual([expect.objectContaining({ stage: 'tts', vendor: 'elevenlabs', to: 'cartesia' })]);
      expect(events.filter((e) => e.type === 'vendor_connected' && (e as { stage?: string }).stage === 'tts').map((e) => (e as { vendor?: string }).vendor)).toEqual(['elevenlabs', 'cartesia']);
    } finally {
      eleven.refuseNext(0);
    }
  });
});
