/**
 * Invariant: a turn is answered by the first model that answers. The agent's model is asked again once when
 * its failure could pass (retryable), then the fallback models in order; a failure after output started is
 * never papered over with another model (the caller heard the words); with every model down the last error
 * is thrown. Later turns start with the model that answered, and fall back to the others (the agent's
 * own included) when it fails. With a first-token budget, a silent request is raced by the next model (or the
 * same one again): the first event wins, the other is cancelled, at most two run, five silent budgets fail
 * the turn. Also: the agent schema's `fallback.stt` and `fallback.llm` lists are checked like `fallback.tts`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FallbackConfig } from '../../lib/domain/agent.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import type { LlmEvent, LlmProvider, LlmProviderId, LlmRequest } from '../../lib/vendors/llm/port.js';
import { agentLlmChain, DEFAULT_FIRST_TOKEN_BUDGET_MS, firstTokenBudgetMs, LlmChain } from '../../streaming-service/src/conversation/llm-chain.js';

type Behaviour = 'answer' | 'retryable' | 'fatal' | 'cut';

/** A provider that behaves per request as scripted (the last behaviour repeats) and records the models asked. */
function fake(id: LlmProviderId, behaviours: Behaviour[], asked: string[]): LlmProvider {
  let n = 0;
  return {
    id,
    async *stream(request: LlmRequest): AsyncGenerator<LlmEvent> {
      asked.push(`${id}:${request.model}`);
      const b = behaviours[Math.min(n++, behaviours.length - 1)];
      if (b === 'retryable') throw new VendorError(id, 'overloaded', true, 503);
      if (b === 'fatal') throw new VendorError(id, 'bad key', false, 401);
      yield { type: 'text', delta: `from ${request.model}`, atMs: 0 };
      if (b === 'cut') throw new VendorError(id, 'stream stalled', true);
      yield { type: 'done', finishReason: 'stop', atMs: 0 };
    },
  } as LlmProvider;
}

async function collect(chain: LlmChain): Promise<string> {
  let text = '';
  for await (const e of chain.stream({ messages: [] }, new AbortController().signal)) if (e.type === 'text') text += e.delta;
  return text;
}

describe('LlmChain', () => {
  it('retries a retryable failure once on the same model', async () => {
    const asked: string[] = [];
    const chain = new LlmChain({ provider: fake('openai', ['retryable', 'answer'], asked), model: 'm1' });
    expect(await collect(chain)).toBe('from m1');
    expect(asked).toEqual(['openai:m1', 'openai:m1']);
  });

  it('goes to the fallback models in order after the retry', async () => {
    const asked: string[] = [];
    const chain = new LlmChain({ provider: fake('openai', ['retryable'], asked), model: 'm1' }, [
      { provider: fake('anthropic', ['retryable'], asked), model: 'm2' },
      { provider: fake('google', ['answer'], asked), model: 'm3' },
    ]);
    expect(await collect(chain)).toBe('from m3');
    expect(asked).toEqual(['openai:m1', 'openai:m1', 'anthropic:m2', 'google:m3']);
  });

  it('starts later turns with the fallback that answered', async () => {
    const asked: string[] = [];
    const chain = new LlmChain({ provider: fake('openai', ['retryable'], asked), model: 'm1' }, [{ provider: fake('anthropic', ['answer'], asked), model: 'm2' }]);
    expect(await collect(chain)).toBe('from m2');
    expect(await collect(chain)).toBe('from m2');
    expect(asked).toEqual(['openai:m1', 'openai:m1', 'anthropic:m2', 'anthropic:m2']);
  });

  it('goes back to the models skipped earlier when the one in use fails', async () => {
    const asked: string[] = [];
    const chain = new LlmChain({ provider: fake('openai', ['retryable', 'retryable', 'answer'], asked), model: 'm1' }, [
      { provider: fake('anthropic', ['answer', 'fatal'], asked), model: 'm2' },
    ]);
    expect(await collect(chain)).toBe('from m2');
    expect(await collect(chain)).toBe('from m1');
    expect(asked).toEqual(['openai:m1', 'openai:m1', 'anthropic:m2', 'anthropic:m2', 'openai:m1']);
  });

  it('skips the retry when the failure cannot pass', async () => {
    const asked: string[] = [];
    const chain = new LlmChain({ provider: fake('openai', ['fatal'], asked), model: 'm1' }, [{ provider: fake('anthropic', ['answer'], asked), model: 'm2' }]);
    expect(await collect(chain)).toBe('from m2');
    expect(asked).toEqual(['openai:m1', 'anthropic:m2']);
  });

  it('throws a failure after output started, without another model', async () => {
    const asked: string[] = [];
    const chain = new LlmChain({ provider: fake('openai', ['cut'], asked), model: 'm1' }, [{ provider: fake('anthropic', ['answer'], asked), model: 'm2' }]);
    await expect(collect(chain)).rejects.toThrow('stream stalled');
    expect(asked).toEqual(['openai:m1']);
  });

  it('throws the last error when every model failed', async () => {
    const asked: string[] = [];
    const chain = new LlmChain({ provider: fake('openai', ['retryable'], asked), model: 'm1' }, [{ provider: fake('anthropic', ['fatal'], asked), model: 'm2' }]);
    await expect(collect(chain)).rejects.toThrow('bad key');
    expect(asked).toEqual(['openai:m1', 'openai:m1', 'anthropic:m2']);
  });
});

/** What the racing tests' providers saw: requests asked and cancelled, in order. */
type Seen = string[];

/**
 * A provider whose requests, in turn, follow `plans`: `stall` says nothing until cancelled; `answer` answers
 * at once; a promise answers once it resolves (the test decides when). Records `ask` and `cancel` per request.
 */
function racer(id: LlmProviderId, plans: ('stall' | 'answer' | Promise<void>)[], seen: Seen): LlmProvider {
  let n = 0;
  return {
    id,
    async *stream(request: LlmRequest, signal: AbortSignal): AsyncGenerator<LlmEvent> {
      const k = n++;
      const plan = plans[Math.min(k, plans.length - 1)]!;
      const name = `${request.model}#${k + 1}`;
      seen.push(`ask ${name}`);
      const cancelled = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      signal.addEventListener('abort', () => seen.push(`cancel ${name}`), { once: true });
      if (plan === 'stall') await cancelled;
      else if (plan !== 'answer') await Promise.race([plan, cancelled]);
      if (signal.aborted) return;
      yield { type: 'text', delta: `from ${name}`, atMs: 0 };
      yield { type: 'done', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 3 }, atMs: 0 };
    },
  } as LlmProvider;
}

/** The racing tests run on a fake clock: what they see depends on the order of events, never on the machine's pace. */
const BUDGET = { firstTokenBudgetMs: 30 };

/** One turn's text and usage, the fake clock moved on until the turn is over. */
async function turn(chain: LlmChain, onSlow?: () => (() => void) | void, signal = new AbortController().signal, seen?: Seen) {
  let over = false;
  const run = (async () => {
    let text = '';
    const usage: unknown[] = [];
    for await (const e of chain.stream({ messages: [] }, signal, onSlow ? { onSlow } : {})) {
      if (e.type === 'text') text += e.delta;
      if (e.type === 'text') seen?.push(`heard ${e.delta}`);
      if (e.type === 'done') usage.push(e.usage);
    }
    return { text, usage };
  })();
  const end = (): void => void (over = true);
  run.then(end, end);
  for (let ms = 0; ms < 120_000 && !over; ms += 5) await vi.advanceTimersByTimeAsync(5);
  return run;
}

describe('LlmChain: the first-token budget', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks the fallback at once when the model is silent past the budget; its answer is the only one, the silent request is cancelled', async () => {
    const seen: Seen = [];
    const fallbacks: string[] = [];
    const chain = new LlmChain(
      { provider: racer('openai', ['stall'], seen), model: 'm1' },
      [{ provider: racer('anthropic', ['answer'], seen), model: 'm2' }],
      undefined,
      (error, to) => fallbacks.push(`${to}: ${(error as Error).message}`),
      BUDGET,
    );
    let slow = 0;
    let ended = 0;
    const { text, usage } = await turn(
      chain,
      () => {
        slow += 1;
        return () => (ended += 1);
      },
      undefined,
      seen,
    );
    expect(text).toBe('from m2#1');
    // Only the answering request's usage reaches the turn.
    expect(usage).toEqual([{ inputTokens: 10, outputTokens: 3 }]);
    // The silent request is cancelled before a word of the answer is heard.
    expect(seen).toEqual(['ask m1#1', 'ask m2#1', 'cancel m1#1', 'heard from m2#1']);
    expect([slow, ended]).toEqual([1, 1]);
    expect(fallbacks).toEqual(['anthropic: openai: no first token within 30 ms']);
    // The model that answered starts the next turn.
    expect((await turn(chain)).text).toBe('from m2#2');
  });

  it('without a fallback, asks the same model again at the budget and takes whichever speaks first', async () => {
    const seen: Seen = [];
    const chain = new LlmChain({ provider: racer('openai', ['stall', 'answer'], seen), model: 'm1' }, [], undefined, undefined, BUDGET);
    let slow = 0;
    expect((await turn(chain, () => void (slow += 1))).text).toBe('from m1#2');
    expect(seen).toEqual(['ask m1#1', 'ask m1#2', 'cancel m1#1']);
    expect(slow).toBe(1);
  });

  it('keeps the slow request in the race: when it speaks first, the fallback is cancelled and the model keeps its place', async () => {
    const seen: Seen = [];
    let release!: () => void;
    const late = new Promise<void>((resolve) => (release = resolve));
    const fallbacks: string[] = [];
    const fallback = racer('anthropic', ['stall'], seen);
    const chain = new LlmChain(
      { provider: racer('openai', [late, 'answer'], seen), model: 'm1' },
      // The fallback is asked, then the slow request answers before it says anything.
      [{ provider: { id: 'anthropic', stream: (r, s) => (release(), fallback.stream(r, s)) } as LlmProvider, model: 'm2' }],
      undefined,
      (_e, to) => fallbacks.push(to),
      BUDGET,
    );
    expect((await turn(chain, () => undefined, undefined, seen)).text).toBe('from m1#1');
    expect(seen).toEqual(['ask m1#1', 'ask m2#1', 'cancel m2#1', 'heard from m1#1']);
    expect(fallbacks).toEqual([]);
    expect((await turn(chain)).text).toBe('from m1#2');
  });

  it('runs at most two requests: one overtaken is cancelled once the one racing it has had its budget too', async () => {
    const seen: Seen = [];
    const chain = new LlmChain(
      { provider: racer('openai', ['stall', 'answer'], seen), model: 'm1' },
      [
        { provider: racer('anthropic', ['stall'], seen), model: 'm2' },
        { provider: racer('google', ['stall'], seen), model: 'm3' },
      ],
      undefined,
      undefined,
      BUDGET,
    );
    let slow = 0;
    // Each silent budget brings the next model, and last the agent's model once more, which answers.
    expect((await turn(chain, () => void (slow += 1))).text).toBe('from m1#2');
    expect(seen).toEqual(['ask m1#1', 'ask m2#1', 'cancel m1#1', 'ask m3#1', 'cancel m2#1', 'ask m1#2', 'cancel m3#1']);
    expect(slow).toBe(1);
  });

  it('says nothing when the model answers within the budget, and a chain without one never races', async () => {
    const seen: Seen = [];
    let slow = 0;
    const quick = new LlmChain({ provider: racer('openai', ['answer'], seen), model: 'm1' }, [{ provider: racer('anthropic', ['answer'], seen), model: 'm2' }], undefined, undefined, { firstTokenBudgetMs: 60_000 });
    expect((await turn(quick, () => void (slow += 1))).text).toBe('from m1#1');
    let release!: () => void;
    const later = new Promise<void>((resolve) => (release = resolve));
    const unbudgeted = new LlmChain({ provider: racer('openai', [later], seen), model: 'm3' }, [{ provider: racer('anthropic', ['answer'], seen), model: 'm4' }]);
    // It answers a minute in: all along, the request is the only one.
    setTimeout(release, 60_000);
    expect((await turn(unbudgeted, () => void (slow += 1))).text).toBe('from m3#1');
    expect(seen).toEqual(['ask m1#1', 'ask m3#1']);
    expect(slow).toBe(0);
  });

  it('fails the turn when no model has said anything for five budgets, every request cancelled', async () => {
    const seen: Seen = [];
    const chain = new LlmChain({ provider: racer('openai', ['stall'], seen), model: 'm1' }, [{ provider: racer('anthropic', ['stall'], seen), model: 'm2' }], undefined, undefined, BUDGET);
    let ended = 0;
    await expect(turn(chain, () => () => (ended += 1))).rejects.toThrow('no first token from any model within 150 ms');
    expect(seen).toEqual(['ask m1#1', 'ask m2#1', 'cancel m1#1', 'ask m1#2', 'cancel m2#1', 'cancel m1#2']);
    expect(ended).toBe(1);
  });

  it("takes the agent's own budget, else two seconds", async () => {
    expect(firstTokenBudgetMs()).toBe(DEFAULT_FIRST_TOKEN_BUDGET_MS);
    expect(DEFAULT_FIRST_TOKEN_BUDGET_MS).toBe(2_000);
    const seen: Seen = [];
    const fallbacks: string[] = [];
    const chain = agentLlmChain(
      { llm_model: 'm1', turn_taking: { first_token_budget_ms: 500 } },
      { llm: racer('openai', ['stall'], seen), llmFallbacks: [{ provider: racer('anthropic', ['answer'], seen), model: 'm2' }] },
      undefined,
      (error) => fallbacks.push((error as Error).message),
    );
    expect((await turn(chain)).text).toBe('from m2#1');
    expect(fallbacks).toEqual(['openai: no first token within 500 ms']);
  });

  it('cancels every request in the race when the turn is interrupted', async () => {
    const seen: Seen = [];
    const abort = new AbortController();
    const chain = new LlmChain({ provider: racer('openai', ['stall'], seen), model: 'm1' }, [{ provider: racer('anthropic', ['stall'], seen), model: 'm2' }], undefined, undefined, BUDGET);
    const done = turn(chain, () => void setTimeout(() => abort.abort(), 0), abort.signal);
    expect((await done).text).toBe('');
    expect(seen.slice(0, 2)).toEqual(['ask m1#1', 'ask m2#1']);
    expect(new Set(seen.slice(2))).toEqual(new Set(['cancel m1#1', 'cancel m2#1']));
  });

  it('when the fallback racing a silent request fails, asks the agent\'s model once more beside it', async () => {
    const seen: Seen = [];
    const chain = new LlmChain({ provider: racer('openai', ['stall', 'answer'], seen), model: 'm1' }, [{ provider: fake('anthropic', ['fatal'], []), model: 'm2' }], undefined, undefined, BUDGET);
    expect((await turn(chain)).text).toBe('from m1#2');
    expect(seen).toEqual(['ask m1#1', 'ask m1#2', 'cancel m1#1']);
  });
});

describe('agent fallback lists', () => {
  it('accepts ordered stt and llm lists of 1-3', () => {
    const parsed = FallbackConfig.parse({
      stt: [{ provider: 'assemblyai' }, { provider: 'speechmatics' }],
      llm: [{ provider: 'anthropic', model: ' claude-3-5-haiku-latest ' }],
    });
    expect(parsed).toEqual({ stt: [{ provider: 'assemblyai' }, { provider: 'speechmatics' }], llm: [{ provider: 'anthropic', model: 'claude-3-5-haiku-latest' }] });
  });

  it.each([
    ['an empty list', { stt: [] }],
    ['four entries', { llm: Array.from({ length: 4 }, () => ({ provider: 'openai', model: 'gpt-4o' })) }],
    ['an unknown provider', { stt: [{ provider: 'whisper' }] }],
    ['a model missing', { llm: [{ provider: 'google' }] }],
    ['a blank model', { llm: [{ provider: 'google', model: '  ' }] }],
    ['an unknown field', { stt: [{ provider: 'deepgram', voice_id: 'x' }] }],
  ])('refuses %s', (_what, value) => {
    expect(FallbackConfig.safeParse(value).success).toBe(false);
  });
});
