/**
 * The audio a call moves, named once. A transport (Twilio Media Streams, the browser's WebSocket) has one
 * format; the session asks its STT and TTS vendors for exactly that format, so audio is never transcoded on
 * the hot path unless a vendor cannot take or give it (then its adapter converts, at its edge).
 */
export type AudioEncoding = 'mulaw' | 'linear16';

export interface AudioFormat {
  /** `mulaw`: G.711 mu-law, one byte per sample. `linear16`: signed 16-bit little-endian PCM. */
  readonly encoding: AudioEncoding;
  /** Samples per second, mono. */
  readonly sampleRate: number;
}

/** What a phone line carries (Twilio Media Streams): mu-law, 8 kHz, mono. */
export const PHONE_AUDIO: AudioFormat = Object.freeze({ encoding: 'mulaw', sampleRate: 8_000 });

/** Wideband, what the browser transport carries: PCM16, 16 kHz, mono. */
export const WIDEBAND_AUDIO: AudioFormat = Object.freeze({ encoding: 'linear16', sampleRate: 16_000 });

/** Bytes per sample of an encoding. */
export const bytesPerSample = (encoding: AudioEncoding): number => (encoding === 'mulaw' ? 1 : 2);

/** Bytes per millisecond of audio in a format (8 for the phone, 32 for wideband). */
export const bytesPerMs = (format: AudioFormat): number => (format.sampleRate / 1000) * bytesPerSample(format.encoding);

export const sameFormat = (a: AudioFormat, b: AudioFormat): boolean => a.encoding === b.encoding && a.sampleRate === b.sampleRate;
