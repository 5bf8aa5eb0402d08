import { PHONE_AUDIO, bytesPerMs } from '../../../lib/vendors/shared/audio-format.js';
import { describeError, loggerWith, type Logger } from '../../../lib/observability/log.js';
import { concatBytes, decodeToPcm, rms } from '../../../lib/vendors/shared/pcm.js';
import type { SttEvent, SttOptions, SttProvider, SttStream } from '../../../lib/vendors/stt/port.js';
import { VendorError } from '../../../lib/vendors/shared/errors.js';
import type { CallTimeline } from './timeline.js';

/**
 * The call's transcription stream, kept alive across vendor failures. A socket that drops or errors is
 * reopened with backoff, and the caller's audio is never lost on the way:
 *
 * - audio that arrives while no stream is open waits in a bounded buffer and is sent first on the new one;
 * - audio already sent but whose words the vendor has not finalized yet (everything since the last final
 *   transcript) is kept too, and sent again on the new stream: the words being spoken when the socket
 *   dropped are recognized from the start, not from the middle. Finals already received are not replayed,
 *   so no words come twice.
 *
 * Audio goes to a stream no faster than real time (`maxSendSpeed`), measured from the moment the stream
 * opened: the replay after a reconnect is paced, not sent in one burst. AssemblyAI closes a session whose
 * audio arrives faster than real time (3007 "Audio Transmission Rate Exceeded", its common-errors page) and
 * no vendor here documents a faster rate, so a burst would trade the dropped socket for a refused one. While
 * the stream is behind the caller, waiting chunks that are silence (below {@link SILENCE_RMS}) are dropped
 * instead of sent, once the pause already sent is long enough for the vendor's end of turn (`endpointingMs`
 * plus {@link KEPT_PAUSE_MARGIN_MS}): the vendor catches up in the caller's pauses, and never loses a word
 * or a turn's end.
 *
 * When every attempt at a vendor fails, the vendor is down: the link moves to the agent's next fallback
 * transcriber (same audio format), replaying the same audio to it, with a fresh round of attempts. Only when
 * the last one fails too does the call lose its ears (`onFatal`). A vendor that refuses the connection for
 * good (a key it did not issue, a model or setting it does not have: a non-retryable `VendorError`) would
 * refuse every attempt the same way, so the link moves on at once instead of spending the ~1.5 s of retries.
 */
export interface SttLinkOptions {
  /**
   * Waits before each reconnect attempt after a failure: the first at once (a dropped socket is usually a
   * one-off), then doubling; five attempts span ~1.5 s, after which the vendor is down, not flaky.
   */
  readonly backoffMs: readonly number[];
  /**
   * Audio kept for replay, in ms of the stream's format: 10 s (80 KB of mu-law, 320 KB of PCM16 at 16 kHz).
   * A turn is rarely longer without a final; a longer outage loses the oldest audio first rather than
   * growing without bound.
   */
  readonly maxReplayMs: number;
  /** A stream that lived this long has proven itself: the next failure starts the backoff over. */
  readonly healthyAfterMs: number;
  /**
   * Caller audio goes to the vendor in chunks of at least this much (ms of the stream's format), not frame
   * by frame. Twilio delivers 20 ms frames, and every send is a WebSocket frame and a socket write (a TLS
   * record in production): at 250 calls those 12,500 writes a second were the largest hot spot in the
   * service's profile (docs/benchmarks.md, "Capacity"). 60 ms sends a third as many; the vendor hears each frame 20 ms
   * later on average (40 ms at most), inside the 20-250 ms chunks Deepgram recommends for live streams. The
   * local VAD, which pauses the agent, reads every frame as it comes; only the vendor's words wait. 0 sends
   * every frame at once.
   */
  readonly sendChunkMs: number;
  /**
   * The fastest a stream is fed, in ms of audio per ms since it opened: 1 is real time. A chunk goes out once
   * the audio before it is due (a real-time source's rule), so live audio is never held back, only a replay.
   */
  readonly maxSendSpeed: number;
  /**
   * Vendors whose sessions end after a fixed time: OpenAI's Realtime sessions end at 60 minutes
   * (`session_expired`). The link opens a new stream before that: at the first end of turn after 90 % of
   * the limit, or at 97 % whatever the caller is doing.
   */
  readonly sessionLimitMs: Readonly<Partial<Record<SttProvider['id'], number>>>;
}

/**
 * A chunk quieter than this (RMS of 16-bit samples, about -50 dBFS) is line silence: well under telephone
 * speech (-30 to -15 dBFS) and the stand-ins' VAD threshold (300), so dropping it to catch up drops no word.
 */
export const SILENCE_RMS = 100;
/** Of a pause, the vendor always hears its endpointing silence and this much more before any is skipped. */
export const KEPT_PAUSE_MARGIN_MS = 200;

/**
 * The stretch of silence after caller speech in which audio goes to the vendor frame by frame (`sendAudio`'s
 * `now`): around the vendor's endpointing (300 ms of silence ends the turn), where a frame held back for a
 * chunk ends the turn up to 40 ms later. Only there: frame by frame all through the pauses tripled the
 * messages of a call and cost the 100-call level half again its CPU (3 December).
 */
export const SEND_AT_ONCE_SILENCE_MS = { from: 200, to: 400 } as const;

/** Whether a frame `silentMs` after the last voiced one goes to the vendor at once. */
export const inEndpointingSilence = (silentMs: number): boolean => silentMs >= SEND_AT_ONCE_SILENCE_MS.from && silentMs <= SEND_AT_ONCE_SILENCE_MS.to;

/** Fractions of a session limit: rotate at a turn's end after the first, at the latest at the second. */
const ROTATE_AT_TURN_END = 0.9;
const ROTATE_AT_LATEST = 0.97;

export const DEFAULT_STT_LINK: SttLinkOptions = { backoffMs: [0, 100, 200, 400, 800], maxReplayMs: 10_000, healthyAfterMs: 5_000, sendChunkMs: 60, maxSendSpeed: 1, sessionLimitMs: { openai: 60 * 60_000 } };

export class SttLink {
  private stream: SttStream | undefined;
  private closed = false;
  /** Audio since the last final, oldest first; replayed on a new stream. */
  private replay: Uint8Array[] = [];
  private replayBytes = 0;
  /** Audio not sent yet: less than a chunk ({@link SttLinkOptions.sendChunkMs}). */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private readonly chunkBytes: number;
  private readonly maxReplayBytes: number;
  private readonly bytesPerMs: number;
  /** Chunks for the open stream not sent yet because they are not due (a replay being paced), oldest first. */
  private unsent: Uint8Array[] = [];
  /** When the open stream opened, and how much audio (ms) it has been sent since. */
  private streamOpenedAt = 0;
  private sentMs = 0;
  /** Silence sent since the last sound: how much of the current pause the vendor has heard. */
  private pauseSentMs = 0;
  private pumpTimer: NodeJS.Timeout | undefined;
  /** How many times a stream was reopened after a failure (for figures and tests). */
  reconnects = 0;
  /** Silence (ms) skipped to catch up with the caller after a paced replay (for figures and tests). */
  skippedMs = 0;
  /** How many times a stream was replaced before its vendor's session limit ({@link SttLinkOptions.sessionLimitMs}). */
  rotations = 0;
  /** When the open stream is due for rotation at the next end of turn. */
  private rotateAfter = Infinity;
  /** The stream being rotated out, whose end is not a failure. */
  private rotating: SttStream | undefined;
  /** Which of {@link providers} is in use: moves on when one stays down, never back. */
  private providerIndex = 0;
  private readonly options: SttLinkOptions;

  constructor(
    /** The agent's transcriber, then its fallbacks in order. */
    private readonly providers: readonly [SttProvider, ...SttProvider[]],
    private readonly sttOptions: SttOptions,
    private readonly onEvent: (event: SttEvent) => void,
    private readonly onFatal: (error: unknown) => void,
    /** The call's logger (its id and workspace on every line). */
    private readonly log: Logger = loggerWith({}),
    options: Partial<SttLinkOptions> = {},
    /** The call's timeline: connects and fallbacks are noted there. */
    private readonly timeline?: CallTimeline,
  ) {
    this.options = { ...DEFAULT_STT_LINK, ...options };
    const perMs = bytesPerMs(sttOptions.format ?? PHONE_AUDIO);
    this.bytesPerMs = perMs;
    this.chunkBytes = this.options.sendChunkMs * perMs;
    this.maxReplayBytes = this.options.maxReplayMs * perMs;
  }

  /** Opens the first stream and keeps one open until {@link close}. */
  async run(): Promise<void> {
    let attempt = 0;
    let rotateTimer: NodeJS.Timeout | undefined;
    while (!this.closed) {
      clearTimeout(rotateTimer);
      const openedAt = performance.now();
      let connected = false;
      try {
        const stream = await this.providers[this.providerIndex]!.connect(this.sttOptions);
        connected = true;
        this.timeline?.note({ type: 'vendor_connected', stage: 'stt', vendor: this.providers[this.providerIndex]!.id });
        if (this.closed) {
          await stream.close();
          return;
        }
        this.stream = stream;
        this.streamOpenedAt = performance.now();
        this.sentMs = 0;
        this.pauseSentMs = 0;
        this.unsent = [...this.replay];
        this.pump();
        const limitMs = this.options.sessionLimitMs[this.providers[this.providerIndex]!.id];
        this.rotateAfter = limitMs === undefined ? Infinity : this.streamOpenedAt + limitMs * ROTATE_AT_TURN_END;
        rotateTimer = limitMs === undefined ? undefined : setTimeout(() => this.rotate(stream), limitMs * ROTATE_AT_LATEST).unref();
        for await (const event of stream.events) this.receive(event, stream);
        if (this.closed) return;
        if (this.rotating === stream) {
          // A planned rotation, not a failure: the next stream opens at once and gets the replay.
          this.rotating = undefined;
          this.rotations += 1;
          continue;
        }
        throw new Error('the transcription stream ended');
      } catch (error) {
        this.detach();
        if (this.closed) return;
        if (performance.now() - openedAt >= this.options.healthyAfterMs) attempt = 0;
        const refusedForGood = !connected && error instanceof VendorError && !error.retryable;
        let wait = refusedForGood ? undefined : this.options.backoffMs[attempt];
        if (wait === undefined) {
          if (!this.nextProvider(error)) return this.onFatal(this.asVendorError(error));
          attempt = 0;
          wait = 0;
        }
        attempt += 1;
        this.reconnects += 1;
        this.log.log('warn', 'stt stream lost; reconnecting', { attempt, ...describeError(error) });
        this.timeline?.vendorError('stt', this.asVendorError(error), false);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** A failure as the vendor in use's (a stream that just ended is one too), so what is shown names it. */
  private asVendorError(error: unknown): VendorError {
    if (error instanceof VendorError) return error;
    return new VendorError(this.providers[this.providerIndex]!.id, error instanceof Error ? error.message : String(error), true, undefined, { cause: error });
  }

  /** Moves to the next fallback transcriber after the current one stayed down; false when none is left. */
  private nextProvider(error: unknown): boolean {
    if (this.providerIndex + 1 >= this.providers.length) return false;
    const from = this.providers[this.providerIndex]!.id;
    this.providerIndex += 1;
    this.log.log('warn', 'stt vendor down; switching to the fallback transcriber', { from, to: this.providers[this.providerIndex]!.id, ...describeError(error) });
    this.timeline?.fallback('stt', error instanceof VendorError ? error : new VendorError(from, error instanceof Error ? error.message : String(error), true), this.providers[this.providerIndex]!.id);
    return true;
  }

  /**
   * Caller audio: sent once a chunk's worth has come, or at once when `now` (the silence after the caller's
   * words, which the vendor's endpointing counts: a frame held back there is a later end of turn), and kept
   * until its words are final.
   */
  sendAudio(audio: Uint8Array, now = false): void {
    if (this.closed) return;
    this.pending.push(audio);
    this.pendingBytes += audio.length;
    if (now || this.pendingBytes >= this.chunkBytes) this.flush();
  }

  /** Sends the pending audio as one chunk. */
  private flush(): void {
    if (this.pendingBytes === 0) return;
    const chunk = this.pending.length === 1 ? this.pending[0]! : concatBytes(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.replay.push(chunk);
    this.replayBytes += chunk.length;
    while (this.replayBytes > this.maxReplayBytes && this.replay.length > 1) this.replayBytes -= this.replay.shift()!.length;
    if (!this.stream) return;
    this.unsent.push(chunk);
    this.pump();
  }

  /**
   * Sends the open stream every unsent chunk that is due: one whose start, in ms of audio, has come in real
   * time since the stream opened (times `maxSendSpeed`); wakes up for the next one while any wait.
   */
  private pump(): void {
    const stream = this.stream;
    if (!stream || this.pumpTimer) return;
    const elapsedMs = (performance.now() - this.streamOpenedAt) * this.options.maxSendSpeed;
    while (this.unsent.length > 0) {
      const chunk = this.unsent[0]!;
      const ms = chunk.length / this.bytesPerMs;
      const due = this.sentMs <= elapsedMs;
      // Only a stream with a backlog can be behind; live audio that goes out as it comes is not measured.
      const silent = (!due || this.unsent.length > 1) && this.isSilence(chunk);
      if (!due && !(silent && this.pauseSentMs >= this.sttOptions.endpointingMs + KEPT_PAUSE_MARGIN_MS)) break;
      this.unsent.shift();
      if (!due) {
        // Behind the caller, in a pause the vendor has already heard enough of: skip the rest of it.
        this.skippedMs += ms;
        continue;
      }
      this.sentMs += ms;
      this.pauseSentMs = silent ? this.pauseSentMs + ms : 0;
      stream.sendAudio(chunk);
    }
    if (this.unsent.length === 0) return this.settleDrain();
    const waitMs = Math.max(1, Math.ceil((this.sentMs - elapsedMs) / this.options.maxSendSpeed));
    this.pumpTimer = setTimeout(() => {
      this.pumpTimer = undefined;
      this.pump();
    }, waitMs);
  }

  private drainWaiters: (() => void)[] = [];

  private settleDrain(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private isSilence(chunk: Uint8Array): boolean {
    return rms(decodeToPcm(chunk, this.sttOptions.format ?? PHONE_AUDIO)) < SILENCE_RMS;
  }

  /** The stream is gone: nothing more is paced into it (the replay buffer keeps what it needs). */
  private detach(): void {
    this.stream = undefined;
    clearTimeout(this.pumpTimer);
    this.pumpTimer = undefined;
    this.unsent = [];
    this.settleDrain();
  }

  async close(): Promise<void> {
    // The caller's last words go out before the vendor is asked to flush its results, at the paced rate:
    // after a reconnect that is as long as the vendor is behind (at most the replay, bounded by maxReplayMs).
    this.flush();
    this.closed = true;
    this.replay = [];
    if (this.stream && this.unsent.length > 0) await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    const stream = this.stream;
    this.detach();
    await stream?.close();
  }

  /**
   * Ends a stream before its vendor's session limit, at a turn's end where one comes in time: the stream is
   * detached first, so the caller's audio from here on waits in the replay buffer for the next stream while
   * this one flushes its last transcripts; nothing the caller says in between is lost.
   */
  private rotate(stream: SttStream): void {
    if (this.closed || this.stream !== stream) return;
    this.rotating = stream;
    this.detach();
    void stream.close();
  }

  private receive(event: SttEvent, from: SttStream): void {
    // A stream being rotated out delivers its last words, but the replay belongs to the next stream now.
    if (from !== this.stream) {
      this.onEvent(event);
      return;
    }
    // Final words will not be recognized again: the audio they came from need not be replayed. Audio after
    // them in the buffer may belong to them too, but a final covers everything the vendor had heard before
    // it, so the buffer restarts from here.
    if (event.type === 'transcript' && event.isFinal) {
      // Chunks still waiting to be sent were not heard: they stay for a replay.
      this.replay = [...this.unsent];
      this.replayBytes = this.unsent.reduce((n, c) => n + c.length, 0);
    }
    this.onEvent(event);
    if (event.type === 'transcript' && event.speechFinal && performance.now() >= this.rotateAfter) this.rotate(from);
  }
}

