/**
 * G.711 mu-law for the vendor stand-ins: a decode table and an encoder, enough to hear (decode) the caller
 * audio an STT stand-in receives and to make (encode) the audio a TTS stand-in or a test sends. The
 * production codec lives in `streaming-service/src/codec/`; stand-ins keep their own copy so that `lib/`
 * does not import from the container's source tree.
 */

const BIAS = 0x84;
const CLIP = 32_635;

function decodeSample(byte: number): number {
  const u = ~byte & 0xff;
  const sign = u & 0x80;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + BIAS) << exponent) - BIAS;
  return sign ? -magnitude : magnitude;
}

/** Linear 16-bit value of each of the 256 mu-law bytes. */
export const MULAW_DECODE: Int16Array = Int16Array.from({ length: 256 }, (_, b) => decodeSample(b));

/** The mu-law byte for digital silence (linear 0). */
export const MULAW_SILENCE = 0xff;

/** Decodes mu-law bytes to 16-bit linear samples. */
export function decodeMulaw(mulaw: Uint8Array): Int16Array {
  const out = new Int16Array(mulaw.length);
  for (let i = 0; i < mulaw.length; i += 1) out[i] = MULAW_DECODE[mulaw[i]!]!;
  return out;
}

/** Encodes one 16-bit linear sample as a mu-law byte (the classic segment search, clipped at ±32635). */
export function encodeMulawSample(sample: number): number {
  let s = Math.max(-32_768, Math.min(32_767, Math.round(sample)));
  const sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent -= 1;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** Encodes 16-bit linear samples as mu-law bytes. */
export function encodeMulaw(pcm: Int16Array | readonly number[]): Uint8Array {
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i += 1) out[i] = encodeMulawSample(pcm[i]!);
  return out;
}
