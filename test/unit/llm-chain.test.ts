/**
 * Invariant: a turn is answered by the first model that answers. The agent's model is asked again once when
 * its failure could pass (retryable), then the fallback models in order; a failure after output started is
 * never papered over with another model (the caller heard the words); with every model down the last error
 * is thrown. Later turns start with the model that answered, and fall back to the others (the agent's
 * own included) when it fails. Also: the agent schema's `fallback.stt` and `fallback.llm` lists are checked like `fallback.tts`.
 */
import { describe, expect, it } from 'vitest';
import { FallbackConfig } from '../../lib/domain/agent.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import type { LlmEvent, LlmProvider, LlmProviderId, LlmRequest } from '../../lib/vendors/llm/port.js';
import { LlmChain } from '../../streaming-service/src/conversation/llm-chain.js';

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
