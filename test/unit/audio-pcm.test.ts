// Invariant: the byte-level audio helpers every adapter shares keep a stream's samples intact however the
// bytes are chunked: linear16 decodes and encodes little-endian from any offset, an odd byte is carried to
// the next chunk (never dropped or misread), and the streaming resampler's output does not depend on where
// the chunks were cut (no flat spot or lost fraction of a sample at chunk edges).
import { describe, expect, it } from 'vitest';
import { MULAW_SILENCE, resample } from '../../lib/vendors/shared/mulaw.js';
import { PHONE_AUDIO, WIDEBAND_AUDIO } from '../../lib/vendors/shared/audio-format.js';
import { PcmConverter, StreamingResampler, WholeSamples, decodeToPcm, formatOf, linear16ToPcm, pcmToLinear16 } from '../../lib/vendors/shared/pcm.js';

/** A 440 Hz tone at `rate`, `ms` long. */
const tone = (rate: number, ms: number): Int16Array =>
  Int16Array.from({ length: (rate * ms) / 1_000 }, (_, i) => Math.round(10_000 * Math.sin((2 * Math.PI * 440 * i) / rate)));

/** Cuts `whole` at pseudo-random points (deterministic), 1 to `max` items each. */
function cut<T extends Int16Array | Uint8Array>(whole: T, max: number): T[] {
  const parts: T[] = [];
  let seed = 7;
  for (let at = 0; at < whole.length; ) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    const size = 1 + (seed % max);
    parts.push(whole.subarray(at, at + size) as T);
    at += size;
  }
  return parts;
}

const join = (parts: readonly Int16Array[]): Int16Array => {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe('linear16 bytes', () => {
  it('round-trips samples, little-endian, from any byte offset', () => {
    const pcm = Int16Array.from([0, 1, -1, 32_767, -32_768, 258]);
    const bytes = pcmToLinear16(pcm);
    expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 0xff, 0xff]);
    expect([...bytes.subarray(10)]).toEqual([0x02, 0x01]);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(linear16ToPcm(shifted.subarray(1))).toEqual(pcm);
    expect(decodeToPcm(bytes, WIDEBAND_AUDIO)).toEqual(pcm);
    expect(decodeToPcm(new Uint8Array([MULAW_SILENCE]), PHONE_AUDIO)).toEqual(Int16Array.from([0]));
  });

  it('defaults an unset format to the phone', () => {
    expect(formatOf({})).toBe(PHONE_AUDIO);
    expect(formatOf({ format: WIDEBAND_AUDIO })).toBe(WIDEBAND_AUDIO);
  });
});

describe('WholeSamples', () => {
  it('carries a linear16 odd byte into the next chunk, so the joined samples are the original ones', () => {
    const pcm = tone(16_000, 50);
    const bytes = pcmToLinear16(pcm);
    const framer = new WholeSamples(WIDEBAND_AUDIO);
    const out: Int16Array[] = [];
    for (const part of cut(bytes, 7)) {
      const whole = framer.take(part);
      expect(whole.length % 2).toBe(0);
      out.push(linear16ToPcm(whole));
    }
    expect(framer.pending).toBe(0);
    expect(join(out)).toEqual(pcm);
  });

  it('holds a lone trailing byte until its sample is complete', () => {
    const framer = new WholeSamples(WIDEBAND_AUDIO);
    expect(framer.take(new Uint8Array([0x34]))).toHaveLength(0);
    expect(framer.pending).toBe(1);
    expect([...framer.take(new Uint8Array([0x12, 0x78]))]).toEqual([0x34, 0x12]);
    expect(framer.pending).toBe(1);
  });

  it('passes mu-law (one byte a sample) through untouched', () => {
    const framer = new WholeSamples(PHONE_AUDIO);
    const bytes = new Uint8Array([1, 2, 3]);
    expect(framer.take(bytes)).toBe(bytes);
    expect(framer.pending).toBe(0);
  });
});

describe('StreamingResampler', () => {
  it('16 kHz -> 24 kHz in chunks gives what one pass over the whole stream gives, whatever the chunking', () => {
    const input = tone(16_000, 200);
    const oneShot = resample(input, 16_000, 24_000);
    for (const max of [1, 2, 3, 160, 321]) {
      const resampler = new StreamingResampler(16_000, 24_000);
      const out = join(cut(input, max).map((part) => resampler.push(part)));
      // All but the held-back look-ahead (at most 2 input samples, 3 output samples) has come out.
      expect(out.length).toBeGreaterThanOrEqual(oneShot.length - 3);
      expect(out.length % 3).toBe(0);
      for (let i = 0; i < out.length; i += 1) expect(Math.abs(out[i]! - oneShot[i]!)).toBeLessThanOrEqual(1);
    }
  });

  it('keeps the clock: 20 ms packets at 16 kHz come out as 20 ms at 24 kHz, with no drift', () => {
    const resampler = new StreamingResampler(16_000, 24_000);
    let produced = 0;
    for (let packet = 0; packet < 500; packet += 1) produced += resampler.push(tone(16_000, 20)).length;
    // 10 s in, 10 s out, less the look-ahead still held.
    expect(24_000 * 10 - produced).toBeGreaterThanOrEqual(0);
    expect(24_000 * 10 - produced).toBeLessThanOrEqual(3);
  });

  it('is the identity when the rates match', () => {
    const pcm = tone(24_000, 10);
    expect(new StreamingResampler(24_000, 24_000).push(pcm)).toBe(pcm);
  });
});

describe('PcmConverter', () => {
  it('turns linear16 16 kHz bytes into linear16 24 kHz bytes, odd byte splits included', () => {
    const input = pcmToLinear16(tone(16_000, 100));
    const converter = new PcmConverter(WIDEBAND_AUDIO, 24_000);
    const out = cut(input, 999).map((part) => converter.push(part));
    const bytes = out.reduce((n, p) => n + p.length, 0);
    expect(out.every((p) => p.length % 2 === 0)).toBe(true);
    expect(bytes).toBeGreaterThanOrEqual(2 * (2_400 - 3));
    expect(bytes).toBeLessThanOrEqual(2 * 2_400);
  });

  it('decodes mu-law 8 kHz and upsamples it to 24 kHz', () => {
    const converter = new PcmConverter(PHONE_AUDIO, 24_000);
    const out = converter.push(new Uint8Array(160).fill(MULAW_SILENCE));
    expect(out.length).toBeGreaterThanOrEqual(2 * (480 - 3));
    expect(linear16ToPcm(out).every((s) => s === 0)).toBe(true);
  });
});
