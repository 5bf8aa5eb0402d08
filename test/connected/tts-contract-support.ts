/**
 * What the TTS contract files share (./tts-contract.test.ts, ./tts-contract-links.test.ts): the script the
 * stand-ins speak to, each vendor's variant (how its stand-in starts, how config reaches it, its exact wire
 * sequence), and readers of an utterance's audio.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { loadConfig, type Config } from '../../lib/config.js';
import { startCartesiaStandin } from '../../lib/local/standins/cartesia.js';
import { startDeepgramTtsStandin } from '../../lib/local/standins/deepgram-tts.js';
import { startElevenLabsStandin } from '../../lib/local/standins/elevenlabs.js';
import { synthesizeTone, type ConnectionRecord, type TtsScript, type TtsStandin, type TtsStandinOptions } from '../../lib/local/standins/tts-audio.js';
import { linear16ToPcm } from '../../lib/vendors/shared/pcm.js';
import type { TtsUtteranceMetrics } from '../../lib/vendors/tts/base.js';
import { createTtsProvider } from '../../lib/vendors/tts/index.js';
import type { TtsAudioChunk, TtsProviderId, TtsSession, TtsUtterance } from '../../lib/vendors/tts/port.js';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';

export const SCRIPT = { firstByteDelayMs: 150, chunkMs: 40, realtimeFactor: 4, speech: false } as const satisfies TtsScript;
export const KEY = 'contract-test-key';

export const PHRASES = ['Hello there.', 'How are you today?'] as const;
/** About 4 s of tone, sent over about 1 s at 4x: plenty of audio left to interrupt. */
export const LONG = 'This reply is long enough that the caller will certainly interrupt it midway.';

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
  language: 'en',
  output_format: { container: 'raw', encoding: 'pcm_mulaw', sample_rate: 8000 },
  context_id: contextId,
  continue: more,
  max_buffer_delay_ms: 0,
  add_timestamps: true,
});

export const VARIANTS: readonly Variant[] = [
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
      // u1's messages are its audio chunks, then one is_final, last.
      const u1 = c.sent.filter((m) => m.json?.contextId === 'u1');
      expect(u1.length).toBeGreaterThan(1);
      expect(u1.slice(0, -1).every((m) => typeof m.json?.audio === 'string' && m.json.is_final === undefined)).toBe(true);
      expect(u1.at(-1)?.json).toEqual({ is_final: true, contextId: 'u1' });
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
        { ...cartesiaRequest('u1', '', true, voiceId), flush: true },
        cartesiaRequest('u1', 'How are you today? ', true, voiceId),
        { ...cartesiaRequest('u1', '', true, voiceId), flush: true },
        cartesiaRequest('u1', '', false, voiceId),
        cartesiaRequest('u2', `${LONG} `, true, voiceId),
        { ...cartesiaRequest('u2', '', true, voiceId), flush: true },
        { context_id: 'u2', cancel: true },
      ]);
      const u1Events = c.sent.filter((m) => m.json?.context_id === 'u1' && m.json.type !== 'chunk').map((m) => m.json?.type);
      // Word timestamps (asked with add_timestamps) come per generation, each flush is answered after its
      // audio, and the end comes last.
      expect(u1Events).toEqual(['timestamps', 'flush_done', 'timestamps', 'flush_done', 'done']);
    },
  },
];

// ---- helpers ---------------------------------------------------------------------------------------------

export const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
};

/** Reads an utterance's audio to its end. */
export async function collect(u: TtsUtterance): Promise<{ chunks: TtsAudioChunk[]; bytes: Uint8Array; doneAtMs: number }> {
  const chunks: TtsAudioChunk[] = [];
  for await (const chunk of u.audio) chunks.push(chunk);
  return { chunks, bytes: concat(chunks.map((c) => c.audio)), doneAtMs: performance.now() };
}

/** Speaks PHRASES as two flushed phrases (the first pushed in two pieces, as LLM tokens arrive), then ends. */
export function speakTwoPhrases(u: TtsUtterance): number {
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
export async function speakAndCancel(u: TtsUtterance): Promise<{ received: number; chunksAfterCancel: number }> {
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

export const expectedTone = (...phrases: string[]): Uint8Array => concat(phrases.map((p) => synthesizeTone(p)));

/** Sizes of the audio messages a stand-in sent (binary frames, or the base64 payloads it recorded as `<n bytes>`). */
export const sentAudioSizes = (c: ConnectionRecord): number[] =>
  c.sent.flatMap((m) => {
    if (m.binaryBytes !== undefined) return [m.binaryBytes];
    const payload = m.json?.audio ?? m.json?.data;
    const n = typeof payload === 'string' ? /^<(\d+) bytes>$/.exec(payload)?.[1] : undefined;
    return n ? [Number(n)] : [];
  });

/** Root-mean-square level of linear16 audio. */
export const linear16Rms = (bytes: Uint8Array): number => {
  const pcm = linear16ToPcm(bytes);
  return Math.sqrt(pcm.reduce((sum, s) => sum + s * s, 0) / Math.max(1, pcm.length));
};

/** mu-law bytes decode to audible sound, not digital silence (0xFF/0x7F) throughout. */
export const expectAudible = (bytes: Uint8Array) => {
  expect(bytes.length).toBeGreaterThan(0);
  const loud = bytes.filter((b) => b !== 0xff && b !== 0x7f).length;
  expect(loud / bytes.length).toBeGreaterThan(0.2);
};

/**
 * One variant's suite: its own stand-in (started before the suite, stopped after it, with every session it
 * opened), the config that points the adapter at it, and the metrics the adapter reported.
 */
export function variantSuite(variant: Variant) {
  const rig = {
    voiceId: DEFAULT_VOICE[variant.id],
    standin: undefined as unknown as TtsStandin,
    config: undefined as unknown as Config,
    metrics: [] as TtsUtteranceMetrics[],
    sessions: [] as TtsSession[],
    /** A session of the variant's adapter on the stand-in, closed with the suite. */
    async connect(): Promise<TtsSession> {
      const provider = createTtsProvider(variant.id, rig.config, { onMetrics: (m) => rig.metrics.push(m) });
      const session = await provider.connect({ voiceId: rig.voiceId });
      rig.sessions.push(session);
      return session;
    },
    lastConnection: (): ConnectionRecord => rig.standin.connections.at(-1)!,
  };
  beforeAll(async () => {
    rig.standin = await variant.start({ apiKey: KEY, script: SCRIPT });
    rig.config = loadConfig(variant.env(rig.standin));
  });
  afterAll(async () => {
    await Promise.all(rig.sessions.map((s) => s.close()));
    await rig.standin.stop();
  });
  return rig;
}
