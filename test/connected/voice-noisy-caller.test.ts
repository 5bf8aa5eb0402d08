/**
 * Invariant: a caller on a noisy line (steady background noise under everything it sends, about -44 dBFS:
 * a street or a car) is still heard right. Through the simulated caller, the real STT adapter and its
 * stand-in, and the service's local VAD:
 * - the noise alone never cuts the agent: no `clear`, the greeting plays whole and stays whole in history;
 * - an "uh-huh" over the noise does not cut it either, and is not answered.
 * (Real speech over the noise still interrupting: voice-noisy-interrupt.test.ts, on another worker.)
 */
import { describe, expect, it } from 'vitest';
import { speech, type SimulatedCaller } from '../../lib/local/callers/simulated-caller.js';
import { toneBytes } from '../../lib/local/standins/tts-audio.js';
import { clears, hangUpForTranscript, NOISE, useNoisyLine } from './noisy-line.js';
import { waitUntil } from './voice-harness.js';

/** About 3.4 s of the agent talking over the noise. */
const SHORT_GREETING = 'Hello and welcome to Luigi, home of fresh pasta.';

const line = useNoisyLine();

const heardBytes = (caller: SimulatedCaller) => caller.heard.reduce((n, c) => n + c.length, 0);

/** The greeting played to its end without a `clear`, and history keeps it whole and nothing else. */
async function expectGreetingUncut(caller: SimulatedCaller): Promise<void> {
  await waitUntil(() => caller.echoed.find((e) => !e.flushed));
  await caller.whenIdle();
  expect(clears(caller)).toBe(0);
  expect(heardBytes(caller)).toBe(toneBytes(SHORT_GREETING));
  expect(await hangUpForTranscript(line.vp, caller)).toEqual([`agent: ${SHORT_GREETING}`]);
}

describe('a caller on a noisy line', () => {
  it('noise alone never cuts the agent', async () => {
    line.heard = [];
    const caller = await line.vp.call(await line.vp.agent({ first_message: SHORT_GREETING }), { noiseLevel: NOISE });
    await expectGreetingUncut(caller);
  });

  it('an "uh-huh" over the noise neither cuts the agent nor is answered', async () => {
    line.heard = ['Uh-huh.'];
    const caller = await line.vp.call(await line.vp.agent({ first_message: SHORT_GREETING }), { noiseLevel: NOISE });
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(400);
    await caller.play(await speech('uh-huh'));
    await expectGreetingUncut(caller);
  });
});
