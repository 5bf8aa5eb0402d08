/**
 * Invariant: sound pauses the agent and real speech stops it. Through the Twilio-speaking simulated caller,
 * the real STT adapter and its stand-in, and the service's local VAD on the caller's audio:
 * - longer sound without words pauses the agent (`clear`), then it resumes where the caller stopped
 *   hearing it: the whole greeting is heard once, no words repeated, and nothing is answered; a sound that
 *   goes on with no words resumes it while it lasts (the pause is bounded);
 * - real speech ("Stop, please...") interrupts an agent that allows its greeting to be cut
 *   (`first_message_interruptible`); history keeps the words of the greeting the caller heard, marked as
 *   cut, then the caller's turn and the answer;
 * - a lone stop word ("Stop.", "Wait!") stops it too, though one short word is under the minimum words and,
 *   for "Stop.", its voicing is broken by the /t/;
 * - by default the greeting is kept whole: the same speech over it cuts nothing, and is answered after it;
 * - a single word over the agent that does not stop it is not thrown away: it is answered once it has played.
 * What does not interrupt is in voice-interruptions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { speech, tone } from '../../lib/local/callers/simulated-caller.js';
import { toneBytes } from '../../lib/local/standins/tts-audio.js';
import { INTERRUPTED_MARKER } from '../../streaming-service/src/session/speech-handle.js';
import { waitUntil } from './voice-harness.js';
import { ANSWER, GREETING, LONG_GREETING, interruptionsFile } from './voice-interruptions-support.js';
import { WAIT_MS } from '../support/progress.js';

const file = interruptionsFile();
const STOP = 'Stop, please. I need a person.';

describe('interruptions', () => {
  it('pauses for sound without words, then resumes where the caller stopped hearing', async () => {
    file.hear(['']);
    const before = file.turnRequests().length;
    const agent = await file.vp.agent({ first_message: GREETING, first_message_interruptible: true });
    const caller = await file.vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(400);
    const noiseAt = caller.received.length;
    await caller.play(tone(900));
    const clear = await caller.waitForNext((m) => m.event === 'clear', WAIT_MS, noiseAt);
    // Audio comes again after the clear: the rest of the greeting.
    const afterClear = caller.received.indexOf(clear) + 1;
    await caller.waitForNext((m) => m.event === 'media', WAIT_MS, afterClear);
    await file.greetingPlayed(caller);
    await caller.whenIdle();
    // Heard once: what played before the pause plus the resumed rest is the greeting's audio, give or take
    // the playhead estimate's error, never a repeated or skipped word. The error is within two 20 ms frames
    // (320 bytes) on an idle machine; on a loaded one it reached 413 and then 924 bytes (28 November: the
    // caller's playback clock and the service's estimate both run on busy event loops). The bound is what
    // the invariant says: less than the greeting's shortest word ("to", 1,120 bytes), so any word heard
    // twice or missed fails.
    expect(toneBytes('to')).toBe(1_120);
    expect(Math.abs(file.bytes(caller.heard) - toneBytes(GREETING))).toBeLessThan(toneBytes('to'));
    const record = await file.hangUpAndRead(caller);
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${GREETING}`]);
    expect(file.turnRequests().length).toBe(before);
    // A pause is not an interruption: the timeline has none.
    const events = ((await file.vp.api('GET', `/api/history/${String(record._id)}/events`, undefined)).body as { data: { type: string }[] }).data;
    expect(events.filter((e) => e.type === 'interruption')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'ended' });
  });

  it('resumes while a sound with no words goes on (a television, a beeping device), not only after it', async () => {
    file.hear(['']);
    const agent = await file.vp.agent({ first_message: LONG_GREETING, first_message_interruptible: true });
    const caller = await file.vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(400);
    const noiseAt = caller.received.length;
    let noiseOver = false;
    // Five seconds of sound: well past the false-interruption timeout (1.5 s) measured from the pause.
    const noise = caller.play(tone(5_000)).then(() => (noiseOver = true));
    const clear = await caller.waitForNext((m) => m.event === 'clear', WAIT_MS, noiseAt);
    await caller.waitForNext((m) => m.event === 'media', WAIT_MS, caller.received.indexOf(clear) + 1);
    expect(noiseOver).toBe(false);
    await noise;
    await file.greetingPlayed(caller);
    await caller.whenIdle();
    const record = await file.hangUpAndRead(caller);
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${LONG_GREETING}`]);
  });

  it('stops for real speech and keeps the words of the greeting the caller heard', async () => {
    file.hear([STOP]);
    const agent = await file.vp.agent({ first_message: LONG_GREETING, first_message_interruptible: true });
    const caller = await file.vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(1_500);
    const talkAt = caller.received.length;
    await caller.play(await speech(STOP));
    await caller.waitForNext((m) => m.event === 'clear', WAIT_MS, talkAt);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    const record = await file.hangUpAndRead(caller);
    const lines = String(record.callTranscript).split('\n');
    expect(lines).toHaveLength(3);
    const cut = lines[0]!.replace(/^agent: /, '');
    expect(cut.endsWith(INTERRUPTED_MARKER)).toBe(true);
    const words = cut.slice(0, -INTERRUPTED_MARKER.length);
    expect(words.length).toBeGreaterThan(0);
    expect(LONG_GREETING.startsWith(words)).toBe(true);
    expect(LONG_GREETING.length).toBeGreaterThan(words.length);
    expect(lines.slice(1)).toEqual([`user: ${STOP}`, `agent: ${ANSWER}`]);
    // The call's timeline has the barge-in, before the turn it led to.
    const events = ((await file.vp.api('GET', `/api/history/${String(record._id)}/events`, undefined)).body as { data: { type: string; atMs: number }[] }).data;
    expect(events.filter((e) => e.type === 'interruption')).toHaveLength(1);
    const at = (type: string) => events.find((e) => e.type === type)!.atMs;
    expect(at('interruption')).toBeLessThanOrEqual(at('turn'));
  });

  it.each(['Stop.', 'Wait!'])('stops for a lone stop word, %s (one short word, under the minimum words), and answers it', async (said) => {
    file.hear([said]);
    const agent = await file.vp.agent({ first_message: LONG_GREETING, first_message_interruptible: true });
    const caller = await file.vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(1_500);
    const talkAt = caller.received.length;
    await caller.play(await speech(said));
    await caller.waitForNext((m) => m.event === 'clear', WAIT_MS, talkAt);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    const lines = String((await file.hangUpAndRead(caller)).callTranscript).split('\n');
    expect(lines[0]!.endsWith(INTERRUPTED_MARKER)).toBe(true);
    expect(lines.slice(1)).toEqual([`user: ${said}`, `agent: ${ANSWER}`]);
  });

  it('keeps the greeting whole by default: speech over it is heard and answered once it has played', async () => {
    file.hear([STOP]);
    const before = file.turnRequests().length;
    const agent = await file.vp.agent({ first_message: LONG_GREETING });
    const caller = await file.vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    // The callee answers "hello" over the greeting, as a person picking up does.
    await caller.pause(1_500);
    await caller.play(await speech(STOP));
    await waitUntil(() => (file.turnRequests().length > before ? true : undefined));
    // The answer plays after the greeting (whose marks all came back before the held words were answered).
    const echoed = caller.echoed.length;
    await waitUntil(() => (caller.echoed.length > echoed ? true : undefined));
    await caller.whenIdle();
    expect(caller.received.filter((m) => m.event === 'clear')).toHaveLength(0);
    const record = await file.hangUpAndRead(caller);
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${LONG_GREETING}`, `user: ${STOP}`, `agent: ${ANSWER}`]);
  });

  it('keeps a word said over the agent that does not stop it, and answers it once the agent has finished', async () => {
    file.hear(['Tuesday.']);
    const before = file.turnRequests().length;
    const agent = await file.vp.agent({ first_message: LONG_GREETING, first_message_interruptible: true });
    const caller = await file.vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(1_500);
    await caller.play(await speech('Tuesday.'));
    await waitUntil(() => (file.turnRequests().length > before ? true : undefined));
    const echoed = caller.echoed.length;
    await waitUntil(() => (caller.echoed.length > echoed ? true : undefined));
    await caller.whenIdle();
    // One real word is under the minimum: the greeting goes on whole, and the word is answered after it.
    const record = await file.hangUpAndRead(caller);
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${LONG_GREETING}`, 'user: Tuesday.', `agent: ${ANSWER}`]);
  });
});
