import { MAX_CALL_EVENTS, shownMessage, type CallEvent, type CallStage } from '../../../lib/domain/call-timeline.js';
import { describeVendorFailure } from '../../../lib/vendors/shared/errors.js';
import { turnFigures, type TurnLatency } from '../call/latency.js';

type Distribute<T> = T extends unknown ? Omit<T, 'atMs'> : never;
/** An event as a part of the call reports it; the timeline stamps the time. */
export type CallEventInput = Distribute<CallEvent>;

/** What a call's timeline came to: its events in time order, and whether some were left out. */
export interface TimelineSnapshot {
  readonly data: readonly CallEvent[];
  readonly truncated: boolean;
}

/**
 * A call's event timeline (GET /api/history/{id}/events): what its parts report as it happens, vendor
 * connects, fallbacks, tool calls and errors, and, at the end, what the session already keeps (turn
 * latencies, interruptions, the transfer). Bounded: at most {@link MAX_CALL_EVENTS}, the first ones kept,
 * with the end always last. Messages are scrubbed of the call's keys (`secrets`) and of anything key-shaped.
 */
export class CallTimeline {
  private readonly events: CallEvent[] = [];
  private dropped = 0;

  constructor(
    /** performance.now() at the call's start: events are in ms from it. */
    private readonly startMs: number,
    private readonly secrets: readonly (string | undefined)[] = [],
    private readonly limit: number = MAX_CALL_EVENTS,
  ) {}

  /** Records an event at `atMs` (performance.now(), default now). */
  note(event: CallEventInput, atMs: number = performance.now()): void {
    // One place kept free for the end.
    if (this.events.length >= this.limit - 1) {
      this.dropped += 1;
      return;
    }
    this.events.push({ ...event, atMs: Math.max(0, Math.round(atMs - this.startMs)) } as CallEvent);
  }

  /** A vendor error, described as a user may see it; `fatal` when it ends the call. */
  vendorError(stage: CallStage, error: unknown, fatal: boolean, atMs?: number): { vendor: string; code: string | null; message: string } {
    const d = describeVendorFailure(error, this.secrets);
    const shown = { vendor: d.vendor, code: d.code, message: shownMessage(d.message) };
    this.note({ type: 'error', stage, ...shown, fatal }, atMs);
    return shown;
  }

  /** The call's custom ambience file could not be had: the call goes on without a bed. */
  ambienceUnavailable(error: unknown): void {
    this.note({ type: 'ambience_unavailable', message: shownMessage(describeVendorFailure(error, this.secrets).message) });
  }

  /** A fallback vendor took over after `error`. */
  fallback(stage: 'stt' | 'tts' | 'llm' | 'realtime', error: unknown, to: string): void {
    const d = describeVendorFailure(error, this.secrets);
    this.note({ type: 'vendor_fallback', stage, vendor: d.vendor, to, code: d.code, message: shownMessage(d.message) });
  }

  /** Seconds from the call's start to `atMs`, to 0.1 s. */
  secondsAt(atMs: number = performance.now()): number {
    return Math.round((atMs - this.startMs) / 100) / 10;
  }

  /**
   * The timeline at the call's end: the events noted, the turns, interruptions and transfer the session
   * kept, in time order, capped, then the end.
   */
  finish(parts: {
    readonly latencies: readonly TurnLatency[];
    readonly interruptions: readonly { readonly atMs: number }[];
    readonly transfer?: { readonly destination: string; readonly mode: 'cold' | 'warm'; readonly outcome: string } | undefined;
    readonly reason: string;
  }, endedAtMs: number = performance.now()): TimelineSnapshot {
    for (const l of parts.latencies) this.note({ type: 'turn', ...turnFigures(l) }, l.sttFinalAtMs);
    for (const i of parts.interruptions) this.note({ type: 'interruption' }, i.atMs);
    if (parts.transfer) this.note({ type: 'transfer', destination: parts.transfer.destination, mode: parts.transfer.mode, outcome: parts.transfer.outcome }, endedAtMs);
    const data = [...this.events].sort((a, b) => a.atMs - b.atMs);
    data.push({ type: 'ended', reason: parts.reason, atMs: Math.max(0, Math.round(endedAtMs - this.startMs)) });
    return { data, truncated: this.dropped > 0 };
  }
}
