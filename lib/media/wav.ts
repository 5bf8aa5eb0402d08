/**
 * Reads the WAV files a workspace may host as a custom ambience bed (docs/voice-pipeline.md, "Ambience"):
 * RIFF/WAVE, PCM (format 1, or WAVE_FORMAT_EXTENSIBLE carrying PCM), 16-bit, 1 or 2 channels, 8-48 kHz.
 * Stereo is mixed down to mono. Anything else is refused with a sentence saying what was found.
 */
export interface DecodedWav {
  readonly sampleRate: number;
  /** Mono samples. */
  readonly samples: Int16Array;
}

export class WavFormatError extends Error {}

export function decodeWav(bytes: Uint8Array): DecodedWav {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new WavFormatError('not a WAV file (no RIFF/WAVE header)');
  let at = 12;
  let fmt: { format: number; channels: number; rate: number; bits: number } | undefined;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ' && size >= 16 && body + 16 <= bytes.length) {
      let format = view.getUint16(body, true);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the sub-format GUID's first two bytes.
      if (format === 0xfffe && size >= 40 && body + 26 <= bytes.length) format = view.getUint16(body + 24, true);
      fmt = { format, channels: view.getUint16(body + 2, true), rate: view.getUint32(body + 4, true), bits: view.getUint16(body + 14, true) };
    } else if (id === 'data') {
      if (!fmt) throw new WavFormatError('the data chunk comes before the fmt chunk');
      if (fmt.format !== 1 || fmt.bits !== 16) throw new WavFormatError(`WAV format ${fmt.format} with ${fmt.bits}-bit samples: only 16-bit PCM is read`);
      if (fmt.channels < 1 || fmt.channels > 2) throw new WavFormatError(`${fmt.channels} channels: mono or stereo only`);
      if (fmt.rate < 8_000 || fmt.rate > 48_000) throw new WavFormatError(`${fmt.rate} Hz: 8000 to 48000 Hz only`);
      const end = Math.min(bytes.length, body + size);
      const frames = Math.floor((end - body) / (2 * fmt.channels));
      const samples = new Int16Array(frames);
      for (let i = 0; i < frames; i += 1) {
        const p = body + i * 2 * fmt.channels;
        samples[i] = fmt.channels === 1 ? view.getInt16(p, true) : (view.getInt16(p, true) + view.getInt16(p + 2, true)) >> 1;
      }
      return { sampleRate: fmt.rate, samples };
    }
    at = body + size + (size % 2);
  }
  throw new WavFormatError('no data chunk');
}
