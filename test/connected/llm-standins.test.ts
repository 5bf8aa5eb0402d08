// Invariant: the LLM stand-ins are strict enough that passing against them means something: each refuses,
// with its vendor's status and error shape as the official SDK reports it, the malformed requests the real
// API refuses (tool results without their calls, calls without results, a Gemini 3 follow-up without its
// thought signature, missing credentials); each also serves the vendor's non-streamed surface; and
// `startLlmStandins` starts only the vendors without a real key.
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { STANDIN_LLM_KEYS, defaultReply, startLlmStandins, type LlmStandins, type ScriptRequest } from '../../lib/local/standins/llm.js';

let standins: LlmStandins;
let openai: OpenAI;
let anthropic: Anthropic;
let gemini: GoogleGenAI;

beforeAll(async () => {
  standins = await startLlmStandins(loadConfig({}), { ttftMs: 0, tokensPerSecond: 0 });
  openai = new OpenAI({ apiKey: STANDIN_LLM_KEYS.openai, baseURL: standins.env.OPENAI_BASE_URL, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: STANDIN_LLM_KEYS.anthropic, baseURL: standins.env.ANTHROPIC_BASE_URL, maxRetries: 0 });
  gemini = new GoogleGenAI({ apiKey: STANDIN_LLM_KEYS.google, vertexai: false, httpOptions: { baseUrl: standins.env.GOOGLE_BASE_URL, apiVersion: 'v1beta' } });
});

afterEach(() => standins.control.reset());

afterAll(async () => {
  await standins.stop();
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('OpenAI stand-in', () => {
  it('answers a non-streamed completion', async () => {
    const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Good morning' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toBe('You said: Good morning. How can I help with that?');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('refuses a tool message that answers no call, and a call left unanswered', async () => {
    const orphan = await rejection(
      openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'call_1', content: 'r' }] }),
    );
    expect(orphan).toBeInstanceOf(OpenAI.BadRequestError);
    expect(orphan).toMatchObject({ status: 400, type: 'invalid_request_error', message: expect.stringContaining("role 'tool' must be a response") });

    const unanswered = await rejection(
      openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'user', content: 'y' },
        ],
      }),
    );
    expect(unanswered).toMatchObject({ status: 400, message: expect.stringContaining('did not have response messages: call_1') });
  });

  it('answers a missing key with 401', async () => {
    const noKey = new OpenAI({ apiKey: 'placeholder', baseURL: standins.env.OPENAI_BASE_URL, maxRetries: 0, defaultHeaders: { authorization: null } });
    const error = await rejection(noKey.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }));
    expect(error).toMatchObject({ status: 401, message: expect.stringContaining("You didn't provide an API key") });
  });
});

describe('Anthropic stand-in', () => {
  it('answers a non-streamed message', async () => {
    const message = await anthropic.messages.create({ model: 'claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'Good morning' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'You said: Good morning. How can I help with that?' }]);
    expect(message.stop_reason).toBe('end_turn');
  });

  it('refuses a tool_use without a tool_result after it, results after text, and a system role', async () => {
    const base = { model: 'claude-haiku-4-5', max_tokens: 50 } as const;
    const missing = await rejection(
      anthropic.messages.create({
        ...base,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
          { role: 'user', content: 'y' },
        ],
      }),
    );
    expect(missing).toBeInstanceOf(Anthropic.BadRequestError);
    expect(missing).toMatchObject({ status: 400, message: expect.stringContaining('`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1') });

    const late = await rejection(
      anthropic.messages.create({
        ...base,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
          { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'tool_result', tool_use_id: 'toolu_1', content: 'r' }] },
        ],
      }),
    );
    expect(late).toMatchObject({ status: 400, message: expect.stringContaining('must come first') });

    const system = await rejection(anthropic.messages.create({ ...base, messages: [{ role: 'system', content: 'x' } as never, { role: 'user', content: 'x' }] }));
    expect(system).toMatchObject({ status: 400, message: expect.stringContaining('top-level `system` parameter') });
  });

  it('requires max_tokens', async () => {
    const error = await rejection(anthropic.messages.create({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'x' }] } as never));
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining('max_tokens: Field required') });
  });
});

describe('Gemini stand-in', () => {
  it('answers generateContent', async () => {
    const response = await gemini.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Good morning' });
    expect(response.text).toBe('You said: Good morning. How can I help with that?');
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
  });

  it('refuses a follow-up whose response count differs from the call count', async () => {
    const error = await rejection(
      gemini.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: [
          { role: 'user', parts: [{ text: 'x' }] },
          { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }, { functionCall: { name: 'g', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: 1 } } }] },
        ],
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining('number of function response parts is equal') });
  });

  it('refuses a Gemini 3 follow-up without the thought signature, and accepts it with one', async () => {
    const contents = (signature?: string) => [
      { role: 'user', parts: [{ text: 'x' }] },
      { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, ...(signature && { thoughtSignature: signature }) }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: 1 } } }] },
    ];
    const error = await rejection(gemini.models.generateContent({ model: 'gemini-3-flash-preview', contents: contents() }));
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining('missing a thought_signature') });
    const ok = await gemini.models.generateContent({ model: 'gemini-3-flash-preview', contents: contents('c2ln') });
    expect(ok.text).toContain('Here is what I found: 1');
  });

  it('answers a wrong key with 400 API_KEY_INVALID', async () => {
    const wrong = new GoogleGenAI({ apiKey: 'wrong', vertexai: false, httpOptions: { baseUrl: standins.env.GOOGLE_BASE_URL, apiVersion: 'v1beta' } });
    const error = await rejection(wrong.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }));
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining('API_KEY_INVALID') });
  });
});

describe('startLlmStandins', () => {
  it('leaves a vendor with a real key alone', async () => {
    const partial = await startLlmStandins(loadConfig({ ANTHROPIC_API_KEY: 'real-key' }));
    try {
      expect(Object.keys(partial.urls).sort()).toEqual(['google', 'openai']);
      expect(partial.env).not.toHaveProperty('ANTHROPIC_API_KEY');
      expect(partial.env).not.toHaveProperty('ANTHROPIC_BASE_URL');
      expect(partial.env.OPENAI_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(partial.env.GOOGLE_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await partial.stop();
    }
  });
});

describe('the default script', () => {
  const request = (system: string, turns: ScriptRequest['messages']['turns'], toolResults: ScriptRequest['messages']['toolResults'] = []): ScriptRequest => ({
    vendor: 'openai',
    model: 'gpt-4o-mini',
    messages: { system, turns, toolResults, endsWithToolResult: toolResults.length > 0 },
    tools: [],
  });

  it('summarizes when the system prompt asks for a summary', () => {
    const reply = defaultReply(
      request('Summarize this phone call in two sentences.', [
        { role: 'user', text: 'I need a plumber', toolCalls: [] },
        { role: 'assistant', text: 'Sure.', toolCalls: [] },
        { role: 'user', text: 'Tomorrow at nine', toolCalls: [] },
      ]),
    );
    expect(reply.text).toBe('Summary: the caller said "I need a plumber", then "Tomorrow at nine".');
  });

  it('greets when there is nothing to answer, and quotes a tool result', () => {
    expect(defaultReply(request('', [])).text).toBe('Hello! How can I help you today?');
    expect(defaultReply(request('', [{ role: 'user', text: 'x', toolCalls: [] }], [{ content: '{"ok":true}' }])).text).toBe('Here is what I found: {"ok":true}. Anything else?');
  });
});
