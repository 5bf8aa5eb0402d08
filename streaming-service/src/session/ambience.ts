import type { AmbienceSource } from '../../../lib/media/custom-bed.js';
import { describeError, type Logger } from '../../../lib/observability/log.js';
import type { AudioFormat } from '../../../lib/vendors/shared/audio-format.js';
import { MULAW_TO_LINEAR, pcmToMulaw } from '../../../lib/vendors/shared/mulaw.js';
import type { CallTimeline } from './timeline.js';

/**
 * The ambience bed as the caller hears it (docs/voice-pipeline.md, "Ambience"): a loop of samples at the
 * transport's rate, scaled by the agent's volume, mixed into the agent's outbound frames and sent alone in
 * the silences (audio-out.ts decides when). Only outbound: nothing here reaches the recognizer or the VAD,
 * which read the caller's audio, so our own bed can never interrupt the agent.
 *
 * The bed's position follows the far end's playhead, not the bytes sent: the sample for a frame that plays
 * at time t is the loop at t. After a `clear` drops what was buffered, the bed goes on from where the caller
 * is, without a jump; consecutive frames continue exactly (within a sample of rounding), so the loop plays
 * seamlessly.
 */
export class BedMixer {
  private readonly gain: number;
  private readonly samplesPerMs: number;
  /** The absolute sample index the next frame continues from, if it follows the last one. */
  private next = Number.NaN;

  constructor(
    private readonly loop: Int16Array,
    volume: number,
    private readonly format: AudioFormat,
    /** performance.now() at sample 0 of the call's timeline. */
    private readonly originMs: number,
  ) {
    // Q15 fixed point: one integer multiply and shift per sample.
    this.gain = Math.round(Math.max(0, Math.min(1, volume)) * 32_768);
    this.samplesPerMs = format.sampleRate / 1_000;
  }

  /** `count` bed samples for audio that starts playing at `playAtMs`. */
  private samples(playAtMs: number, count: number): Int16Array {
    const out = new Int16Array(count);
    const n = this.loop.length;
    if (n === 0 || this.gain === 0) return out;
    let at = Math.round((playAtMs - this.originMs) * this.samplesPerMs);
    // Frames sent back to back are a sample or so off by float rounding: continue exactly instead.
    if (Math.abs(at - this.next) <= 2) at = this.next;
    this.next = at + count;
    let i = ((at % n) + n) % n;
    for (let k = 0; k < count; k += 1) {
      out[k] = (this.loop[i]! * this.gain) >> 15;
      i += 1;
      if (i === n) i = 0;
    }
    return out;
  }

  /** The bed alone, `bytes` long in the transport's encoding, for a silence playing at `playAtMs`. */
  bed(playAtMs: number, bytes: number): Uint8Array {
    const count = this.format.encoding === 'mulaw' ? bytes : bytes >> 1;
    const pcm = this.samples(playAtMs, count);
    return this.format.encoding === 'mulaw' ? pcmToMulaw(pcm) : new Uint8Array(pcm.buffer);
  }

  /** The agent's `audio` (transport encoding) with the bed under it, as a new array. */
  mix(audio: Uint8Array, playAtMs: number): Uint8Array {
    if (this.format.encoding === 'mulaw') {
      const bed = this.samples(playAtMs, audio.length);
      for (let k = 0; k < audio.length; k += 1) {
        const v = MULAW_TO_LINEAR[audio[k]!]! + bed[k]!;
        bed[k] = v > 32_767 ? 32_767 : v < -32_768 ? -32_768 : v;
      }
      return pcmToMulaw(bed);
    }
    const count = audio.length >> 1;
    const bed = this.samples(playAtMs, count);
    const view = new DataView(audio.buffer, audio.byteOffset, count * 2);
    for (let k = 0; k < count; k += 1) {
      const v = view.getInt16(k * 2, true) + bed[k]!;
      bed[k] = v > 32_767 ? 32_767 : v < -32_768 ? -32_768 : v;
    }
    // Little-endian hosts only (every Node platform; lib/vendors/shared/pcm.ts checks the same).
    return new Uint8Array(bed.buffer);
  }
}

/**
 * Starts the call's bed under `out` once its samples are there (a custom file may still be downloading:
 * the call does not wait for it). A bed that cannot be had leaves the call without one, a warning, and an
 * `ambience_unavailable` event on the call's timeline saying why.
 */
export function startBed(
  out: { playBed(bed: BedMixer): void },
  source: AmbienceSource | undefined,
  format: AudioFormat,
  originMs: number,
  log: Pick<Logger, 'log'>,
  timeline: Pick<CallTimeline, 'ambienceUnavailable'>,
): void {
  source?.loop(format.sampleRate).then(
    (loop) => out.playBed(new BedMixer(loop, source.volume, format, originMs)),
    (error: unknown) => {
      log.log('warn', 'ambience bed unavailable; the call goes on without it', describeError(error));
      timeline.ambienceUnavailable(error);
    },
  );
}
