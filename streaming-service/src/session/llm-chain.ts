import { describeError, log } from '../../../lib/http/log.js';
import { VendorError } from '../../../lib/vendors/shared/errors.js';
import type { LlmEvent, LlmProvider, LlmRequest } from '../../../lib/vendors/llm/port.js';

/** One model a turn can be answered by: a provider and the model name it is asked for. */
export interface LlmChoice {
  readonly provider: LlmProvider;
  readonly model: string;
}

/**
 * The models a turn is tried on, in order: the agent's own model, the same model once more when its failure
 * could pass (a 5xx, a 429, a timeout: the adapter's retries are seconds apart, a second request a moment
 * later often lands), then the agent's `fallback.llm` models. A non-retryable failure (a bad key, an unknown
 * model) goes straight to the fallbacks: asking again would fail the same way.
 */
export class LlmChain {
  constructor(
    private readonly primary: LlmChoice,
    private readonly fallbacks: readonly LlmChoice[] = [],
    private readonly context: Record<string, unknown> = {},
  ) {}

  /**
   * Streams the turn from the first model that answers. A model is replaced only while it has said nothing:
   * once output started, the caller has heard it (and tools may have run), so a failure then is thrown, as
   * is the last model's failure.
   */
  async *stream(request: Omit<LlmRequest, 'model'>, signal: AbortSignal): AsyncGenerator<LlmEvent> {
    let retried = false;
    for (let i = 0; ; ) {
      const choice = i === 0 ? this.primary : this.fallbacks[i - 1]!;
      let started = false;
      try {
        for await (const event of choice.provider.stream({ ...request, model: choice.model }, signal)) {
          started = true;
          yield event;
        }
        return;
      } catch (error) {
        if (started || signal.aborted) throw error;
        const retry = i === 0 && !retried && isRetryable(error);
        if (retry) retried = true;
        else i += 1;
        if (i > this.fallbacks.length) throw error;
        log('warn', retry ? 'llm request failed; retrying' : 'llm request failed; trying the fallback model', {
          ...this.context,
          provider: choice.provider.id,
          model: choice.model,
          ...describeError(error),
        });
      }
    }
  }
}

const isRetryable = (error: unknown): boolean => !(error instanceof VendorError) || error.retryable;
