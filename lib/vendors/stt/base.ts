import { AsyncQueue } from '../shared/async-queue.js';
import { VendorError, isRetryableStatus } from '../shared/errors.js';
import type { SttEvent, SttOptions, SttProvider, SttProviderId, SttStream } from './port.js';

/**
 * What every speech-to-text adapter shares (STYLE 8): the connect timeout, retrying a connect that failed
 * in a retryable way, the close timeout, metrics hooks, and turning a vendor's callbacks into the port's
 * `events` iterable. An adapter implements only {@link SttConnector}: open one vendor stream and run it.
 */

/** Where an adapter delivers what its vendor said, once the stream is open. */
export interface SttSink {
  /** One event, in vendor order. */
  emit(event: SttEvent): void;
  /** The vendor ended the stream after a close request: `events` completes. */
  end(): void;
  /** The stream broke: `events` throws this error after the events already delivered. */
  fail(error: VendorError): void;
}

/** One open vendor stream, as the base drives it. */
export interface SttConnection {
  /**
   * Raw audio in the stream's format (`SttOptions.format`, default mu-law 8 kHz), whole samples; never
   * blocks (adapters buffer or drop what the socket cannot take). An adapter whose vendor cannot take that
   * format natively converts here, at its edge (OpenAI: linear16 16 kHz -> 24 kHz).
   */
  sendAudio(audio: Uint8Array): void;
  finalize(): void;
  /** Asks the vendor to flush and close; resolves once it has, after calling `sink.end()`. */
  close(): Promise<void>;
  /** Drops the connection now, without waiting for the vendor. Idempotent. */
  terminate(): void;
}

/** A vendor's connect-and-run loop. */
export interface SttConnector {
  readonly id: SttProviderId;
  /**
   * Opens a stream and resolves once the vendor has accepted it (its session-begun message where it has
   * one). Rejects with a {@link VendorError}; must give up promptly when `signal` aborts.
   */
  open(options: SttOptions, sink: SttSink, signal: AbortSignal): Promise<SttConnection>;
}

/** Observations the base reports; wire them to logs or a metrics system. */
export interface SttMetrics {
  connected?(info: { provider: SttProviderId; attempts: number; connectMs: number }): void;
  connectFailed?(info: { provider: SttProviderId; attempts: number; error: VendorError }): void;
  streamEnded?(info: {
    provider: SttProviderId;
    durationMs: number;
    audioBytes: number;
    finals: number;
    error?: VendorError;
  }): void;
}

export interface SttBaseOptions {
  /** One connect attempt, handshake to the vendor's session-begun message. */
  readonly connectTimeoutMs: number;
  /** Attempts in all, for retryable failures only. */
  readonly connectAttempts: number;
  /** First back-off; doubles per retry with full jitter. */
  readonly retryBaseDelayMs: number;
  readonly retryMaxDelayMs: number;
  /** How long `close()` waits for the vendor to flush its last results before dropping the socket. */
  readonly closeTimeoutMs: number;
  readonly metrics: SttMetrics;
}

/**
 * A vendor handshake takes well under a second; 5 s is long enough for a slow TLS path and short enough to
 * retry within the first ring of a call. Three attempts with 200 ms-2 s jittered back-off ride out a
 * restarting vendor node or a 429 burst. Flushing the last results after a close takes the vendor a few
 * hundred ms; 5 s bounds a vendor that never answers.
 */
export const DEFAULT_STT_BASE_OPTIONS = {
  connectTimeoutMs: 5_000,
  connectAttempts: 3,
  retryBaseDelayMs: 200,
  retryMaxDelayMs: 2_000,
  closeTimeoutMs: 5_000,
  metrics: {},
} as const satisfies SttBaseOptions;

/** The reason an aborted signal carries, or a standard AbortError. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/** Wraps anything an adapter threw into a VendorError (unknown failures are treated as network faults). */
export function toVendorError(vendor: string, error: unknown): VendorError {
  if (error instanceof VendorError) return error;
  const message = error instanceof Error ? error.message : typeof error === 'object' && error && 'message' in error ? String((error as { message: unknown }).message) : String(error);
  const status = handshakeStatus(message);
  return new VendorError(vendor, message || 'connection failed', isRetryableStatus(status), status, { cause: error });
}

/**
 * The HTTP status of a refused WebSocket handshake, from the `ws` package's message
 * ("Unexpected server response: 401"), which is all most SDKs pass on.
 */
export function handshakeStatus(message: string): number | undefined {
  const match = /Unexpected server response: (\d{3})/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** Resolves after `ms`, or rejects when the signal aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A speech-to-text provider built from a vendor connector and the shared policies. */
export class BaseSttProvider implements SttProvider {
  readonly id: SttProviderId;
  private readonly options: SttBaseOptions;

  constructor(
    private readonly connector: SttConnector,
    options: Partial<SttBaseOptions> = {},
  ) {
    this.id = connector.id;
    this.options = { ...DEFAULT_STT_BASE_OPTIONS, ...options };
  }

  /**
   * Opens a stream, retrying retryable failures. Aborting `signal` during connect rejects with the signal's
   * reason; aborting it later drops the stream and completes `events`.
   */
  async connect(options: SttOptions, signal?: AbortSignal): Promise<SttStream> {
    const { connectAttempts, retryBaseDelayMs, retryMaxDelayMs, metrics } = this.options;
    const started = performance.now();
    for (let attempt = 1; ; attempt += 1) {
      if (signal?.aborted) throw abortReason(signal);
      try {
        const stream = await this.attempt(options, signal);
        metrics.connected?.({ provider: this.id, attempts: attempt, connectMs: performance.now() - started });
        return stream;
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        const vendorError = toVendorError(this.id, error);
        if (!vendorError.retryable || attempt >= connectAttempts) {
          metrics.connectFailed?.({ provider: this.id, attempts: attempt, error: vendorError });
          throw vendorError;
        }
        const ceiling = Math.min(retryMaxDelayMs, retryBaseDelayMs * 2 ** (attempt - 1));
        await sleep(Math.random() * ceiling, signal);
      }
    }
  }

  private async attempt(options: SttOptions, signal: AbortSignal | undefined): Promise<SttStream> {
    const attemptController = new AbortController();
    const onCallerAbort = () => attemptController.abort(abortReason(signal!));
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = setTimeout(
      () => attemptController.abort(new VendorError(this.id, `connect timed out after ${this.options.connectTimeoutMs} ms`, true)),
      this.options.connectTimeoutMs,
    );
    const stream = new BaseSttStream(this.id, this.options);
    const opening = this.connector.open(options, stream.sink, attemptController.signal);
    try {
      // The connector should honour the signal; racing it guarantees the timeout even if one does not.
      const connection = await new Promise<SttConnection>((resolve, reject) => {
        const onAbort = () => reject(attemptController.signal.reason);
        if (attemptController.signal.aborted) onAbort();
        attemptController.signal.addEventListener('abort', onAbort, { once: true });
        opening.then(resolve, reject).finally(() => attemptController.signal.removeEventListener('abort', onAbort));
      });
      stream.attach(connection, signal);
      return stream;
    } catch (error) {
      // A connection that opened after we gave up must not linger.
      opening.then((late) => late.terminate(), () => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }
}

/** The port's stream: guards the connection, owns the event queue and the close policy. */
class BaseSttStream implements SttStream {
  private readonly queue = new AsyncQueue<SttEvent>();
  private connection: SttConnection | undefined;
  private closing: Promise<void> | undefined;
  private done = false;
  private readonly openedAt = performance.now();
  private audioBytes = 0;
  private finals = 0;
  private detachAbort: (() => void) | undefined;

  readonly events: AsyncIterable<SttEvent> = this.queue;

  readonly sink: SttSink = {
    emit: (event) => {
      if (this.done) return;
      if (event.type === 'transcript' && event.isFinal) this.finals += 1;
      this.queue.push(event);
    },
    end: () => this.finish(),
    fail: (error) => {
      this.connection?.terminate();
      this.finish(error);
    },
  };

  constructor(
    private readonly provider: SttProviderId,
    private readonly options: SttBaseOptions,
  ) {}

  attach(connection: SttConnection, signal: AbortSignal | undefined): void {
    this.connection = connection;
    if (signal) {
      const onAbort = () => {
        connection.terminate();
        this.finish();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.detachAbort = () => signal.removeEventListener('abort', onAbort);
    }
  }

  sendAudio(audio: Uint8Array): void {
    if (this.done || this.closing || !this.connection || audio.length === 0) return;
    this.audioBytes += audio.length;
    try {
      this.connection.sendAudio(audio);
    } catch (error) {
      this.sink.fail(toVendorError(this.provider, error));
    }
  }

  finalize(): void {
    if (this.done || this.closing || !this.connection) return;
    try {
      this.connection.finalize();
    } catch (error) {
      this.sink.fail(toVendorError(this.provider, error));
    }
  }

  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    const connection = this.connection;
    if (this.done || !connection) return this.finish();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        connection.close(),
        new Promise<void>((_, reject) => {
          timer = setTimeout(() => reject(new Error('close timed out')), this.options.closeTimeoutMs);
        }),
      ]);
    } catch {
      // The vendor did not confirm in time (or the socket broke while closing): what arrived is kept.
      connection.terminate();
    } finally {
      clearTimeout(timer);
      this.finish();
    }
  }

  private finish(error?: VendorError): void {
    if (this.done) return;
    this.done = true;
    this.detachAbort?.();
    if (error) this.queue.fail(error);
    else this.queue.end();
    this.options.metrics.streamEnded?.({
      provider: this.provider,
      durationMs: performance.now() - this.openedAt,
      audioBytes: this.audioBytes,
      finals: this.finals,
      ...(error && { error }),
    });
  }
}

/** The settling half of a connect in flight, from {@link connectAttempt}. */
export interface ConnectAttempt<T> {
  /** True once {@link accept} has resolved the connect: failures from then on belong to the open stream. */
  readonly accepted: boolean;
  /** The vendor accepted the stream: resolve the connect with `value`. */
  accept(value: T): void;
  /**
   * Rejects the connect with `error` and drops the half-open socket, unless it was already accepted; says
   * whether it did, so that a caller hands later failures to the open stream instead.
   */
  refuse(error: unknown): boolean;
}

/**
 * Settles a connect that ends on a vendor's "session began" message rather than on the socket opening
 * (AssemblyAI's `Begin`, OpenAI's `session.updated`): an abort of `signal` before that drops the socket and
 * rejects with the signal's reason; accepting or refusing stops listening to it. Undefined when `signal` was
 * already aborted (the connect is rejected then).
 */
export function connectAttempt<T>(
  signal: AbortSignal,
  drop: () => void,
  resolve: (value: T) => void,
  reject: (reason: unknown) => void,
): ConnectAttempt<T> | undefined {
  let accepted = false;
  const onAbort = () => {
    drop();
    reject(signal.reason);
  };
  if (signal.aborted) {
    onAbort();
    return undefined;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    get accepted() {
      return accepted;
    },
    accept(value) {
      accepted = true;
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    },
    refuse(error) {
      if (accepted) return false;
      signal.removeEventListener('abort', onAbort);
      drop();
      reject(error);
      return true;
    },
  };
}

/** `http(s)://` to `ws(s)://`; other schemes unchanged. Base URLs may be given either way. */
export function toWebSocketUrl(url: string): string {
  return url.replace(/^http(s?):\/\//i, (_, s: string) => `ws${s}://`);
}

/** Joins a base URL and a path without doubling or dropping the slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** `performance.now()`: the clock every SttEvent's `atMs` uses. */
export const now = (): number => performance.now();

/** The primary subtag of a BCP-47 tag ("en-US" -> "en"), for vendors that take ISO 639-1 codes. */
export function primaryLanguage(tag: string): string {
  return (tag.split(/[-_]/)[0] ?? tag).toLowerCase();
}
