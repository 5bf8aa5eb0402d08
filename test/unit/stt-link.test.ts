/**
 * Invariant: the STT link hands the vendor the caller's audio whole and in order, in chunks of at least
 * `sendChunkMs` (three Twilio frames by default), and sends what is left of a chunk before closing the stream.
 */
import { describe, expect, it } from 'vitest';
import { SttLink } from '../../streaming-service/src/session/stt-link.js';
import { FakeStt } from '../fakes/voice-ports.js';

const frame = (n: number) => new Uint8Array(160).fill(n);
const OPTIONS = { language: 'en-US', endpointingMs: 300, utteranceEndMs: 1_000 };

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
    const link = new SttLink([stt], OPTIONS, () => undefined, () => undefined, {}, { sendChunkMs: 0 });
    void link.run();
    for (let i = 0; i < 3; i += 1) link.sendAudio(frame(i));
    await expect.poll(() => stt.audio.length).toBe(3);
    await link.close();
    expect(stt.audio.map((a) => a.length)).toEqual([160, 160, 160]);
  });
});
