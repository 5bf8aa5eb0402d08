/**
 * Invariant: a caller on a noisy line (steady background noise under everything it sends, about -44 dBFS:
 * a street or a car) is still heard right. Through the simulated caller, the real STT adapter and its
 * stand-in, and the service's local VAD:
 * - the noise alone never cuts the agent: no `clear`, the greeting plays whole and stays whole in history;
 * - an "uh-huh" over the noise does not cut it either, and is not answered;
 * - real speech over the noise still interrupts, and history keeps the words the caller heard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speech, type SimulatedCaller } from '../../lib/local/simulated-caller.js';
import { toneBytes } from '../../lib/local/standins/tts-audio.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { INTERRUPTED_MARKER } from '../../streaming-service/src/session/speech-handle.js';
import { startVoicePlatform, type VoicePlatform, waitUntil } from './voice-harness.js';

const GREETING = 'Hello and welcome to Luigi, where every evening we serve fresh pasta and wood fired pizza.';
/**
 * For the tests where nothing may cut the agent: about 4 s of the agent talking over the noise (the long
 * greeting above, 6.3 s, is for the interruption, which must come well before its end).
 */
const SHORT_GREETING = 'Hello and welcome to Luigi, home of fresh pasta.';
/** RMS on the 16-bit scale: about -44 dBFS, a loud street under a phone call. */
const NOISE = 200;

let vp: VoicePlatform;
/** What the recognizer "hears" in each utterance of the current test. */
let heard: string[] = [];

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => heard[utterance] ?? '', finalDelayMs: 50 },
    llm: { ttftMs: 50, tokensPerSecond: 400, reply: (req) => (/summar/i.test(req.messages.system) ? { text: 'Summary.' } : { text: 'Of course.' }) },
    tts: { firstByteDelayMs: 30, realtimeFactor: 1 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

const heardBytes = (caller: SimulatedCaller) => caller.heard.reduce((n, c) => n + c.length, 0);
const clears = (caller: SimulatedCaller) => caller.received.filter((m) => m.event === 'clear').length;

async function transcript(caller: SimulatedCaller): Promise<string[]> {
  caller.hangUp();
  const ended = await vp.nextCallEnded();
  const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, unknown>;
  return String(record.callTranscript).split('\n');
}

/** The greeting played to its end without a `clear`, and history keeps it whole and nothing else. */
async function expectGreetingUncut(caller: SimulatedCaller): Promise<void> {
  await waitUntil(() => caller.echoed.find((e) => !e.flushed));
  await caller.whenIdle();
  expect(clears(caller)).toBe(0);
  expect(heardBytes(caller)).toBe(toneBytes(SHORT_GREETING));
  expect(await transcript(caller)).toEqual([`agent: ${SHORT_GREETING}`]);
}

describe('a caller on a noisy line', () => {
  it('noise alone never cuts the agent', async () => {
    heard = [];
    const caller = await vp.call(await vp.agent({ first_message: SHORT_GREETING }), { noiseLevel: NOISE });
    await expectGreetingUncut(caller);
  }, 60_000);

  it('an "uh-huh" over the noise neither cuts the agent nor is answered', async () => {
    heard = ['Uh-huh.'];
    const caller = await vp.call(await vp.agent({ first_message: SHORT_GREETING }), { noiseLevel: NOISE });
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(400);
    await caller.play(await speech('uh-huh'));
    await expectGreetingUncut(caller);
  }, 60_000);

  it('real speech over the noise still interrupts', async () => {
    heard = ['Stop, please. I need to talk to a person.'];
    const caller = await vp.call(await vp.agent({ first_message: GREETING }), { noiseLevel: NOISE });
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(1_500);
    const talkAt = caller.received.length;
    await caller.play(await speech('Stop, please. I need to talk to a person.'));
    await caller.waitForNext((m) => m.event === 'clear', 20_000, talkAt);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    const lines = await transcript(caller);
    expect(lines).toHaveLength(3);
    const cut = lines[0]!.replace(/^agent: /, '');
    expect(cut.endsWith(INTERRUPTED_MARKER)).toBe(true);
    expect(GREETING.startsWith(cut.slice(0, -INTERRUPTED_MARKER.length))).toBe(true);
    expect(lines.slice(1)).toEqual(['user: Stop, please. I need to talk to a person.', 'agent: Of course.']);
  }, 60_000);
});
