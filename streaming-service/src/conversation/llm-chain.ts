import { describeError, loggerWith, type Logger } from '../../../lib/observability/log.js';
import { VendorError } from '../../../lib/vendors/shared/errors.js';
import type { LlmEvent, LlmProvider, LlmRequest } from '../../../lib/vendors/llm/port.js';

/** One model a turn can be answered by: a provider and the model name it is asked for. */
export interface LlmChoice {
  readonly provider: LlmProvider;
  readonly model: string;
}

/**
 * The models a turn is tried on, in order: the agent's own model (or, once it failed a turn, the fallback that
 * answered instead), the same model once more when its failure
 * could pass (a 5xx, a 429, a timeout: the adapter's retries are seconds apart, a second request a moment
 * later often lands), then the agent's `fallback.llm` models. A non-retryable failure (a bad key, an unknown
 * model) goes straight to the fallbacks: asking again would fail the same way.
 */
export class LlmChain {
  /**
   * Where turns start: the model that answered last. One that stayed down for a turn is tried only after
   * the others for the rest of the call, so later turns do not wait through its failures again.
   */
  private current = 0;

  constructor(
    private readonly primary: LlmChoice,
    private readonly fallbacks: readonly LlmChoice[] = [],
    /** The conversation's logger (its call or chat id on every line). */
    private readonly log: Logger = loggerWith({}),
    /** Told when a failed model hands the turn to the next one (the call's timeline). */
    private readonly onFallback?: (error: unknown, to: string) => void,
  ) {}

  /**
   * Streams the turn from the first model that answers. A model is replaced only while it has said nothing:
   * once output started, the caller has heard it (and tools may have run), so a failure then is thrown, as
   * is the last model's failure.
   */
  async *stream(request: Omit<LlmRequest, 'model'>, signal: AbortSignal): AsyncGenerator<LlmEvent> {
    const choices = [this.primary, ...this.fallbacks];
    // From the model in use on, then the ones skipped earlier: one of them may be back.
    const order = choices.map((_, k) => (this.current + k) % choices.length);
    let retried = false;
    for (let step = 0; step < order.length; ) {
      const i = order[step]!;
      const choice = choices[i]!;
      let started = false;
      try {
        for await (const event of choice.provider.stream({ ...request, model: choice.model }, signal)) {
          if (!started) this.current = i;
          started = true;
          yield event;
        }
        return;
      } catch (error) {
        if (started || signal.aborted) throw error;
        const retry = step === 0 && !retried && isRetryable(error);
        if (retry) retried = true;
        else step += 1;
        if (step === order.length) throw error;
        this.log.log('warn', retry ? 'llm request failed; retrying' : 'llm request failed; trying the next model', {
          provider: choice.provider.id,
          model: choice.model,
          ...describeError(error),
        });
        if (!retry) this.onFallback?.(error, choices[order[step]!]!.provider.id);
      }
    }
  }
}

const isRetryable = (error: unknown): boolean => !(error instanceof VendorError) || error.retryable;
