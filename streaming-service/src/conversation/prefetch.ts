import type { LlmEvent, LlmRequest } from '../../../lib/vendors/llm/port.js';
import type { LlmStreamHooks } from './llm-chain.js';

/**
 * Preemptive generation (docs/voice-pipeline.md, "Preemptive generation"): a turn's first model request,
 * started before the recognizer confirmed the turn, while the caller's words already look complete. What it
 * streams is kept, unspoken, until the turn's own first request asks for the same thing; it is then replayed
 * and continued as if it had been asked at that moment. A request that matches nothing is cancelled, never
 * spoken: the model's answer to words the caller did not say is not heard.
 *
 * "The same thing" is the whole request (every message and the tools offered) with the caller's words
 * compared as words: recognizers capitalise and punctuate their final ("What time do you open?") where
 * their interim results did not, and that is no reason to ask again.
 */
export interface Stream {
  stream(request: Omit<LlmRequest, 'model'>, signal: AbortSignal, hooks?: LlmStreamHooks): AsyncIterable<LlmEvent>;
}

/** A request's words for comparison: lower case, letters, digits and apostrophes, single spaces. */
export function wordsOf(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}'\s]+/gu, ' ').split(/\s+/).filter(Boolean).join(' ');
}

const keyOf = (request: Omit<LlmRequest, 'model'>): string =>
  JSON.stringify({
    messages: request.messages.map((m) => (m.role === 'user' ? { ...m, content: wordsOf(m.content) } : m)),
    tools: (request.tools ?? []).map((t) => t.name),
  });

interface Pending {
  readonly key: string;
  /** The caller words it answers ({@link wordsOf}). */
  readonly words: string;
  readonly startedAtMs: number;
  readonly abort: AbortController;
  readonly events: LlmEvent[];
  done: boolean;
  error?: unknown;
  wake?: () => void;
  /**
   * The chain's first-token budget ran out (llm-chain.ts) and the model is still silent: the turn that takes
   * the request says its filler then, or at once when it takes it later. `slowOver`: the answer started since.
   */
  slow: boolean;
  slowOver: boolean;
  turnSlow?: LlmStreamHooks['onSlow'];
  turnSlowEnd?: (() => void) | void;
}

/** How many requests were started ahead, how many a turn used, how many were thrown away (not billed). */
export interface PrefetchCounts {
  started: number;
  used: number;
  wasted: number;
}

export class Prefetch {
  private pending: Pending | undefined;
  readonly counts: PrefetchCounts = { started: 0, used: 0, wasted: 0 };

  /** The caller words the request in flight answers ({@link wordsOf}), if one is. */
  get words(): string | undefined {
    return this.pending?.words;
  }

  /** Starts `request` ahead of its turn (a request already ahead is thrown away). */
  start(llm: Stream, request: Omit<LlmRequest, 'model'>, words: string): void {
    this.cancel();
    const pending: Pending = { key: keyOf(request), words: wordsOf(words), startedAtMs: performance.now(), abort: new AbortController(), events: [], done: false, slow: false, slowOver: false };
    this.pending = pending;
    this.counts.started += 1;
    const hooks: LlmStreamHooks = {
      onSlow: () => {
        pending.slow = true;
        if (pending.turnSlow) pending.turnSlowEnd = pending.turnSlow();
        return () => {
          pending.slowOver = true;
          if (typeof pending.turnSlowEnd === 'function') pending.turnSlowEnd();
        };
      },
    };
    void (async () => {
      try {
        for await (const event of llm.stream(request, pending.abort.signal, hooks)) {
          pending.events.push(event);
          pending.wake?.();
        }
      } catch (error) {
        pending.error = error;
      } finally {
        pending.done = true;
        pending.wake?.();
      }
    })();
  }

  /** Throws away the request ahead, if any: it answers words the caller did not end the turn with. */
  cancel(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    this.counts.wasted += 1;
    pending.abort.abort(new Error('the turn did not end on these words'));
  }

  /**
   * The request ahead, when it is `request`: its stream from the first event (when it started, for the
   * turn's latency figures). Any other request ahead is thrown away, and undefined is returned.
   */
  take(request: Omit<LlmRequest, 'model'>, signal: AbortSignal, hooks: LlmStreamHooks = {}): { events: AsyncIterable<LlmEvent>; startedAtMs: number } | undefined {
    const pending = this.pending;
    if (!pending) return undefined;
    if (pending.key !== keyOf(request)) {
      this.cancel();
      return undefined;
    }
    this.pending = undefined;
    this.counts.used += 1;
    // The turn's own waiting phrases: now, if the model is already past its budget and still silent.
    if (pending.slow && !pending.slowOver) pending.turnSlowEnd = hooks.onSlow?.();
    else pending.turnSlow = hooks.onSlow;
    return { events: replay(pending, signal), startedAtMs: pending.startedAtMs };
  }
}

/** A request's events so far, then the rest as they come; the turn's signal now cancels it. */
async function* replay(pending: Pending, signal: AbortSignal): AsyncGenerator<LlmEvent> {
  const stop = (): void => pending.abort.abort(signal.reason);
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  try {
    for (let i = 0; ; ) {
      if (signal.aborted) return;
      if (i < pending.events.length) {
        yield pending.events[i]!;
        i += 1;
        continue;
      }
      if (pending.done) {
        if (pending.error !== undefined) throw pending.error;
        return;
      }
      await new Promise<void>((resolve) => (pending.wake = resolve));
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
