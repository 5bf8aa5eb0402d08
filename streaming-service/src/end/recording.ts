import { MULAW_TO_LINEAR } from '../codec/mulaw.js';

/**
 * Both sides of a call on one timeline, for the recording: the caller on the left channel, the agent on the
 * right, as 16-bit PCM at 8 kHz in a WAV file. Caller audio is placed at Twilio's media timestamps (ms since
 * the stream started); agent audio at the time we expect Twilio to play it (our pacing model), and a
 * `clear` cuts the agent track at that moment, so flushed audio is not in the recording.
 */
const RATE = 8_000;
const SAMPLES_PER_MS = RATE / 1_000;

interface Piece {
  readonly at: number;
  readonly mulaw: Uint8Array;
}

export class CallRecorder {
  private readonly caller: Piece[] = [];
  private agent: Piece[] = [];
  private callerBytes = 0;
  private readonly maxSamples: number;

  /** `maxSeconds` bounds memory: a call longer than that is recorded up to it. */
  constructor(maxSeconds: number) {
    this.maxSamples = maxSeconds * RATE;
  }

  /** Caller audio at `timestampMs` (Twilio's media timestamp). */
  addCaller(mulaw: Uint8Array, timestampMs: number): void {
    if (this.callerBytes > this.maxSamples) return;
    this.callerBytes += mulaw.length;
    this.caller.push({ at: Math.round(timestampMs * SAMPLES_PER_MS), mulaw });
  }

  /** Agent audio expected to start playing at `callMs` (ms since the stream started). */
  addAgent(mulaw: Uint8Array, callMs: number): void {
    const at = Math.round(callMs * SAMPLES_PER_MS);
    if (at > this.maxSamples) return;
    this.agent.push({ at, mulaw });
  }

  /** Twilio dropped its buffer at `callMs`: agent audio after that point never played. */
  cutAgent(callMs: number): void {
    const cut = Math.round(callMs * SAMPLES_PER_MS);
    this.agent = this.agent
      .filter((p) => p.at < cut)
      .map((p) => (p.at + p.mulaw.length > cut ? { at: p.at, mulaw: p.mulaw.subarray(0, cut - p.at) } : p));
  }

  get isEmpty(): boolean {
    return this.caller.length === 0 && this.agent.length === 0;
  }

  /** The stereo WAV (RIFF, PCM 16-bit, 8 kHz, 2 channels). */
  toWav(): Buffer {
    const end = (pieces: Piece[]) => pieces.reduce((m, p) => Math.max(m, p.at + p.mulaw.length), 0);
    const frames = Math.min(this.maxSamples, Math.max(end(this.caller), end(this.agent)));
    const data = Buffer.alloc(frames * 4);
    const place = (pieces: Piece[], channel: 0 | 1) => {
      for (const p of pieces) {
        for (let i = 0; i < p.mulaw.length; i += 1) {
          const frame = p.at + i;
          if (frame >= frames) break;
          data.writeInt16LE(MULAW_TO_LINEAR[p.mulaw[i]!]!, frame * 4 + channel * 2);
        }
      }
    };
    place(this.caller, 0);
    place(this.agent, 1);
    return Buffer.concat([wavHeader(data.length, 2), data]);
  }
}

/** A 44-byte canonical WAV header for 16-bit PCM at 8 kHz. */
export function wavHeader(dataBytes: number, channels: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(RATE, 24);
  h.writeUInt32LE(RATE * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}
