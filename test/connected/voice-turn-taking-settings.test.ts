/**
 * Invariant: `turn_taking.unfinished_wait_ms: 0` restores answering a fragment at once; a fragment that is
 * a whole answer is answered without the wait; the settings are validated, stored and returned
 * (docs/voice-pipeline.md, "Turn-taking"). The long pause itself is in voice-turn-taking.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { speech } from '../../lib/local/callers/simulated-caller.js';
import { greeted, transcriptOf } from './voice-harness.js';
import { FIRST, GREETING, ANSWER, turnTakingFile } from './voice-turn-taking-support.js';
import { WAIT_MS } from '../support/progress.js';

const file = turnTakingFile();

describe('a long pause mid-sentence', () => {
  it('with unfinished_wait_ms 0 the fragment is answered in the pause, as the recognizer ended it', async () => {
    const { transcript } = await file.pausedSentence(await file.vp.agent({ first_message: GREETING, turn_taking: { unfinished_wait_ms: 0 } }), 1_500);
    expect(file.answered[0]).toBe(FIRST);
    expect(transcript.slice(0, 3)).toEqual([`agent: ${GREETING}`, `user: ${FIRST}`, `agent: ${ANSWER}`]);
  });
});

describe('a finished answer', () => {
  it('is answered without the wait: one reply to it', async () => {
    const said = 'At seven.';
    file.vp.platform.voice.stt.control.deepgram!.setScript({ transcripts: () => said, finalDelayMs: 50 });
    const caller = await greeted(file.vp, await file.vp.agent({ first_message: GREETING }));
    const before = caller.received.length;
    await caller.play(await speech(said));
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();
    caller.hangUp();
    const ended = await file.vp.nextCallEnded();
    expect(file.answered).toEqual([said]);
    expect(await transcriptOf(file.vp, ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${said}`, `agent: ${ANSWER}`]);
  });
});

describe('the agent\'s turn_taking settings', () => {
  it('are validated, stored and returned by get-agent, and replaced whole by a patch', async () => {
    const base = { name: 'T', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram', workspaceId: file.vp.workspaceId };
    for (const turn_taking of [{ unfinished_wait_ms: -1 }, { unfinished_wait_ms: 'long' }, { unfinished_wait_ms: 20_000 }, { continuation_words: [''] }, { nope: true }]) {
      const bad = await file.vp.api('POST', '/api/agents', { ...base, turn_taking });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: { code: 'validation_failed' } });
    }
    const created = await file.vp.api('POST', '/api/agents', { ...base, turn_taking: { unfinished_wait_ms: 1_500, continuation_words: ['Para', 'y'] } });
    expect(created.status).toBe(201);
    const id = (created.body as { _id: string })._id;
    const got = await file.vp.api('GET', `/api/agents/${id}?workspaceId=${file.vp.workspaceId}`, undefined);
    expect((got.body as { turn_taking: unknown }).turn_taking).toEqual({ unfinished_wait_ms: 1_500, continuation_words: ['para', 'y'] });
    const patched = await file.vp.api('PATCH', `/api/agents/${id}?workspaceId=${file.vp.workspaceId}`, { turn_taking: { unfinished_wait_ms: 0 } });
    expect(patched.status).toBe(200);
    expect((patched.body as { turn_taking: unknown }).turn_taking).toEqual({ unfinished_wait_ms: 0 });
  });
});
