import { mulawToPcm, resample } from './mulaw.js';
import { PHONE_AUDIO, bytesPerSample, type AudioFormat } from './audio-format.js';

/**
 * Byte-level helpers for the audio formats of {@link AudioFormat}, shared by the STT and TTS adapters (and
 * the stand-ins, which must decode what a client sends exactly as the vendor would): linear16 bytes to and
 * from samples, whole-sample framing of a byte stream, and a resampler that can be fed a stream in chunks.
 */

/** The format an adapter works in: the one asked for, else the phone's (mu-law 8 kHz), the historic default. */
export const formatOf = (options: { readonly format?: AudioFormat }): AudioFormat => options.format ?? PHONE_AUDIO;

/** True on every platform Node ships for; checked once so the copy below stays a plain typed-array copy. */
const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Signed 16-bit little-endian bytes (an even count) as samples; copies, so any byte offset works. */
export function linear16ToPcm(bytes: Uint8Array): Int16Array {
  const count = bytes.length >> 1;
  if (HOST_LITTLE_ENDIAN) return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + count * 2));
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  return Int16Array.from({ length: count }, (_, i) => view.getInt16(i * 2, true));
}

/** Samples as signed 16-bit little-endian bytes. */
export function pcmToLinear16(pcm: Int16Array): Uint8Array {
  if (HOST_LITTLE_ENDIAN) return new Uint8Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
  const out = new Uint8Array(pcm.length * 2);
  const view = new DataView(out.buffer);
  pcm.forEach((s, i) => view.setInt16(i * 2, s, true));
  return out;
}

/** The chunks, in order, as one new array of `bytes` bytes (their total when not given). */
export function concatBytes(chunks: readonly Uint8Array[], bytes = chunks.reduce((n, c) => n + c.length, 0)): Uint8Array {
  const out = new Uint8Array(bytes);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/** Audio bytes in `format` as 16-bit samples (mu-law decoded). */
export function decodeToPcm(bytes: Uint8Array, format: AudioFormat): Int16Array {
  return format.encoding === 'mulaw' ? mulawToPcm(bytes) : linear16ToPcm(bytes);
}

/**
 * Cuts a byte stream into whole samples. A vendor may split a linear16 stream anywhere (an odd-length
 * chunk); passing such a chunk on would shift every later sample by a byte, which plays as loud noise. The
 * odd byte is held and put in front of the next chunk. mu-law (one byte a sample) passes straight through.
 */
export class WholeSamples {
  private readonly sampleBytes: number;
  private held: Uint8Array = new Uint8Array(0);

  constructor(format: AudioFormat) {
    this.sampleBytes = bytesPerSample(format.encoding);
  }

  /** Bytes held back, waiting for the rest of their sample. */
  get pending(): number {
    return this.held.length;
  }

  /** The whole samples now available (possibly empty); the rest is kept for the next call. */
  take(bytes: Uint8Array): Uint8Array {
    if (this.sampleBytes === 1) return bytes;
    let all = bytes;
    if (this.held.length > 0) {
      all = new Uint8Array(this.held.length + bytes.length);
      all.set(this.held);
      all.set(bytes, this.held.length);
    }
    const whole = all.length - (all.length % this.sampleBytes);
    this.held = all.slice(whole);
    return whole === all.length ? all : all.subarray(0, whole);
  }
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * {@link resample} for a stream fed in chunks. Resampling each chunk on its own would be wrong at every
 * chunk edge: the last output samples of a chunk would interpolate towards a missing neighbour (held flat),
 * and a chunk whose length is not a multiple of the rate ratio would drop or add a fraction of a sample,
 * drifting the clock. So the stream is resampled in whole blocks of the ratio (16 kHz -> 24 kHz: 2 samples
 * in, 3 out), always starting on a block boundary, with one sample of look-ahead kept from the previous
 * chunk: the output is the same whatever the chunking, at the cost of holding back 1-2 input samples
 * (at most 0.125 ms at 16 kHz) until the next chunk arrives.
 */
export class StreamingResampler {
  private readonly blockIn: number;
  private readonly blockOut: number;
  private carry: Int16Array = new Int16Array(0);

  constructor(
    private readonly fromRate: number,
    private readonly toRate: number,
  ) {
    const g = gcd(fromRate, toRate);
    this.blockIn = fromRate / g;
    this.blockOut = toRate / g;
  }

  /** Resamples the next chunk of the stream; returns what can be produced so far. */
  push(pcm: Int16Array): Int16Array {
    if (this.fromRate === this.toRate) return pcm;
    const input = new Int16Array(this.carry.length + pcm.length);
    input.set(this.carry);
    input.set(pcm, this.carry.length);
    // Whole blocks that still leave one sample after them: the look-ahead the last output interpolates to.
    const blocks = Math.floor((input.length - 1) / this.blockIn);
    if (blocks <= 0) {
      this.carry = input;
      return new Int16Array(0);
    }
    const used = blocks * this.blockIn;
    const out = resample(input.subarray(0, used + 1), this.fromRate, this.toRate).subarray(0, blocks * this.blockOut);
    this.carry = input.slice(used);
    return out;
  }
}

/**
 * Turns caller audio in `from` into 16-bit samples at `toRate` for a vendor that takes only that (OpenAI's
 * `audio/pcm` is 24 kHz only), chunk by chunk: decode, then {@link StreamingResampler}. Whole samples are
 * expected (the port's contract); a stray odd byte is carried, not misread.
 */
export class PcmConverter {
  private readonly samples: WholeSamples;
  private readonly resampler: StreamingResampler;

  constructor(
    private readonly from: AudioFormat,
    toRate: number,
  ) {
    this.samples = new WholeSamples(from);
    this.resampler = new StreamingResampler(from.sampleRate, toRate);
  }

  /** The next chunk as little-endian 16-bit bytes at the target rate (possibly empty). */
  push(bytes: Uint8Array): Uint8Array {
    const pcm = decodeToPcm(this.samples.take(bytes), this.from);
    return pcmToLinear16(this.resampler.push(pcm));
  }
}

/** Root-mean-square level of 16-bit samples (of `from`..`to`); a cheap voice-activity signal. */
export function rms(samples: Int16Array, from = 0, to = samples.length): number {
  if (to <= from) return 0;
  let sum = 0;
  for (let i = from; i < to; i += 1) {
    const s = samples[i]!;
    sum += s * s;
  }
  return Math.sqrt(sum / (to - from));
}

/**
 * Cuts a stream of samples into fixed frames (voice-activity detectors work on 10-30 ms frames), carrying
 * a partial frame over to the next push so frames never depend on how the stream was chunked.
 */
export class FrameCutter {
  private readonly carry: Int16Array;
  private carried = 0;

  constructor(readonly frameSamples: number) {
    this.carry = new Int16Array(frameSamples);
  }

  /** Calls `each` with every frame completed by `samples`, in order (a frame is only valid during the call). */
  push(samples: Int16Array, each: (frame: Int16Array) => void): void {
    let offset = 0;
    if (this.carried > 0) {
      const take = Math.min(this.frameSamples - this.carried, samples.length);
      this.carry.set(samples.subarray(0, take), this.carried);
      this.carried += take;
      offset = take;
      if (this.carried < this.frameSamples) return;
      each(this.carry);
      this.carried = 0;
    }
    for (; offset + this.frameSamples <= samples.length; offset += this.frameSamples) each(samples.subarray(offset, offset + this.frameSamples));
    if (offset < samples.length) {
      this.carry.set(samples.subarray(offset), 0);
      this.carried = samples.length - offset;
    }
  }
}
