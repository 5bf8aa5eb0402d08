import { AsyncQueue } from '../shared/async-queue.js';
import { WholeSamples, formatOf } from '../shared/pcm.js';
import type { TtsUtteranceMetrics } from './base-options.js';
import type { TtsAudioChunk, TtsOptions, TtsUtterance } from './port.js';

/**
 * What a handle needs of its session (./base.ts): a narrow view, so this file never imports the session
 * class back.
 */
export interface UtteranceOwner<V> {
  readonly ttsOptions: TtsOptions;
  submit(u: UtteranceHandle<V>, op: Op): void;
  cancelUtterance(u: UtteranceHandle<V>): void;
}

/** A piece of an utterance's text for the wire: a flushed phrase, or the end with what was left unflushed. */
export type Op = { readonly type: 'phrase'; readonly text: string } | { readonly type: 'end'; readonly text: string };

/**
 * One utterance as the base tracks it. Adapters read `wireId` (the vendor context id) and keep their own
 * per-utterance state in `vendor`.
 */
export class UtteranceHandle<V> implements TtsUtterance {
  readonly audio = new AsyncQueue<TtsAudioChunk>();
  /** Text pushed since the last flush. */
  private buffer = '';
  /** Operations waiting for the socket (or, on a serial vendor, for the utterance's turn). */
  readonly pending: Op[] = [];
  /** The adapter has been told about this utterance (`begin`). */
  started = false;
  /** `end()` was called. */
  endRequested = false;
  /** How `audio` finished; undefined while it is still open. */
  outcome: TtsUtteranceMetrics['outcome'] | undefined;
  /** The vendor is done with it (its audio complete, its cancel acknowledged); the next may use the wire. */
  settled = false;
  firstTextSentAtMs: number | undefined;
  firstByteAtMs: number | undefined;
  audioBytes = 0;
  /** Frames the vendor's audio into whole samples: a linear16 chunk's odd byte waits for the next chunk. */
  readonly samples: WholeSamples;

  constructor(
    readonly id: string,
    readonly wireId: string,
    readonly vendor: V,
    private readonly session: UtteranceOwner<V>,
    /** The language to speak this utterance in, for vendors that take one per request (Cartesia). */
    readonly language?: string,
  ) {
    this.samples = new WholeSamples(formatOf(session.ttsOptions));
  }

  pushText(text: string): void {
    if (this.endRequested || this.outcome) return;
    this.buffer += text;
  }

  flush(): void {
    if (this.endRequested || this.outcome || this.buffer.trim().length === 0) return;
    const text = this.buffer;
    this.buffer = '';
    this.session.submit(this, { type: 'phrase', text });
  }

  end(): void {
    if (this.endRequested || this.outcome) return;
    this.endRequested = true;
    const text = this.buffer.trim().length > 0 ? this.buffer : '';
    this.buffer = '';
    this.session.submit(this, { type: 'end', text });
  }

  cancel(): void {
    if (this.outcome) return;
    this.session.cancelUtterance(this);
  }

  /** Metrics so far (final once settled). */
  get metrics(): Omit<TtsUtteranceMetrics, 'provider'> {
    return {
      utteranceId: this.id,
      outcome: this.outcome ?? 'complete',
      firstTextSentAtMs: this.firstTextSentAtMs,
      firstByteAtMs: this.firstByteAtMs,
      firstByteMs:
        this.firstByteAtMs !== undefined && this.firstTextSentAtMs !== undefined
          ? this.firstByteAtMs - this.firstTextSentAtMs
          : undefined,
      audioBytes: this.audioBytes,
    };
  }
}
