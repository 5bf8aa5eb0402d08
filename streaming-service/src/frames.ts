import { VENDOR_FAILURE_REASONS, type VendorFailureReason } from '../../lib/domain/call-end.js';
import type { CallEndReason } from '../../lib/domain/history.js';
import type { SttEvent } from '../../lib/vendors/stt/port.js';

/**
 * What arrives at a call session (STYLE 6): exactly the kinds something sends, in two families.
 *
 * - **System frames** (the end, mark echoes, the recognizer's speech start, keypad digits) overtake queued
 *   data: a hang-up or a mark echo must not wait behind a second of queued caller audio.
 * - **Data frames** (caller audio, transcripts, utterance ends) flow in order and are never dropped: they are
 *   what the caller said. Agent output is not a frame: it is a chain of stages under the speech handle's
 *   abort signal (speech-handle.ts), so a barge-in stops it there, not here.
 *
 * Hot-path frames are plain objects (STYLE 3): Twilio messages are validated by the codec at the edge.
 */
export type SystemFrame =
  | { readonly kind: 'end'; readonly reason: EndCause; readonly atMs: number }
  | { readonly kind: 'mark_echo'; readonly name: string; readonly atMs: number }
  | { readonly kind: 'speech_started'; readonly atMs: number }
  | { readonly kind: 'dtmf'; readonly digit: string; readonly atMs: number };

export type DataFrame =
  /** Caller audio in the transport's format; `timestampMs` is the transport's media time (ms since start). */
  | { readonly kind: 'caller_audio'; readonly audio: Uint8Array; readonly timestampMs: number; readonly atMs: number }
  | {
      readonly kind: 'transcript';
      readonly text: string;
      readonly isFinal: boolean;
      readonly speechFinal: boolean;
      /** The segment's language as the recognizer detected it (ISO 639-1), where it reports one. */
      readonly language?: string;
      readonly atMs: number;
    }
  | { readonly kind: 'utterance_end'; readonly atMs: number };

export type Frame = SystemFrame | DataFrame;

/** Why the transport or a component asks the session to end (mapped to a CallEndReason by the session). */
export type EndCause = 'stop' | 'socket_closed' | 'agent_hangup' | 'transferred' | 'max_duration' | 'silence_timeout' | 'ended_by_api' | 'error' | VendorFailureReason;

/** End causes that end the call at the provider too: nobody hung up there, and the socket alone may leave a next verb to run. */
export const HANGS_UP: ReadonlySet<EndCause> = new Set(['agent_hangup', 'max_duration', 'silence_timeout', 'ended_by_api', 'error', ...VENDOR_FAILURE_REASONS]);

/** How each end is recorded: a stream that stopped or a socket that closed is the caller hanging up. */
export const END_REASONS: Readonly<Record<EndCause, CallEndReason>> = {
  stop: 'customer_hangup',
  socket_closed: 'customer_hangup',
  agent_hangup: 'agent_hangup',
  transferred: 'transferred',
  max_duration: 'max_duration',
  silence_timeout: 'silence_timeout',
  ended_by_api: 'ended_by_api',
  error: 'error',
  // A vendor that failed the call names the reason itself (failure.ts).
  ...(Object.fromEntries(VENDOR_FAILURE_REASONS.map((r) => [r, r])) as Record<VendorFailureReason, VendorFailureReason>),
};

const SYSTEM_KINDS: ReadonlySet<Frame['kind']> = new Set(['end', 'mark_echo', 'speech_started', 'dtmf']);

export const isSystemFrame = (frame: Frame): frame is SystemFrame => SYSTEM_KINDS.has(frame.kind);

/** STT events as frames: speech start is a system frame (it may interrupt), the rest is in-order data. */
export function sttEventToFrame(event: SttEvent): Frame {
  switch (event.type) {
    case 'speech_started':
      return { kind: 'speech_started', atMs: event.atMs };
    case 'transcript':
      return { kind: 'transcript', text: event.text, isFinal: event.isFinal, speechFinal: event.speechFinal, ...(event.language ? { language: event.language } : {}), atMs: event.atMs };
    case 'utterance_end':
      return { kind: 'utterance_end', atMs: event.atMs };
  }
}

/**
 * A two-lane queue with one consumer: system frames are served before any queued data frame, data frames
 * in arrival order.
 */
export class FrameQueue<F extends Frame = Frame> implements AsyncIterable<F> {
  private readonly system: F[] = [];
  private readonly data: F[] = [];
  private waiter: ((r: IteratorResult<F>) => void) | undefined;
  private closed = false;

  push(frame: F): void {
    if (this.closed) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: frame, done: false });
      return;
    }
    (isSystemFrame(frame) ? this.system : this.data).push(frame);
  }

  get size(): number {
    return this.system.length + this.data.length;
  }

  /** Ends iteration at once; queued frames are discarded (the call is over). */
  close(): void {
    this.closed = true;
    this.system.length = 0;
    this.data.length = 0;
    const w = this.waiter;
    this.waiter = undefined;
    w?.({ value: undefined as never, done: true });
  }

  /** Takes the next frame synchronously, if any (system first). */
  shift(): F | undefined {
    return this.system.shift() ?? this.data.shift();
  }

  [Symbol.asyncIterator](): AsyncIterator<F> {
    return {
      next: () => {
        const next = this.shift();
        if (next !== undefined) return Promise.resolve({ value: next, done: false });
        if (this.closed) return Promise.resolve({ value: undefined as never, done: true });
        return new Promise((resolve) => {
          this.waiter = resolve;
        });
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined as never, done: true });
      },
    };
  }
}
