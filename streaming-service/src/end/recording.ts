import type { AudioFormat } from '../../../lib/vendors/shared/audio-format.js';
import { decodeToPcm } from '../../../lib/vendors/shared/pcm.js';

/**
 * Both sides of a call on one timeline, for the recording: the caller on the left channel, the agent on the
 * right, as 16-bit PCM at the transport's rate (8 kHz for the phone, 16 kHz for the browser) in a WAV
 * file. Caller audio is placed at the transport's media timestamps (ms since the stream started); agent
 * audio at the time we expect the far end to play it (our pacing model), and a `clear` cuts the agent track
 * at that moment, so flushed audio is not in the recording.
 */
interface Piece {
  readonly at: number;
  readonly pcm: Int16Array;
}

export class CallRecorder {
  private readonly caller: Piece[] = [];
  private agent: Piece[] = [];
  private callerSamples = 0;
  private readonly maxSamples: number;
  private readonly samplesPerMs: number;

  /** `maxSeconds` bounds memory: a call longer than that is recorded up to it. */
  constructor(
    maxSeconds: number,
    private readonly format: AudioFormat,
  ) {
    this.maxSamples = maxSeconds * format.sampleRate;
    this.samplesPerMs = format.sampleRate / 1_000;
  }

  /** Caller audio (already decoded to samples) at `timestampMs` (the transport's media timestamp). */
  addCaller(pcm: Int16Array, timestampMs: number): void {
    if (this.callerSamples > this.maxSamples) return;
    this.callerSamples += pcm.length;
    this.caller.push({ at: Math.round(timestampMs * this.samplesPerMs), pcm });
  }

  /** Agent audio expected to start playing at `callMs` (ms since the stream started). */
  addAgent(audio: Uint8Array, callMs: number): void {
    const at = Math.round(callMs * this.samplesPerMs);
    if (at > this.maxSamples) return;
    this.agent.push({ at, pcm: decodeToPcm(audio, this.format) });
  }

  /** The far end dropped its buffer at `callMs`: agent audio after that point never played. */
  cutAgent(callMs: number): void {
    const cut = Math.round(callMs * this.samplesPerMs);
    this.agent = this.agent
      .filter((p) => p.at < cut)
      .map((p) => (p.at + p.pcm.length > cut ? { at: p.at, pcm: p.pcm.subarray(0, cut - p.at) } : p));
  }

  get isEmpty(): boolean {
    return this.caller.length === 0 && this.agent.length === 0;
  }

  /** The stereo WAV (RIFF, PCM 16-bit, the transport's rate, 2 channels). */
  toWav(): Buffer {
    const end = (pieces: Piece[]) => pieces.reduce((m, p) => Math.max(m, p.at + p.pcm.length), 0);
    const frames = Math.min(this.maxSamples, Math.max(end(this.caller), end(this.agent)));
    const data = Buffer.alloc(frames * 4);
    const place = (pieces: Piece[], channel: 0 | 1) => {
      for (const p of pieces) {
        for (let i = 0; i < p.pcm.length; i += 1) {
          const frame = p.at + i;
          if (frame >= frames) break;
          data.writeInt16LE(p.pcm[i]!, frame * 4 + channel * 2);
        }
      }
    };
    place(this.caller, 0);
    place(this.agent, 1);
    return Buffer.concat([wavHeader(data.length, 2, this.format.sampleRate), data]);
  }
}

/** A 44-byte canonical WAV header for 16-bit PCM. */
export function wavHeader(dataBytes: number, channels: number, sampleRate: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}
