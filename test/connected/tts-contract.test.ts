/**
 * Invariant: every text-to-speech provider turns phrases into Twilio-ready audio (raw mu-law, 8 kHz) in
 * order and only after its first-byte delay; one utterance's audio never mixes with another's on the same
 * session; a cancel ends the utterance's audio at once and stops the vendor with that vendor's own cancel
 * message (ElevenLabs close_context, Deepgram Clear, Cartesia cancel); and the messages on the wire are
 * exactly the vendor's documented protocol. One suite per provider, run against its stand-in always and
 * against the real vendor when its key is set (STYLE 13).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig, type Config } from '../../lib/config.js';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { startCartesiaStandin } from '../../lib/local/standins/cartesia.js';
import { startDeepgramTtsStandin } from '../../lib/local/standins/deepgram-tts.js';
import { startElevenLabsStandin } from '../../lib/local/standins/elevenlabs.js';
import { startTtsStandins } from '../../lib/local/standins/tts.js';
import {
  TONE_AMPLITUDE,
  TONE_MS_PER_CHAR,
  synthesizeTone,
  type ConnectionRecord,
  type TtsScript,
  type TtsStandin,
  type TtsStandinOptions,
} from '../../lib/local/standins/tts-audio.js';
import { WIDEBAND_AUDIO, type AudioFormat } from '../../lib/vendors/shared/audio-format.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import { linear16ToPcm } from '../../lib/vendors/shared/pcm.js';
import type { TtsUtteranceMetrics } from '../../lib/vendors/tts/base.js';
import { createTtsProvider } from '../../lib/vendors/tts/index.js';
import type { TtsAudioChunk, TtsProviderId, TtsSession, TtsUtterance } from '../../lib/vendors/tts/port.js';

const SCRIPT = { firstByteDelayMs: 150, chunkMs: 40, realtimeFactor: 4, speech: false } as const satisfies TtsScript;
const KEY = 'contract-test-key';

const PHRASES = ['Hello there.', 'How are you today?'] as const;
/** About 4 s of tone, sent over about 1 s at 4x: plenty of audio left to interrupt. */
const LONG = 'This reply is long enough that the caller will certainly interrupt it midway.';

/** What differs per vendor: how to start its stand-in, how config reaches it, and its wire protocol. */
interface Variant {
  readonly id: TtsProviderId;
  start(options: TtsStandinOptions): Promise<TtsStandin>;
  env(standin: TtsStandin): Record<string, string>;
  /** The vendor's cancel for `wireId` as the stand-in saw it: when, and how much audio it had left. */
  cancelSeen(connection: ConnectionRecord, wireId: string): { atMs: number; pendingBytes: number } | undefined;
  /** Checks the handshake and the exact client messages of the wire-sequence scenario. */
  expectWire(connection: ConnectionRecord, voiceId: string): void;
  /** The real vendor's key variable. */
  readonly keyVariable: keyof Config;
  /** Checks that the client asked for linear16 16 kHz in the vendor's own terms. */
  expectWidebandWire(connection: ConnectionRecord): void;
}

const cartesiaRequest = (contextId: string, transcript: string, more: boolean, voiceId: string) => ({
  model_id: 'sonic-3',
  transcript,
  voice: { mode: 'id', id: voiceId },
  output_format: { container: 'raw', encoding: 'pcm_mulaw', sample_rate: 8000 },
  context_id: contextId,
  continue: more,
  max_buffer_delay_ms: 0,
  add_timestamps: true,
});

const VARIANTS: readonly Variant[] = [
  {
    id: 'elevenlabs',
    keyVariable: 'ELEVENLABS_API_KEY',
    expectWidebandWire: (c) => expect(c.query.output_format).toBe('pcm_16000'),
    start: (options) => startElevenLabsStandin(options),
    env: (s) => ({ ELEVENLABS_API_KEY: s.apiKey, ELEVENLABS_BASE_URL: s.baseUrl }),
    cancelSeen: (c, wireId) => {
      const ctx = c.contexts.get(wireId);
      return ctx?.cancelledAtMs !== undefined ? { atMs: ctx.cancelledAtMs, pendingBytes: ctx.pendingBytesAtCancel ?? 0 } : undefined;
    },
    expectWire: (c, voiceId) => {
      expect(c.path).toBe(`/v1/text-to-speech/${voiceId}/multi-stream-input`);
      expect(c.query).toEqual({ model_id: 'eleven_flash_v2_5', output_format: 'ulaw_8000' });
      expect(c.headers['xi-api-key']).toBe(KEY);
      expect(c.received.map((m) => m.json)).toEqual([
        { text: ' ', context_id: 'u1' },
        { text: 'Hello there. ', context_id: 'u1', flush: true },
        { text: 'How are you today? ', context_id: 'u1', flush: true },
        { context_id: 'u1', close_context: true },
        { text: ' ', context_id: 'u2' },
        { text: `${LONG} `, context_id: 'u2', flush: true },
        { context_id: 'u2', close_context: true },
        { close_socket: true },
      ]);
      // u1's messages are its audio chunks, then one isFinal, last.
      const u1 = c.sent.filter((m) => m.json?.contextId === 'u1');
      expect(u1.length).toBeGreaterThan(1);
      expect(u1.slice(0, -1).every((m) => typeof m.json?.audio === 'string' && m.json.isFinal === undefined)).toBe(true);
      expect(u1.at(-1)?.json).toEqual({ isFinal: true, contextId: 'u1' });
    },
  },
  {
    id: 'deepgram',
    keyVariable: 'DEEPGRAM_API_KEY',
    expectWidebandWire: (c) => expect(c.query).toMatchObject({ encoding: 'linear16', sample_rate: '16000' }),
    start: (options) => startDeepgramTtsStandin(options),
    env: (s) => ({ DEEPGRAM_API_KEY: s.apiKey, DEEPGRAM_TTS_BASE_URL: s.baseUrl }),
    cancelSeen: (c) => {
      const clear = c.clears[0];
      return clear ? { atMs: clear.atMs, pendingBytes: clear.pendingBytes } : undefined;
    },
    expectWire: (c, voiceId) => {
      expect(c.path).toBe('/v1/speak');
      expect(c.query).toEqual({ model: voiceId, encoding: 'mulaw', sample_rate: '8000' });
      expect(c.headers.authorization).toBe(`Token ${KEY}`);
      expect(c.received.map((m) => m.json)).toEqual([
        { type: 'Speak', text: 'Hello there.' },
        { type: 'Flush' },
        { type: 'Speak', text: 'How are you today?' },
        { type: 'Flush' },
        { type: 'Speak', text: LONG },
        { type: 'Flush' },
        { type: 'Clear' },
        { type: 'Close' },
      ]);
      const controls = c.sent.filter((m) => m.json).map((m) => m.json?.type);
      expect(controls).toEqual(['Metadata', 'Flushed', 'Flushed', 'Cleared']);
    },
  },
  {
    id: 'cartesia',
    keyVariable: 'CARTESIA_API_KEY',
    expectWidebandWire: (c) => {
      const requests = c.received.flatMap((m) => (m.json && 'transcript' in m.json ? [m.json] : []));
      expect(requests.length).toBeGreaterThan(0);
      for (const r of requests) expect(r.output_format).toEqual({ container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 });
    },
    start: (options) => startCartesiaStandin(options),
    env: (s) => ({ CARTESIA_API_KEY: s.apiKey, CARTESIA_BASE_URL: s.baseUrl }),
    cancelSeen: (c, wireId) => {
      const ctx = c.contexts.get(wireId);
      return ctx?.cancelledAtMs !== undefined ? { atMs: ctx.cancelledAtMs, pendingBytes: ctx.pendingBytesAtCancel ?? 0 } : undefined;
    },
    expectWire: (c, voiceId) => {
      expect(c.path).toBe('/tts/websocket');
      expect(c.headers['x-api-key']).toBe(KEY);
      expect(c.headers['cartesia-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(c.received.map((m) => m.json)).toEqual([
        cartesiaRequest('u1', 'Hello there. ', true, voiceId),
        cartesiaRequest('u1', 'How are you today? ', true, voiceId),
        cartesiaRequest('u1', '', false, voiceId),
        cartesiaRequest('u2', `${LONG} `, true, voiceId),
        { context_id: 'u2', cancel: true },
      ]);
      const u1Events = c.sent.filter((m) => m.json?.context_id === 'u1' && m.json.type !== 'chunk').map((m) => m.json?.type);
      // Word timestamps (asked with add_timestamps) come per generation, before the end.
      expect(u1Events).toEqual(['timestamps', 'timestamps', 'done']);
    },
  },
];

// ---- helpers ---------------------------------------------------------------------------------------------

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
};

/** Reads an utterance's audio to its end. */
async function collect(u: TtsUtterance): Promise<{ chunks: TtsAudioChunk[]; bytes: Uint8Array; doneAtMs: number }> {
  const chunks: TtsAudioChunk[] = [];
  for await (const chunk of u.audio) chunks.push(chunk);
  return { chunks, bytes: concat(chunks.map((c) => c.audio)), doneAtMs: performance.now() };
}

/** Speaks PHRASES as two flushed phrases (the first pushed in two pieces, as LLM tokens arrive), then ends. */
function speakTwoPhrases(u: TtsUtterance): number {
  u.pushText('Hello ');
  u.pushText('there.');
  const flushedAt = performance.now();
  u.flush();
  u.pushText('How are you today?');
  u.flush();
  u.end();
  return flushedAt;
}

/**
 * Starts a long utterance and cancels it on its first chunk; returns the audio received and how many chunks
 * `audio` still yielded after the cancel (none when it ends at once: no chunk in flight is played).
 */
async function speakAndCancel(u: TtsUtterance): Promise<{ received: number; chunksAfterCancel: number }> {
  u.pushText(LONG);
  u.flush();
  let received = 0;
  let cancelled = false;
  let chunksAfterCancel = 0;
  for await (const chunk of u.audio) {
    if (cancelled) chunksAfterCancel += 1;
    received += chunk.audio.length;
    if (!cancelled) {
      cancelled = true;
      u.cancel();
    }
  }
  return { received, chunksAfterCancel };
}

const expectedTone = (...phrases: string[]): Uint8Array => concat(phrases.map((p) => synthesizeTone(p)));

/** Sizes of the audio messages a stand-in sent (binary frames, or the base64 payloads it recorded as `<n bytes>`). */
const sentAudioSizes = (c: ConnectionRecord): number[] =>
  c.sent.flatMap((m) => {
    if (m.binaryBytes !== undefined) return [m.binaryBytes];
    const payload = m.json?.audio ?? m.json?.data;
    const n = typeof payload === 'string' ? /^<(\d+) bytes>$/.exec(payload)?.[1] : undefined;
    return n ? [Number(n)] : [];
  });

/** Root-mean-square level of linear16 audio. */
const linear16Rms = (bytes: Uint8Array): number => {
  const pcm = linear16ToPcm(bytes);
  return Math.sqrt(pcm.reduce((sum, s) => sum + s * s, 0) / Math.max(1, pcm.length));
};

/** mu-law bytes decode to audible sound, not digital silence (0xFF/0x7F) throughout. */
const expectAudible = (bytes: Uint8Array) => {
  expect(bytes.length).toBeGreaterThan(0);
  const loud = bytes.filter((b) => b !== 0xff && b !== 0x7f).length;
  expect(loud / bytes.length).toBeGreaterThan(0.2);
};

// ---- against the stand-ins -------------------------------------------------------------------------------

// The vendors' suites, the keepalive and startTtsStandins run side by side: each starts its own stand-ins, and
// most of their time is audio paced by those stand-ins. Inside a vendor's suite the tests run one after
// another (`it.sequential`), as they reprogram and read its stand-in.
describe.concurrent.each(VARIANTS)('$id text-to-speech against its stand-in', (variant) => {
  const voiceId = DEFAULT_VOICE[variant.id];
  let standin: TtsStandin;
  let config: Config;
  const metrics: TtsUtteranceMetrics[] = [];
  const sessions: TtsSession[] = [];

  const connect = async (): Promise<TtsSession> => {
    const provider = createTtsProvider(variant.id, config, { onMetrics: (m) => metrics.push(m) });
    const session = await provider.connect({ voiceId });
    sessions.push(session);
    return session;
  };
  const lastConnection = (): ConnectionRecord => standin.connections.at(-1)!;

  beforeAll(async () => {
    standin = await variant.start({ apiKey: KEY, script: SCRIPT });
    config = loadConfig(variant.env(standin));
  });
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    await standin.stop();
  });

  it.sequential('connects: the socket is open before the first utterance', async () => {
    const before = standin.connections.length;
    const session = await connect();
    expect(standin.connections.length).toBe(before + 1);
    expect(lastConnection().closedAtMs).toBeUndefined();
    await session.close();
    await vi.waitFor(() => expect(lastConnection().closedAtMs).toBeDefined(), { timeout: 10_000 });
  });

  it.sequential('turns two flushed phrases into exactly the audio the script gives that text, and completes after end', async () => {
    const session = await connect();
    const u = session.utterance('two-phrases');
    speakTwoPhrases(u);
    const { chunks, bytes } = await collect(u);
    expect(chunks.every((c) => c.audio instanceof Uint8Array && typeof c.atMs === 'number')).toBe(true);
    expect(bytes.length).toBe(expectedTone(...PHRASES).length);
    expect(bytes).toEqual(expectedTone(...PHRASES));
    expectAudible(bytes);
    // Chunks arrive in order: receipt times never go backwards.
    for (let i = 1; i < chunks.length; i += 1) expect(chunks[i]!.atMs).toBeGreaterThanOrEqual(chunks[i - 1]!.atMs);
    await session.close();
  });

  it.sequential('delivers the first chunk only after the first-byte delay, and reports it in the metrics', async () => {
    const session = await connect();
    const u = session.utterance('first-byte');
    const flushedAt = speakTwoPhrases(u);
    const { chunks } = await collect(u);
    const firstByte = chunks[0]!.atMs - flushedAt;
    expect(firstByte).toBeGreaterThanOrEqual(SCRIPT.firstByteDelayMs - 5);
    const m = metrics.find((x) => x.utteranceId === 'first-byte');
    expect(m).toMatchObject({ provider: variant.id, outcome: 'complete', audioBytes: expectedTone(...PHRASES).length });
    expect(m?.firstByteMs).toBeGreaterThanOrEqual(SCRIPT.firstByteDelayMs - 5);
    await session.close();
  });

  it.sequential('keeps two utterances on one session apart, even when both are in flight at once', async () => {
    const session = await connect();
    const a = session.utterance('a');
    const b = session.utterance('b');
    a.pushText('First answer, spoken first.');
    a.end();
    b.pushText('Second answer.');
    b.flush();
    b.pushText('With two phrases.');
    b.end();
    const [ra, rb] = await Promise.all([collect(a), collect(b)]);
    expect(ra.bytes).toEqual(expectedTone('First answer, spoken first.'));
    expect(rb.bytes).toEqual(expectedTone('Second answer.', 'With two phrases.'));
    // A later utterance on the same session, after both, is clean too.
    const c = session.utterance('c');
    c.pushText('Third.');
    c.end();
    expect((await collect(c)).bytes).toEqual(expectedTone('Third.'));
    await session.close();
  });

  it.sequential('cancel mid-audio ends the audio at once, sends the vendor its cancel, and leaves nothing behind', async () => {
    const session = await connect();
    const u = session.utterance('barge-in');
    const { received, chunksAfterCancel } = await speakAndCancel(u);
    expect(chunksAfterCancel).toBe(0);
    expect(received).toBeLessThan(synthesizeTone(LONG).length);
    const connection = lastConnection();
    await vi.waitFor(() => expect(variant.cancelSeen(connection, 'barge-in')).toBeDefined(), { timeout: 10_000 });
    // The vendor was stopped mid-audio: it still had audio to send when the cancel arrived.
    expect(variant.cancelSeen(connection, 'barge-in')!.pendingBytes).toBeGreaterThan(0);
    // The next utterance gets its own audio and none of the interrupted one's.
    const next = session.utterance('after-barge-in');
    next.pushText('Sorry, go ahead.');
    next.end();
    expect((await collect(next)).bytes).toEqual(expectedTone('Sorry, go ahead.'));
    const m = metrics.find((x) => x.utteranceId === 'barge-in');
    expect(m?.outcome).toBe('cancelled');
    await session.close();
  });

  it.sequential('cancelling an utterance does not take the one queued behind it down too', async () => {
    const session = await connect();
    const first = session.utterance('interrupted');
    first.pushText(LONG);
    first.flush();
    // The reply after it is ready before the barge-in lands (the pipeline prepares the next turn early).
    const second = session.utterance('queued');
    second.pushText('The answer you asked for.');
    second.end();
    const secondAudio = collect(second);
    for await (const chunk of first.audio) {
      if (chunk.audio.length > 0) first.cancel();
    }
    expect((await secondAudio).bytes).toEqual(expectedTone('The answer you asked for.'));
    await session.close();
  });

  it.sequential('speaks exactly the documented wire sequence', async () => {
    const session = await connect();
    const connection = lastConnection();
    const u1 = session.utterance('u1');
    speakTwoPhrases(u1);
    await collect(u1);
    await speakAndCancel(session.utterance('u2'));
    await vi.waitFor(() => expect(variant.cancelSeen(connection, 'u2')).toBeDefined(), { timeout: 10_000 });
    await session.close();
    await vi.waitFor(() => expect(connection.closedAtMs).toBeDefined(), { timeout: 10_000 });
    variant.expectWire(connection, voiceId);
  });

  it.sequential('reopens a socket that dropped while idle, before the next utterance', async () => {
    const session = await connect();
    const dropped = lastConnection();
    standin.dropConnections();
    await vi.waitFor(() => expect(lastConnection().openedAtMs).toBeGreaterThan(dropped.openedAtMs), { timeout: 10_000 });
    const reopened = lastConnection();
    expect(reopened.closedAtMs).toBeUndefined();
    const u = session.utterance('after-drop');
    u.pushText('Still here.');
    u.end();
    expect((await collect(u)).bytes).toEqual(expectedTone('Still here.'));
    // It went out on the new socket, not into the dead one.
    expect(reopened.received.length).toBeGreaterThan(0);
    await session.close();
  });

  it.sequential('fails an utterance whose socket drops mid-audio with a retryable VendorError, and recovers for the next', async () => {
    const session = await connect();
    const u = session.utterance('dropped');
    u.pushText(LONG);
    u.end();
    const failure = (async () => {
      for await (const chunk of u.audio) {
        if (chunk.audio.length > 0) standin.dropConnections();
      }
    })();
    await expect(failure).rejects.toSatisfy((e: unknown) => e instanceof VendorError && e.retryable && e.vendor === variant.id);
    const next = session.utterance('after-failure');
    next.pushText('Recovered.');
    next.end();
    expect((await collect(next)).bytes).toEqual(expectedTone('Recovered.'));
    await session.close();
  });

  it.sequential('speaks linear16 16 kHz when the session asks for it, in whole samples even when the vendor splits one', async () => {
    standin.setScript({ splitSamples: true });
    try {
      const session = await createTtsProvider(variant.id, config).connect({ voiceId, format: WIDEBAND_AUDIO });
      sessions.push(session);
      const u = session.utterance('wideband');
      speakTwoPhrases(u);
      const { chunks, bytes } = await collect(u);
      const connection = lastConnection();
      variant.expectWidebandWire(connection);
      expect(connection.format).toEqual(WIDEBAND_AUDIO);
      // The stand-in cut samples in two; the adapter handed on whole samples only, and lost no byte.
      expect(sentAudioSizes(connection).some((n) => n % 2 === 1)).toBe(true);
      expect(chunks.every((c) => c.audio.length % 2 === 0)).toBe(true);
      expect(bytes).toEqual(concat(PHRASES.map((p) => synthesizeTone(p, WIDEBAND_AUDIO))));
      // 70 ms a character at 32 bytes a millisecond, at the tone's level (a sine's RMS is 0.707 of its peak).
      expect(bytes.length).toBe(PHRASES.join('').length * TONE_MS_PER_CHAR * 32);
      expect(linear16Rms(bytes)).toBeGreaterThan(0.65 * TONE_AMPLITUDE);
      await session.close();
    } finally {
      standin.setScript({ splitSamples: false });
    }
  });

  it.sequential('fails with a non-retryable VendorError when asked for a format the vendor cannot produce', async () => {
    const odd: AudioFormat = { encoding: 'linear16', sampleRate: 11_025 };
    const failure = await createTtsProvider(variant.id, config)
      .connect({ voiceId, format: odd })
      .then(
        async (session) => {
          // Cartesia checks the format per request: the refusal comes with the first utterance.
          sessions.push(session);
          const u = session.utterance('unsupported-format');
          u.pushText('Hello.');
          u.end();
          return collect(u).then(
            () => undefined,
            (e: unknown) => e,
          );
        },
        (e: unknown) => e,
      );
    expect(failure).toBeInstanceOf(VendorError);
    expect((failure as VendorError).retryable).toBe(false);
    expect((failure as VendorError).vendor).toBe(variant.id);
  });

  it.sequential('refuses a wrong key with a non-retryable VendorError carrying the vendor status', async () => {
    const provider = createTtsProvider(variant.id, loadConfig({ ...variant.env(standin), [variant.keyVariable]: 'wrong-key' }));
    await expect(provider.connect({ voiceId })).rejects.toSatisfy(
      (e: unknown) => e instanceof VendorError && !e.retryable && e.status === 401 && e.vendor === variant.id,
    );
  });

  it.sequential('fails connect without a key, without touching the network', async () => {
    const before = standin.connections.length;
    const provider = createTtsProvider(variant.id, loadConfig({}));
    await expect(provider.connect({ voiceId })).rejects.toSatisfy((e: unknown) => e instanceof VendorError && !e.retryable);
    expect(standin.connections.length).toBe(before);
  });
});

describe.concurrent('ElevenLabs keepalive', () => {
  it('keeps an idle socket past the inactivity timeout; without keepalives the vendor closes it', async () => {
    // The real timeout is 20 s and our keepalive 10 s. Here a kept socket has 1.5 s and beats every 100 ms: a
    // margin a busy test machine's stalled event loop cannot eat. The unkept one times out after 300 ms.
    const patient = await startElevenLabsStandin({ inactivityTimeoutMs: 1_500, script: { firstByteDelayMs: 0 } });
    const standin = await startElevenLabsStandin({ inactivityTimeoutMs: 300, script: { firstByteDelayMs: 0 } });
    const configOf = (s: TtsStandin) => loadConfig({ ELEVENLABS_API_KEY: s.apiKey, ELEVENLABS_BASE_URL: s.baseUrl });
    try {
      const kept = await createTtsProvider('elevenlabs', configOf(patient), { keepaliveMs: 100 }).connect({ voiceId: DEFAULT_VOICE.elevenlabs });
      await new Promise((r) => setTimeout(r, 2_000));
      expect(patient.connections).toHaveLength(1);
      expect(patient.connections[0]!.closedAtMs).toBeUndefined();
      expect(patient.connections[0]!.received.map((m) => m.json)).toContainEqual({ text: '' });
      const u = kept.utterance('after-idle');
      u.pushText('Awake.');
      u.end();
      expect((await collect(u)).bytes).toEqual(expectedTone('Awake.'));
      await kept.close();

      const idle = await createTtsProvider('elevenlabs', configOf(standin), { keepaliveMs: 60_000 }).connect({ voiceId: DEFAULT_VOICE.elevenlabs });
      const opened = standin.connections.at(-1)!;
      // vi.waitFor's default 1 s was too short once on a loaded machine (28 November): the 300 ms timer and
      // the close it sends both wait on a busy event loop. The wait ends as soon as the close arrives.
      await vi.waitFor(() => expect(opened.closeCode).toBe(1008), { timeout: 10_000 });
      expect(opened.sent.at(-1)?.json).toMatchObject({ error: 'input_timeout_exceeded' });
      // It reopens an idle socket a few times, then stops rather than loop for the rest of the call...
      const before = standin.connections.length;
      await new Promise((r) => setTimeout(r, 2_000));
      expect(standin.connections.length - before).toBeLessThanOrEqual(3);
      await vi.waitFor(() => expect(standin.connections.every((c) => c.closedAtMs !== undefined)).toBe(true), { timeout: 10_000 });
      // ...and opens one again when an utterance needs it.
      const u2 = idle.utterance('after-giving-up');
      u2.pushText('Back.');
      u2.end();
      expect((await collect(u2)).bytes).toEqual(expectedTone('Back.'));
      await idle.close();
    } finally {
      await Promise.all([patient.stop(), standin.stop()]);
    }
  });
});

describe.concurrent('startTtsStandins', () => {
  it.sequential('starts a stand-in for each vendor without a real key and points its variables at it', async () => {
    const started = await startTtsStandins(loadConfig({ CARTESIA_API_KEY: 'real-key' }), { firstByteDelayMs: 0 });
    try {
      expect(Object.keys(started.env).sort()).toEqual(
        ['DEEPGRAM_API_KEY', 'DEEPGRAM_TTS_BASE_URL', 'ELEVENLABS_API_KEY', 'ELEVENLABS_BASE_URL'].sort(),
      );
      expect(started.control.cartesia).toBeUndefined();
      const config = loadConfig(started.env);
      for (const id of ['elevenlabs', 'deepgram'] as const) {
        const session = await createTtsProvider(id, config).connect({ voiceId: DEFAULT_VOICE[id] });
        const u = session.utterance('env');
        u.pushText('Local.');
        u.end();
        expect((await collect(u)).bytes).toEqual(expectedTone('Local.'));
        await session.close();
      }
    } finally {
      await started.stop();
    }
  });
});

// ---- against the real vendors (only where a key is set) ----------------------------------------------

const env = loadConfig();

for (const variant of VARIANTS) {
  describe.runIf(Boolean(env[variant.keyVariable]))(`${variant.id} text-to-speech against the real vendor`, () => {
    let session: TtsSession;
    beforeAll(async () => {
      session = await createTtsProvider(variant.id, env).connect({ voiceId: DEFAULT_VOICE[variant.id] });
    });
    afterAll(async () => {
      await session?.close();
    });

    it('speaks two phrases as audible mu-law and completes after end', async () => {
      const u = session.utterance('real-two-phrases');
      speakTwoPhrases(u);
      const { bytes } = await collect(u);
      expectAudible(bytes);
      // At least about a second of speech for two short sentences, at most a minute.
      expect(bytes.length).toBeGreaterThan(8_000 * 0.8);
      expect(bytes.length).toBeLessThan(8_000 * 60);
    });

    it('keeps consecutive utterances apart and ends a cancelled one at once', async () => {
      const { chunksAfterCancel } = await speakAndCancel(session.utterance('real-barge-in'));
      expect(chunksAfterCancel).toBe(0);
      const next = session.utterance('real-next');
      next.pushText('Okay.');
      next.end();
      const { bytes } = await collect(next);
      expectAudible(bytes);
      // "Okay." is well under three seconds: none of the long interrupted reply leaked in.
      expect(bytes.length).toBeLessThan(8_000 * 3);
    });
  });
}
