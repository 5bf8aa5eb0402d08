import { VendorError, isRetryableStatus } from '../shared/errors.js';
import type { LlmEvent, LlmFinishReason, LlmMessage, LlmProvider, LlmProviderId, LlmRequest, LlmToolCall } from './port.js';

/** What one `stream()` call cost and how it ended; handed to {@link LlmOptions.onMetrics} once per call. */
export interface LlmMetrics {
  readonly provider: LlmProviderId;
  readonly model: string;
  /** Requests sent to the vendor, the retries included. */
  readonly attempts: number;
  /**
   * From `stream()` to the first event (text, tool call or done), retries and back-off included: the figure
   * the caller waits through. Undefined when nothing arrived.
   */
  readonly timeToFirstTokenMs?: number;
  /** From `stream()` to its end, whatever the outcome. */
  readonly totalMs: number;
  /** `cancelled`: the caller aborted the signal or stopped iterating before `done`. */
  readonly outcome: 'completed' | 'cancelled' | 'failed';
  readonly finishReason?: LlmFinishReason;
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  readonly error?: VendorError;
}

/** What the shared base does around every adapter: retries, timeouts, metrics (STYLE 8). */
export interface LlmOptions {
  /** Requests per `stream()` call, the first included. Retries happen only before the first event. */
  readonly attempts: number;
  /** First back-off; doubles per retry, with full jitter. */
  readonly baseDelayMs: number;
  /** Back-off ceiling. */
  readonly maxDelayMs: number;
  /** A request whose first event has not arrived by then is cancelled and, if attempts remain, retried. */
  readonly firstTokenTimeoutMs: number;
  /** Once output has started, the longest silence between two events before the stream is failed. */
  readonly idleTimeoutMs: number;
  /**
   * The longest `Retry-After` honoured by waiting: a vendor that asks for longer is not retried (the turn
   * goes to a fallback model at once), because a caller will not sit through that much silence.
   */
  readonly maxRetryAfterMs: number;
  /** Called once per `stream()` call when it ends. Must not throw. */
  readonly onMetrics?: (metrics: LlmMetrics) => void;
}

/**
 * Defaults for a phone call. Three attempts with short back-off: a 429 or a dropped connection costs a few
 * hundred milliseconds of extra silence rather than a failed turn. A vendor's `Retry-After` is waited out up
 * to 2 s (a pause a caller tolerates); past that the turn is better served by a fallback model now. The first-token timeout is 6 s: published
 * voice budgets put a model's first token at 375-750 ms and long prompts with tools can take a few seconds,
 * but a request that has said nothing for 6 s has almost always stalled, and a fresh one is the fastest way
 * out. Mid-stream, 10 s without a token means the stream is dead; it is failed rather than retried, because
 * a retry would repeat words the caller already heard.
 */
export const DEFAULT_LLM_OPTIONS = {
  attempts: 3,
  baseDelayMs: 100,
  maxDelayMs: 800,
  firstTokenTimeoutMs: 6_000,
  idleTimeoutMs: 10_000,
  maxRetryAfterMs: 2_000,
} as const satisfies LlmOptions;

type Step = IteratorResult<LlmEvent> | 'aborted' | 'timeout';

/**
 * The shared base of every language-model adapter. An adapter implements only {@link BaseLlm.run}, one
 * request to its vendor mapped to port events, and {@link BaseLlm.mapError}; the base owns:
 * - retry of a retryable failure (or a first-token timeout), but only while nothing has been yielded: after
 *   output started a retry would speak words twice or run a tool call twice, so the error is thrown;
 * - the first-token and idle timeouts;
 * - prompt cancellation: the iteration ends the moment the signal aborts, even if the SDK is still unwinding;
 * - exactly one `done`, last (an adapter that ends without one has lost its stream, which is an error);
 * - metrics (time to first token, attempts, outcome).
 */
export abstract class BaseLlm implements LlmProvider {
  abstract readonly id: LlmProviderId;
  protected readonly options: LlmOptions;

  constructor(options: Partial<LlmOptions> = {}) {
    this.options = { ...DEFAULT_LLM_OPTIONS, ...options };
  }

  /**
   * One request to the vendor, mapped to port events, ending with one `done`. `signal` aborts it (barge-in,
   * timeout, retry); after an abort the adapter may end quietly or throw, the base ignores either.
   * SDK errors may escape: the base passes them through {@link BaseLlm.mapError}.
   */
  protected abstract run(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent>;

  /** Turns an SDK or network error into a {@link VendorError} saying whether a retry can help. */
  protected abstract mapError(error: unknown): VendorError;

  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    return this.streamWithRetries(request, signal);
  }

  private async *streamWithRetries(request: LlmRequest, signal: AbortSignal): AsyncGenerator<LlmEvent> {
    const startedAt = performance.now();
    let attempts = 0;
    let firstAt: number | undefined;
    let outcome: LlmMetrics['outcome'] = 'cancelled';
    let finish: Extract<LlmEvent, { type: 'done' }> | undefined;
    let failure: VendorError | undefined;
    try {
      for (;;) {
        if (signal.aborted) return;
        attempts += 1;
        const attempt = new AbortController();
        const forward = (): void => attempt.abort(signal.reason);
        signal.addEventListener('abort', forward, { once: true });
        const iterator = this.run(request, attempt.signal)[Symbol.asyncIterator]();
        let ended = false;
        try {
          for (;;) {
            const step = await nextWithin(iterator, attempt.signal, firstAt === undefined ? this.options.firstTokenTimeoutMs : this.options.idleTimeoutMs);
            if (step === 'aborted') return;
            if (step === 'timeout') {
              throw new VendorError(
                this.id,
                firstAt === undefined
                  ? `no first token within ${this.options.firstTokenTimeoutMs} ms`
                  : `stream stalled for ${this.options.idleTimeoutMs} ms`,
                true,
              );
            }
            if (step.done) {
              ended = true;
              if (finish) {
                outcome = 'completed';
                return;
              }
              if (signal.aborted) return;
              throw new VendorError(this.id, 'the stream ended before the completion did', true);
            }
            const event = step.value;
            // Anything after `done` would break the port's promise of one `done`, last.
            if (finish) continue;
            firstAt ??= performance.now();
            if (event.type === 'done') finish = event;
            yield event;
          }
        } catch (error) {
          if (signal.aborted) return;
          const vendorError = error instanceof VendorError ? error : this.mapError(error);
          const waitMs = vendorError.retryAfterMs ?? 0;
          if (firstAt === undefined && vendorError.retryable && attempts < this.options.attempts && waitMs <= this.options.maxRetryAfterMs) {
            if (!(await backOff(attempts, this.options, signal, waitMs))) return;
            continue;
          }
          outcome = 'failed';
          // Told to wait longer than a caller can sit in silence: no retry can land in this turn, so the
          // failure is final here and the turn goes to a fallback model at once.
          failure = waitMs > this.options.maxRetryAfterMs ? new VendorError(this.id, `rate limited for ${Math.round(waitMs / 1_000)} s: ${vendorError.message}`, false, vendorError.status, { cause: vendorError }) : vendorError;
          throw failure;
        } finally {
          signal.removeEventListener('abort', forward);
          if (!ended) {
            // Cancel the request (closing its connection) and let the SDK unwind in the background: the
            // caller must not wait on a vendor that is slow to notice.
            attempt.abort(signal.reason ?? new Error('stream closed'));
            iterator.return?.().catch(() => undefined);
          }
        }
      }
    } finally {
      this.options.onMetrics?.({
        provider: this.id,
        model: request.model,
        attempts,
        ...(firstAt !== undefined && { timeToFirstTokenMs: firstAt - startedAt }),
        totalMs: performance.now() - startedAt,
        outcome,
        ...(finish && { finishReason: finish.finishReason }),
        ...(finish?.usage && { usage: finish.usage }),
        ...(failure && { error: failure }),
      });
    }
  }
}

/** The iterator's next step, or why we stopped waiting for it. Never leaves a rejection unhandled. */
function nextWithin(iterator: AsyncIterator<LlmEvent>, signal: AbortSignal, timeoutMs: number): Promise<Step> {
  if (signal.aborted) return Promise.resolve('aborted');
  return new Promise<Step>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve('aborted');
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve('timeout');
    }, timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    iterator.next().then(
      (result) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Waits before retry `attempt + 1`, at least what the vendor asked; false when the caller aborted meanwhile. */
function backOff(attempt: number, options: LlmOptions, signal: AbortSignal, atLeastMs = 0): Promise<boolean> {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  const delay = Math.max(atLeastMs, Math.random() * ceiling);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, delay);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The error mapping every adapter shares once it has read its SDK's error: a status decides retryability
 * (408, 429 and 5xx retry; other 4xx do not), and no status means the request never got an answer (a network
 * fault), which is worth retrying.
 */
export function vendorErrorFromStatus(vendor: string, message: string, status: number | undefined, cause: unknown, retryAfter?: number): VendorError {
  return new VendorError(vendor, message, isRetryableStatus(status), status, { cause, ...(retryAfter !== undefined && { retryAfterMs: retryAfter }) });
}

/**
 * Stands in for the caller when a conversation opens with the agent's greeting (`first_message`). Anthropic's
 * Messages API has required the first message to be the user's and Gemini expects a user turn first; both
 * models are trained on conversations that a user opens.
 */
export const CALL_STARTED_PLACEHOLDER = '(The call has started.)';

/** The system messages as one prompt, for vendors that take it apart from the turns (Anthropic, Gemini). */
export function systemPrompt(messages: readonly LlmMessage[]): string {
  return messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
}

/** One turn of a conversation whose vendor wants user and assistant turns to alternate. */
export interface AlternatingTurn<P> {
  /** A user turn (the caller's words and tool results), or else the assistant's. */
  readonly fromUser: boolean;
  readonly parts: P[];
}

/** How one vendor spells the parts of a turn, for {@link alternatingTurns}. */
export interface TurnParts<P> {
  text(text: string): P;
  toolCall(call: LlmToolCall): P;
  toolResult(message: Extract<LlmMessage, { role: 'tool' }>): P;
  /** Joins two turns of one side; by default the later parts follow the earlier ones. */
  merge?(earlier: readonly P[], later: readonly P[]): P[];
}

/**
 * Neutral messages as the alternating turns Anthropic and Gemini both require. System messages are left out
 * (both take the prompt apart); tool results belong to the user's side; empty text is dropped (both refuse
 * empty text, and an agent reply cut off before its first word leaves one); consecutive turns of one side
 * merge, since neither takes two in a row; a conversation the agent opens gets a
 * {@link CALL_STARTED_PLACEHOLDER} user turn first.
 */
export function alternatingTurns<P>(messages: readonly LlmMessage[], spell: TurnParts<P>): AlternatingTurn<P>[] {
  const merge = spell.merge ?? ((earlier, later) => [...earlier, ...later]);
  const out: AlternatingTurn<P>[] = [];
  const push = (fromUser: boolean, parts: P[]): void => {
    if (parts.length === 0) return;
    const last = out.at(-1);
    if (last?.fromUser === fromUser) out[out.length - 1] = { fromUser, parts: merge(last.parts, parts) };
    else out.push({ fromUser, parts });
  };
  const text = (content: string): P[] => (content.trim() ? [spell.text(content)] : []);
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        push(true, text(message.content));
        break;
      case 'assistant':
        push(false, [...text(message.content), ...(message.toolCalls ?? []).map((call) => spell.toolCall(call))]);
        break;
      case 'tool':
        push(true, [spell.toolResult(message)]);
        break;
    }
  }
  if (out[0]?.fromUser === false) out.unshift({ fromUser: true, parts: [spell.text(CALL_STARTED_PLACEHOLDER)] });
  return out;
}

/**
 * Tool-call arguments as the object Anthropic (`input`) and Gemini (`args`) require on the wire. Arguments
 * that are not a JSON object (a model of another vendor can emit broken JSON) become `{}`: refusing the whole
 * conversation over one old call would end the phone call, and the call's result still follows it.
 */
export function parseArguments(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return {};
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/**
 * An error that is not the vendor's answer. A dropped or refused connection (fetch's `TypeError` with a
 * socket error as its cause, or a body cut off mid-stream: "terminated") may succeed next time; anything else
 * (a malformed payload, a bug) would fail the same way again.
 */
export function unexpectedError(vendor: string, error: unknown): VendorError {
  const message = error instanceof Error ? error.message : String(error);
  return new VendorError(vendor, message, isNetworkError(error), undefined, { cause: error });
}

function isNetworkError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (e instanceof TypeError && /fetch failed|terminated|network/i.test(e.message)) return true;
  }
  return false;
}
