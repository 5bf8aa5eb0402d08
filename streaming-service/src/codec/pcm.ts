import type { AudioFormat } from '../../../lib/vendors/shared/audio-format.js';
import { mulawToPcm } from './mulaw.js';

/**
 * Raw audio bytes in a transport's format -> 16-bit samples. linear16 is little-endian; a trailing odd byte
 * (never sent by a well-behaved client) is ignored. Copies, so the result is aligned whatever the input's
 * offset in its buffer.
 */
export function toPcm16(audio: Uint8Array, format: AudioFormat): Int16Array {
  if (format.encoding === 'mulaw') return mulawToPcm(audio);
  const out = new Int16Array(audio.length >> 1);
  const view = new DataView(audio.buffer, audio.byteOffset, audio.byteLength);
  for (let i = 0; i < out.length; i += 1) out[i] = view.getInt16(i * 2, true);
  return out;
}

/** 16-bit samples -> little-endian bytes (linear16 on the wire). */
export function pcm16ToBytes(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < pcm.length; i += 1) view.setInt16(i * 2, pcm[i]!, true);
  return out;
}

/** Root-mean-square level on the 16-bit scale; a cheap voice-activity signal. */
export function rms(pcm: Int16Array): number {
  if (pcm.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < pcm.length; i += 1) sum += pcm[i]! * pcm[i]!;
  return Math.sqrt(sum / pcm.length);
}
