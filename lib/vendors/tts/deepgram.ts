import { DeepgramClient } from '@deepgram/sdk';
import { VendorError } from '../shared/errors.js';
import {
  DEFAULT_TTS_BASE_OPTIONS,
  TtsSessionBase,
  isRetryableClose,
  providerOf,
  toWebSocketBase,
  type TtsBaseOptions,
  type UtteranceHandle,
} from './base.js';
import type { TtsOptions, TtsProvider } from './port.js';
import {
  CharWindow,
  type DeepgramControl,
  type DeepgramUtterance,
  audioBytes,
  DEEPGRAM_FLUSHES_PER_MINUTE,
  DEEPGRAM_FLUSH_WINDOW_MS,
  DEEPGRAM_MAX_SOCKET_MS,
  DEEPGRAM_ROTATE_AHEAD_MS,
  charCount,
  closeRetryable,
  cutAt,
  handshakeError,
  splitForSpeak,
} from './deepgram-limits.js';

/**
 * Deepgram Aura over its streaming socket (`/v1/speak?model=…&encoding=mulaw&sample_rate=8000` for the phone,
 * `encoding=linear16&sample_rate=16000` for the browser: the session's format, natively) through the
 * official SDK (`@deepgram/sdk` v5 `speak.v1.connect`, which takes a base URL).
 *
 * The socket has no context ids: it synthesizes `Speak` text in order, a `Flush` makes it speak what it
 * holds (binary audio, then `Flushed`), `Clear` drops queued text and audio (answered `Cleared`), `Close`
 * ends the socket. So utterances go on the wire one at a time: audio belongs to the utterance on the wire,
 * which completes when every `Flush` it sent is `Flushed`; a cancel sends `Clear` and the next utterance
 * starts only after `Cleared`, so no audio of the cancelled one can leak into it.
 *
 * One utterance is one agent turn. Deepgram says to flush once per finished response and allows 20 flushes
 * per 60 s (past that it ignores a `Flush` with an `EXCESSIVE_FLUSH` warning, keeping the text: silence).
 * Aura speaks what a flush releases, so the first phrase is flushed at once (first audio as early as a
 * flush per phrase); later phrases are coalesced into one flush sent when Deepgram has answered the previous
 * one (`Flushed`: that audio is all here, ahead of playback), and the end is flushed. Each `Flushed` says
 * how many phrases are complete ({@link TtsAudioChunk.phrasesDone}). Our flushes are counted in a window a
 * little longer than 60 s: phrase flushes leave FLUSH_END_RESERVE slots free; an end flush past the budget
 * waits for a slot (re-checked every FLUSH_RETRY_MS) rather than be ignored. The flush budget is kept across
 * sockets (Deepgram does not say it is per socket).
 *
 * The socket's other limits (./deepgram-limits.ts): `Speak`s of at most 2,000 characters, cut between
 * words; at most 2,400 characters per minute into the socket, text over that waiting for the window; and a
 * 60-minute life (1011 `NET-0003`): a spare socket opened `rotateAheadMs` before the cap takes over between
 * two utterances, so no audio is lost and no turn waits for a handshake. Closes for the character budget
 * (1008 `DATA-0001`) and the cap are retryable: a new socket fixes both.
 */

export interface DeepgramTtsEndpoint {
  readonly apiKey: string;
  /** Undefined for the real service (the SDK's `wss://api.deepgram.com`), or a stand-in's base URL. */
  readonly baseUrl?: string;
}

/** Slots phrase flushes leave free for utterance ends, so a turn's end is not kept waiting. */
export const FLUSH_END_RESERVE = 5;
/** How often held text and a held end flush re-check their windows (an injected clock takes effect promptly). */
const FLUSH_RETRY_MS = 250;

/** Test hooks. */
export interface DeepgramTtsTuning {
  /** The clock the flush and character windows are kept on (default `performance.now`). */
  readonly now?: () => number;
  /** The connection cap to stay under (real time; default {@link DEEPGRAM_MAX_SOCKET_MS}). */
  readonly maxSocketMs?: number;
  /** Default {@link DEEPGRAM_ROTATE_AHEAD_MS} (never more than half the cap). */
  readonly rotateAheadMs?: number;
}

type SpeakSocket = Awaited<ReturnType<DeepgramClient['speak']['v1']['connect']>>;

class DeepgramSession extends TtsSessionBase<DeepgramUtterance> {
  override readonly phraseEnds = true;
  private socket: SpeakSocket | undefined;
  /** The next socket, opened ahead of the connection cap; taken over between utterances. */
  private spare: SpeakSocket | undefined;
  private spareOpening = false;
  /** When each socket was connected (real time): its cap counts from then, not from when we took it over. */
  private readonly connectedAt = new WeakMap<SpeakSocket, number>();
  private rotateTimer: NodeJS.Timeout | undefined;
  /** Characters sent on the current socket in the last minute. */
  private readonly chars: CharWindow;
  /** Re-checks held text against the character window. */
  private textTimer: NodeJS.Timeout | undefined;
  /** Messages are handled one after another: binary audio arrives as a Blob that takes a tick to read, and a
   * `Flushed` right behind it must not overtake it. */
  private inbox: Promise<void> = Promise.resolve();
  /** When our recent flushes were sent (on `now`), oldest first; kept across reconnects (see above). */
  private readonly flushTimes: number[] = [];
  private heldFlushTimer: NodeJS.Timeout | undefined;
  /** After an `EXCESSIVE_FLUSH` warning: no flush before this time (on `now`). */
  private flushBlockedUntil = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly client: DeepgramClient,
    options: TtsOptions,
    base: TtsBaseOptions,
    private readonly now: () => number,
    private readonly maxSocketMs: number,
    private readonly rotateAheadMs: number,
  ) {
    super('deepgram', options, base, true);
    this.chars = new CharWindow(now);
  }

  protected async openLink(signal: AbortSignal): Promise<void> {
    // A reconnect takes the spare when one is open: it is warm already.
    const spare = this.spare;
    this.spare = undefined;
    this.adopt(spare ?? (await this.connectSocket(signal)));
  }

  /** Makes `socket` the one we speak on: fresh character budget, and its own rotation clock. */
  private adopt(socket: SpeakSocket): void {
    this.socket = socket;
    this.inbox = Promise.resolve();
    this.chars.reset();
    if (this.rotateTimer) clearTimeout(this.rotateTimer);
    const age = performance.now() - (this.connectedAt.get(socket) ?? performance.now());
    this.rotateTimer = setTimeout(() => this.openSpare(), Math.max(0, this.maxSocketMs - this.rotateAheadMs - age));
    this.rotateTimer.unref();
  }

  /** Opens the socket that takes over before the cap; a failure leaves the cap's close to the reconnect. */
  private openSpare(): void {
    if (this.spare || this.spareOpening || !this.socket) return;
    this.spareOpening = true;
    this.connectSocket(AbortSignal.timeout(this.base.connectTimeoutMs)).then(
      (spare) => {
        this.spareOpening = false;
        if (!this.socket) {
          spare.close();
          return;
        }
        this.spare = spare;
        if (!this.onWire()) this.rotate();
      },
      () => (this.spareOpening = false),
    );
  }

  /** Between utterances: the spare becomes the socket, and the old one is closed Deepgram's way. */
  private rotate(): void {
    const spare = this.spare;
    const old = this.socket;
    if (!spare || !old) return;
    this.spare = undefined;
    this.adopt(spare);
    old.sendClose({ type: 'Close' });
    setTimeout(() => old.close(), this.base.closeTimeoutMs).unref();
  }

  private async connectSocket(signal: AbortSignal): Promise<SpeakSocket> {
    const socket = await this.client.speak.v1.connect({
      // Aura's voice is its model; an explicit model wins.
      model: this.ttsOptions.model ?? this.ttsOptions.voiceId,
      // Aura speaks both of our encodings natively (mulaw at 8 or 16 kHz, linear16 at 8-48 kHz).
      encoding: this.format.encoding,
      sample_rate: String(this.format.sampleRate),
      // The base owns reconnects: it knows whether an utterance was on the socket.
      reconnectAttempts: 0,
      shouldReconnect: () => false,
      connectionTimeoutInSeconds: this.base.connectTimeoutMs / 1000,
      abortSignal: signal,
    });
    const opened = new Promise<void>((resolve, reject) => {
      socket.on('open', () => resolve());
      socket.on('error', (error) => reject(handshakeError(error)));
      // The SDK fires 'close' just before 'error' when a handshake is refused: let the error, which carries
      // the HTTP status, win.
      socket.on('close', (event) =>
        queueMicrotask(() =>
          reject(new VendorError('deepgram', `socket closed while connecting (${event.code})`, isRetryableClose(event.code))),
        ),
      );
    });
    signal.addEventListener('abort', () => socket.close(), { once: true });
    socket.connect();
    await opened;
    this.connectedAt.set(socket, performance.now());
    socket.on('message', (message) => {
      // Only the socket we speak on: a rotated-out socket has nothing of ours left on it.
      if (this.socket !== socket) return;
      const atMs = performance.now();
      this.inbox = this.inbox.then(() => this.onMessage(message, atMs)).catch(() => undefined);
    });
    socket.on('error', () => {
      // 'close' follows and reports the loss.
    });
    socket.on('close', (event) => {
      // A spare that closes before its turn is not taken over; the next cap check opens another.
      if (this.spare === socket) this.spare = undefined;
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.stopTimers();
      this.linkLost(new VendorError('deepgram', `socket closed (${event.code}${event.reason ? ` ${event.reason}` : ''})`, closeRetryable(event.code, event.reason)));
    });
    return socket;
  }

  private stopTimers(): void {
    this.stopHeldFlush();
    clearTimeout(this.textTimer);
    clearTimeout(this.rotateTimer);
    this.textTimer = this.rotateTimer = undefined;
  }

  private dropSpare(): void {
    this.spare?.close();
    this.spare = undefined;
  }

  protected async closeLink(): Promise<void> {
    const socket = this.socket;
    this.dropSpare();
    if (!socket) return;
    this.socket = undefined;
    this.stopTimers();
    await new Promise<void>((resolve) => {
      socket.on('close', () => resolve());
      socket.sendClose({ type: 'Close' });
    });
  }

  protected dropLink(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.stopTimers();
    this.dropSpare();
    socket?.close();
  }

  protected newVendorState(): DeepgramUtterance {
    return { flushesSent: 0, flushedReceived: 0, held: [], phrases: 0, flushCovers: [], unflushed: false, clearing: false, endFlushHeld: false };
  }

  protected begin(): void {
    // Nothing to open: the socket is the context. The wire is free here (serial), so a spare waiting
    // for its turn takes over now, before this utterance sends anything.
    if (this.spare) this.rotate();
  }

  protected sendPhrase(u: UtteranceHandle<DeepgramUtterance>, text: string): void {
    this.queueText(u, text);
    this.sendText(u);
  }

  protected sendEnd(u: UtteranceHandle<DeepgramUtterance>, text: string): void {
    if (text) this.queueText(u, text);
    this.sendText(u);
  }

  protected sendCancel(u: UtteranceHandle<DeepgramUtterance>): boolean {
    this.speakSocket().sendClear({ type: 'Clear' });
    u.vendor.clearing = true;
    // `Clear` drops the held text too: nothing is left to flush.
    u.vendor.endFlushHeld = false;
    u.vendor.held = [];
    this.stopHeldFlush();
    this.noteSent();
    return false;
  }

  private queueText(u: UtteranceHandle<DeepgramUtterance>, text: string): void {
    const pieces = splitForSpeak(text);
    pieces.forEach((piece, i) => u.vendor.held.push({ text: piece, ends: i === pieces.length - 1 }));
  }

  /**
   * Sends held text as far as the character window allows, then the flush it is owed: the end flush once
   * `end()` came, else a phrase flush if Deepgram is idle. Text over the budget is retried every
   * FLUSH_RETRY_MS; what did go out is flushed meanwhile, so a long answer's first audio does not wait.
   */
  private sendText(u: UtteranceHandle<DeepgramUtterance>): void {
    if (u.settled || u.vendor.clearing || !this.socket) return;
    const { held } = u.vendor;
    while (held.length > 0) {
      const room = this.chars.room();
      const piece = held[0]!;
      const size = charCount(piece.text);
      if (size <= room) {
        this.speak(u, piece.text, size);
        held.shift();
        if (piece.ends) u.vendor.phrases += 1;
        continue;
      }
      // Part of the piece fits: send it up to a word boundary, never inside a word.
      const [head, tail] = room > 0 ? cutAt(piece.text, room) : ['', piece.text];
      if (head.length > 0 && /\s$/.test(head)) {
        this.speak(u, head, charCount(head));
        held[0] = { text: tail, ends: piece.ends };
        continue;
      }
      this.phraseFlush(u);
      this.retryText(u);
      return;
    }
    if (u.endRequested) {
      if (u.vendor.unflushed) this.endFlush(u);
      this.maybeComplete(u);
    } else {
      this.phraseFlush(u);
    }
  }

  private speak(u: UtteranceHandle<DeepgramUtterance>, text: string, size: number): void {
    this.speakSocket().sendText({ type: 'Speak', text });
    this.chars.add(size);
    u.vendor.unflushed = true;
    this.noteSent();
  }

  private retryText(u: UtteranceHandle<DeepgramUtterance>): void {
    if (this.textTimer) return;
    this.textTimer = setTimeout(() => {
      this.textTimer = undefined;
      this.sendText(u);
    }, FLUSH_RETRY_MS);
    this.textTimer.unref();
  }

  /**
   * A phrase's flush, sent only while Deepgram has nothing flushed left to answer (the first phrase at
   * once, later ones coalesced until the previous `Flushed`) and FLUSH_END_RESERVE slots stay free.
   */
  private phraseFlush(u: UtteranceHandle<DeepgramUtterance>): void {
    if (!u.vendor.unflushed || u.vendor.flushedReceived < u.vendor.flushesSent) return;
    if (this.flushesInWindow() < DEEPGRAM_FLUSHES_PER_MINUTE - FLUSH_END_RESERVE) this.sendFlush(u);
  }

  private sendFlush(u: UtteranceHandle<DeepgramUtterance>): void {
    this.speakSocket().sendFlush({ type: 'Flush' });
    this.flushTimes.push(this.now());
    u.vendor.flushesSent += 1;
    u.vendor.flushCovers.push(u.vendor.phrases);
    u.vendor.unflushed = false;
    this.noteSent();
  }

  /** The utterance's last flush: now if the window has a slot, else as soon as one frees. */
  private endFlush(u: UtteranceHandle<DeepgramUtterance>): void {
    if (this.flushesInWindow() < DEEPGRAM_FLUSHES_PER_MINUTE) {
      u.vendor.endFlushHeld = false;
      this.sendFlush(u);
      return;
    }
    u.vendor.endFlushHeld = true;
    this.stopHeldFlush();
    this.heldFlushTimer = setTimeout(() => {
      this.heldFlushTimer = undefined;
      if (u.settled || u.vendor.clearing || !u.vendor.endFlushHeld || !this.socket) return;
      this.endFlush(u);
      this.maybeComplete(u);
    }, FLUSH_RETRY_MS);
    this.heldFlushTimer.unref();
  }

  private stopHeldFlush(): void {
    if (this.heldFlushTimer) clearTimeout(this.heldFlushTimer);
    this.heldFlushTimer = undefined;
  }

  private flushesInWindow(): number {
    if (this.now() < this.flushBlockedUntil) return DEEPGRAM_FLUSHES_PER_MINUTE;
    const windowStart = this.now() - DEEPGRAM_FLUSH_WINDOW_MS;
    while (this.flushTimes.length > 0 && this.flushTimes[0]! <= windowStart) this.flushTimes.shift();
    return this.flushTimes.length;
  }

  private maybeComplete(u: UtteranceHandle<DeepgramUtterance>): void {
    if (u.endRequested && u.vendor.held.length === 0 && !u.vendor.unflushed && !u.vendor.endFlushHeld && u.vendor.flushedReceived >= u.vendor.flushesSent) this.complete(u);
  }

  private speakSocket(): SpeakSocket {
    if (!this.socket) throw new VendorError('deepgram', 'socket is not open', true);
    return this.socket;
  }

  private async onMessage(message: unknown, atMs: number): Promise<void> {
    if (message instanceof Blob || message instanceof ArrayBuffer || ArrayBuffer.isView(message)) {
      const bytes = await audioBytes(message);
      const u = this.onWire();
      if (u && !u.vendor.clearing) this.deliver(u, bytes, atMs);
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    const control = message as DeepgramControl;
    const u = this.onWire();
    switch (control.type) {
      case 'Flushed':
        if (u && !u.vendor.clearing) {
          const covers = u.vendor.flushCovers[u.vendor.flushedReceived];
          u.vendor.flushedReceived += 1;
          if (covers !== undefined) this.deliverPhrasesDone(u, covers, atMs);
          // Phrases coalesced while Deepgram was busy go now, in one flush.
          if (!u.endRequested) this.phraseFlush(u);
          this.maybeComplete(u);
        }
        return;
      case 'Cleared':
        if (u?.vendor.clearing) this.settle(u);
        return;
      case 'Error':
        if (u) this.failUtterance(u, new VendorError('deepgram', `${control.code ?? 'error'}: ${control.description ?? ''}`, false));
        return;
      case 'Warning':
        // Deepgram ignored a flush over its limit (our window should prevent it; its count may still differ
        // from ours): the text is still held there, so the utterance's end must be flushed again later or
        // its audio never comes. The spec's `SpeakV1Warning` says `code`; older servers said `warn_code`.
        if ((control.code ?? control.warn_code) === 'EXCESSIVE_FLUSH' && u && !u.vendor.clearing && u.vendor.flushesSent > u.vendor.flushedReceived) {
          u.vendor.flushesSent -= 1;
          u.vendor.flushCovers.pop();
          u.vendor.unflushed = true;
          // Deepgram says "try again later" without saying when: hold flushes for a second, then retry.
          this.flushBlockedUntil = this.now() + 1_000;
          if (u.endRequested) this.endFlush(u);
        }
        return;
      default:
        // Metadata on open.
        return;
    }
  }
}

/** The Deepgram TTS provider; `endpoint` comes from config (DEEPGRAM_API_KEY, DEEPGRAM_TTS_BASE_URL). */
export function deepgramTts(
  endpoint: DeepgramTtsEndpoint,
  base: Partial<TtsBaseOptions> = {},
  tuning: DeepgramTtsTuning = {},
): TtsProvider {
  const now = tuning.now ?? (() => performance.now());
  const options = { ...DEFAULT_TTS_BASE_OPTIONS, ...base };
  const client = new DeepgramClient({
    apiKey: endpoint.apiKey,
    ...(endpoint.baseUrl ? { baseUrl: toWebSocketBase(endpoint.baseUrl) } : {}),
    reconnect: false,
  });
  const maxSocketMs = tuning.maxSocketMs ?? DEEPGRAM_MAX_SOCKET_MS;
  const rotateAheadMs = Math.min(tuning.rotateAheadMs ?? DEEPGRAM_ROTATE_AHEAD_MS, maxSocketMs / 2);
  return providerOf('deepgram', (tts) => new DeepgramSession(client, tts, options, now, maxSocketMs, rotateAheadMs));
}
