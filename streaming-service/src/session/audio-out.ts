import { bytesPerMs } from '../../../lib/vendors/shared/audio-format.js';
import type { MediaTransport } from '../transport/port.js';

/**
 * Agent audio to the caller's transport (Twilio, or the browser page), paced. The far end plays whatever
 * it has buffered; the more we send ahead, the more a barge-in has to throw away and the later a `clear`
 * takes effect. So audio goes out in 20 ms frames and we keep at most `leadMs` of it ahead of the
 * (estimated) playhead: the first `leadMs` leave at once (no added latency), after that we send in step
 * with playback. Over any window the send rate stays below 2x real time. Marks go out right behind the
 * audio they follow.
 */
export interface AudioOutOptions {
  /**
   * Audio kept buffered at the far end. 300 ms absorbs network jitter between us and it without underruns
   * while bounding what a barge-in discards.
   */
  readonly leadMs: number;
  /** 20 ms, Twilio's own frame size (160 bytes of mu-law at 8 kHz, 640 of PCM16 at 16 kHz). */
  readonly frameMs: number;
  /**
   * How much room must open up before the pacer wakes again. 60 ms (three frames per wake) keeps the timer
   * count per call low (hundreds of concurrent calls share one event loop) while the buffer stays between
   * 240 and 300 ms.
   */
  readonly batchMs: number;
}

export const DEFAULT_AUDIO_OUT = { leadMs: 300, frameMs: 20, batchMs: 60 } as const satisfies AudioOutOptions;

type Item =
  | { readonly type: 'audio'; readonly handleId: string; readonly audio: Uint8Array }
  | { readonly type: 'mark'; readonly handleId: string; readonly name: string };

export interface AudioOutEvents {
  /** A frame left for the far end; `playAtMs` is when it should start playing it (performance.now()). */
  onAudioSent?(handleId: string, audio: Uint8Array, sentAtMs: number, playAtMs: number): void;
  /** The far end was told to drop its buffer at `atMs`; audio scheduled after that will not play. */
  onCleared?(atMs: number): void;
}

const LEAD_TOLERANCE_MS = 1e-6;

export class AudioOut {
  private queue: Item[] = [];
  private playEndMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly options: AudioOutOptions;
  private readonly bytesPerMs: number;
  private readonly frameBytes: number;

  constructor(
    private readonly transport: Pick<MediaTransport, 'format' | 'sendAudio' | 'sendMark' | 'clear'>,
    private readonly events: AudioOutEvents = {},
    options: Partial<AudioOutOptions> = {},
  ) {
    this.options = { ...DEFAULT_AUDIO_OUT, ...options };
    this.bytesPerMs = bytesPerMs(transport.format);
    this.frameBytes = Math.round(this.options.frameMs * this.bytesPerMs);
  }

  /** Milliseconds of audio sent but (by our estimate) not yet played. */
  bufferedMs(now: number = performance.now()): number {
    return Math.max(0, this.playEndMs - now);
  }

  /** Whether anything is queued here or still playing at the far end. */
  isBusy(now: number = performance.now()): boolean {
    return this.queue.length > 0 || this.bufferedMs(now) > 0;
  }

  enqueueAudio(handleId: string, audio: Uint8Array): void {
    if (this.closed || audio.length === 0) return;
    const size = this.frameBytes;
    for (let i = 0; i < audio.length; i += size) {
      this.queue.push({ type: 'audio', handleId, audio: audio.subarray(i, Math.min(i + size, audio.length)) });
    }
    this.pump();
  }

  enqueueMark(handleId: string, name: string): void {
    if (this.closed) return;
    this.queue.push({ type: 'mark', handleId, name });
    this.pump();
  }

  /**
   * Drops what is queued here for `handleId` (or everything) and tells the far end to drop its buffer.
   * Marks already sent will be echoed by it; marks still queued here are returned so the caller can settle
   * them.
   */
  clear(handleId?: string): string[] {
    const dropped: string[] = [];
    this.queue = this.queue.filter((item) => {
      const drop = handleId === undefined || item.handleId === handleId;
      if (drop && item.type === 'mark') dropped.push(item.name);
      return !drop;
    });
    const now = performance.now();
    if (!this.closed) this.transport.clear();
    this.playEndMs = now;
    this.events.onCleared?.(now);
    // The pacer's wait was for audio that no longer exists: the next utterance must not wait for it.
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pump();
    return dropped;
  }

  close(): void {
    this.closed = true;
    this.queue = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private pump(): void {
    if (this.timer || this.closed) return;
    const now = performance.now();
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (head.type === 'mark') {
        this.queue.shift();
        this.transport.sendMark(head.name);
        continue;
      }
      // The tolerance absorbs floating-point drift in the sum of frame durations (a lead of exactly 300 ms
      // can come out as 299.99999999), which would otherwise let one frame too many through.
      if (this.playEndMs - now >= this.options.leadMs - LEAD_TOLERANCE_MS) break;
      this.queue.shift();
      const playAt = Math.max(now, this.playEndMs);
      this.playEndMs = playAt + head.audio.length / this.bytesPerMs;
      this.transport.sendAudio(head.audio);
      this.events.onAudioSent?.(head.handleId, head.audio, now, playAt);
    }
    if (this.queue.length > 0) {
      // Wake when a batch's worth of room has opened below the lead.
      const wait = Math.max(1, this.playEndMs - this.options.leadMs - now + this.options.batchMs);
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, wait);
    }
  }
}
