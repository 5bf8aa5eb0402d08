// Invariant: the vendor stand-ins refuse what the real vendors refuse, in the vendor's own words, so a test
// that passes against them proves the platform's request would pass against the vendor: an unknown model or
// voice, and a missing or wrong key, each with the vendor's status (or close code, or error event) and error
// body; a dated snapshot of a known model is accepted. Injected faults (429, 5xx) carry the vendor's body
// too. Through the real adapters, a refusal is a non-retryable VendorError carrying the vendor's status.
// Expected values are literals from the vendors' documented answers, not the stand-ins' own tables.
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadConfig } from '../../lib/config.js';
import { startLlmStandins, type LlmStandins } from '../../lib/local/standins/llm.js';
import { startSttStandins, type SttStandins } from '../../lib/local/standins/stt.js';
import { startTtsStandins, type TtsStandins } from '../../lib/local/standins/tts.js';
import { createLlmProvider } from '../../lib/vendors/llm/index.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import { createTtsProvider } from '../../lib/vendors/tts/index.js';

let llm: LlmStandins;
let tts: TtsStandins;
let stt: SttStandins;

beforeAll(async () => {
  llm = await startLlmStandins(loadConfig({}), { ttftMs: 0, tokensPerSecond: 0 });
  tts = await startTtsStandins(loadConfig({}), { firstByteDelayMs: 0, realtimeFactor: 0 });
  stt = await startSttStandins(loadConfig({}));
});
afterEach(() => {
  llm.control.reset();
});
afterAll(async () => {
  await Promise.all([llm?.stop(), tts?.stop(), stt?.stop()]);
});

const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

/** A WebSocket handshake's outcome: opened, or the HTTP refusal with its headers and JSON body. */
function handshake(url: string, headers: Record<string, string>): Promise<{ opened: WebSocket } | { status: number; headers: Record<string, unknown>; body: unknown }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => resolve({ opened: ws }));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) as unknown }));
    });
    ws.on('error', reject);
  });
}

const wsUrl = (base: string, path: string): string => `${base.replace(/^http/, 'ws')}${path}`;

describe('LLM stand-ins: unknown models', () => {
  const message = [{ role: 'user' as const, content: 'Hello' }];

  it('OpenAI answers 404 model_not_found, and accepts a dated snapshot', async () => {
    const openai = new OpenAI({ apiKey: llm.env.OPENAI_API_KEY, baseURL: llm.env.OPENAI_BASE_URL, maxRetries: 0 });
    const error = await failure(openai.chat.completions.create({ model: 'gpt-4o-mimi', messages: message }));
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', type: 'invalid_request_error', message: expect.stringContaining('The model `gpt-4o-mimi` does not exist') });
    const ok = await openai.chat.completions.create({ model: 'gpt-4o-mini-2024-07-18', messages: message });
    expect(ok.choices[0]?.finish_reason).toBe('stop');
  });

  it('Anthropic answers 404 not_found_error "model: <name>"', async () => {
    const anthropic = new Anthropic({ apiKey: llm.env.ANTHROPIC_API_KEY, baseURL: llm.env.ANTHROPIC_BASE_URL, maxRetries: 0 });
    const error = await failure(anthropic.messages.create({ model: 'claude-3-5-haiku-latest', max_tokens: 50, messages: message }));
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((error as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: 'model: claude-3-5-haiku-latest' } });
    const ok = await anthropic.messages.create({ model: 'claude-haiku-4-5-20251001', max_tokens: 50, messages: message });
    expect(ok.stop_reason).toBe('end_turn');
  });

  it('Gemini answers 404 NOT_FOUND', async () => {
    const gemini = new GoogleGenAI({ apiKey: llm.env.GOOGLE_API_KEY, vertexai: false, httpOptions: { baseUrl: llm.env.GOOGLE_BASE_URL, apiVersion: 'v1beta' } });
    const error = await failure(gemini.models.generateContent({ model: 'gemini-1.0-ultra', contents: 'Hello' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, message: expect.stringContaining('models/gemini-1.0-ultra is not found') });
  });

  it.each(['openai', 'anthropic', 'google'] as const)('%s through the adapter: one request, a non-retryable 404', async (vendor) => {
    const provider = createLlmProvider(vendor, loadConfig(llm.env));
    const before = llm.control.requestsFor(vendor).length;
    const run = async () => {
      for await (const _event of provider.stream({ model: 'no-such-model', messages: message }, new AbortController().signal)) {
        // Nothing arrives.
      }
    };
    const error = await failure(run());
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ retryable: false, status: 404 });
    // Not retried: asking again would fail the same way.
    expect(llm.control.requestsFor(vendor).length - before).toBe(1);
  });
});

describe('TTS stand-ins: unknown voices and models, keys', () => {
  it('ElevenLabs refuses an unknown voice with 404 voice_not_found, an unknown model with 400', async () => {
    const base = tts.env.ELEVENLABS_BASE_URL!;
    const key = { 'xi-api-key': tts.env.ELEVENLABS_API_KEY! };
    expect(await handshake(wsUrl(base, '/v1/text-to-speech/not-a-voice/multi-stream-input?model_id=eleven_flash_v2_5&output_format=ulaw_8000'), key)).toMatchObject({
      status: 404,
      body: { detail: { status: 'voice_not_found', message: expect.stringContaining('not-a-voice') } },
    });
    expect(await handshake(wsUrl(base, '/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/multi-stream-input?model_id=eleven_fast_v9&output_format=ulaw_8000'), key)).toMatchObject({
      status: 400,
      body: { detail: { status: 'model_not_found' } },
    });
    const provider = createTtsProvider('elevenlabs', loadConfig(tts.env));
    await expect(provider.connect({ voiceId: 'not-a-voice' })).rejects.toSatisfy((e: unknown) => e instanceof VendorError && !e.retryable && e.status === 404);
  });

  it('Deepgram Aura refuses an unknown voice at the handshake with 400 and dg-error', async () => {
    const refused = await handshake(wsUrl(tts.env.DEEPGRAM_TTS_BASE_URL!, '/v1/speak?model=aura-2-nobody-en&encoding=mulaw&sample_rate=8000'), {
      authorization: `Token ${tts.env.DEEPGRAM_API_KEY!}`,
    });
    expect(refused).toMatchObject({ status: 400, headers: { 'dg-error': 'No such model/version/language combination found.' }, body: { err_code: 'INVALID_QUERY_PARAMETER' } });
    const provider = createTtsProvider('deepgram', loadConfig(tts.env));
    await expect(provider.connect({ voiceId: 'aura-2-nobody-en' })).rejects.toSatisfy((e: unknown) => e instanceof VendorError && !e.retryable);
  });

  it('Cartesia answers a request for an unknown voice with an error event; the utterance fails', async () => {
    const session = await createTtsProvider('cartesia', loadConfig(tts.env)).connect({ voiceId: '00000000-0000-4000-8000-000000000000' });
    try {
      const u = session.utterance('u1');
      u.pushText('Hello.');
      u.end();
      const error = await failure((async () => {
        for await (const _chunk of u.audio) {
          // No audio comes.
        }
      })());
      expect(error).toBeInstanceOf(VendorError);
      const sent = tts.control.cartesia!.connections.at(-1)!.sent.map((m) => m.json);
      expect(sent).toContainEqual(expect.objectContaining({ type: 'error', status_code: 400, done: true, message: 'Voice 00000000-0000-4000-8000-000000000000 not found' }));
    } finally {
      await session.close();
    }
  });

  it('every TTS stand-in refuses a key it did not issue, and a missing one, with 401', async () => {
    const cases = [
      { url: wsUrl(tts.env.ELEVENLABS_BASE_URL!, '/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/multi-stream-input?model_id=eleven_flash_v2_5&output_format=ulaw_8000'), header: 'xi-api-key', value: 'sk_wrong' },
      { url: wsUrl(tts.env.DEEPGRAM_TTS_BASE_URL!, '/v1/speak?model=aura-2-thalia-en&encoding=mulaw&sample_rate=8000'), header: 'authorization', value: 'Token wrong' },
      { url: wsUrl(tts.env.CARTESIA_BASE_URL!, '/tts/websocket'), header: 'x-api-key', value: 'sk_car_wrong' },
    ];
    for (const c of cases) {
      expect(await handshake(c.url, { [c.header]: c.value, 'cartesia-version': '2026-08-14' })).toMatchObject({ status: 401 });
    }
    // ElevenLabs also takes the key in the first message; with neither, the socket closes 1008.
    const bare = await handshake(cases[0]!.url, {});
    if (!('opened' in bare)) throw new Error('ElevenLabs accepts a handshake without a key header');
    const closed = new Promise<number>((resolve) => bare.opened.on('close', (code) => resolve(code)));
    bare.opened.send(JSON.stringify({ text: ' ', context_id: 'c1' }));
    expect(await closed).toBe(1008);
  });

  it('injected faults carry the vendor body: ElevenLabs 429, Deepgram 503 with dg-error', async () => {
    const eleven = tts.control.elevenlabs!;
    eleven.refuseNext(1, 429);
    expect(await handshake(wsUrl(tts.env.ELEVENLABS_BASE_URL!, '/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/multi-stream-input?model_id=eleven_flash_v2_5&output_format=ulaw_8000'), { 'xi-api-key': tts.env.ELEVENLABS_API_KEY! })).toMatchObject({
      status: 429,
      body: { detail: { status: 'too_many_concurrent_requests' } },
    });
    tts.control.deepgram!.refuseNext(1, 503);
    expect(await handshake(wsUrl(tts.env.DEEPGRAM_TTS_BASE_URL!, '/v1/speak?model=aura-2-thalia-en&encoding=mulaw&sample_rate=8000'), { authorization: `Token ${tts.env.DEEPGRAM_API_KEY!}` })).toMatchObject({
      status: 503,
      headers: { 'dg-error': expect.any(String) },
      body: { err_code: 'INTERNAL_SERVER_ERROR' },
    });
  });
});

describe('STT stand-ins: unknown models, keys, faults', () => {
  const listen = (query: string) => wsUrl(stt.env.DEEPGRAM_BASE_URL!, `/v1/listen?${query}&encoding=mulaw&sample_rate=8000`);

  it('Deepgram refuses an unknown model with 400 and dg-error, a wrong key with 401', async () => {
    const auth = { authorization: `Token ${stt.env.DEEPGRAM_API_KEY!}` };
    expect(await handshake(listen('model=nova-9'), auth)).toMatchObject({
      status: 400,
      headers: { 'dg-error': 'No such model/language/tier combination found.' },
      body: { err_code: 'INVALID_QUERY_PARAMETER' },
    });
    expect(await handshake(listen('model=nova-3'), { authorization: 'Token not-issued' })).toMatchObject({ status: 401, body: { err_code: 'INVALID_AUTH' } });
    expect(await handshake(listen('model=nova-3'), {})).toMatchObject({ status: 401 });
  });

  it('Deepgram answers an injected 429 in its own words', async () => {
    stt.control.deepgram!.failNext(1, 429);
    expect(await handshake(listen('model=nova-3'), { authorization: `Token ${stt.env.DEEPGRAM_API_KEY!}` })).toMatchObject({
      status: 429,
      body: { err_code: 'TOO_MANY_REQUESTS' },
    });
  });

  it('OpenAI transcription answers an unknown model with an invalid_value error event', async () => {
    const result = await handshake(wsUrl(stt.env.OPENAI_STT_BASE_URL!, '/realtime?intent=transcription'), { authorization: `Bearer ${stt.env.OPENAI_API_KEY!}` });
    if (!('opened' in result)) throw new Error(`refused: ${result.status}`);
    const ws = result.opened;
    const events: Record<string, unknown>[] = [];
    const errored = new Promise<Record<string, unknown>>((resolve) =>
      ws.on('message', (data) => {
        const event = JSON.parse(String(data)) as Record<string, unknown>;
        events.push(event);
        if (event.type === 'error') resolve(event);
      }),
    );
    ws.send(JSON.stringify({ type: 'session.update', session: { type: 'transcription', audio: { input: { format: { type: 'audio/pcmu' }, transcription: { model: 'gpt-9-transcribe' } } } } }));
    expect(await errored).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_value', param: 'session.audio.input.transcription.model' } });
    expect(events.some((e) => e.type === 'session.updated')).toBe(false);
    ws.close();
  });
});
