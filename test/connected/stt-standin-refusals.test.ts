/**
 * Invariant: the AssemblyAI and Speechmatics stand-ins refuse what the real services refuse, in the
 * service's own shape, so a test catches a request the vendor would turn down:
 * - AssemblyAI (Universal-Streaming v3): an unknown `speech_model` is an `Error` frame
 *   `{type, error_code: 3006, error}` and close 3006 after the upgrade, and so is a missing one (AssemblyAI:
 *   "speech_model is required ... There is no default model"); a missing key or one AssemblyAI did not issue
 *   (another vendor's) closes 1008 "Unauthorized Connection: ..." (its common-errors page); the adapter
 *   reports each as a non-retryable `VendorError` after one attempt.
 * - Speechmatics (real-time v2): an unknown `model` (or `operating_point`) is `Error invalid_model`, a language
 *   it does not transcribe `Error invalid_language`, both followed by the close; a temporary-key request with a
 *   key Speechmatics did not issue is 403, and a socket without a valid credential is refused (401).
 */
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { issueStandinKey } from '../../lib/local/standins/accounts.js';
import { startSttStandins, type SttStandins } from '../../lib/local/standins/stt.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import { createSttProvider } from '../../lib/vendors/stt/index.js';
import type { SttOptions } from '../../lib/vendors/stt/port.js';

const OPTIONS: SttOptions = { language: 'en-US', endpointingMs: 300, utteranceEndMs: 1_000 };
let standins: SttStandins;

beforeAll(async () => {
  standins = await startSttStandins(loadConfig({}));
});
afterAll(async () => {
  await standins?.stop();
});

const provider = (vendor: 'assemblyai' | 'speechmatics', overrides: Record<string, string> = {}) =>
  createSttProvider(vendor, { ...loadConfig(standins.env), ...overrides }, { retryBaseDelayMs: 10, retryMaxDelayMs: 20 });

/** Messages a socket receives until it closes, and how it closed. */
function converse(url: string, headers: Record<string, string>, send?: unknown) {
  return new Promise<{ messages: Record<string, unknown>[]; code: number; status?: number }>((resolve) => {
    const ws = new WebSocket(url, { headers });
    const messages: Record<string, unknown>[] = [];
    ws.on('open', () => send !== undefined && ws.send(JSON.stringify(send)));
    ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
    ws.on('unexpected-response', (_req, res) => resolve({ messages, code: 0, status: res.statusCode }));
    ws.on('close', (code) => resolve({ messages, code }));
    ws.on('error', () => undefined);
  });
}

describe('AssemblyAI stand-in', () => {
  const url = () => `${standins.env.ASSEMBLYAI_BASE_URL}?sample_rate=8000&encoding=pcm_mulaw`;

  it('answers an unknown speech_model with its Error frame and close 3006', async () => {
    const answer = await converse(`${url()}&speech_model=universal-streaming-englsh`, { authorization: standins.env.ASSEMBLYAI_API_KEY! });
    expect(answer.code).toBe(3006);
    expect(answer.messages).toEqual([{ type: 'Error', error_code: 3006, error: expect.stringMatching(/^Input validation error: speech_model/) }]);
  });

  it('refuses a session without speech_model, which AssemblyAI requires, the same way', async () => {
    const answer = await converse(url(), { authorization: standins.env.ASSEMBLYAI_API_KEY! });
    expect(answer.code).toBe(3006);
    expect(answer.messages).toEqual([{ type: 'Error', error_code: 3006, error: 'Input validation error: speech_model is required' }]);
  });

  it('accepts the real models', async () => {
    for (const model of ['universal-streaming-english', 'universal-streaming-multilingual', 'u3-rt-pro']) {
      const ws = new WebSocket(`${url()}&speech_model=${model}`, { headers: { authorization: standins.env.ASSEMBLYAI_API_KEY! } });
      const first = await new Promise<Record<string, unknown>>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()) as Record<string, unknown>)));
      expect(first.type).toBe('Begin');
      ws.terminate();
    }
  });

  it('closes 1008 for a missing key and for a key another vendor issued', async () => {
    const model = `${url()}&speech_model=universal-streaming-english`;
    expect(await converse(model, {})).toMatchObject({ code: 1008, messages: [] });
    expect((await converse(model, { authorization: issueStandinKey('deepgram') })).code).toBe(1008);
  });

  it('the adapter reports an unknown model as a non-retryable VendorError after one attempt', async () => {
    const control = standins.control.assemblyai!;
    control.reset();
    const error = await provider('assemblyai').connect({ ...OPTIONS, model: 'universal-streaming-englsh' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect((error as VendorError).retryable).toBe(false);
    expect(control.sessions.map((s) => s.closed?.code)).toEqual([3006]);
  });
});

describe('Speechmatics stand-in', () => {
  const start = (config: Record<string, unknown>) => ({
    message: 'StartRecognition',
    audio_format: { type: 'raw', encoding: 'mulaw', sample_rate: 8000 },
    transcription_config: { language: 'en', ...config },
  });
  const open = (message: unknown) => converse(standins.env.SPEECHMATICS_BASE_URL!, { authorization: `Bearer ${standins.env.SPEECHMATICS_API_KEY}` }, message);

  it('answers an unknown model, or operating point, with Error invalid_model', async () => {
    for (const config of [{ model: 'enhancd' }, { operating_point: 'premium' }]) {
      const answer = await open(start(config));
      expect(answer.messages).toEqual([{ message: 'Error', type: 'invalid_model', reason: expect.any(String) }]);
      expect(answer.code).not.toBe(1000);
    }
  });

  it('answers a language it does not transcribe with Error invalid_language', async () => {
    const answer = await open(start({ language: 'xx' }));
    expect(answer.messages).toEqual([{ message: 'Error', type: 'invalid_language', reason: 'language not supported: xx' }]);
  });

  it('starts recognition for each real model', async () => {
    for (const model of ['standard', 'enhanced', 'melia-1']) {
      const ws = new WebSocket(standins.env.SPEECHMATICS_BASE_URL!, { headers: { authorization: `Bearer ${standins.env.SPEECHMATICS_API_KEY}` } });
      ws.on('open', () => ws.send(JSON.stringify(start({ model }))));
      const first = await new Promise<Record<string, unknown>>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()) as Record<string, unknown>)));
      expect(first.message).toBe('RecognitionStarted');
      ws.terminate();
    }
  });

  it('refuses a key it did not issue: 403 on the temporary-key request, 401 on the socket', async () => {
    const foreign = issueStandinKey('assemblyai');
    const res = await fetch(`${standins.env.SPEECHMATICS_AUTH_URL}/api_keys?type=rt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${foreign}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ttl: 60 }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: 403, error: 'Forbidden' });
    expect((await converse(standins.env.SPEECHMATICS_BASE_URL!, { authorization: `Bearer ${foreign}` })).status).toBe(401);
    expect((await converse(standins.env.SPEECHMATICS_BASE_URL!, {})).status).toBe(401);
    const error = await provider('speechmatics', { SPEECHMATICS_API_KEY: foreign }).connect(OPTIONS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect((error as VendorError).retryable).toBe(false);
  });
});
