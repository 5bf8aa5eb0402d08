/**
 * Invariant: a vendor failure becomes an end reason that names its stage and kind, and a message safe to
 * show: the vendor's code is read from its answer whatever its shape, keys (key-shaped or the call's own)
 * never survive, a fallback is not a failure; the call's timeline is bounded, in time order, ends with the
 * end, and says when it left events out.
 */
import { describe, expect, it } from 'vitest';
import { failureReason, VENDOR_FAILURE_REASONS, CALL_END_REASONS } from '../../lib/domain/call-end.js';
import { MAX_SHOWN_MESSAGE } from '../../lib/domain/call-timeline.js';
import { closest, modelListed } from '../../lib/domain/voices.js';
import { VendorError, codeFromBody, describeVendorFailure, failureKind } from '../../lib/vendors/shared/errors.js';
import { CallTimeline } from '../../streaming-service/src/session/timeline.js';

const refusal = (status: number, body: unknown, vendor = 'elevenlabs') =>
  new VendorError(vendor, `handshake refused with HTTP ${status}: ${JSON.stringify(body)}`, false, status, { code: codeFromBody(JSON.stringify(body)) });

describe('vendor codes', () => {
  it("are read from each vendor's error body", () => {
    expect(codeFromBody(JSON.stringify({ detail: { status: 'voice_not_found', message: 'A voice with voice_id x does not exist.' } }))).toBe('voice_not_found');
    expect(codeFromBody(JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }))).toBe('invalid_api_key');
    expect(codeFromBody(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }))).toBe('authentication_error');
    expect(codeFromBody(JSON.stringify({ err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.' }))).toBe('INVALID_AUTH');
    expect(codeFromBody(JSON.stringify({ error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT' } }))).toBe('INVALID_ARGUMENT');
    // Prose is not a code, and text that is no body has none.
    expect(codeFromBody(JSON.stringify({ error: 'Invalid API key' }))).toBeUndefined();
    expect(codeFromBody('socket closed (1006)')).toBeUndefined();
  });
});

describe('failure kinds and end reasons', () => {
  it('name the stage and what went wrong', () => {
    const notFound = refusal(404, { detail: { status: 'voice_not_found', message: 'A voice with voice_id voice-1 does not exist.' } });
    expect(failureKind(notFound)).toBe('not_found');
    expect(failureReason('tts', failureKind(notFound))).toBe('tts_voice_not_found');
    expect(failureReason('tts', failureKind(refusal(401, { detail: { status: 'invalid_api_key' } })))).toBe('tts_auth_failed');
    expect(failureReason('tts', failureKind(new VendorError('elevenlabs', 'connect timed out after 5000 ms', true)))).toBe('tts_unavailable');
    // Cartesia says so inside the socket, with no 404.
    expect(failureReason('tts', failureKind(new VendorError('cartesia', 'Invalid request: Voice 0000 not found', false, 400)))).toBe('tts_voice_not_found');
    expect(failureReason('stt', failureKind(new VendorError('deepgram', 'handshake refused', false, 401)))).toBe('stt_auth_failed');
    expect(failureReason('stt', failureKind(new VendorError('deepgram', 'socket closed (1011)', true)))).toBe('stt_unavailable');
    expect(failureReason('llm', failureKind(new VendorError('openai', 'rate limited', true, 429)))).toBe('llm_rate_limited');
    expect(failureReason('llm', failureKind(new VendorError('anthropic', 'x', false, 403)))).toBe('llm_auth_failed');
    expect(failureReason('llm', failureKind(new VendorError('openai', 'The model gpt-x does not exist', false, 404)))).toBe('llm_unavailable');
    expect(failureReason('llm', failureKind(new VendorError('google', 'overloaded', true, 503)))).toBe('llm_unavailable');
    expect(failureReason('telephony', 'auth')).toBe('telephony_failed');
    for (const reason of VENDOR_FAILURE_REASONS) expect(CALL_END_REASONS).toContain(reason);
  });

  it('describe a failure with the vendor sentence, its code, and no key of any shape', () => {
    const key = 'a1b2c3'; // a short key no pattern would take for one
    const error = refusal(401, { detail: { status: 'invalid_api_key', message: `Invalid API key a1b2c3 (also xi-api-key: sk_9f8e7d6c5b4a)` } });
    const d = describeVendorFailure(error, [key]);
    expect(d).toMatchObject({ vendor: 'elevenlabs', code: 'invalid_api_key', kind: 'auth' });
    expect(d.message).toContain('elevenlabs answered HTTP 401: Invalid API key');
    expect(d.message).not.toContain(key);
    expect(d.message).not.toContain('sk_9f8e7d6c5b4a');
    // Not a VendorError (a fault of ours): the vendor is the platform, the text still scrubbed.
    expect(describeVendorFailure(new Error('boom https://x.example/?token=abc123def'))).toMatchObject({ vendor: 'platform', code: null });
    expect(describeVendorFailure(new Error('boom https://x.example/?token=abc123def')).message).not.toContain('abc123def');
  });
});

describe('the call timeline', () => {
  it('stamps events from the call start, sorts in the session kept figures, and ends with the end', () => {
    const timeline = new CallTimeline(1_000);
    timeline.note({ type: 'vendor_connected', stage: 'tts', vendor: 'elevenlabs' }, 1_150);
    timeline.note({ type: 'tool_call', name: 'lookup', status: 'ok', durationMs: 320 }, 4_000);
    const snapshot = timeline.finish(
      { latencies: [{ handleId: 'h2', sttFinalAtMs: 3_000, sttMs: 200, llmRequestAtMs: 3_010, llmFirstTokenAtMs: 3_400 }], interruptions: [{ atMs: 5_000 }], reason: 'customer_hangup' },
      9_000,
    );
    expect(snapshot.truncated).toBe(false);
    expect(snapshot.data.map((e) => [e.type, e.atMs])).toEqual([
      ['vendor_connected', 150],
      ['turn', 2_000],
      ['tool_call', 3_000],
      ['interruption', 4_000],
      ['ended', 8_000],
    ]);
    expect(snapshot.data[1]).toMatchObject({ sttMs: 200, llmFirstTokenMs: 390, ttsFirstByteMs: null });
  });

  it('keeps at most its limit, the end included, and says it left some out', () => {
    const timeline = new CallTimeline(0, [], 5);
    for (let i = 0; i < 20; i += 1) timeline.note({ type: 'interruption' }, i);
    const snapshot = timeline.finish({ latencies: [], interruptions: [], reason: 'agent_hangup' }, 100);
    expect(snapshot.data).toHaveLength(5);
    expect(snapshot.data.at(-1)).toMatchObject({ type: 'ended', reason: 'agent_hangup' });
    expect(snapshot.truncated).toBe(true);
  });

  it("scrubs the call's keys from the errors it keeps, and caps their length", () => {
    const timeline = new CallTimeline(0, ['s3cr3t-key']);
    const shown = timeline.vendorError('llm', new VendorError('custom', `refused s3cr3t-key ${'x'.repeat(600)}`, false, 401), true, 10);
    expect(shown.message).not.toContain('s3cr3t-key');
    expect(shown.message.length).toBeLessThanOrEqual(MAX_SHOWN_MESSAGE);
    const { data } = timeline.finish({ latencies: [], interruptions: [], reason: 'llm_auth_failed' }, 20);
    expect(data[0]).toMatchObject({ type: 'error', stage: 'llm', vendor: 'custom', fatal: true });
    expect(JSON.stringify(data)).not.toContain('s3cr3t-key');
  });
});

describe('catalogue matching', () => {
  it('accepts listed models, their aliases and snapshots, and nothing else', () => {
    const listed = ['claude-sonnet-4-5-20250929', 'gpt-4o-mini', 'gemini-2.0-flash-001'];
    expect(modelListed(listed, 'claude-sonnet-4-5')).toBe(true);
    expect(modelListed(listed, 'gpt-4o-mini-2024-07-18')).toBe(true);
    expect(modelListed(listed, 'gemini-2.0-flash')).toBe(true);
    expect(modelListed(listed, 'gpt-4o-mimi')).toBe(false);
    expect(modelListed(listed, 'claude-sonnet-4')).toBe(false);
  });

  it('suggests the closest names first', () => {
    const voices = [{ id: 'aura-2-thalia-en' }, { id: 'aura-2-helena-en' }, { id: 'aura-2-hermes-en' }];
    expect(closest(voices, 'aura-2-helen-en', (v) => [v.id], 2).map((v) => v.id)).toEqual(['aura-2-helena-en', 'aura-2-hermes-en']);
  });
});
