/**
 * Invariant: nothing key-shaped survives a vendor error. Every VendorError (and so every LLM, STT, TTS and
 * telephony error) has its message, and the messages and stacks of its causes, scrubbed by one function
 * before anyone can store, send or log them: masked keys (`sk-*********ZQXW`), raw keys with the known
 * prefixes of our vendors, Bearer/Token credentials, key query parameters and long opaque tokens become
 * `[redacted]`; the rest of the message (status, the vendor's explanation) stays readable.
 */
import { describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { redactSecrets, redactValue, VendorError } from '../../lib/vendors/shared/errors.js';
import { CustomLlm } from '../../lib/vendors/llm/custom.js';
import { TelephonyError } from '../../lib/vendors/telephony/port.js';
import { mapOpenAiError } from '../../lib/vendors/llm/openai.js';
import { describeError } from '../../lib/observability/log.js';

const hex = (n: number) => 'a1b2c3d4e5f60718'.repeat(8).slice(0, n);

describe('redactSecrets', () => {
  it.each([
    ['masked OpenAI key', 'Incorrect API key provided: sk-*********ZQXW. You can find your API key at https://platform.openai.com/account/api-keys.', 'Incorrect API key provided: [redacted]. You can find your API key at https://platform.openai.com/account/api-keys.'],
    ['short mask', 'key sk-***ZQXW refused', 'key [redacted] refused'],
    ['masked key of another shape', 'Invalid key abcd********wxyz', 'Invalid key [redacted]'],
    ['raw OpenAI project key', `bad key sk-proj-${hex(40)}`, 'bad key [redacted]'],
    ['raw Anthropic key', `x-api-key sk-ant-api03-${hex(40)} is invalid`, 'x-api-key [redacted] is invalid'],
    ['ElevenLabs key', `sk_${hex(48)} has no access`, '[redacted] has no access'],
    ['Cartesia key', 'sk_car_abcDEF123456 refused', '[redacted] refused'],
    ['Google key', 'API key not valid: AIzaSyA1234567890abcdefGHIJKLMNOPqrstu', 'API key not valid: [redacted]'],
    ['Bearer token', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature_x', 'Authorization: Bearer [redacted]'],
    ['Deepgram Token scheme', `Authorization: Token ${hex(40)}`, 'Authorization: Token [redacted]'],
    ['key in a query string', 'GET https://generativelanguage.googleapis.com/v1beta/models?key=ABCdef-123_456&pageSize=1 failed', 'GET https://generativelanguage.googleapis.com/v1beta/models?key=[redacted]&pageSize=1 failed'],
    ['api key header echoed', 'xi-api-key: 0123abcd refused', 'xi-api-key: [redacted] refused'],
    ['bare 40-hex Deepgram key', `invalid credentials ${hex(40)}`, 'invalid credentials [redacted]'],
  ])('%s', (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('keeps what is not a secret', () => {
    for (const text of [
      '401 Incorrect API key provided',
      'The model `gpt-4o-mimi` does not exist or you do not have access to it.',
      'socket closed (1008 policy violation)',
      'rate limited for 30 s: 429 Too many requests',
      'Token expired',
      'Bearer auth is required',
      'call call_01JWRF9YVRV07ZX0MV7YH6S1A1 ended; request req_0123456789abcdef0123456789abcdef',
      'task-force desk-top risk-free',
      'Twilio error 20404: The requested resource /2010-04-01/Accounts/AC0123/Calls/CA99.json was not found',
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });
});

describe('VendorError', () => {
  it('scrubs its message, its stack and its causes', () => {
    const cause = new Error('Incorrect API key provided: sk-*********ZQXW.');
    const error = new VendorError('openai', '401 Incorrect API key provided: sk-*********ZQXW.', false, 401, { cause });
    const described = JSON.stringify(describeError(error));
    expect(error.message).toBe('openai: 401 Incorrect API key provided: [redacted].');
    expect(described).not.toMatch(/sk-|ZQXW/);
    expect(described).toContain('[redacted]');
    expect(error.cause).toBe(cause);
  });

  it('scrubs what the OpenAI SDK reports for a 401', () => {
    const sdkError = OpenAI.APIError.generate(
      401,
      { error: { message: 'Incorrect API key provided: sk-*********ZQXW. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', code: 'invalid_api_key' } },
      undefined,
      new Headers(),
    );
    const mapped = mapOpenAiError(sdkError);
    expect(mapped.status).toBe(401);
    expect(mapped.retryable).toBe(false);
    expect(mapped.message).toMatch(/^openai: 401 Incorrect API key provided: \[redacted\]\./);
    expect(JSON.stringify(describeError(mapped))).not.toMatch(/sk-|ZQXW/);
  });

  it('telephony errors too', () => {
    const error = new TelephonyError(`Authenticate: Bearer ${hex(32)}`, { vendor: 'twilio', kind: 'auth', status: 401 });
    expect(error.message).toBe('twilio: Authenticate: Bearer [redacted]');
  });
});

describe('a customer\'s own key, of any shape', () => {
  it('is scrubbed from an error and its causes wherever it appears', () => {
    const cause = new Error('upstream said: key tiny42 is not valid (tiny42)');
    const error = redactValue(new VendorError('custom', 'refused tiny42', false, 401, { cause }), 'tiny42');
    expect(error.message).toBe('custom: refused [redacted]');
    expect(cause.message).toBe('upstream said: key [redacted] is not valid ([redacted])');
    expect(describeError(error).toString()).not.toContain('tiny42');
  });

  it('never survives the custom model adapter, whatever the server echoes', () => {
    const llm = new CustomLlm({ baseUrl: 'https://llm.example/v1', apiKey: 'tiny42', context: { callId: 'call_1', agentId: 'agt_1' }, allowedHosts: [] });
    const echoed = new OpenAI.APIError(401, { error: { message: 'Bad key tiny42' } }, 'Bad key tiny42', new Headers());
    const mapped = (llm as unknown as { mapError(e: unknown): VendorError }).mapError(echoed);
    expect(mapped).toBeInstanceOf(VendorError);
    expect(`${mapped.message} ${JSON.stringify(describeError(mapped))}`).not.toContain('tiny42');
  });
});
