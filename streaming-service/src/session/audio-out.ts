import { bytesPerMs, bytesPerSample } from '../../../lib/vendors/shared/audio-format.js';
import { concatBytes } from '../../../lib/vendors/shared/pcm.js';
import type { MediaTransport } from '../transport/port.js';
import type { BedMixer } from './ambience.js';

/**
 * Agent audio to the caller's transport (Twilio, or the browser page), paced. The far end plays whatever
 * it has buffered; the more we send ahead, the more a barge-in has to throw away and the later a `clear`
 * takes effect. So audio is paced in 20 ms frames and we keep at most `leadMs` of it ahead of the
 * (estimated) playhead: the first `leadMs` leave at once (no added latency), after that we send in step
 * with playback, the frames of one wake (`batchMs`) in one message. Over any window the send rate stays
 * below 2x real time. Marks go out right behind the audio they follow.
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
  /**
   * With an ambience bed (ambience.ts): how much bed alone is kept ahead in the silences. Agent audio never
   * waits behind it (the far end's bed is dropped when the agent's audio comes), so the lead costs no
   * latency; 400 ms rides out network jitter.
   */
  readonly bedLeadMs: number;
  /**
   * Bed sent per wake in the silences: 300 ms (15 frames) is three or four messages a second per call. At
   * hundreds of calls the loop is bound by messages, not bytes (docs/benchmarks.md, "Capacity").
   */
  readonly bedBatchMs: number;
  /**
   * The bed alone starts only once no agent audio has arrived for this long: a voice streamed in real time
   * leaves the queue empty between its chunks and its phrases, and every bed slipped in there costs a `clear`
   * when the voice goes on. 300 ms covers a vendor's gaps between chunks and most between phrases (the
   * pipeline benchmark at 250 calls: lag p99 188 ms with 100 ms, 52 ms with 300 ms); a voice faster than
   * real time (the usual case) is still playing its buffered audio by then, so the bed joins it seamlessly.
   */
  readonly bedQuietMs: number;
  /**
   * How long before the agent's last audio ends the bed is queued behind it, so the far end never runs dry
   * between the two (20 ms, one frame: a timer's lateness); agent audio arriving in that window takes the
   * bed's place (the far end is cleared and the unplayed tail sent again).
   */
  readonly bedJoinMs: number;
}

export const DEFAULT_AUDIO_OUT = { leadMs: 300, frameMs: 20, batchMs: 60, bedLeadMs: 400, bedBatchMs: 300, bedQuietMs: 300, bedJoinMs: 20 } as const satisfies AudioOutOptions;

/** The handle id {@link AudioOutEvents.onAudioSent} names for the bed alone (no utterance has it). */
export const BED_HANDLE = '';

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

/** An item that left for Twilio and, by our estimate, may not have finished playing. */
type InFlight = { readonly item: Item; readonly playAtMs: number };

/** What the agent's audio does besides playing: kept for the recording (when there is one), and `onSent`. */
export function recordedOut(
  recorder: { addAgent(audio: Uint8Array, atMs: number): void; cutAgent(atMs: number): void } | undefined,
  startMs: number,
  onSent: (handleId: string, sentAt: number, audio: Uint8Array, playAt: number) => void,
): AudioOutEvents {
  return {
    onAudioSent: (handleId, audio, sentAt, playAt) => {
      recorder?.addAgent(audio, playAt - startMs);
      onSent(handleId, sentAt, audio, playAt);
    },
    onCleared: (atMs) => recorder?.cutAgent(atMs - startMs),
  };
}

export class AudioOut {
  private queue: Item[] = [];
  /** Where everything sent ends playing (agent audio and bed). */
  private playEndMs = 0;
  /** Where the agent's own audio ends playing: what {@link bufferedMs} and {@link isBusy} mean. */
  private agentEndMs = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The timer only tops up the bed: agent audio arriving meanwhile need not wait for it. */
  private timerForBed = false;
  private bed: BedMixer | undefined;
  /** When agent audio last arrived: the bed alone waits for the voice to have gone quiet. */
  private lastAgentAudioMs = Number.NEGATIVE_INFINITY;
  private closed = false;
  /**
   * What was sent and may still be unplayed (at most `leadMs` of audio plus its marks): what a pause takes
   * back to send again on resume.
   */
  private inFlight: InFlight[] = [];
  private paused = false;
  /** Marks Twilio will echo because a pause's `clear` flushed them: not played, and sent again later. */
  private readonly flushedEchoes = new Map<string, number>();
  /** Audio bytes sent per handle, less what a pause took back: what played once it is all out. */
  private readonly sentBytes = new Map<string, number>();
  private readonly options: AudioOutOptions;
  private readonly bytesPerMs: number;
  private readonly frameBytes: number;
  private readonly sampleBytes: number;

  constructor(
    private readonly transport: Pick<MediaTransport, 'format' | 'sendAudio' | 'sendMark' | 'clear'>,
    private readonly events: AudioOutEvents = {},
    options: Partial<AudioOutOptions> = {},
  ) {
    this.options = { ...DEFAULT_AUDIO_OUT, ...options };
    this.bytesPerMs = bytesPerMs(transport.format);
    this.sampleBytes = bytesPerSample(transport.format.encoding);
    this.frameBytes = Math.round(this.options.frameMs * this.bytesPerMs);
  }

  /** Milliseconds of audio sent but (by our estimate) not yet played. */
  bufferedMs(now: number = performance.now()): number {
    return Math.max(0, this.agentEndMs - now);
  }

  /** Plays `bed` under the agent and in the silences from now on (ambience.ts). */
  playBed(bed: BedMixer): void {
    if (this.closed) return;
    this.bed = bed;
    this.pump();
  }

  /** Whether anything is queued here or still playing at the far end. */
  isBusy(now: number = performance.now()): boolean {
    return this.queue.length > 0 || this.bufferedMs(now) > 0;
  }

  enqueueAudio(handleId: string, audio: Uint8Array): void {
    if (this.closed || audio.length === 0) return;
    this.lastAgentAudioMs = performance.now();
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
    this.paused = false;
    this.inFlight = [];
    const dropped: string[] = [];
    this.queue = this.queue.filter((item) => {
      const drop = handleId === undefined || item.handleId === handleId;
      if (drop && item.type === 'mark') dropped.push(item.name);
      return !drop;
    });
    const now = performance.now();
    if (!this.closed) this.transport.clear();
    this.playEndMs = now;
    this.agentEndMs = now;
    // The utterance is gone: the bed may fill its place at once.
    this.lastAgentAudioMs = Number.NEGATIVE_INFINITY;
    this.events.onCleared?.(now);
    // The pacer's wait was for audio that no longer exists: the next utterance must not wait for it.
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pump();
    return dropped;
  }

  /**
   * Stops playback where the caller is (a possible interruption): Twilio drops its buffer, and what it had
   * not played yet (to the byte, by the playhead estimate) goes back to the head of the queue, marks
   * included, for {@link resume}. Nothing more of the agent's is sent until then (an ambience bed plays on).
   * The marks Twilio echoes for the flush are to be ignored ({@link acceptEcho}).
   */
  pause(): void {
    if (this.paused || this.closed) return;
    this.paused = true;
    this.takeBack(performance.now());
    // The room goes on while the agent holds its breath.
    this.pump();
  }

  /**
   * Tells the far end to drop its buffer and puts back at the head of the queue whatever of the agent's it had
   * not played yet (to the byte, by the playhead estimate), marks included; the marks it echoes for the flush
   * are to be ignored ({@link acceptEcho}). Bed audio is simply dropped: the bed follows the playhead.
   */
  private takeBack(now: number): void {
    const back: Item[] = [];
    for (const { item, playAtMs } of this.inFlight) {
      if (item.type === 'mark') {
        if (playAtMs >= now) {
          back.push(item);
          this.flushedEchoes.set(item.name, (this.flushedEchoes.get(item.name) ?? 0) + 1);
        }
        continue;
      }
      const played = Math.max(0, Math.floor((now - playAtMs) * this.bytesPerMs));
      // Cut on a sample boundary: half a PCM16 sample would shift everything after it.
      const playedBytes = played - (played % this.sampleBytes);
      if (playedBytes >= item.audio.length) continue;
      const rest = item.audio.subarray(playedBytes);
      back.push({ ...item, audio: rest });
      this.sentBytes.set(item.handleId, (this.sentBytes.get(item.handleId) ?? 0) - rest.length);
    }
    this.inFlight = [];
    this.queue = [...back, ...this.queue];
    this.transport.clear();
    this.playEndMs = now;
    this.agentEndMs = now;
    this.events.onCleared?.(now);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Plays on from where {@link pause} stopped. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.pump();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** False for a mark echo that only reports a pause's flush (the mark was queued again). */
  acceptEcho(name: string): boolean {
    const n = this.flushedEchoes.get(name);
    if (n === undefined) return true;
    if (n <= 1) this.flushedEchoes.delete(name);
    else this.flushedEchoes.set(name, n - 1);
    return false;
  }

  /** Bytes of `handleId`'s audio the caller has heard by `now` (playhead estimate). */
  heardBytes(handleId: string, now: number = performance.now()): number {
    let unplayed = 0;
    for (const { item, playAtMs } of this.inFlight) {
      if (item.type !== 'audio' || item.handleId !== handleId) continue;
      unplayed += Math.min(item.audio.length, Math.max(0, item.audio.length - Math.floor((now - playAtMs) * this.bytesPerMs)));
    }
    return Math.max(0, (this.sentBytes.get(handleId) ?? 0) - unplayed);
  }

  close(): void {
    this.closed = true;
    this.queue = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private pump(): void {
    if (this.closed) return;
    if (this.timer) {
      // A bed top-up timer yields to agent output that can go now.
      if (!this.timerForBed || this.paused || this.queue.length === 0) return;
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const now = performance.now();
    if (this.paused) return this.topUpBed(now, true);
    // Only audio that may still be unplayed can be taken back by a pause.
    this.inFlight = this.inFlight.filter((f) => f.playAtMs + (f.item.type === 'audio' ? f.item.audio.length / this.bytesPerMs : 0) > now);
    // Agent audio never waits behind the bed: bed sent after the agent's last audio is dropped at the far end,
    // with whatever of the agent's was still unplayed (put back, sent again at once, ahead of the new audio).
    if (this.bed && this.queue[0]?.type === 'audio' && this.playEndMs > Math.max(now, this.agentEndMs) + LEAD_TOLERANCE_MS) this.takeBack(now);
    // The frames of one wake leave as one message: a media message costs its JSON, its base64, a WebSocket
    // frame and a socket write whatever its length, and a wake sends three frames or more.
    const batch: Uint8Array[] = [];
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (head.type === 'mark') {
        this.queue.shift();
        this.sendBatch(batch);
        this.transport.sendMark(head.name);
        this.inFlight.push({ item: head, playAtMs: Math.max(now, this.playEndMs) });
        continue;
      }
      // The tolerance absorbs floating-point drift in the sum of frame durations (a lead of exactly 300 ms
      // can come out as 299.99999999), which would otherwise let one frame too many through.
      if (this.playEndMs - now >= this.options.leadMs - LEAD_TOLERANCE_MS) break;
      this.queue.shift();
      const playAt = Math.max(now, this.playEndMs);
      this.playEndMs = playAt + head.audio.length / this.bytesPerMs;
      this.agentEndMs = this.playEndMs;
      // What the caller hears, and so what the recording keeps: the agent over the bed.
      const heard = this.bed ? this.bed.mix(head.audio, playAt) : head.audio;
      batch.push(heard);
      this.inFlight.push({ item: head, playAtMs: playAt });
      this.sentBytes.set(head.handleId, (this.sentBytes.get(head.handleId) ?? 0) + head.audio.length);
      this.events.onAudioSent?.(head.handleId, heard, now, playAt);
    }
    this.sendBatch(batch);
    if (this.queue.length > 0) {
      // Wake when a batch's worth of room has opened below the lead.
      const wait = Math.max(1, this.playEndMs - this.options.leadMs - now + this.options.batchMs);
      this.schedule(wait, false);
      return;
    }
    this.topUpBed(now);
  }

  private schedule(waitMs: number, forBed: boolean): void {
    this.timerForBed = forBed;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, waitMs);
  }

  /**
   * Nothing of the agent's can go now: keep `bedLeadMs` of bed ahead of the playhead, sent as one message,
   * and wake when `bedBatchMs` of it has played.
   */
  private topUpBed(now: number, paused = false): void {
    const bed = this.bed;
    if (!bed || this.timer) return;
    const { bedLeadMs, bedBatchMs, bedQuietMs, bedJoinMs } = this.options;
    // Not while the voice is still coming (a voice streamed in real time leaves the queue empty between its
    // chunks); then from `bedJoinMs` before its last audio ends, so the bed runs on from it without a gap.
    const from = paused ? now : Math.max(this.agentEndMs - bedJoinMs, this.lastAgentAudioMs + bedQuietMs);
    if (now < from) return this.schedule(Math.max(1, from - now), true);
    const ahead = Math.max(0, this.playEndMs - now);
    const frames = Math.ceil((bedLeadMs - ahead) / this.options.frameMs - LEAD_TOLERANCE_MS);
    if (frames > 0) {
      const bytes = frames * this.frameBytes;
      const playAt = Math.max(now, this.playEndMs);
      const audio = bed.bed(playAt, bytes);
      this.transport.sendAudio(audio);
      this.playEndMs = playAt + bytes / this.bytesPerMs;
      this.events.onAudioSent?.(BED_HANDLE, audio, now, playAt);
    }
    this.schedule(Math.max(1, this.playEndMs - now - (bedLeadMs - bedBatchMs)), true);
  }

  /** Sends the frames gathered so far as one piece of audio, and empties the list. */
  private sendBatch(batch: Uint8Array[]): void {
    if (batch.length === 0) return;
    this.transport.sendAudio(batch.length === 1 ? batch[0]! : concatBytes(batch));
    batch.length = 0;
  }
}
