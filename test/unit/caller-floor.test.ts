/**
 * Invariant: the caller's floor turns what the local VAD hears and what the recognizer writes into the
 * session's pause, resume and interrupt, each counted, and owns the one false-interruption timer: armed when
 * paused speech ends, cancelled when speech starts again or words take the floor, never firing after close.
 * Without a VAD (the module failed to load) only the recognizer's words count. Timers are vitest's fake ones:
 * no test waits on the clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { speech } from '../../lib/local/callers/simulated-caller.js';
import { mulawToPcm } from '../../lib/vendors/shared/mulaw.js';
import { CallerFloor } from '../../streaming-service/src/session/floor.js';
import { DEFAULT_INTERRUPTION, type AgentActivity } from '../../streaming-service/src/session/interruption.js';
import { loadFvad } from '../../streaming-service/src/session/vad.js';

const SPEAKING: AgentActivity = { active: true, audible: true };
const IDLE: AgentActivity = { active: false, audible: false };

/** A floor over hooks that record what it asked for, with the agent doing `agent.now`. */
function floor(vadModule: ReturnType<typeof loadFvad>, settings = { ...DEFAULT_INTERRUPTION, falseInterruptionTimeoutMs: 1_000 }) {
  const agent = { now: SPEAKING };
  const asked: string[] = [];
  const interruptedAt: number[] = [];
  const kept: string[] = [];
  const f = new CallerFloor(settings, 8_000, {
    activity: () => agent.now,
    pause: () => asked.push('pause'),
    resume: () => asked.push('resume'),
    interrupt: (atMs) => {
      asked.push('interrupt');
      interruptedAt.push(atMs);
    },
    keep: (text) => kept.push(text),
  }, vadModule);
  return { f, agent, asked, interruptedAt, kept };
}

/** A caller saying a few words (no transcript yet) and then a second of silence, as 20 ms frames from `atMs` 100. */
async function talkThenQuiet(f: CallerFloor): Promise<number[]> {
  const pcm = mulawToPcm(await speech('Hmm, let me think about that for a second.'));
  const audio = new Int16Array(pcm.length + 8_000);
  audio.set(pcm);
  const frameTimes: number[] = [];
  for (let i = 0, atMs = 100; i < audio.length; i += 160, atMs += 20) {
    f.onAudio(audio.subarray(i, i + 160), atMs);
    frameTimes.push(atMs);
  }
  return frameTimes;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('without a VAD', () => {
  it('counts only the recognizer: two words over the agent interrupt it at the transcript time', async () => {
    const { f, asked, interruptedAt } = floor(Promise.reject(new Error('wasm missing')));
    await Promise.resolve();
    expect(f.hasVad).toBe(false);
    f.onAudio(new Int16Array(8_000).fill(8_000), 5);
    expect(asked).toEqual([]);
    f.onTranscript('uh-huh', 10);
    expect(asked).toEqual([]);
    f.onTranscript('wait stop', 20);
    expect(asked).toEqual(['interrupt']);
    expect(interruptedAt).toEqual([20]);
    expect(f.counts).toEqual({ pauses: 0, resumes: 0, interruptions: 1 });
    f.close();
  });

  it('answers a turn unless it was feedback over the agent, and keeps the feedback that has a real word', async () => {
    const { f, agent, kept } = floor(Promise.reject(new Error('wasm missing')));
    await Promise.resolve();
    expect(f.onTurnEnd('yeah', 30)).toBe(false);
    // One real word over the agent: not answered now, but not thrown away.
    expect(f.onTurnEnd('Tuesday.', 35)).toBe(false);
    expect(f.onTurnEnd('Uh-huh, okay.', 36)).toBe(false);
    expect(kept).toEqual(['Tuesday.']);
    agent.now = IDLE;
    expect(f.onTurnEnd('yes', 40)).toBe(true);
    expect(kept).toEqual(['Tuesday.']);
    f.close();
  });
});

describe('with the VAD', () => {
  it('a floor closed before its VAD loaded never takes one', async () => {
    const vad = loadFvad();
    const { f } = floor(vad);
    f.close();
    await vad;
    await Promise.resolve();
    expect(f.hasVad).toBe(false);
  });

  it('pauses on speech without words, resumes once the timeout after its end has passed, and records the gap', async () => {
    const vad = loadFvad();
    const { f, asked } = floor(vad);
    await vad;
    expect(f.hasVad).toBe(true);
    vi.useFakeTimers();
    const frameTimes = await talkThenQuiet(f);
    expect(asked).toEqual(['pause']);
    vi.advanceTimersByTime(999);
    expect(asked).toEqual(['pause']);
    vi.advanceTimersByTime(1);
    expect(asked).toEqual(['pause', 'resume']);
    expect(f.counts).toEqual({ pauses: 1, resumes: 1, interruptions: 0 });
    expect(f.resumes).toHaveLength(1);
    // The gap is measured from the frame in which the speech ended.
    expect(frameTimes).toContain(f.resumes[0]!.speechEndAtMs);
    expect(f.resumes[0]!.speechEndAtMs).toBeGreaterThan(100);
    f.close();
  });

  it('words during the pause interrupt and cancel the timer', async () => {
    const vad = loadFvad();
    const { f, asked } = floor(vad);
    await vad;
    vi.useFakeTimers();
    await talkThenQuiet(f);
    f.onTranscript('let me think', 2_100);
    vi.advanceTimersByTime(5_000);
    expect(asked).toEqual(['pause', 'interrupt']);
    expect(f.counts).toEqual({ pauses: 1, resumes: 0, interruptions: 1 });
    f.close();
  });

  it('a closed floor never resumes, and an utterance that ended takes its pause with it', async () => {
    const vad = loadFvad();
    const closed = floor(vad);
    const gone = floor(vad);
    await vad;
    vi.useFakeTimers();
    for (const { f } of [closed, gone]) await talkThenQuiet(f);
    closed.f.close();
    gone.f.onUtteranceGone();
    vi.advanceTimersByTime(5_000);
    expect(closed.asked).toEqual(['pause']);
    expect(gone.asked).toEqual(['pause']);
    expect(closed.f.hasVad).toBe(false);
    gone.f.close();
  });
});
