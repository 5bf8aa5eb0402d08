import type { TtsProviderId } from './port.js';

/** How one utterance went, reported when it settles. */
export interface TtsUtteranceMetrics {
  readonly provider: TtsProviderId;
  readonly utteranceId: string;
  readonly outcome: 'complete' | 'cancelled' | 'failed';
  /** `performance.now()` when its first text went to the vendor (first flush, or end). */
  readonly firstTextSentAtMs?: number;
  readonly firstByteAtMs?: number;
  /** First audio byte minus first text sent: the vendor's time to first byte as this process sees it. */
  readonly firstByteMs?: number;
  readonly audioBytes: number;
}

/** Settings of the shared base; adapters and tests override by spread. */
export interface TtsBaseOptions {
  /**
   * A vendor handshake takes 100-500 ms; 5 s bounds a hung TCP/TLS handshake without failing a slow one.
   * Counted per attempt.
   */
  readonly connectTimeoutMs: number;
  /** Attempts to open the socket, retryable failures only (a rate-limit blip or a reset connection). */
  readonly connectAttempts: number;
  /** First back-off between connect attempts; doubles each time. */
  readonly connectBackoffMs: number;
  /** How long a graceful close may take before the socket is cut. */
  readonly closeTimeoutMs: number;
  /** Overrides the adapter's keepalive interval (the vendor's idle timeout guard); for tests. */
  readonly keepaliveMs?: number;
  /** Called once per utterance when it completes, is cancelled or fails. */
  readonly onMetrics?: (metrics: TtsUtteranceMetrics) => void;
}

export const DEFAULT_TTS_BASE_OPTIONS = {
  connectTimeoutMs: 5_000,
  connectAttempts: 3,
  connectBackoffMs: 100,
  closeTimeoutMs: 1_000,
} as const satisfies TtsBaseOptions;
