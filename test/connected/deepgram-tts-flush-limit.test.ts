/**
 * Invariant: Deepgram Aura never goes silent because of its flush limit (20 `Flush` per 60 s; past it
 * Deepgram ignores the flush with an `EXCESSIVE_FLUSH` warning and the text's audio never comes). The real
 * adapter, against the stand-in that enforces the limit exactly as Deepgram does, sends no flush over the
 * budget however many phrases a minute brings: every utterance completes with all its text spoken, and a
 * barge-in still clears an utterance whose end is waiting for a slot. Both sides keep the window on one
 * injected clock, so "a minute" passes without waiting for one.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { startDeepgramTtsStandin } from '../../lib/local/standins/deepgram-tts.js';
import type { ConnectionRecord, TtsStandin } from '../../lib/local/standins/tts-audio.js';
import { deepgramTts } from '../../lib/vendors/tts/deepgram.js';
import type { TtsSession, TtsUtterance } from '../../lib/vendors/tts/port.js';
import { WAIT_MS } from '../support/progress.js';

const KEY = 'flush-limit-key';
/** Fast audio: the test is about which flushes go out, not about pacing. */
const SCRIPT = { firstByteDelayMs: 5, chunkMs: 40, realtimeFactor: 50, speech: false } as const;

/** The clock both the adapter and the stand-in keep their flush windows on. */
let clockMs = 1_000_000;
const now = (): number => clockMs;

let standin: TtsStandin;
const sessions: TtsSession[] = [];

beforeAll(async () => {
  standin = await startDeepgramTtsStandin({ apiKey: KEY, script: SCRIPT, now });
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await standin.stop();
});

async function connect(): Promise<{ session: TtsSession; connection: ConnectionRecord }> {
  const provider = deepgramTts({ apiKey: KEY, baseUrl: standin.baseUrl }, {}, { now });
  const session = await provider.connect({ voiceId: DEFAULT_VOICE.deepgram });
  sessions.push(session);
  return { session, connection: standin.connections.at(-1)! };
}

const warnings = (c: ConnectionRecord) => c.sent.filter((m) => m.json?.type === 'Warning').map((m) => m.json);
const flushesSent = (c: ConnectionRecord) => c.received.filter((m) => m.json?.type === 'Flush').length;
const speaks = (c: ConnectionRecord) => c.received.filter((m) => m.json?.type === 'Speak').length;

/**
 * Reads an utterance's audio to its end; fails at once (instead of hanging) when Deepgram ignored a flush,
 * which is the silence this file guards against.
 */
async function collect(u: TtsUtterance, connection: ConnectionRecord): Promise<number> {
  let bytes = 0;
  const done = (async () => {
    for await (const chunk of u.audio) bytes += chunk.audio.length;
    return bytes;
  })();
  let timer: NodeJS.Timeout | undefined;
  const ignored = new Promise<never>((_, reject) => {
    const check = () => {
      const w = warnings(connection);
      if (w.length > 0) reject(new Error(`Deepgram ignored a flush: ${JSON.stringify(w[0])}`));
      else timer = setTimeout(check, 20);
    };
    check();
  });
  try {
    return await Promise.race([done, ignored]);
  } finally {
    clearTimeout(timer);
  }
}

describe('Deepgram Aura under its flush limit', () => {
  it('the stand-in answers a 21st flush within 60 s exactly as Deepgram does, and keeps the socket and the text', async () => {
    const { WebSocket } = await import('ws');
    const ws = new WebSocket(`${standin.baseUrl.replace(/^http/, 'ws')}/v1/speak?model=aura-2-thalia-en&encoding=mulaw&sample_rate=8000`, {
      headers: { authorization: `Token ${KEY}` },
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const connection = standin.connections.at(-1)!;
    for (let i = 0; i < 21; i += 1) ws.send(JSON.stringify({ type: 'Flush' }));
    ws.send(JSON.stringify({ type: 'Speak', text: 'Kept.' }));
    ws.send(JSON.stringify({ type: 'Flush' }));
    const deadline = Date.now() + 5_000;
    while (warnings(connection).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const warning = { type: 'Warning', code: 'EXCESSIVE_FLUSH', description: 'Rate limit exceeded for flushes. Please try again later.' };
    expect(warnings(connection)).toEqual([warning, warning]);
    expect(connection.segments.map((s) => s.text)).toEqual([]);
    expect(connection.closedAtMs).toBeUndefined();
    // A minute later the window has room again, and the kept text is spoken with the next flush.
    clockMs += 60_001;
    ws.send(JSON.stringify({ type: 'Flush' }));
    while (connection.segments.length === 0 && Date.now() < deadline + 5_000) await new Promise((r) => setTimeout(r, 10));
    expect(connection.segments.map((s) => s.text)).toEqual(['Kept.']);
    ws.close();
  });

  it('30 phrases in six turns within a minute: every turn is spoken in full and no flush is ignored', async () => {
    const { session, connection } = await connect();
    const spoken: string[] = [];
    for (let turn = 0; turn < 6; turn += 1) {
      const u = session.utterance(`turn-${turn}`);
      for (let p = 0; p < 5; p += 1) {
        const phrase = `Turn ${turn}, phrase ${p}.`;
        spoken.push(phrase);
        u.pushText(phrase);
        u.flush();
        clockMs += 1_500; // 30 phrases in 45 s
      }
      u.end();
      expect(await collect(u, connection)).toBeGreaterThan(0);
    }
    expect(warnings(connection)).toEqual([]);
    expect(flushesSent(connection)).toBeLessThanOrEqual(20);
    // Coalesced phrases are spoken together, but every word is spoken, in order.
    expect(connection.segments.map((s) => s.text).join('')).toBe(spoken.join(''));
  });

  it('25 one-phrase turns at once: 20 are flushed now, the rest as the window frees, none ignored', async () => {
    const { session, connection } = await connect();
    const turns = Array.from({ length: 25 }, (_, i) => {
      const u = session.utterance(`quick-${i}`);
      u.pushText(`Quick reply ${i}.`);
      u.end();
      return u;
    });
    const audio = turns.map((u) => collect(u, connection));
    for (let i = 0; i < 20; i += 1) expect(await audio[i]).toBeGreaterThan(0);
    // The 21st turn's text has reached Deepgram (the turns after it wait for its end): a flush sent with it
    // (one socket, in order) would have too.
    await vi.waitFor(() => expect(speaks(connection)).toBe(21), { timeout: WAIT_MS });
    expect(warnings(connection)).toEqual([]);
    expect(flushesSent(connection)).toBe(20);
    // A minute later the held turns go out.
    clockMs += 61_001;
    expect((await Promise.all(audio)).every((bytes) => bytes > 0)).toBe(true);
    expect(warnings(connection)).toEqual([]);
    expect(connection.segments.map((s) => s.text)).toEqual(turns.map((_, i) => `Quick reply ${i}.`));
  });

  it('a barge-in on a turn whose end waits for a slot clears it, and the next turn is spoken', async () => {
    const { session, connection } = await connect();
    for (let i = 0; i < 20; i += 1) {
      const u = session.utterance(`fill-${i}`);
      u.pushText(`Filler ${i}.`);
      u.end();
      await collect(u, connection);
    }
    const held = session.utterance('held');
    held.pushText('This end waits for the window.');
    held.end();
    const heldAudio = collect(held, connection);
    // The end flush is held (its text has reached Deepgram, the flush has not); the caller speaks over it.
    await vi.waitFor(() => expect(speaks(connection)).toBe(21), { timeout: WAIT_MS });
    expect(flushesSent(connection)).toBe(20);
    held.cancel();
    expect(await heldAudio).toBe(0);
    const clears = () => connection.received.filter((m) => m.json?.type === 'Clear').length;
    const deadline = Date.now() + 5_000;
    while (clears() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(clears()).toBe(1);
    clockMs += 61_001;
    const next = session.utterance('after-barge-in');
    next.pushText('Go ahead.');
    next.end();
    expect(await collect(next, connection)).toBeGreaterThan(0);
    expect(warnings(connection)).toEqual([]);
    // The held text was cleared, never spoken.
    expect(connection.segments.map((s) => s.text)).not.toContain('This end waits for the window.');
  });
});
