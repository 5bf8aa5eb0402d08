/**
 * Invariant: the TTS stand-ins' audio is valid, audible mu-law 8 kHz whose length follows the text (a tone
 * of 70 ms per character, or espeak-ng speech that grows with the text), and their player sends it after
 * the scripted first-byte delay, in chunks of the scripted size, stopping at once on a clear.
 */
import { describe, expect, it, vi } from 'vitest';
import { mulawToPcm } from '../../lib/vendors/shared/mulaw.js';
import { WIDEBAND_AUDIO } from '../../lib/vendors/shared/audio-format.js';
import { linear16ToPcm } from '../../lib/vendors/shared/pcm.js';
import {
  BYTES_PER_MS,
  SegmentPlayer,
  chunkBytesOf,
  TONE_MS_PER_CHAR,
  pendingBytes,
  synthesize,
  synthesizeTone,
  toneBytes,
  type TtsScript,
} from '../../lib/local/standins/tts-audio.js';
import { WAIT_MS } from '../support/progress.js';

const rms = (mulaw: Uint8Array): number => {
  const pcm = mulawToPcm(mulaw);
  let sum = 0;
  for (const s of pcm) sum += s * s;
  return Math.sqrt(sum / Math.max(1, pcm.length));
};

describe('tone audio', () => {
  it('lasts 70 ms per character of the trimmed text', () => {
    expect(toneBytes('a')).toBe(TONE_MS_PER_CHAR * BYTES_PER_MS);
    expect(toneBytes('Hello there.')).toBe(12 * 70 * 8);
    expect(toneBytes('  Hello there. ')).toBe(toneBytes('Hello there.'));
    expect(toneBytes(' ')).toBe(0);
    expect(synthesizeTone('Hello there.').length).toBe(toneBytes('Hello there.'));
    expect(synthesizeTone('ab'.repeat(20)).length).toBe(2 * synthesizeTone('ab'.repeat(10)).length);
  });

  it('is audible mu-law that fades in and out', () => {
    const tone = synthesizeTone('A sentence of some length.');
    const pcm = mulawToPcm(tone);
    const peak = Math.max(...pcm.map(Math.abs));
    // Amplitude 8000 on the 16-bit scale, within mu-law quantization.
    expect(peak).toBeGreaterThan(7_000);
    expect(peak).toBeLessThan(9_000);
    expect(rms(tone)).toBeGreaterThan(4_000);
    expect(Math.abs(pcm[0]!)).toBeLessThan(100);
    expect(Math.abs(pcm.at(-1)!)).toBeLessThan(300);
  });

  it('differs between texts, so two utterances can be told apart byte for byte', () => {
    expect(synthesizeTone('First answer.')).not.toEqual(synthesizeTone('Other answer.'));
    expect(synthesizeTone('Same.')).toEqual(synthesizeTone('Same.'));
  });
});

describe('wideband audio (linear16 16 kHz, what the browser asks for)', () => {
  const pcmRms = (pcm: Int16Array): number => Math.sqrt(pcm.reduce((sum, x) => sum + x * x, 0) / Math.max(1, pcm.length));

  it('is the same tone at 16 kHz: 32 bytes a millisecond, same pitch and level, little-endian samples', () => {
    const text = 'Hello there.';
    const wide = synthesizeTone(text, WIDEBAND_AUDIO);
    expect(wide.length).toBe(toneBytes(text, WIDEBAND_AUDIO));
    expect(wide.length).toBe(12 * 70 * 32);
    const pcm = linear16ToPcm(wide);
    expect(Math.max(...pcm.map(Math.abs))).toBeLessThanOrEqual(8_000);
    expect(pcmRms(pcm)).toBeGreaterThan(5_000);
    // Every other 16 kHz sample is the 8 kHz tone's sample (before mu-law quantization).
    const narrow = mulawToPcm(synthesizeTone(text));
    for (let i = 100; i < 200; i += 1) expect(Math.abs(pcm[2 * i]! - narrow[i]!)).toBeLessThan(300);
  });

  it('chunks whole samples, or one byte more when the script splits samples', () => {
    expect(chunkBytesOf({ chunkMs: 40 }, WIDEBAND_AUDIO)).toBe(1_280);
    expect(chunkBytesOf({ chunkMs: 40, splitSamples: true }, WIDEBAND_AUDIO)).toBe(1_281);
    expect(chunkBytesOf({ chunkMs: 40, splitSamples: true }, { encoding: 'mulaw', sampleRate: 8_000 })).toBe(320);
  });

  it('speaks espeak-ng speech as linear16 16 kHz', async () => {
    const speech = await synthesize('Hello. This is the stand-in speaking.', { speech: true }, WIDEBAND_AUDIO);
    const narrow = await synthesize('Hello. This is the stand-in speaking.', { speech: true });
    expect(speech.length % 2).toBe(0);
    // Twice the samples of the 8 kHz rendering, two bytes each (sox may round the length by a sample or two).
    expect(Math.abs(speech.length - 4 * narrow.length)).toBeLessThanOrEqual(16);
    expect(pcmRms(linear16ToPcm(speech))).toBeGreaterThan(300);
  });
});

describe('speech audio (espeak-ng + sox)', () => {
  it('is audible 8 kHz mu-law that grows with the text', async () => {
    const short = await synthesize('Hello.', { speech: true });
    const long = await synthesize('Hello. This is a much longer sentence spoken by the stand-in.', { speech: true });
    // "Hello." takes a few hundred milliseconds at espeak's default rate; not a tone's 420 ms exactly.
    expect(short.length).toBeGreaterThan(0.2 * 8_000);
    expect(short.length).toBeLessThan(2 * 8_000);
    expect(long.length).toBeGreaterThan(2 * short.length);
    expect(rms(long)).toBeGreaterThan(300);
    expect(short).not.toEqual(synthesizeTone('Hello.'));
  });
});

describe('SegmentPlayer', () => {
  const script: TtsScript = { firstByteDelayMs: 60, chunkMs: 20, realtimeFactor: 10, speech: false };

  it('waits the first-byte delay, sends chunks of the scripted size, then fires events queued behind', async () => {
    const chunks: { at: number; length: number }[] = [];
    const events: string[] = [];
    const player = new SegmentPlayer(
      () => script,
      (chunk) => chunks.push({ at: performance.now(), length: chunk.length }),
    );
    const start = performance.now();
    player.speak('Hi there.');
    player.then(() => events.push(`done after ${chunks.length} chunks`));
    await player.whenIdle();
    expect(chunks[0]!.at - start).toBeGreaterThanOrEqual(script.firstByteDelayMs - 2);
    expect(chunks.slice(0, -1).every((c) => c.length === script.chunkMs * BYTES_PER_MS)).toBe(true);
    expect(chunks.reduce((n, c) => n + c.length, 0)).toBe(toneBytes('Hi there.'));
    // 630 ms of audio at 10x: about 63 ms of sending after the first chunk.
    expect(chunks.at(-1)!.at - chunks[0]!.at).toBeGreaterThanOrEqual(50);
    expect(events).toEqual([`done after ${chunks.length} chunks`]);
    expect(player.segments[0]).toMatchObject({ text: 'Hi there.', sentBytes: toneBytes('Hi there.'), aborted: false });
  });

  it('clear stops the playing segment and drops queued audio and events', async () => {
    let sent = 0;
    const events: string[] = [];
    const player = new SegmentPlayer(
      () => script,
      (chunk) => (sent += chunk.length),
    );
    player.speak('A fairly long sentence to be cut off.');
    player.speak('Never spoken.');
    player.then(() => events.push('fired'));
    // Cleared once the first audio is out, however late that is on a busy machine.
    await vi.waitFor(() => expect(sent).toBeGreaterThan(0), { timeout: WAIT_MS, interval: 1 });
    expect(pendingBytes(player.segments)).toBeGreaterThan(0);
    player.clear();
    const atClear = sent;
    await player.whenIdle();
    await new Promise((r) => setTimeout(r, 50));
    expect(sent).toBe(atClear);
    expect(events).toEqual([]);
    expect(player.segments.map((s) => s.aborted)).toEqual([true, true]);
    expect(pendingBytes(player.segments)).toBe(0);
  });
});
