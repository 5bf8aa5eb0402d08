// Invariant: a rate-limited LLM request (429) is retried no sooner than the vendor's Retry-After says, and
// not at all when that wait is longer than a caller sits in silence (2 s): the failure is then final for the
// turn (non-retryable), so the call moves to a fallback model at once instead of hammering the vendor.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { startLlmStandins, type LlmStandins } from '../../lib/local/standins/llm.js';
import { createLlmProvider } from '../../lib/vendors/llm/index.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';

let llm: LlmStandins;

beforeAll(async () => {
  llm = await startLlmStandins(loadConfig({}), { ttftMs: 0, tokensPerSecond: 0 });
});
afterEach(() => {
  llm.control.set({ retryAfterSeconds: undefined });
  llm.control.reset();
});
afterAll(async () => {
  await llm?.stop();
});

async function answer(vendor: 'openai' | 'anthropic', model: string): Promise<string> {
  let text = '';
  const provider = createLlmProvider(vendor, loadConfig(llm.env));
  for await (const event of provider.stream({ model, messages: [{ role: 'user', content: 'Hello' }] }, new AbortController().signal)) {
    if (event.type === 'text') text += event.delta;
  }
  return text;
}

describe('Retry-After', () => {
  it.each([
    ['openai', 'gpt-4o-mini'],
    ['anthropic', 'claude-haiku-4-5'],
  ] as const)('%s: a 429 saying "1 s" is retried once that second has passed', async (vendor, model) => {
    llm.control.failNext(429, 1, { vendor });
    expect(await answer(vendor, model)).toBe('You said: Hello. How can I help with that?');
    const [limited, retried] = llm.control.requestsFor(vendor).slice(-2);
    expect(limited).toMatchObject({ status: 429 });
    expect(retried).toMatchObject({ status: 200, outcome: 'completed' });
    // The vendor's wait is honoured (a lower bound, not a speed claim): the jittered back-off alone is < 800 ms.
    expect(retried!.receivedAtMs - limited!.receivedAtMs).toBeGreaterThanOrEqual(1_000);
  });

  it.each([
    ['openai', 'gpt-4o-mini'],
    ['anthropic', 'claude-haiku-4-5'],
  ] as const)('%s: a 429 saying "30 s" is not retried; the failure is final for the turn', async (vendor, model) => {
    llm.control.set({ retryAfterSeconds: 30 });
    llm.control.failNext(429, 1, { vendor });
    const before = llm.control.requestsFor(vendor).length;
    const error = await answer(vendor, model).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ status: 429, retryable: false, message: expect.stringContaining('rate limited for 30 s') });
    expect(llm.control.requestsFor(vendor).length - before).toBe(1);
  });
});
