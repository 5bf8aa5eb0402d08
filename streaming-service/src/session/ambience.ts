import type { AmbienceSource } from '../../../lib/media/custom-bed.js';
import { describeError, type Logger } from '../../../lib/observability/log.js';
import type { AudioFormat } from '../../../lib/vendors/shared/audio-format.js';
import { LINEAR_TO_MULAW, MULAW_TO_LINEAR, pcmToMulaw } from '../../../lib/vendors/shared/mulaw.js';
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
  private readonly scaled: ScaledLoop;
  private readonly samplesPerMs: number;
  /** The absolute sample index the next frame continues from, if it follows the last one. */
  private next = Number.NaN;

  constructor(
    loop: Int16Array,
    volume: number,
    private readonly format: AudioFormat,
    /** performance.now() at sample 0 of the call's timeline. */
    private readonly originMs: number,
  ) {
    // Q15 fixed point, applied once to the whole loop (scaledLoop), not to every frame.
    this.scaled = scaledLoop(loop, Math.round(Math.max(0, Math.min(1, volume)) * 32_768), format.encoding === 'mulaw');
    this.samplesPerMs = format.sampleRate / 1_000;
  }

  /** The loop index of the first of `count` samples for audio that starts playing at `playAtMs`. */
  private at(playAtMs: number, count: number): number {
    let at = Math.round((playAtMs - this.originMs) * this.samplesPerMs);
    // Frames sent back to back are a sample or so off by float rounding: continue exactly instead.
    if (Math.abs(at - this.next) <= 2) at = this.next;
    this.next = at + count;
    const n = this.scaled.pcm.length;
    return ((at % n) + n) % n;
  }

  /** The bed alone, `bytes` long in the transport's encoding, for a silence playing at `playAtMs`. */
  bed(playAtMs: number, bytes: number): Uint8Array {
    const { pcm, mulaw } = this.scaled;
    // The same loop and volume may also be playing on a phone call: its encoding is beside the samples.
    const from = this.format.encoding === 'mulaw' ? mulaw! : new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    const width = this.format.encoding === 'mulaw' ? 1 : 2;
    const out = new Uint8Array(bytes);
    // Copies of the loop's bytes, wrapping at its end: no per-sample work at all.
    let i = this.at(playAtMs, Math.floor(bytes / width)) * width;
    for (let o = 0; o < bytes; ) {
      const take = Math.min(bytes - o, from.length - i);
      out.set(from.subarray(i, i + take), o);
      o += take;
      i = 0;
    }
    return out;
  }

  /** The agent's `audio` (transport encoding) with the bed under it, as a new array. */
  mix(audio: Uint8Array, playAtMs: number): Uint8Array {
    const bed = this.scaled.pcm;
    const n = bed.length;
    if (this.format.encoding === 'mulaw') {
      const decode = MULAW_TO_LINEAR;
      const encode = LINEAR_TO_MULAW;
      const length = audio.length;
      const out = new Uint8Array(length);
      let i = this.at(playAtMs, length);
      for (let k = 0; k < length; k += 1) {
        // Offset into the encoding table (sample + 32768), clipped to it.
        const v = decode[audio[k]!]! + bed[i]! + 32_768;
        out[k] = encode[v > 65_535 ? 65_535 : v < 0 ? 0 : v]!;
        i += 1;
        if (i === n) i = 0;
      }
      return out;
    }
    const count = audio.length >> 1;
    // Little-endian hosts only (every Node platform; lib/vendors/shared/pcm.ts checks the same).
    const voice = audio.byteOffset % 2 === 0 ? new Int16Array(audio.buffer, audio.byteOffset, count) : new Int16Array(audio.slice(0, count * 2).buffer);
    const out = new Int16Array(count);
    let i = this.at(playAtMs, count);
    for (let k = 0; k < count; k += 1) {
      const v = voice[k]! + bed[i]!;
      out[k] = v > 32_767 ? 32_767 : v < -32_768 ? -32_768 : v;
      i += 1;
      if (i === n) i = 0;
    }
    return new Uint8Array(out.buffer);
  }
}

/** A loop at one volume: its samples scaled and, for the phone, mu-law encoded. */
interface ScaledLoop {
  readonly pcm: Int16Array;
  mulaw: Uint8Array | undefined;
}

/** Volumes kept per loop; an agent's volume is one of few in practice, and the oldest goes first. */
const MAX_VOLUMES_PER_LOOP = 8;
const scaledLoops = new WeakMap<Int16Array, Map<number, ScaledLoop>>();

/**
 * `loop` at Q15 `gain`, made once and shared by every call with the same bed and volume (8 s at 8 kHz is
 * 128 KB scaled plus 64 KB encoded): the calls then copy or add bytes, and never multiply or encode the bed.
 */
function scaledLoop(loop: Int16Array, gain: number, mulaw: boolean): ScaledLoop {
  let byGain = scaledLoops.get(loop);
  if (!byGain) scaledLoops.set(loop, (byGain = new Map()));
  let scaled = byGain.get(gain);
  if (!scaled) {
    // An empty loop plays as silence.
    const pcm = loop.length === 0 ? new Int16Array(1) : loop.map((v) => (v * gain) >> 15);
    scaled = { pcm, mulaw: undefined };
    byGain.set(gain, scaled);
    if (byGain.size > MAX_VOLUMES_PER_LOOP) byGain.delete(byGain.keys().next().value as number);
  }
  if (mulaw) scaled.mulaw ??= pcmToMulaw(scaled.pcm);
  return scaled;
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
