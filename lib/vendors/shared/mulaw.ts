/**
 * G.711 mu-law <-> 16-bit linear PCM, table-driven: Twilio Media Streams carry mu-law 8 kHz both ways, and
 * every byte of every call passes through here, so decoding is one table lookup per sample.
 */

const BIAS = 0x84;
const CLIP = 32_635;

function encodeSample(sample: number): number {
  let s = Math.max(-CLIP, Math.min(CLIP, sample | 0));
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent -= 1;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

function decodeSample(byte: number): number {
  const u = ~byte & 0xff;
  const sign = u & 0x80;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + BIAS) << exponent) - BIAS;
  return sign ? -magnitude : magnitude;
}

/** mu-law byte -> linear sample. */
export const MULAW_TO_LINEAR: Int16Array = Int16Array.from({ length: 256 }, (_, b) => decodeSample(b));

/** (linear sample + 32768) -> mu-law byte, for the 65,536 possible 16-bit samples. */
export const LINEAR_TO_MULAW: Uint8Array = Uint8Array.from({ length: 65_536 }, (_, i) => encodeSample(i - 32_768));

/** Decodes mu-law bytes into 16-bit PCM samples. */
export function mulawToPcm(mulaw: Uint8Array): Int16Array {
  const out = new Int16Array(mulaw.length);
  for (let i = 0; i < mulaw.length; i += 1) out[i] = MULAW_TO_LINEAR[mulaw[i]!]!;
  return out;
}

/** Encodes 16-bit PCM samples as mu-law bytes. */
export function pcmToMulaw(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i += 1) out[i] = LINEAR_TO_MULAW[pcm[i]! + 32_768]!;
  return out;
}

/**
 * Resamples 16-bit PCM by an integer-ratio-free linear interpolation. Downsampling first averages each
 * output sample's window, a cheap low-pass that keeps speech intelligible (e.g. 24 kHz vendor PCM -> 8 kHz).
 */
export function resample(pcm: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate) return pcm;
  const outLength = Math.floor((pcm.length * toRate) / fromRate);
  const out = new Int16Array(outLength);
  const step = fromRate / toRate;
  for (let i = 0; i < outLength; i += 1) {
    const pos = i * step;
    if (step > 1) {
      const start = Math.floor(pos);
      const end = Math.min(pcm.length, Math.floor(pos + step));
      let sum = 0;
      for (let j = start; j < end; j += 1) sum += pcm[j]!;
      out[i] = Math.round(sum / Math.max(1, end - start));
    } else {
      const left = Math.floor(pos);
      const frac = pos - left;
      const a = pcm[left] ?? 0;
      const b = pcm[left + 1] ?? a;
      out[i] = Math.round(a + (b - a) * frac);
    }
  }
  return out;
}

/** One mu-law byte of silence (linear 0). */
export const MULAW_SILENCE = 0xff;
