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
 * Deepgram Aura over its streaming socket (`/v1/speak?model=…&encoding=mulaw&sample_rate=8000`) through the
 * official SDK (`@deepgram/sdk` v5 `speak.v1.connect`, which takes a base URL).
 *
 * The socket has no context ids: it synthesizes `Speak` text in order, a `Flush` makes it speak what it
 * holds (binary audio, then `Flushed`), `Clear` drops queued text and audio (answered `Cleared`), `Close`
 * ends the socket. So utterances go on the wire one at a time: audio belongs to the utterance on the wire,
 * which completes when every `Flush` it sent is `Flushed`; a cancel sends `Clear` and the next utterance
 * starts only after `Cleared`, so no audio of the cancelled one can leak into it.
 *
 * Deepgram allows 20 flushes a minute: we flush only at phrase ends, and past the budget a phrase is left
 * buffered at Deepgram (it goes out with the next flush) — except the utterance's last flush, which is
 * always sent, since nothing else would release its audio.
 */

export interface DeepgramTtsEndpoint {
  readonly apiKey: string;
  /** Undefined for the real service (the SDK's `wss://api.deepgram.com`), or a stand-in's base URL. */
  readonly baseUrl?: string;
}

/** Deepgram's documented limit on `Flush` messages per socket. */
export const DEEPGRAM_FLUSHES_PER_MINUTE = 20;

interface DeepgramUtterance {
  flushesSent: number;
  flushedReceived: number;
  /** Text sent with `Speak` but not yet flushed (a phrase flush skipped for the budget). */
  unflushed: boolean;
  clearing: boolean;
}

type SpeakSocket = Awaited<ReturnType<DeepgramClient['speak']['v1']['connect']>>;

interface DeepgramControl {
  type?: string;
  description?: string;
  code?: string;
}

class DeepgramSession extends TtsSessionBase<DeepgramUtterance> {
  private socket: SpeakSocket | undefined;
  /** Messages are handled one after another: binary audio arrives as a Blob that takes a tick to read, and a
   * `Flushed` right behind it must not overtake it. */
  private inbox: Promise<void> = Promise.resolve();
  private readonly flushTimes: number[] = [];

  constructor(
    private readonly client: DeepgramClient,
    options: TtsOptions,
    base: TtsBaseOptions,
  ) {
    super('deepgram', options, base, true);
  }

  protected async openLink(signal: AbortSignal): Promise<void> {
    const socket = await this.client.speak.v1.connect({
      // Aura's voice is its model; an explicit model wins.
      model: this.ttsOptions.model ?? this.ttsOptions.voiceId,
      encoding: 'mulaw',
      sample_rate: '8000',
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
      this.linkLost(new VendorError('deepgram', `socket closed (${event.code}${event.reason ? ` ${event.reason}` : ''})`, isRetryableClose(event.code)));
    });
  }

  protected async closeLink(): Promise<void> {
    const socket = this.socket;
    if (!socket) return;
    this.socket = undefined;
    await new Promise<void>((resolve) => {
      socket.on('close', () => resolve());
      socket.sendClose({ type: 'Close' });
    });
  }

  protected dropLink(): void {
    const socket = this.socket;
    this.socket = undefined;
    socket?.close();
  }

  protected newVendorState(): DeepgramUtterance {
    return { flushesSent: 0, flushedReceived: 0, unflushed: false, clearing: false };
  }

  protected begin(): void {
    // Nothing to open: the socket is the context.
  }

  protected sendPhrase(u: UtteranceHandle<DeepgramUtterance>, text: string): void {
    this.speakSocket().sendText({ type: 'Speak', text });
    u.vendor.unflushed = true;
    if (this.flushBudgetLeft()) this.sendFlush(u);
  }

  protected sendEnd(u: UtteranceHandle<DeepgramUtterance>, text: string): void {
    if (text) {
      this.speakSocket().sendText({ type: 'Speak', text });
      u.vendor.unflushed = true;
    }
    if (u.vendor.unflushed) this.sendFlush(u);
    this.maybeComplete(u);
  }

  protected sendCancel(u: UtteranceHandle<DeepgramUtterance>): boolean {
    this.speakSocket().sendClear({ type: 'Clear' });
    u.vendor.clearing = true;
    this.noteSent();
    return false;
  }

  private sendFlush(u: UtteranceHandle<DeepgramUtterance>): void {
    this.speakSocket().sendFlush({ type: 'Flush' });
    this.flushTimes.push(performance.now());
    u.vendor.flushesSent += 1;
    u.vendor.unflushed = false;
    this.noteSent();
  }

  private flushBudgetLeft(): boolean {
    const windowStart = performance.now() - 60_000;
    while (this.flushTimes.length > 0 && this.flushTimes[0]! < windowStart) this.flushTimes.shift();
    // Keep one flush in reserve for the utterance's end, which must always be sent.
    return this.flushTimes.length < DEEPGRAM_FLUSHES_PER_MINUTE - 1;
  }

  private maybeComplete(u: UtteranceHandle<DeepgramUtterance>): void {
    if (u.endRequested && !u.vendor.unflushed && u.vendor.flushedReceived >= u.vendor.flushesSent) this.complete(u);
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
      default:
        // Metadata on open; Warning (e.g. a flush over the rate limit) changes nothing we do.
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
export function deepgramTts(endpoint: DeepgramTtsEndpoint, base: Partial<TtsBaseOptions> = {}): TtsProvider {
  const options = { ...DEFAULT_TTS_BASE_OPTIONS, ...base };
  const client = new DeepgramClient({
    apiKey: endpoint.apiKey,
    ...(endpoint.baseUrl ? { baseUrl: toWebSocketBase(endpoint.baseUrl) } : {}),
    reconnect: false,
  });
  return providerOf('deepgram', (tts) => new DeepgramSession(client, tts, options));
}
