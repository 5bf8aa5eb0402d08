// Invariant: each adapter maps the neutral conversation to exactly the message shape its vendor requires
// (OpenAI tool messages after assistant tool_calls; Anthropic top-level system, merged same-role turns,
// tool_result blocks first; Gemini model/user turns with functionCall/functionResponse parts and the thought
// signature returned), maps finish reasons faithfully, joins streamed tool-call fragments whole, and says
// an error is retryable exactly for 408, 429, 5xx and network faults.
import { describe, expect, it } from 'vitest';
import { mapAnthropicError, mapStopReason, toAnthropicBody, toAnthropicMessages } from '../../lib/vendors/llm/anthropic.js';
import { CALL_STARTED_PLACEHOLDER, unexpectedError, vendorErrorFromStatus } from '../../lib/vendors/llm/base.js';
import { mapGeminiFinishReason, toGeminiContents, toGeminiParams } from '../../lib/vendors/llm/google.js';
import { FinishReason } from '@google/genai';
import { ToolCallAccumulator, mapFinishReason, toOpenAiBody, toOpenAiMessages } from '../../lib/vendors/llm/openai.js';
import type { LlmMessage } from '../../lib/vendors/llm/port.js';
import { createLlmProvider } from '../../lib/vendors/llm/index.js';
import { loadConfig } from '../../lib/config.js';

const CONVERSATION: LlmMessage[] = [
  { role: 'system', content: 'You are Ava.' },
  { role: 'assistant', content: 'Hi, this is Ava.' },
  { role: 'user', content: 'Weather in Paris and London?' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}', signature: 'sig-1' },
      { id: 'c2', name: 'get_weather', arguments: '{"city":"London"}' },
    ],
  },
  { role: 'tool', toolCallId: 'c1', name: 'get_weather', content: '{"temp":20}' },
  { role: 'tool', toolCallId: 'c2', name: 'get_weather', content: 'rainy' },
];

describe('OpenAI', () => {
  it('maps messages, with null content beside tool calls and one tool message per result', () => {
    expect(toOpenAiMessages(CONVERSATION)).toEqual([
      { role: 'system', content: 'You are Ava.' },
      { role: 'assistant', content: 'Hi, this is Ava.' },
      { role: 'user', content: 'Weather in Paris and London?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"London"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"temp":20}' },
      { role: 'tool', tool_call_id: 'c2', content: 'rainy' },
    ]);
  });

  it('streams with usage and uses max_completion_tokens', () => {
    const body = toOpenAiBody({ model: 'gpt', messages: [{ role: 'user', content: 'x' }], maxTokens: 50, temperature: 0.2 });
    expect(body).toEqual({
      model: 'gpt',
      messages: [{ role: 'user', content: 'x' }],
      temperature: 0.2,
      max_completion_tokens: 50,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('joins interleaved tool-call fragments by index', () => {
    const acc = new ToolCallAccumulator();
    acc.add({ index: 1, id: 'b', type: 'function', function: { name: 'two', arguments: '' } });
    acc.add({ index: 0, id: 'a', type: 'function', function: { name: 'one', arguments: '{"x"' } });
    acc.add({ index: 1, function: { arguments: '{"y":' } });
    acc.add({ index: 0, function: { arguments: ':1}' } });
    acc.add({ index: 1, function: { arguments: '2}' } });
    acc.add({ index: 2, id: 'c', type: 'function', function: { name: 'three' } });
    expect(acc.drain()).toEqual([
      { id: 'a', name: 'one', arguments: '{"x":1}' },
      { id: 'b', name: 'two', arguments: '{"y":2}' },
      { id: 'c', name: 'three', arguments: '{}' },
    ]);
    expect(acc.drain()).toEqual([]);
  });

  it('maps finish reasons', () => {
    expect(['stop', 'length', 'tool_calls', 'content_filter', 'function_call'].map((r) => mapFinishReason(r as never))).toEqual([
      'stop',
      'length',
      'tool_calls',
      'content_filter',
      'tool_calls',
    ]);
  });
});

describe('Anthropic', () => {
  it('puts the system prompt top-level, opens with a user turn and returns results as leading tool_result blocks', () => {
    const body = toAnthropicBody({ model: 'claude', messages: CONVERSATION });
    expect(body.system).toBe('You are Ava.');
    expect(body.max_tokens).toBe(1024);
    expect(body.messages).toEqual([
      { role: 'user', content: CALL_STARTED_PLACEHOLDER },
      { role: 'assistant', content: 'Hi, this is Ava.' },
      { role: 'user', content: 'Weather in Paris and London?' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'c2', name: 'get_weather', input: { city: 'London' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: '{"temp":20}' },
          { type: 'tool_result', tool_use_id: 'c2', content: 'rainy' },
        ],
      },
    ]);
  });

  it('merges consecutive same-role messages, drops empty text, keeps tool results first', () => {
    expect(
      toAnthropicMessages([
        { role: 'user', content: 'one' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'two' },
        { role: 'assistant', content: 'Checking.', toolCalls: [{ id: 't1', name: 'lookup', arguments: 'not json' }] },
        { role: 'user', content: 'hello?' },
        { role: 'tool', toolCallId: 't1', name: 'lookup', content: 'found' },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 't1', name: 'lookup', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'found' },
          { type: 'text', text: 'hello?' },
        ],
      },
    ]);
  });

  it('maps stop reasons and in-stream error types', () => {
    expect(['end_turn', 'stop_sequence', 'max_tokens', 'tool_use', 'refusal', 'pause_turn'].map((r) => mapStopReason(r as never))).toEqual([
      'stop',
      'stop',
      'length',
      'tool_calls',
      'content_filter',
      'other',
    ]);
    expect(mapAnthropicError(new TypeError('fetch failed'))).toMatchObject({ retryable: true });
  });
});

describe('Gemini', () => {
  it('maps turns to user/model contents with function parts, grouped responses and the signature returned', () => {
    const contents = toGeminiContents([
      ...CONVERSATION.slice(0, 3),
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'gemini-local-1', name: 'get_weather', arguments: '{"city":"Paris"}', signature: 'sig-1' },
          { id: 'real-id', name: 'get_weather', arguments: '{"city":"London"}' },
        ],
      },
      { role: 'tool', toolCallId: 'gemini-local-1', name: 'get_weather', content: '{"temp":20}' },
      { role: 'tool', toolCallId: 'real-id', name: 'get_weather', content: 'rainy' },
    ]);
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: CALL_STARTED_PLACEHOLDER }] },
      { role: 'model', parts: [{ text: 'Hi, this is Ava.' }] },
      { role: 'user', parts: [{ text: 'Weather in Paris and London?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig-1' },
          { functionCall: { id: 'real-id', name: 'get_weather', args: { city: 'London' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { output: { temp: 20 } } } },
          { functionResponse: { id: 'real-id', name: 'get_weather', response: { output: 'rainy' } } },
        ],
      },
    ]);
  });

  it('sends the system prompt as systemInstruction, tools as JSON-schema declarations, no SDK continuation', () => {
    const params = toGeminiParams({
      model: 'gemini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      tools: [{ name: 'end_call', description: 'Hang up', parameters: { type: 'object', properties: {} } }],
      maxTokens: 100,
    });
    expect(params.config).toEqual({
      systemInstruction: 'Be brief.',
      tools: [{ functionDeclarations: [{ name: 'end_call', description: 'Hang up', parametersJsonSchema: { type: 'object', properties: {} } }] }],
      maxOutputTokens: 100,
      automaticContinuation: false,
    });
  });

  it('maps finish reasons, STOP after a function call meaning tool_calls', () => {
    expect(mapGeminiFinishReason(FinishReason.STOP, false)).toBe('stop');
    expect(mapGeminiFinishReason(FinishReason.STOP, true)).toBe('tool_calls');
    expect(mapGeminiFinishReason(FinishReason.MAX_TOKENS, false)).toBe('length');
    expect(mapGeminiFinishReason(FinishReason.SAFETY, false)).toBe('content_filter');
    expect(mapGeminiFinishReason(FinishReason.MALFORMED_FUNCTION_CALL, true)).toBe('other');
  });
});

describe('retryability', () => {
  it('retries 408, 429 and 5xx and a missing status; not 400, 401, 403, 404', () => {
    const verdict = (status: number | undefined): boolean => vendorErrorFromStatus('x', 'm', status, undefined).retryable;
    expect([408, 429, 500, 503, 529, undefined].map(verdict)).toEqual([true, true, true, true, true, true]);
    expect([400, 401, 403, 404, 422].map(verdict)).toEqual([false, false, false, false, false]);
  });

  it('calls a dropped connection retryable and anything else not', () => {
    const reset = new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    expect(unexpectedError('x', reset).retryable).toBe(true);
    expect(unexpectedError('x', new TypeError('terminated')).retryable).toBe(true);
    expect(unexpectedError('x', new SyntaxError('Unexpected token')).retryable).toBe(false);
  });
});

describe('createLlmProvider', () => {
  it('builds a provider without a key whose stream fails, not retryable, naming the missing variable', async () => {
    const llm = createLlmProvider('anthropic', loadConfig({}));
    expect(llm.id).toBe('anthropic');
    const iterator = llm.stream({ model: 'm', messages: [] }, new AbortController().signal)[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toMatchObject({ name: 'VendorError', retryable: false, message: 'anthropic: ANTHROPIC_API_KEY is not set' });
  });
});
