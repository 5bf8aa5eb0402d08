import type { STT_PROVIDERS } from '../../domain/agent.js';
import type { AudioFormat } from '../shared/audio-format.js';

export type SttProviderId = (typeof STT_PROVIDERS)[number];

/** How a live transcription stream is opened. */
export interface SttOptions {
  /** BCP-47 language, for example "en-US", or `multi`: the vendor detects it and reports it per transcript. */
  readonly language: string;
  /** Silence that ends a turn at the vendor (Deepgram `endpointing`); conversation uses 300-500 ms. */
  readonly endpointingMs: number;
  /** Fallback end of utterance when noise keeps endpointing from firing (Deepgram `utterance_end_ms`). */
  readonly utteranceEndMs: number;
  /** Vendor model name; each adapter has a sensible default. */
  readonly model?: string;
  /** The caller's audio as the transport carries it; default {@link PHONE_AUDIO} (mu-law 8 kHz). */
  readonly format?: AudioFormat;
}

/**
 * What a transcription stream reports. `atMs` is `performance.now()` when the adapter received the event,
 * for latency accounting.
 */
export type SttEvent =
  | { readonly type: 'speech_started'; readonly atMs: number }
  | {
      readonly type: 'transcript';
      readonly text: string;
      /** This segment's text will not change. */
      readonly isFinal: boolean;
      /** The vendor's endpointing says the speaker finished their turn. */
      readonly speechFinal: boolean;
      readonly confidence?: number;
      /** The language the vendor detected in this segment (ISO 639-1, `de`), where it reports one. */
      readonly language?: string;
      readonly atMs: number;
    }
  | { readonly type: 'utterance_end'; readonly atMs: number };

/** One open transcription stream for one call. */
export interface SttStream {
  /** Sends caller audio: raw bytes in the stream's `format`, any chunk size of whole samples. Never blocks. */
  sendAudio(audio: Uint8Array): void;
  /** Asks the vendor to finalize what it has heard now (local VAD heard the end of speech). */
  finalize(): void;
  /** Ends the stream; `events` then completes. */
  close(): Promise<void>;
  /** Events in arrival order; completes on close, throws a VendorError on failure. */
  readonly events: AsyncIterable<SttEvent>;
}

/** A speech-to-text vendor. */
export interface SttProvider {
  readonly id: SttProviderId;
  /** Opens a stream; resolves when the vendor accepted it, so it is warm before the first turn. */
  connect(options: SttOptions, signal?: AbortSignal): Promise<SttStream>;
}

/** Where an adapter connects: the vendor's real URL, or a stand-in's on loopback. */
export interface VendorEndpoint {
  readonly apiKey: string;
  readonly baseUrl: string;
}
