// Invariant: the stand-ins enforce the vendors' documented limits with the vendor's own error, and the
// platform's adapters stay inside them, so a change that breaches one fails here rather than in a live call:
// - Deepgram closes a live socket after 10 s with neither audio nor a message (1011, NET-0001): the adapter's
//   KeepAlive holds a silent socket open; without it the stand-in closes it and the stream fails;
// - ElevenLabs refuses a 6th open context on a socket (1008 max_active_conversations): the adapter closes a
//   cancelled context at once and a new utterance waits for a draining one's isFinal, so barge-in after
//   barge-in never gets there;
// - Cartesia expires a context 1 s after its last audio: a later input on it is an error event (the
//   pipeline gives every phrase its own context and ends it at once, so it never sends one late).
// Limits are shortened through the stand-ins' knobs (the vendors' values are in their defaults) so no test
// waits 10 s; waits are on events (frames seen, closes), not on fixed sleeps.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { loadConfig } from '../../lib/config.js';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { startCartesiaStandin } from '../../lib/local/standins/cartesia.js';
import { startElevenLabsStandin } from '../../lib/local/standins/elevenlabs.js';
import { startSttStandins, type SttStandins } from '../../lib/local/standins/stt.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import { BaseSttProvider } from '../../lib/vendors/stt/base.js';
import { deepgramSttConnector } from '../../lib/vendors/stt/deepgram.js';
import { createTtsProvider } from '../../lib/vendors/tts/index.js';
import { WAIT_MS } from '../support/progress.js';

let stt: SttStandins;

beforeAll(async () => {
  stt = await startSttStandins(loadConfig({}), { idleTimeoutMs: 400 });
});
afterAll(async () => {
  await stt?.stop();
});

const OPTIONS = { language: 'en-US', endpointingMs: 300, utteranceEndMs: 1_000 } as const;

describe('Deepgram: 10 s without audio or KeepAlive closes the socket', () => {
  const deepgram = (keepAliveMs: number) =>
    new BaseSttProvider(deepgramSttConnector({ apiKey: stt.env.DEEPGRAM_API_KEY!, baseUrl: stt.env.DEEPGRAM_BASE_URL! }, { keepAliveMs }));

  it('the adapter keeps a silent socket open with KeepAlive', async () => {
    const control = stt.control.deepgram!;
    const stream = await deepgram(100).connect(OPTIONS);
    const session = control.sessions.at(-1)!;
    const keepAlives = () => session.frames.filter((f) => f.dir === 'in' && f.kind === 'text' && (f.json as { type?: string }).type === 'KeepAlive').length;
    // Ten KeepAlives at 100 ms span 2.5 idle timeouts of silence.
    await vi.waitFor(() => expect(keepAlives()).toBeGreaterThanOrEqual(10), { timeout: WAIT_MS });
    expect(session.closed).toBeUndefined();
    await stream.close();
    expect(session.closed).toMatchObject({ code: 1000 });
  });

  it('without KeepAlive the vendor closes it with 1011 NET-0001, and the stream fails retryably', async () => {
    const control = stt.control.deepgram!;
    const stream = await deepgram(60_000).connect(OPTIONS);
    const session = control.sessions.at(-1)!;
    const failure = await (async () => {
      for await (const _event of stream.events) {
        // Nothing is said.
      }
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(session.closed).toEqual({ code: 1011, reason: 'NET-0001', by: 'server' });
    expect(failure).toBeInstanceOf(VendorError);
    expect((failure as VendorError).retryable).toBe(true);
  });
});

describe('ElevenLabs: at most 5 contexts per socket', () => {
  it('barge-in after barge-in never holds more than 5 contexts open', async () => {
    // Slow audio keeps each cancelled context's flushed audio draining, as the real vendor's would.
    const standin = await startElevenLabsStandin({ script: { firstByteDelayMs: 0, realtimeFactor: 2 } });
    try {
      const session = await createTtsProvider('elevenlabs', loadConfig({ ELEVENLABS_API_KEY: standin.apiKey, ELEVENLABS_BASE_URL: standin.baseUrl })).connect({
        voiceId: DEFAULT_VOICE.elevenlabs,
      });
      for (let i = 0; i < 12; i += 1) {
        const u = session.utterance(`u${i}`);
        u.pushText('Talking over this one.');
        u.flush();
        // The first chunk is the vendor working on it; then the caller barges in.
        for await (const _chunk of u.audio) break;
        u.cancel();
      }
      const last = session.utterance('after');
      last.pushText('Still here.');
      last.end();
      let bytes = 0;
      for await (const chunk of last.audio) bytes += chunk.audio.length;
      expect(bytes).toBeGreaterThan(0);
      // No socket was closed for too many contexts.
      for (const c of standin.connections) expect(c.sent.map((m) => m.json?.error)).not.toContain('max_active_conversations');
      await session.close();
    } finally {
      await standin.stop();
    }
  });
});

describe('Cartesia: a context expires 1 s after its last audio', () => {
  it('an input on an expired context is an error event; one in time is spoken', async () => {
    // Expiry is measured on a clock the test moves, at Cartesia's own 1 s.
    let clockMs = 0;
    const standin = await startCartesiaStandin({ now: () => clockMs, script: { firstByteDelayMs: 0, realtimeFactor: 0 } });
    const ws = new WebSocket(`${standin.baseUrl.replace(/^http/, 'ws')}/tts/websocket`, { headers: { 'x-api-key': standin.apiKey, 'cartesia-version': '2026-08-14' } });
    try {
      const messages: Record<string, unknown>[] = [];
      ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>));
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const request = (transcript: string, flush: boolean) =>
        JSON.stringify({
          model_id: 'sonic-3',
          transcript,
          voice: { mode: 'id', id: DEFAULT_VOICE.cartesia },
          output_format: { container: 'raw', encoding: 'pcm_mulaw', sample_rate: 8000 },
          context_id: 'c1',
          continue: true,
          flush,
        });
      const flushed = (n: number) => vi.waitFor(() => expect(messages.filter((m) => m.type === 'flush_done')).toHaveLength(n), { timeout: WAIT_MS });
      ws.send(request('First part. ', true));
      await flushed(1);
      ws.send(request('Second part, in time. ', true));
      await flushed(2);
      // Exactly at the expiry the context still takes input; just past it, with nothing playing, it is gone.
      clockMs += 1_000;
      ws.send(request('Just in time. ', true));
      await flushed(3);
      clockMs += 1_001;
      ws.send(request('Too late. ', true));
      await vi.waitFor(() => expect(messages.at(-1)).toMatchObject({ type: 'error', context_id: 'c1', status_code: 400, message: expect.stringContaining('expired') }), { timeout: WAIT_MS });
      expect(messages.filter((m) => m.type === 'chunk').length).toBeGreaterThan(0);
    } finally {
      ws.close();
      await standin.stop();
    }
  });
});
