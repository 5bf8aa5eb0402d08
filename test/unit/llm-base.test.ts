// Invariant: the LLM base retries a retryable failure (or a first-token timeout) only while nothing has been
// yielded, never once output has started (a retry would speak words twice or run a tool call twice); it
// stops the iteration the moment the caller aborts, even when the vendor is slow to notice, and cancels the
// vendor request whenever the caller stops early; it yields exactly one `done`, last; it reports metrics.
import { describe, expect, it, vi } from 'vitest';
import { BaseLlm, type LlmMetrics, type LlmOptions } from '../../lib/vendors/llm/base.js';
import type { LlmEvent, LlmRequest } from '../../lib/vendors/llm/port.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import { WAIT_MS } from '../support/progress.js';

type Attempt = (signal: AbortSignal) => AsyncIterable<LlmEvent>;

/** A vendor whose every request is scripted: attempt N runs `attempts[N]`. */
class ScriptedLlm extends BaseLlm {
  readonly id = 'openai' as const;
  readonly signals: AbortSignal[] = [];
  readonly metrics: LlmMetrics[] = [];

  constructor(
    private readonly attempts: Attempt[],
    options: Partial<LlmOptions> = {},
  ) {
    super({ baseDelayMs: 1, maxDelayMs: 2, ...options, onMetrics: (m) => this.metrics.push(m) });
  }

  protected run(_request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    this.signals.push(signal);
    const attempt = this.attempts[this.signals.length - 1];
    if (!attempt) throw new Error(`unexpected attempt ${this.signals.length}`);
    return attempt(signal);
  }

  protected mapError(error: unknown): VendorError {
    return new VendorError('openai', `mapped: ${String(error)}`, false);
  }
}

const REQUEST: LlmRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
const text = (delta: string): LlmEvent => ({ type: 'text', delta, atMs: performance.now() });
const done = (): LlmEvent => ({ type: 'done', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 2 }, atMs: performance.now() });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const retryable = (status: number): VendorError => new VendorError('openai', `status ${status}`, true, status);

async function* events(...items: LlmEvent[]): AsyncGenerator<LlmEvent> {
  for (const item of items) yield item;
}

async function* failing(error: unknown, ...before: LlmEvent[]): AsyncGenerator<LlmEvent> {
  for (const item of before) yield item;
  throw error;
}

/** Never yields; ends only when aborted (a vendor that stalls but honours cancellation). */
async function* stalled(signal: AbortSignal): AsyncGenerator<LlmEvent> {
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
}

async function collect(llm: BaseLlm, signal = new AbortController().signal): Promise<LlmEvent[]> {
  const out: LlmEvent[] = [];
  for await (const event of llm.stream(REQUEST, signal)) out.push(event);
  return out;
}

describe('retries', () => {
  it('retries a retryable failure before the first event and yields only the successful attempt', async () => {
    const llm = new ScriptedLlm([() => failing(retryable(503)), () => failing(retryable(429)), () => events(text('a'), text('b'), done())]);
    const out = await collect(llm);
    expect(out.map((e) => e.type)).toEqual(['text', 'text', 'done']);
    expect(llm.signals).toHaveLength(3);
    expect(llm.metrics[0]).toMatchObject({ attempts: 3, outcome: 'completed', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 2 } });
  });

  it('does not retry a non-retryable failure', async () => {
    const unauthorized = new VendorError('openai', 'bad key', false, 401);
    const llm = new ScriptedLlm([() => failing(unauthorized), () => events(done())]);
    await expect(collect(llm)).rejects.toBe(unauthorized);
    expect(llm.signals).toHaveLength(1);
    expect(llm.metrics[0]).toMatchObject({ attempts: 1, outcome: 'failed', error: unauthorized });
  });

  it('never retries once output has started, even for a retryable failure', async () => {
    const llm = new ScriptedLlm([() => failing(retryable(503), text('Hello')), () => events(text('Hello'), done())]);
    const seen: LlmEvent[] = [];
    await expect(
      (async () => {
        for await (const event of llm.stream(REQUEST, new AbortController().signal)) seen.push(event);
      })(),
    ).rejects.toMatchObject({ retryable: true, status: 503 });
    expect(seen.map((e) => e.type)).toEqual(['text']);
    expect(llm.signals).toHaveLength(1);
  });

  it('a tool call counts as output: no retry after it', async () => {
    const call: LlmEvent = { type: 'tool_call', call: { id: 'c1', name: 'end_call', arguments: '{}' }, atMs: 0 };
    const llm = new ScriptedLlm([() => failing(retryable(500), call), () => events(call, done())]);
    await expect(collect(llm)).rejects.toMatchObject({ status: 500 });
    expect(llm.signals).toHaveLength(1);
  });

  it('gives up after the configured attempts with the last error', async () => {
    const llm = new ScriptedLlm([() => failing(retryable(500)), () => failing(retryable(502))], { attempts: 2 });
    await expect(collect(llm)).rejects.toMatchObject({ status: 502 });
    expect(llm.signals).toHaveLength(2);
  });

  it('maps errors that are not VendorErrors through the adapter', async () => {
    const llm = new ScriptedLlm([() => failing(new RangeError('boom'))]);
    await expect(collect(llm)).rejects.toMatchObject({ name: 'VendorError', message: 'openai: mapped: RangeError: boom', retryable: false });
  });

  it('treats a stream that ends without done as a failure, retried only before output', async () => {
    const before = new ScriptedLlm([() => events(), () => events(text('x'), done())]);
    expect((await collect(before)).map((e) => e.type)).toEqual(['text', 'done']);

    const after = new ScriptedLlm([() => events(text('x'))]);
    await expect(collect(after)).rejects.toMatchObject({ retryable: true, message: expect.stringContaining('ended before') });
    expect(after.signals).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('cancels a request with no first token in time and retries it', async () => {
    const llm = new ScriptedLlm([stalled, () => events(text('ok'), done())], { firstTokenTimeoutMs: 30 });
    const out = await collect(llm);
    expect(out.map((e) => e.type)).toEqual(['text', 'done']);
    expect(llm.signals[0]?.aborted).toBe(true);
  });

  it('fails with a retryable timeout once every attempt timed out', async () => {
    const llm = new ScriptedLlm([stalled, stalled], { firstTokenTimeoutMs: 20, attempts: 2 });
    await expect(collect(llm)).rejects.toMatchObject({ retryable: true, message: expect.stringContaining('no first token within 20 ms') });
    expect(llm.signals).toHaveLength(2);
    expect(llm.signals.every((s) => s.aborted)).toBe(true);
  });

  it('fails a stream that stalls mid-output after the idle timeout, without retrying', async () => {
    async function* stallAfterOne(signal: AbortSignal): AsyncGenerator<LlmEvent> {
      yield text('Hi');
      yield* stalled(signal);
    }
    const llm = new ScriptedLlm([stallAfterOne, () => events(done())], { idleTimeoutMs: 30 });
    await expect(collect(llm)).rejects.toMatchObject({ message: expect.stringContaining('stalled for 30 ms') });
    expect(llm.signals).toHaveLength(1);
    expect(llm.signals[0]?.aborted).toBe(true);
  });
});

describe('cancellation', () => {
  it('ends the iteration at once on abort, without done or error, even if the vendor ignores the signal', async () => {
    // This vendor answers its second token only when the test lets it, and never looks at its signal.
    let release = () => undefined as void;
    let vendorWentOn = false;
    async function* deaf(): AsyncGenerator<LlmEvent> {
      yield text('one');
      await new Promise<void>((resolve) => (release = resolve));
      vendorWentOn = true;
      yield text('two');
      yield done();
    }
    const llm = new ScriptedLlm([deaf]);
    const controller = new AbortController();
    const seen: LlmEvent[] = [];
    for await (const event of llm.stream(REQUEST, controller.signal)) {
      seen.push(event);
      controller.abort();
    }
    // The loop ended on the abort while the vendor was still holding its second token.
    expect(vendorWentOn).toBe(false);
    release();
    expect(seen.map((e) => e.type)).toEqual(['text']);
    expect(llm.signals[0]?.aborted).toBe(true);
    expect(llm.metrics[0]).toMatchObject({ outcome: 'cancelled', attempts: 1 });
  });

  it('cancels the vendor request when the caller stops iterating', async () => {
    const llm = new ScriptedLlm([() => events(text('a'), text('b'), done())]);
    for await (const event of llm.stream(REQUEST, new AbortController().signal)) {
      if (event.type === 'text') break;
    }
    expect(llm.signals[0]?.aborted).toBe(true);
  });

  it('does not start when already aborted, and stops waiting during back-off', async () => {
    const idle = new ScriptedLlm([() => events(done())]);
    const controller = new AbortController();
    controller.abort();
    expect(await collect(idle, controller.signal)).toEqual([]);
    expect(idle.signals).toHaveLength(0);

    // Full jitter at its top: a 5 s back-off, which the abort must cut short (the retry never starts).
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    try {
      const backingOff = new ScriptedLlm([() => failing(retryable(429)), () => events(done())], { baseDelayMs: 5_000, maxDelayMs: 5_000 });
      const live = new AbortController();
      const collected = collect(backingOff, live.signal);
      await vi.waitFor(() => expect(backingOff.signals).toHaveLength(1), { timeout: WAIT_MS });
      live.abort();
      expect(await collected).toEqual([]);
      expect(backingOff.signals).toHaveLength(1);
    } finally {
      random.mockRestore();
    }
  });
});

describe('the event sequence', () => {
  it('yields one done, last, ignoring anything an adapter sends after it', async () => {
    const llm = new ScriptedLlm([() => events(text('a'), done(), text('late'), done())]);
    const out = await collect(llm);
    expect(out.map((e) => e.type)).toEqual(['text', 'done']);
  });

  it('measures time to first token across retries', async () => {
    async function* slowFirst(): AsyncGenerator<LlmEvent> {
      await sleep(40);
      yield text('a');
      yield done();
    }
    const llm = new ScriptedLlm([() => failing(retryable(503)), slowFirst]);
    await collect(llm);
    const [metrics] = llm.metrics;
    expect(metrics?.timeToFirstTokenMs).toBeGreaterThanOrEqual(39);
    expect(metrics?.totalMs).toBeGreaterThanOrEqual(metrics?.timeToFirstTokenMs ?? Infinity);
    expect(metrics).toMatchObject({ provider: 'openai', model: 'm', attempts: 2 });
  });
});
