// Invariant: every language-model provider, through its vendor's official SDK, keeps the LLM port's
// contract: text streams as several deltas in order and then exactly one `done` (stop, with usage); tool
// calls arrive whole (fragmented JSON joined, parallel calls kept apart) before a `done` with tool_calls; a
// follow-up carrying the calls and their results is well-formed on the vendor's wire; aborting stops the
// iteration at once and closes the vendor request; a retryable failure is retried only before the first
// token, never after, and a rejected key is never retried. The same suite runs against each vendor's
// stand-in (always) and against the real vendor when its key is in the environment.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../lib/config.js';
import { startLlmStandins, type LlmStandins } from '../../lib/local/standins/llm.js';
import type { RecordedLlmRequest } from '../../lib/local/standins/llm-script.js';
import { createLlmProvider, type LlmMetrics, type LlmOptions } from '../../lib/vendors/llm/index.js';
import type { LlmEvent, LlmMessage, LlmProvider, LlmRequest, LlmToolCall, LlmToolSpec, VendorLlmProviderId } from '../../lib/vendors/llm/port.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import { WAIT_MS } from '../support/progress.js';

interface Variant {
  readonly provider: VendorLlmProviderId;
  readonly standin: boolean;
  readonly model: string;
  readonly keyName: 'OPENAI_API_KEY' | 'ANTHROPIC_API_KEY' | 'GOOGLE_API_KEY';
  /** The status each vendor answers a wrong key with (Gemini says 400 API_KEY_INVALID, not 401). */
  readonly badKeyStatus: number;
}

const KEY_NAMES = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY', google: 'GOOGLE_API_KEY' } as const;
const BAD_KEY_STATUS = { openai: 401, anthropic: 401, google: 400 } as const;
/** Stand-in model names; a `gemini-3*` name makes the Gemini stand-in enforce thought signatures. */
const STANDIN_MODELS = { openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5', google: 'gemini-3-flash-preview' } as const;
/** Cheap real models; override with LLM_TEST_<VENDOR>_MODEL. */
const REAL_MODELS = {
  openai: process.env.LLM_TEST_OPENAI_MODEL ?? 'gpt-4o-mini',
  anthropic: process.env.LLM_TEST_ANTHROPIC_MODEL ?? 'claude-haiku-4-5',
  google: process.env.LLM_TEST_GOOGLE_MODEL ?? 'gemini-2.5-flash-lite',
} as const;
const PROVIDERS: readonly VendorLlmProviderId[] = ['openai', 'anthropic', 'google'];

const WEATHER: LlmToolSpec = {
  name: 'get_weather',
  description: 'Current weather for one city.',
  parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
};
const SYSTEM = 'You are a test fixture. Answer plainly, without markdown.';
const COUNT_PROMPT = 'Count from one to twenty in words, separated by commas.';
const WEATHER_PROMPT = 'What is the weather in Paris and in London right now? Call get_weather once for each city, both at once.';

let standins: LlmStandins;

beforeAll(async () => {
  // Fast but not instant: several deltas, each a separate SSE frame.
  standins = await startLlmStandins(loadConfig({}), { ttftMs: 5, tokensPerSecond: 500 });
});

afterEach(() => standins.control.reset());

afterAll(async () => {
  await standins.stop();
});

function configFor(variant: Variant, overrides: Record<string, string> = {}): Config {
  return variant.standin ? loadConfig({ ...standins.env, ...overrides }) : loadConfig({ ...process.env, ...overrides });
}

function providerFor(variant: Variant, options: Partial<LlmOptions> = {}, overrides: Record<string, string> = {}): LlmProvider {
  return createLlmProvider(variant.provider, configFor(variant, overrides), { baseDelayMs: 5, maxDelayMs: 20, ...options });
}

async function collect(stream: AsyncIterable<LlmEvent>): Promise<LlmEvent[]> {
  const out: LlmEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

function texts(events: readonly LlmEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'text' ? [e.delta] : []));
}

function calls(events: readonly LlmEvent[]): LlmToolCall[] {
  return events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
}

/** The stand-in's requests for this variant, newest last. */
function recorded(variant: Variant): RecordedLlmRequest[] {
  return standins.control.requestsFor(variant.provider);
}

/** Asserts the shared shape of every completed stream: one `done`, last, and time never runs backwards. */
function expectWellFormed(events: readonly LlmEvent[]): Extract<LlmEvent, { type: 'done' }> {
  const dones = events.filter((e) => e.type === 'done');
  expect(dones).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('done');
  for (let i = 1; i < events.length; i += 1) expect(events[i]!.atMs).toBeGreaterThanOrEqual(events[i - 1]!.atMs);
  return dones[0] as Extract<LlmEvent, { type: 'done' }>;
}

function contract(variant: Variant): void {
  const { provider, model } = variant;

  it('streams text as several deltas in order, then one done with stop and usage', async () => {
    const request: LlmRequest = {
      model,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: COUNT_PROMPT },
      ],
      maxTokens: 200,
    };
    const events = await collect(providerFor(variant).stream(request, new AbortController().signal));
    const done = expectWellFormed(events);
    expect(done.finishReason).toBe('stop');
    expect(done.usage?.inputTokens).toBeGreaterThan(0);
    expect(done.usage?.outputTokens).toBeGreaterThan(0);
    const deltas = texts(events);
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(events.slice(0, -1).every((e) => e.type === 'text')).toBe(true);
    if (!variant.standin) {
      expect(deltas.join('').toLowerCase()).toContain('twenty');
      return;
    }
    // The stand-in's default answer repeats the prompt word by word: the order is checkable exactly.
    expect(deltas).toEqual(echo(COUNT_PROMPT).match(/\s*\S+/g));
    const [wire] = recorded(variant);
    expect(wire?.outcome).toBe('completed');
    expectFirstRequestWire(variant, wire!);
  });

  it('delivers tool calls whole, then done with tool_calls', async () => {
    if (variant.standin) {
      standins.control.set({
        reply: () => ({
          toolCalls: [
            { name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
            { name: 'get_weather', arguments: { city: 'London', unit: 'celsius' } },
          ],
        }),
      });
    }
    const events = await collect(
      providerFor(variant).stream(
        { model, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: WEATHER_PROMPT }], tools: [WEATHER] },
        new AbortController().signal,
      ),
    );
    const done = expectWellFormed(events);
    expect(done.finishReason).toBe('tool_calls');
    const toolCalls = calls(events);
    expect(toolCalls.length).toBeGreaterThanOrEqual(1);
    for (const call of toolCalls) {
      expect(call.name).toBe('get_weather');
      expect(call.id).not.toBe('');
      expect(JSON.parse(call.arguments)).toMatchObject({ city: expect.any(String) });
    }
    expect(new Set(toolCalls.map((c) => c.id)).size).toBe(toolCalls.length);
    if (!variant.standin) return;
    expect(toolCalls.map((c) => JSON.parse(c.arguments) as unknown)).toEqual([
      { city: 'Paris', unit: 'celsius' },
      { city: 'London', unit: 'celsius' },
    ]);
    const wire = recorded(variant).at(-1)!;
    expectToolsOnWire(variant, wire);
    // The arguments really crossed the wire in pieces (Gemini sends a call whole by design).
    const fragment = provider === 'openai' ? /"function":\{"arguments":"[^"]/ : /"partial_json":"[^"]/;
    if (provider !== 'google') expect(wire.frames.filter((f) => fragment.test(f)).length).toBeGreaterThan(2 * 2);
    if (provider === 'google') expect(toolCalls[0]?.signature).toEqual(expect.any(String));
  });

  it('accepts a follow-up carrying the assistant tool calls and their results, well-formed on the wire', async () => {
    if (variant.standin) {
      standins.control.set({
        reply: (r) =>
          r.messages.endsWithToolResult
            ? { text: `Paris is ${r.messages.toolResults.length === 2 ? 'sunny and London is rainy' : 'unknown'}.` }
            : { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }, { name: 'get_weather', arguments: { city: 'London' } }] },
      });
    }
    const llm = providerFor(variant);
    const opening: LlmMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: WEATHER_PROMPT },
    ];
    const first = await collect(llm.stream({ model, messages: opening, tools: [WEATHER] }, new AbortController().signal));
    const toolCalls = calls(first);
    expect(toolCalls.length).toBeGreaterThanOrEqual(1);
    const results = toolCalls.map((c) => ({
      call: c,
      content: JSON.stringify((JSON.parse(c.arguments) as { city: string }).city === 'London' ? { sky: 'rainy', celsius: 14 } : { sky: 'sunny', celsius: 21 }),
    }));
    const followUp: LlmMessage[] = [
      ...opening,
      { role: 'assistant', content: texts(first).join(''), toolCalls },
      ...results.map((r): LlmMessage => ({ role: 'tool', toolCallId: r.call.id, name: r.call.name, content: r.content })),
    ];
    const events = await collect(llm.stream({ model, messages: followUp, tools: [WEATHER] }, new AbortController().signal));
    const done = expectWellFormed(events);
    expect(done.finishReason).toBe('stop');
    expect(texts(events).join('').length).toBeGreaterThan(0);
    if (!variant.standin) return;
    expect(texts(events).join('')).toBe('Paris is sunny and London is rainy.');
    const wire = recorded(variant).at(-1)!;
    expect(wire.status).toBe(200);
    expectFollowUpWire(variant, wire, toolCalls, results.map((r) => r.content));
  });

  it('stops on the abort, not on the vendor, and the vendor request is closed', async () => {
    if (variant.standin) {
      // Five seconds between tokens: had anything waited for the vendor's next token after the abort, that
      // token would be on the wire. No clock is read: the wire says whether it came. The abort comes on the
      // first token (5 ms in), so the test never waits out an interval itself.
      standins.control.set({ tokensPerSecond: 0.2, reply: () => ({ text: Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ') }) });
    }
    const controller = new AbortController();
    const events: LlmEvent[] = [];
    let framesAtAbort = 0;
    for await (const event of providerFor(variant).stream(
      { model, messages: [{ role: 'user', content: 'Count from one to two hundred in words, one per line.' }] },
      controller.signal,
    )) {
      events.push(event);
      if (events.length === 1) {
        if (variant.standin) framesAtAbort = recorded(variant).at(-1)!.frames.length;
        controller.abort();
      }
    }
    expect(events.map((e) => e.type)).toEqual(['text']);
    if (!variant.standin) return;
    const wire = recorded(variant).at(-1)!;
    await expect(wire.settled).resolves.toBe('aborted');
    // Nothing more was sent: the request was closed before the vendor's next token.
    expect(wire.frames.length).toBe(framesAtAbort);
  });

  it('rejects a wrong key without retrying', async () => {
    const before = variant.standin ? recorded(variant).length : 0;
    const llm = providerFor(variant, {}, { [variant.keyName]: 'sk-wrong-0000000000000000' });
    const error = await collect(llm.stream({ model, messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ vendor: provider, retryable: false, status: variant.badKeyStatus });
    if (variant.standin) expect(recorded(variant).length - before).toBe(1);
  });

  // Scripted failures need the stand-in; the real variants run only the tests above.
  if (variant.standin) describe('failure handling against the stand-in', () => {
    it.each([429, provider === 'anthropic' ? 529 : 503])('retries a %i before the first token', async (status) => {
      const metrics: LlmMetrics[] = [];
      // A 429 says "Retry-After: 0" here (1 s by default): honouring the vendor's wait is llm-retry-after's
      // subject; this one is that a retryable refusal before the first token is retried at all.
      standins.control.set({ retryAfterSeconds: 0 });
      standins.control.failNext(status, 2);
      const llm = providerFor(variant, { onMetrics: (m) => metrics.push(m) });
      const events = await collect(llm.stream({ model, messages: [{ role: 'user', content: 'hello' }] }, new AbortController().signal));
      expect(expectWellFormed(events).finishReason).toBe('stop');
      expect(texts(events).join('')).toBe(echo('hello'));
      expect(recorded(variant).map((r) => [r.status, r.outcome])).toEqual([
        [status, 'rejected'],
        [status, 'rejected'],
        [200, 'completed'],
      ]);
      expect(metrics).toEqual([expect.objectContaining({ attempts: 3, outcome: 'completed' })]);
    });

    it('retries a request the vendor accepted and never answered (stall), after the first-token timeout', async () => {
      standins.control.failNext('stall', 1, { vendor: provider });
      const events = await collect(providerFor(variant, { firstTokenTimeoutMs: 300 }).stream({ model, messages: [{ role: 'user', content: 'hello' }] }, new AbortController().signal));
      expect(texts(events).join('')).toBe(echo('hello'));
      const [stalled, answered] = recorded(variant);
      expect(await stalled!.settled).toBe('aborted');
      expect(answered).toMatchObject({ status: 200, outcome: 'completed' });
    });

    it('leaves this vendor alone when the scripted failure is scoped to another vendor or model', async () => {
      const other = PROVIDERS.find((p) => p !== provider)!;
      for (const only of [{ vendor: other }, { model: 'another-model' }]) {
        standins.control.failNext(503, 1, only);
        const before = recorded(variant).length;
        const events = await collect(providerFor(variant, { attempts: 1 }).stream({ model, messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal));
        expect(texts(events).join('')).toBe(echo('hi'));
        expect(recorded(variant).slice(before).map((r) => r.status)).toEqual([200]);
        expect(standins.control.script.failNext).toMatchObject({ status: 503, times: 1, only });
      }
    });

    it('does not retry a 401', async () => {
      standins.control.failNext(401, 3);
      const error = await collect(providerFor(variant).stream({ model, messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ name: 'VendorError', vendor: provider, retryable: false, status: 401 });
      expect(recorded(variant)).toHaveLength(1);
    });

    it('never retries once output has started, even when the failure is retryable', async () => {
      standins.control.set({ dropAfterTokens: 3 });
      const seen: LlmEvent[] = [];
      const error = await (async () => {
        for await (const event of providerFor(variant).stream({ model, messages: [{ role: 'user', content: 'tell me something long' }] }, new AbortController().signal)) {
          seen.push(event);
        }
      })().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ name: 'VendorError', retryable: true });
      expect(texts(seen)).toEqual(['You', ' said:', ' tell']);
      expect(recorded(variant).map((r) => r.outcome)).toEqual(['dropped']);
    });

    it('cancels and retries a request whose first token is late', async () => {
      // The stand-in holds the first token far past the deadline. The deadline runs from the request's start,
      // so on a loaded machine an attempt can be cancelled before the stand-in saw it (100 ms, 2 December):
      // the attempts are counted by the provider's metrics, and every request that arrived was cancelled.
      standins.control.set({ ttftMs: 60_000 });
      const metrics: LlmMetrics[] = [];
      const error = await collect(
        providerFor(variant, { firstTokenTimeoutMs: 500, attempts: 2, onMetrics: (m) => metrics.push(m) }).stream({ model, messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal),
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ name: 'VendorError', retryable: true, message: expect.stringContaining('no first token within 500 ms') });
      expect(metrics).toMatchObject([{ attempts: 2 }]);
      const wires = recorded(variant);
      expect(wires.length).toBeGreaterThanOrEqual(1);
      expect(wires.length).toBeLessThanOrEqual(2);
      await expect(withTimeout(Promise.all(wires.map((w) => w.settled)), WAIT_MS)).resolves.toEqual(wires.map(() => 'aborted'));
    });
  });
}

/** The stand-in's default answer to a user's words. */
function echo(prompt: string): string {
  return `You said: ${prompt.replace(/[.!?]+$/, '')}. How can I help with that?`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms))]);
}

/** The first, tool-free request, exactly as each vendor needs it. */
function expectFirstRequestWire(variant: Variant, wire: RecordedLlmRequest): void {
  switch (variant.provider) {
    case 'openai':
      expect([wire.method, wire.path]).toEqual(['POST', '/v1/chat/completions']);
      expect(wire.headers.authorization).toBe('<redacted>');
      expect(wire.body).toEqual({
        model: variant.model,
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: COUNT_PROMPT },
        ],
        max_completion_tokens: 200,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(wire.frames.at(-1)).toBe('data: [DONE]\n\n');
      return;
    case 'anthropic':
      expect([wire.method, wire.path]).toEqual(['POST', '/v1/messages']);
      // Whatever version the SDK pins (2026-10-21 for @anthropic-ai/sdk 1.12), it must be sent.
      expect(wire.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(wire.body).toEqual({ model: variant.model, max_tokens: 200, system: SYSTEM, messages: [{ role: 'user', content: COUNT_PROMPT }], stream: true });
      expect(wire.frames.map((f) => /^event: (\w+)/.exec(f)?.[1])).toEqual([
        'message_start',
        'content_block_start',
        'ping',
        ...Array<string>(echo(COUNT_PROMPT).split(' ').length).fill('content_block_delta'),
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]);
      return;
    case 'google':
      expect([wire.method, wire.path, wire.query]).toEqual(['POST', `/v1beta/models/${variant.model}:streamGenerateContent`, { alt: 'sse' }]);
      expect(wire.headers['x-goog-api-key']).toBe('<redacted>');
      expect(wire.body).toEqual({
        contents: [{ role: 'user', parts: [{ text: COUNT_PROMPT }] }],
        systemInstruction: { role: 'user', parts: [{ text: SYSTEM }] },
        generationConfig: { maxOutputTokens: 200 },
      });
      expect(wire.frames.every((f) => f.startsWith('data: {') && f.endsWith('}\r\n\r\n'))).toBe(true);
      return;
  }
}

/** How each vendor is offered the tool. */
function expectToolsOnWire(variant: Variant, wire: RecordedLlmRequest): void {
  const body = wire.body as Record<string, unknown>;
  switch (variant.provider) {
    case 'openai':
      expect(body.tools).toEqual([{ type: 'function', function: { name: WEATHER.name, description: WEATHER.description, parameters: WEATHER.parameters } }]);
      return;
    case 'anthropic':
      expect(body.tools).toEqual([{ name: WEATHER.name, description: WEATHER.description, input_schema: WEATHER.parameters }]);
      return;
    case 'google':
      expect(body.tools).toEqual([{ functionDeclarations: [{ name: WEATHER.name, description: WEATHER.description, parametersJsonSchema: WEATHER.parameters }] }]);
      return;
  }
}

/** The follow-up's conversation, exactly in the shape each vendor requires for tool results. */
function expectFollowUpWire(variant: Variant, wire: RecordedLlmRequest, toolCalls: LlmToolCall[], results: string[]): void {
  const body = wire.body as Record<string, unknown>;
  switch (variant.provider) {
    case 'openai':
      expect(body.messages).toEqual([
        { role: 'system', content: SYSTEM },
        { role: 'user', content: WEATHER_PROMPT },
        { role: 'assistant', content: null, tool_calls: toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) },
        ...toolCalls.map((c, i) => ({ role: 'tool', tool_call_id: c.id, content: results[i] })),
      ]);
      return;
    case 'anthropic':
      expect(body.system).toBe(SYSTEM);
      expect(body.messages).toEqual([
        { role: 'user', content: WEATHER_PROMPT },
        { role: 'assistant', content: toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments) as unknown })) },
        { role: 'user', content: toolCalls.map((c, i) => ({ type: 'tool_result', tool_use_id: c.id, content: results[i] })) },
      ]);
      return;
    case 'google':
      expect(body.contents).toEqual([
        { role: 'user', parts: [{ text: WEATHER_PROMPT }] },
        {
          role: 'model',
          parts: toolCalls.map((c) => ({
            functionCall: { name: c.name, args: JSON.parse(c.arguments) as unknown },
            ...(c.signature && { thoughtSignature: c.signature }),
          })),
        },
        { role: 'user', parts: toolCalls.map((c, i) => ({ functionResponse: { name: c.name, response: { output: JSON.parse(results[i]!) as unknown } } })) },
      ]);
      // Gemini 3 refuses a follow-up whose first call lost its signature; the stand-in enforces that too.
      expect((body.contents as { parts: { thoughtSignature?: string }[] }[])[1]?.parts[0]?.thoughtSignature).toEqual(expect.any(String));
      return;
  }
}

describe.each(PROVIDERS.map((p) => ({ provider: p, standin: true, model: STANDIN_MODELS[p], keyName: KEY_NAMES[p], badKeyStatus: BAD_KEY_STATUS[p] })))(
  '$provider against its stand-in',
  (variant) => contract(variant),
);

for (const provider of PROVIDERS) {
  const variant: Variant = { provider, standin: false, model: REAL_MODELS[provider], keyName: KEY_NAMES[provider], badKeyStatus: BAD_KEY_STATUS[provider] };
  describe.runIf(Boolean(process.env[KEY_NAMES[provider]]))(`${provider} against the real API (${variant.model})`, () => contract(variant));
}
