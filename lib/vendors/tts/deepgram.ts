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
 * Deepgram allows 20 flushes per 60 s; past that it ignores a `Flush` with a `Warning` (`EXCESSIVE_FLUSH`)
 * and keeps the text, so an utterance whose last flush is ignored never gets its audio: the agent goes
 * silent. We count our own flushes in a sliding window (a little longer than 60 s: Deepgram counts from
 * when it receives a flush, a moment after we send it) and never send one over the budget:
 * - a phrase flush (first audio early) is sent only while FLUSH_END_RESERVE slots stay free; past that,
 *   phrases are coalesced: their `Speak` text waits at Deepgram for the next flush;
 * - an utterance's last flush, which nothing else would replace, uses the reserve; when even that is spent it
 *   waits for the oldest flush to leave the window (re-checked every FLUSH_RETRY_MS), rather than be ignored.
 * We do not open a new socket to get a fresh budget: Deepgram's documentation does not say the budget is
 * per socket, and a reconnect would cost the turn a handshake.
 */

export interface DeepgramTtsEndpoint {
  readonly apiKey: string;
  /** Undefined for the real service (the SDK's `wss://api.deepgram.com`), or a stand-in's base URL. */
  readonly baseUrl?: string;
}

/** Deepgram's documented limit on `Flush` messages per 60 s. */
export const DEEPGRAM_FLUSHES_PER_MINUTE = 20;
/** The window we count flushes in: Deepgram's 60 s plus a margin for the flush's trip to Deepgram. */
export const DEEPGRAM_FLUSH_WINDOW_MS = 61_000;
/** Slots phrase flushes leave free for utterance ends, so a turn's end is not kept waiting. */
export const FLUSH_END_RESERVE = 5;
/** How often a held end flush re-checks the window (also lets an injected clock take effect promptly). */
const FLUSH_RETRY_MS = 250;

/** Test hooks: the clock the flush window is kept on (default `performance.now`). */
export interface DeepgramTtsTuning {
  readonly now?: () => number;
}

interface DeepgramUtterance {
  flushesSent: number;
  flushedReceived: number;
  /** Text sent with `Speak` but not yet flushed (a phrase flush skipped for the budget). */
  unflushed: boolean;
  clearing: boolean;
  /** The end flush waits for a slot in the flush window. */
  endFlushHeld: boolean;
}

type SpeakSocket = Awaited<ReturnType<DeepgramClient['speak']['v1']['connect']>>;

interface DeepgramControl {
  type?: string;
  description?: string;
  code?: string;
  warn_code?: string;
  warn_msg?: string;
}

class DeepgramSession extends TtsSessionBase<DeepgramUtterance> {
  private socket: SpeakSocket | undefined;
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
  ) {
    super('deepgram', options, base, true);
  }

  protected async openLink(signal: AbortSignal): Promise<void> {
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
    this.socket = socket;
    this.inbox = Promise.resolve();
    socket.on('message', (message) => {
      const atMs = performance.now();
      this.inbox = this.inbox.then(() => this.onMessage(message, atMs)).catch(() => undefined);
    });
    socket.on('error', () => {
      // 'close' follows and reports the loss.
    });
    socket.on('close', (event) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.stopHeldFlush();
      this.linkLost(new VendorError('deepgram', `socket closed (${event.code}${event.reason ? ` ${event.reason}` : ''})`, isRetryableClose(event.code)));
    });
  }

  protected async closeLink(): Promise<void> {
    const socket = this.socket;
    if (!socket) return;
    this.socket = undefined;
    this.stopHeldFlush();
    await new Promise<void>((resolve) => {
      socket.on('close', () => resolve());
      socket.sendClose({ type: 'Close' });
    });
  }

  protected dropLink(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.stopHeldFlush();
    socket?.close();
  }

  protected newVendorState(): DeepgramUtterance {
    return { flushesSent: 0, flushedReceived: 0, unflushed: false, clearing: false, endFlushHeld: false };
  }

  protected begin(): void {
    // Nothing to open: the socket is the context.
  }

  protected sendPhrase(u: UtteranceHandle<DeepgramUtterance>, text: string): void {
    this.speakSocket().sendText({ type: 'Speak', text });
    u.vendor.unflushed = true;
    if (this.flushesInWindow() < DEEPGRAM_FLUSHES_PER_MINUTE - FLUSH_END_RESERVE) this.sendFlush(u);
  }

  protected sendEnd(u: UtteranceHandle<DeepgramUtterance>, text: string): void {
    if (text) {
      this.speakSocket().sendText({ type: 'Speak', text });
      u.vendor.unflushed = true;
    }
    if (u.vendor.unflushed) this.endFlush(u);
    this.maybeComplete(u);
  }

  protected sendCancel(u: UtteranceHandle<DeepgramUtterance>): boolean {
    this.speakSocket().sendClear({ type: 'Clear' });
    u.vendor.clearing = true;
    // `Clear` drops the held text too: nothing is left to flush.
    u.vendor.endFlushHeld = false;
    this.stopHeldFlush();
    this.noteSent();
    return false;
  }

  private sendFlush(u: UtteranceHandle<DeepgramUtterance>): void {
    this.speakSocket().sendFlush({ type: 'Flush' });
    this.flushTimes.push(this.now());
    u.vendor.flushesSent += 1;
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
    if (u.endRequested && !u.vendor.unflushed && !u.vendor.endFlushHeld && u.vendor.flushedReceived >= u.vendor.flushesSent) this.complete(u);
  }

  private speakSocket(): SpeakSocket {
    if (!this.socket) throw new VendorError('deepgram', 'socket is not open', true);
    return this.socket;
  }

  private async onMessage(message: unknown, atMs: number): Promise<void> {
    if (message instanceof Blob || message instanceof ArrayBuffer || ArrayBuffer.isView(message)) {
      const bytes =
        message instanceof Blob
          ? new Uint8Array(await message.arrayBuffer())
          : message instanceof ArrayBuffer
            ? new Uint8Array(message)
            : new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
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
          u.vendor.flushedReceived += 1;
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
        // its audio never comes.
        if (control.warn_code === 'EXCESSIVE_FLUSH' && u && !u.vendor.clearing && u.vendor.flushesSent > u.vendor.flushedReceived) {
          u.vendor.flushesSent -= 1;
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

/** The SDK reports a refused handshake as an error whose message carries the HTTP status. */
function handshakeError(error: Error): VendorError {
  const status = /(\d{3})/.exec(error.message)?.[1];
  if (status) {
    const code = Number(status);
    return new VendorError('deepgram', `handshake refused: ${error.message}`, code === 408 || code === 429 || code >= 500, code);
  }
  return new VendorError('deepgram', `connection failed: ${error.message}`, true, undefined, { cause: error });
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
  return providerOf('deepgram', (tts) => new DeepgramSession(client, tts, options, now));
}
