import type { Agent, TurnTakingConfig } from '../../../lib/domain/agent.js';
import { describeError, loggerWith, type Logger } from '../../../lib/observability/log.js';
import { VendorError } from '../../../lib/vendors/shared/errors.js';
import type { LlmEvent, LlmProvider, LlmRequest } from '../../../lib/vendors/llm/port.js';

/** One model a turn can be answered by: a provider and the model name it is asked for. */
export interface LlmChoice {
  readonly provider: LlmProvider;
  readonly model: string;
}

/**
 * How long a turn waits for its model's first event before the caller hears a filler and another request
 * races the silent one (the agent's `turn_taking.first_token_budget_ms`). Two seconds: a hosted model's
 * first token usually comes in 0.3-1 s and a long prompt with tools in one or two; past two seconds of
 * silence after their own words, callers start to wonder whether the line dropped, and the adapter's own
 * first-token timeout (6 s, lib/vendors/llm/base.ts) is far too late to start over.
 */
export const DEFAULT_FIRST_TOKEN_BUDGET_MS = 2_000;

/**
 * A turn whose models have all said nothing for this many budgets (10 s by default) is failed: the caller
 * hears the apology and can say it again (session/failure.ts) instead of sitting through each request's own
 * retries (three first-token timeouts of 6 s each).
 */
const SILENT_BUDGETS = 5;

export interface LlmChainOptions {
  /** See {@link DEFAULT_FIRST_TOKEN_BUDGET_MS}; unset, a turn waits on each model's own timeouts. */
  readonly firstTokenBudgetMs?: number;
}

/** What one turn's caller wants to hear while the models are silent. */
export interface LlmStreamHooks {
  /**
   * Called once, when the first-token budget has passed with nothing from any model (a voice channel speaks
   * a filler). What it returns is called once output starts or the stream ends.
   */
  readonly onSlow?: () => (() => void) | void;
}

/** The chain a conversation runs for `agent`: its model, its fallback models, its first-token budget. */
export function agentLlmChain(
  agent: Pick<Agent, 'llm_model' | 'turn_taking'>,
  services: { readonly llm: LlmProvider; readonly llmFallbacks?: readonly LlmChoice[] },
  log?: Logger,
  onFallback?: (error: unknown, to: string) => void,
): LlmChain {
  return new LlmChain({ provider: services.llm, model: agent.llm_model }, services.llmFallbacks, log, onFallback, { firstTokenBudgetMs: firstTokenBudgetMs(agent.turn_taking) });
}

export const firstTokenBudgetMs = (config: TurnTakingConfig = {}): number => config.first_token_budget_ms ?? DEFAULT_FIRST_TOKEN_BUDGET_MS;

/** One request of a turn: a model asked, and its stream's next step. */
interface Lane {
  /** Index into the chain's choices. */
  readonly choice: number;
  readonly abort: AbortController;
  readonly iterator: AsyncIterator<LlmEvent>;
  readonly startedAt: number;
  /** Why this lane was started while an earlier one was still silent: told as the fallback if it answers. */
  readonly overtook?: VendorError;
}

type LaneStep = { readonly lane: Lane; readonly result: IteratorResult<LlmEvent> } | { readonly lane: Lane; readonly error: unknown };

/**
 * The models a turn is tried on, in order: the agent's own model (or, once it failed a turn, the fallback that
 * answered instead), the same model once more when its failure
 * could pass (a 5xx, a 429, a timeout: the adapter's retries are seconds apart, a second request a moment
 * later often lands), then the agent's `fallback.llm` models. A non-retryable failure (a bad key, an unknown
 * model) goes straight to the fallbacks: asking again would fail the same way.
 *
 * With a first-token budget (voice calls and chats, {@link agentLlmChain}), a request that has said nothing
 * by then does not keep the turn waiting on it alone: the next model (or, with none left, the same model
 * once more) is asked at once and the two race; the first to produce an event answers the turn and the
 * other is cancelled. A silent request overtaken this way is cancelled one budget later (at most two are
 * in flight), so the race is short; each request still has its adapter's own retries and timeouts, and a
 * turn silent for {@link SILENT_BUDGETS} budgets fails.
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
    /** Told when a failed (or silent) model hands the turn to the next one (the call's timeline). */
    private readonly onFallback?: (error: unknown, to: string) => void,
    private readonly options: LlmChainOptions = {},
  ) {}

  /**
   * Streams the turn from the first model that answers. A model is replaced only while it has said nothing:
   * once output started, the caller has heard it (and tools may have run), so a failure then is thrown, as
   * is the last model's failure. Only the answering request's events are yielded (its usage is the turn's):
   * a request cancelled before its first event reports none.
   */
  async *stream(request: Omit<LlmRequest, 'model'>, signal: AbortSignal, hooks: LlmStreamHooks = {}): AsyncGenerator<LlmEvent> {
    const choices = [this.primary, ...this.fallbacks];
    // From the model in use on, then the ones skipped earlier: one of them may be back.
    const order = choices.map((_, k) => (this.current + k) % choices.length);
    const budget = this.options.firstTokenBudgetMs;
    const startedAt = performance.now();
    /** Requests in flight, oldest first, each with its next step (awaited until one of them answers). */
    const lanes: Lane[] = [];
    const pending = new Map<Lane, Promise<LaneStep>>();
    let nextModel = 1;
    // The first model's second request: open until used, or barred by a failure that would repeat.
    let retry: 'open' | 'used' | 'barred' = 'open';
    let lastError: unknown;
    let slowTold = false;
    let slowEnd: (() => void) | void = undefined;
    let winner: Lane | undefined;
    let finished = false;

    const launch = (choice: number, overtook?: VendorError): void => {
      const abort = new AbortController();
      const { provider, model } = choices[choice]!;
      const iterator = provider.stream({ ...request, model }, abort.signal)[Symbol.asyncIterator]();
      const lane: Lane = { choice, abort, iterator, startedAt: performance.now(), ...(overtook && { overtook }) };
      lanes.push(lane);
      pending.set(lane, step(lane));
    };
    const drop = (lane: Lane): void => {
      const at = lanes.indexOf(lane);
      if (at >= 0) lanes.splice(at, 1);
      lane.abort.abort(new Error('the turn no longer needs this request'));
      lane.iterator.return?.().catch(() => undefined);
    };
    /**
     * The next request: after a failure, the first model once more when its failure could pass, else the next
     * model; beside a silent request (no failure), the next model, else the first model once more.
     */
    const pick = (failure?: { lane: Lane; error: unknown }): number | undefined => {
      if (failure && failure.lane.choice === order[0] && retry === 'open') {
        retry = isRetryable(failure.error) ? 'used' : 'barred';
        if (retry === 'used') return order[0];
      }
      if (nextModel < order.length) return order[nextModel++];
      if (failure || retry !== 'open') return undefined;
      retry = 'used';
      return order[0];
    };
    const cancelAll = (): void => {
      for (const lane of [...lanes]) drop(lane);
    };
    signal.addEventListener('abort', cancelAll, { once: true });

    try {
      launch(order[0]!);
      let opening: IteratorResult<LlmEvent> | undefined;
      while (!winner) {
        if (signal.aborted) return;
        if (lanes.length === 0) throw lastError;
        const newest = lanes.at(-1)!;
        // The next competitor for a silent request: a fallback model, else the first model once more.
        const canRace = nextModel < order.length || retry === 'open';
        let dueAt = Infinity;
        if (budget !== undefined) {
          dueAt = startedAt + budget * (slowTold ? SILENT_BUDGETS : 1);
          if (canRace || lanes.length > 1) dueAt = Math.min(dueAt, newest.startedAt + budget);
        }
        const got = await nextOf(lanes.map((l) => pending.get(l)!), dueAt - performance.now(), signal);
        if (got === 'aborted') return;
        if (got === 'due') {
          // A timer can fire a hair before performance.now() reaches its mark.
          const now = performance.now() + 1;
          const silent = choices[newest.choice]!;
          if (now >= startedAt + budget! * SILENT_BUDGETS) throw new VendorError(silent.provider.id, `no first token from any model within ${budget! * SILENT_BUDGETS} ms`, true);
          if (!slowTold && now >= startedAt + budget!) {
            slowTold = true;
            slowEnd = hooks.onSlow?.();
          }
          if (now >= newest.startedAt + budget!) {
            // The newest request has had its budget too: the ones it overtook are given up.
            for (const old of lanes.slice(0, -1)) drop(old);
            const choice = pick();
            if (choice !== undefined) {
              this.log.log('warn', 'no first token within the budget; asking another request at once', { provider: silent.provider.id, model: silent.model, budgetMs: budget });
              launch(choice, choice === newest.choice ? undefined : new VendorError(silent.provider.id, `no first token within ${budget} ms`, true));
            }
          }
          continue;
        }
        const { lane } = got;
        if ('error' in got) {
          lanes.splice(lanes.indexOf(lane), 1);
          lastError = got.error;
          const choice = pick(got);
          if (choice === undefined) continue;
          const failed = choices[lane.choice]!;
          this.log.log('warn', choice === lane.choice ? 'llm request failed; retrying' : 'llm request failed; trying the next model', {
            provider: failed.provider.id,
            model: failed.model,
            ...describeError(got.error),
          });
          if (choice !== lane.choice) this.onFallback?.(got.error, choices[choice]!.provider.id);
          launch(choice);
          continue;
        }
        winner = lane;
        opening = got.result;
      }
      // First event wins: the others are cancelled before they said anything, so one answer is heard.
      for (const other of [...lanes]) if (other !== winner) drop(other);
      this.current = winner.choice;
      if (winner.overtook) this.onFallback?.(winner.overtook, choices[winner.choice]!.provider.id);
      slowEnd?.();
      slowEnd = undefined;
      for (let next = opening!; !next.done; next = await winner.iterator.next()) yield next.value;
      finished = true;
    } finally {
      signal.removeEventListener('abort', cancelAll);
      slowEnd?.();
      for (const lane of [...lanes]) if (lane !== winner || !finished) drop(lane);
    }
  }
}

/** A lane's next step, as a value (never a rejection: a failure is the step's `error`). */
const step = (lane: Lane): Promise<LaneStep> =>
  lane.iterator.next().then(
    (result) => ({ lane, result }),
    (error: unknown) => ({ lane, error }),
  );

/** The first lane's step, the budget coming due (`waitMs` from now), or the turn aborted. */
function nextOf(steps: readonly Promise<LaneStep>[], waitMs: number, signal: AbortSignal): Promise<LaneStep | 'due' | 'aborted'> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (value: LaneStep | 'due' | 'aborted'): void => {
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = (): void => done('aborted');
    if (signal.aborted) return done('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    if (Number.isFinite(waitMs)) timer = setTimeout(() => done('due'), Math.max(0, waitMs));
    for (const next of steps) void next.then(done);
  });
}

const isRetryable = (error: unknown): boolean => !(error instanceof VendorError) || error.retryable;
