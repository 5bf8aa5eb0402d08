/**
 * Invariant: the STT link asks a transcriber that refused the connection for good (a non-retryable
 * VendorError: a key it did not issue, a model it does not have) once, then moves to the next transcriber
 * at once with the caller's buffered audio; a refusal that may pass (retryable) is retried on the same
 * transcriber first; with no transcriber left the call is told (onFatal) after that single attempt.
 * And it hands the vendor the caller's audio whole and in order, in chunks of at least `sendChunkMs` (three
 * Twilio frames by default), sending what is left of a chunk before closing the stream.
 */
import { describe, expect, it } from 'vitest';
import { loggerWith } from '../../lib/observability/log.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import type { SttEvent, SttProvider, SttStream } from '../../lib/vendors/stt/port.js';
import { SttLink } from '../../streaming-service/src/session/stt-link.js';
import { FakeStt } from '../fakes/voice-ports.js';
import { WAIT_MS } from '../support/progress.js';

const OPTIONS = { language: 'en-US', endpointingMs: 300, utteranceEndMs: 1_000 };

/** A transcriber that answers each connect with the next of `answers` (an error, or an open stream). */
function transcriber(id: SttProvider['id'], answers: (VendorError | 'open')[]) {
  const sent: number[] = [];
  let connects = 0;
  const provider: SttProvider = {
    id,
    async connect() {
      const answer = answers[Math.min(connects, answers.length - 1)]!;
      connects += 1;
      if (answer !== 'open') throw answer;
      let end!: () => void;
      const ended = new Promise<void>((r) => (end = r));
      const stream: SttStream = {
        sendAudio: (audio) => sent.push(audio.length),
        finalize: () => undefined,
        close: async () => end(),
        events: (async function* (): AsyncGenerator<SttEvent> {
          await ended;
        })(),
      };
      return stream;
    },
  };
  return { provider, sent, connects: () => connects };
}

const until = async (probe: () => boolean) => {
  for (let i = 0; i < 500 && !probe(); i += 1) await new Promise((r) => setTimeout(r, 2));
  expect(probe()).toBe(true);
};

describe('SttLink', () => {
  it('moves on from a refusal for good after one attempt, replaying the buffered audio', async () => {
    const refusing = transcriber('assemblyai', [new VendorError('assemblyai', 'Not Authorized', false, 4001)]);
    const fallback = transcriber('deepgram', ['open']);
    const fatal: unknown[] = [];
    const link = new SttLink([refusing.provider, fallback.provider], OPTIONS, () => undefined, (e) => fatal.push(e), loggerWith({}), { backoffMs: [0, 50, 50, 50, 50], sendChunkMs: 0 });
    link.sendAudio(new Uint8Array(160));
    void link.run();
    await until(() => fallback.connects() === 1 && fallback.sent.length === 1);
    expect(refusing.connects()).toBe(1);
    expect(fatal).toEqual([]);
    await link.close();
  });

  it('retries a refusal that may pass on the same transcriber first', async () => {
    const flaky = transcriber('deepgram', [new VendorError('deepgram', 'busy', true, 503), 'open']);
    const fallback = transcriber('assemblyai', ['open']);
    const link = new SttLink([flaky.provider, fallback.provider], OPTIONS, () => undefined, () => undefined, loggerWith({}), { backoffMs: [0, 5, 5, 5, 5], sendChunkMs: 0 });
    void link.run();
    await until(() => flaky.connects() === 2);
    expect(fallback.connects()).toBe(0);
    await link.close();
  });

  it('with no transcriber left, tells the call after the single attempt', async () => {
    const refusing = transcriber('speechmatics', [new VendorError('speechmatics', 'temporary key refused (403)', false, 403)]);
    const fatal: unknown[] = [];
    const link = new SttLink([refusing.provider], OPTIONS, () => undefined, (e) => fatal.push(e), loggerWith({}), { backoffMs: [0, 50, 50, 50, 50], sendChunkMs: 0 });
    await link.run();
    expect(refusing.connects()).toBe(1);
    expect(fatal).toHaveLength(1);
  });
});

const frame = (n: number) => new Uint8Array(160).fill(n);

describe('stt link chunking', () => {
  it('sends 60 ms chunks of the frames, in order, and the rest before it closes', async () => {
    const stt = new FakeStt();
    const link = new SttLink([stt], OPTIONS, () => undefined, () => undefined);
    void link.run();
    // Sent before the stream opens: the two whole chunks wait in the replay buffer and go out once it does.
    for (let i = 0; i < 7; i += 1) link.sendAudio(frame(i));
    await expect.poll(() => stt.audio.length).toBe(2);
    await link.close();
    const sent = Buffer.concat(stt.audio);
    expect(stt.audio.map((a) => a.length)).toEqual([480, 480, 160]);
    expect([...sent]).toEqual(Array.from({ length: 7 }, (_, i) => new Array(160).fill(i)).flat());
    expect(stt.closed).toBe(true);
  });

  it('sends every frame at once with sendChunkMs 0', async () => {
    const stt = new FakeStt();
    const link = new SttLink([stt], OPTIONS, () => undefined, () => undefined, loggerWith({}), { sendChunkMs: 0 });
    void link.run();
    for (let i = 0; i < 3; i += 1) link.sendAudio(frame(i));
    await expect.poll(() => stt.audio.length).toBe(3);
    await link.close();
    expect(stt.audio.map((a) => a.length)).toEqual([160, 160, 160]);
  });
});

describe('stt link pacing', () => {
  const LOUD = 0x00; // mu-law 0x00: full scale
  const QUIET = 0xff; // mu-law 0xFF: digital silence
  const chunkOf = (byte: number) => new Uint8Array(480).fill(byte); // 60 ms

  it('feeds a backlog no faster than real time, skipping its silent chunks and none of its speech', async () => {
    const stt = new FakeStt();
    const link = new SttLink([stt], OPTIONS, () => undefined, () => undefined);
    // Waiting before the stream opens: 600 ms of speech, 1.2 s of silence, 600 ms of speech.
    const backlog = [...Array(10).fill(LOUD), ...Array(20).fill(QUIET), ...Array(10).fill(LOUD)] as number[];
    for (const byte of backlog) link.sendAudio(chunkOf(byte));
    void link.run();
    // The first chunk goes at once, the rest only as they come due.
    await expect.poll(() => stt.audio.filter((a) => a[0] === LOUD).length, { timeout: WAIT_MS }).toBe(20);
    // All twenty speech chunks arrived, in order; the silence between them was (mostly) skipped.
    expect(link.skippedMs).toBeGreaterThan(0);
    expect(link.skippedMs + stt.audio.filter((a) => a[0] === QUIET).length * 60).toBe(1_200);
    await link.close();
  });
});
