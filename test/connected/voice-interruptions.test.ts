/**
 * Invariant: only real speech interrupts the agent. Through the Twilio-speaking simulated caller, the real
 * STT adapter and its stand-in, and the service's local VAD on the caller's audio:
 * - an "uh-huh" (espeak-ng speech) while the agent speaks neither cuts it (no `clear`) nor becomes a turn
 *   the agent answers; the greeting plays whole and stays whole in the transcript;
 * - a cough (a short burst the recognizer finds no words in) does not cut the agent, nor does the agent's
 *   own voice coming back 30 dB down as line echo;
 * - the agent's `interruption` settings are validated by the API (400, nothing stored) and returned.
 * Sound that pauses the agent and speech that stops it are in voice-interruptions-speech.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { speech, tone } from '../../lib/local/callers/simulated-caller.js';
import { toneBytes } from '../../lib/local/standins/tts-audio.js';
import { mediaBytes } from './voice-harness.js';
import { GREETING, interruptionsFile } from './voice-interruptions-support.js';

const file = interruptionsFile();

describe('interruptions', () => {
  it('does not stop for an "uh-huh", and does not answer it', async () => {
    file.hear(['Uh-huh.']);
    const before = file.turnRequests().length;
    const agent = await file.vp.agent({ first_message: GREETING });
    const caller = await file.vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(400);
    await caller.play(await speech('uh-huh'));
    await file.recognized('Uh-huh');
    await file.greetingPlayed(caller);
    await caller.whenIdle();
    expect(file.clears(caller)).toBe(0);
    expect(file.bytes(caller.heard)).toBe(toneBytes(GREETING));
    const record = await file.hangUpAndRead(caller);
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${GREETING}`]);
    expect(file.turnRequests().length).toBe(before);
  });

  it('does not stop for its own voice coming back as line echo (30 dB down)', async () => {
    file.hear([]);
    // A real voice (espeak-ng): WebRTC's VAD alone calls it speech even 30 dB down.
    file.vp.platform.voice.tts.control.setScript({ speech: true });
    try {
      const agent = await file.vp.agent({ first_message: GREETING });
      const caller = await file.vp.call(agent, { echoGain: 0.03 });
      await file.greetingPlayed(caller);
      await caller.whenIdle();
      expect(file.clears(caller)).toBe(0);
      expect(file.bytes(caller.heard)).toBe(mediaBytes(caller));
      const record = await file.hangUpAndRead(caller);
      expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${GREETING}`]);
    } finally {
      file.vp.platform.voice.tts.control.setScript({ speech: false });
    }
  });

  it('does not stop for a cough', async () => {
    file.hear(['']);
    const agent = await file.vp.agent({ first_message: GREETING });
    const caller = await file.vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(400);
    await caller.play(tone(120));
    await file.greetingPlayed(caller);
    await caller.whenIdle();
    expect(file.clears(caller)).toBe(0);
    const record = await file.hangUpAndRead(caller);
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${GREETING}`]);
  });

  it('validates and returns the agent\'s interruption settings', async () => {
    const base = { name: 'I', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram', workspaceId: file.vp.workspaceId };
    for (const interruption of [{ min_words: -1 }, { min_duration_ms: 'long' }, { false_interruption_timeout_ms: 50 }, { nope: true }, { backchannels: [''] }]) {
      const bad = await file.vp.api('POST', '/api/agents', { ...base, interruption });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: { code: expect.any(String) } });
    }
    const interruption = { min_duration_ms: 300, min_words: 3, false_interruption_timeout_ms: 1_000, resume_false_interruption: false, backchannels: ['Vale', 'sí'] };
    const created = await file.vp.api('POST', '/api/agents', { ...base, interruption });
    expect(created.status).toBe(201);
    const id = (created.body as { _id: string })._id;
    const got = await file.vp.api('GET', `/api/agents/${id}?workspaceId=${file.vp.workspaceId}`, undefined);
    expect((got.body as { interruption: unknown }).interruption).toEqual({ ...interruption, backchannels: ['vale', 'sí'] });
  });
});
