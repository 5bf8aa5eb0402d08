/**
 * Invariant: Deepgram Aura's socket limits never cut the agent off. Deepgram documents (deepgram/skills
 * `text-to-speech/SKILL.md`, "Limits on the Aura socket") 2,000 characters per `Speak` (close 1009
 * `BIG-0001`), 2,400 characters per minute into a socket (1008 `DATA-0001`) and 60 minutes per connection
 * (1011 `NET-0003`), plus 20 flushes per minute. The stand-in enforces them; the speaker, through the real
 * adapter, plays a 3,000-character answer and a 25-phrase minute whole (every phrase's audio and mark reach
 * the caller's side), and moves to a new socket before the connection cap. The adapter and the stand-in keep
 * their minute windows on one injected clock, so "a minute" passes without waiting for one.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { startDeepgramTtsStandin } from '../../lib/local/standins/deepgram-tts.js';
import type { ConnectionRecord, TtsStandin } from '../../lib/local/standins/tts-audio.js';
import { deepgramTts, type DeepgramTtsTuning } from '../../lib/vendors/tts/deepgram.js';
import type { TtsSession } from '../../lib/vendors/tts/port.js';
import type { AudioOut } from '../../streaming-service/src/session/audio-out.js';
import { Speaker } from '../../streaming-service/src/session/speaker.js';
import { SpeechHandle } from '../../streaming-service/src/session/speech-handle.js';
import { WAIT_MS } from '../support/progress.js';

const KEY = 'limits-key';
/** Fast audio: the test is about what goes on the wire, not about pacing. */
const SCRIPT = { firstByteDelayMs: 5, chunkMs: 40, realtimeFactor: 0, speech: false } as const;

let clockMs = 5_000_000;
const now = (): number => clockMs;

let standin: TtsStandin;
const sessions: TtsSession[] = [];
const standins: TtsStandin[] = [];

beforeAll(async () => {
  standin = await startDeepgramTtsStandin({ apiKey: KEY, script: SCRIPT, now });
  standins.push(standin);
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await Promise.all(standins.map((s) => s.stop()));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function connect(on: TtsStandin, tuning: DeepgramTtsTuning = {}): Promise<TtsSession> {
  const session = await deepgramTts({ apiKey: KEY, baseUrl: on.baseUrl }, {}, { now, ...tuning }).connect({ voiceId: DEFAULT_VOICE.deepgram });
  sessions.push(session);
  return session;
}

/** What reached the caller's side of a speaker: audio bytes per handle, and marks in order. */
function recorder() {
  const marks: string[] = [];
  let audioBytes = 0;
  const out = {
    enqueueAudio: (_id: string, audio: Uint8Array) => {
      audioBytes += audio.length;
    },
    enqueueMark: (_id: string, name: string) => {
      marks.push(name);
    },
  } as unknown as AudioOut;
  return { out, marks, audio: () => audioBytes };
}

/** Speaks `phrases` as one agent turn; resolves with what reached the caller's side, or rejects on an error. */
async function speakTurn(session: TtsSession, id: string, phrases: readonly string[]) {
  const handle = new SpeechHandle(id, 'reply');
  const rec = recorder();
  const errors: unknown[] = [];
  const speaker = new Speaker(handle, session, rec.out, (e) => errors.push(e));
  for (const p of phrases) speaker.say(p, 0);
  speaker.end();
  return { handle, rec, errors, done: speaker.done };
}

const speakChars = (c: ConnectionRecord) =>
  c.received.reduce((n, m) => n + (m.json?.type === 'Speak' ? [...String(m.json.text)].length : 0), 0);
const closedBy = (on: TtsStandin, code: number) => on.connections.filter((c) => c.closeCode === code);

async function rawSocket(on: TtsStandin): Promise<{ ws: WebSocket; closed: Promise<{ code: number; reason: string }> }> {
  const ws = new WebSocket(`${on.baseUrl.replace(/^http/, 'ws')}/v1/speak?model=aura-2-thalia-en&encoding=mulaw&sample_rate=8000`, {
    headers: { authorization: `Token ${KEY}` },
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return { ws, closed };
}

describe('the Deepgram Aura stand-in enforces the socket limits as Deepgram documents them', () => {
  it('a Speak over 2,000 characters closes the socket 1009 BIG-0001', async () => {
    const { ws, closed } = await rawSocket(standin);
    ws.send(JSON.stringify({ type: 'Speak', text: 'a'.repeat(2_001) }));
    expect(await closed).toEqual({ code: 1009, reason: 'BIG-0001' });
  });

  it('more than 2,400 characters within a minute closes it 1008 DATA-0001; a minute later the same amount is fine', async () => {
    const received = (n: number) => vi.waitFor(() => expect(standin.connections.at(-1)!.received).toHaveLength(n), { timeout: WAIT_MS });
    const first = await rawSocket(standin);
    first.ws.send(JSON.stringify({ type: 'Speak', text: 'b'.repeat(1_500) }));
    // The stand-in counts on its own clock when a Speak arrives.
    await received(1);
    clockMs += 30_000;
    first.ws.send(JSON.stringify({ type: 'Speak', text: 'c'.repeat(901) }));
    expect(await first.closed).toEqual({ code: 1008, reason: 'DATA-0001' });

    const second = await rawSocket(standin);
    second.ws.send(JSON.stringify({ type: 'Speak', text: 'b'.repeat(1_500) }));
    await received(1);
    clockMs += 60_001;
    second.ws.send(JSON.stringify({ type: 'Speak', text: 'c'.repeat(1_500) }));
    second.ws.send(JSON.stringify({ type: 'Flush' }));
    const connection = standin.connections.at(-1)!;
    await vi.waitFor(() => expect(connection.sent.some((m) => m.json?.type === 'Flushed')).toBe(true), { timeout: WAIT_MS });
    expect(connection.closedAtMs).toBeUndefined();
    second.ws.close();
  });

  it('a connection ends at its cap with 1011 NET-0003 (the cap shortened for the test)', async () => {
    const short = await startDeepgramTtsStandin({ apiKey: KEY, script: SCRIPT, now, maxConnectionMs: 300 });
    standins.push(short);
    const { closed } = await rawSocket(short);
    expect(await closed).toEqual({ code: 1011, reason: 'NET-0003' });
  });
});

describe('the speaker through Deepgram Aura stays within them', () => {
  it('a 3,000-character answer plays whole: its 2,500-character sentence is cut between words, no Speak is refused, the rest waits a minute', async () => {
    const session = await connect(standin);
    const connection = standin.connections.at(-1)!;
    // One run-on sentence of 2,500 characters (a single phrase: no sentence end until its last word), then two more.
    const runOn = `${`The long answer goes on, ${'and on with more words, '.repeat(110)}`.slice(0, 2_499).trimEnd()}.`;
    const phrases = [runOn, `${'A closing sentence with words. '.repeat(9).trim()}`, `${'And a last one to finish it. '.repeat(8).trim()}`];
    const refused = () => closedBy(standin, 1008).length + closedBy(standin, 1009).length;
    const refusedBefore = refused();
    expect(phrases.join(' ').length).toBeGreaterThanOrEqual(3_000);
    const turn = await speakTurn(session, 'long', phrases);
    let finished = false;
    void turn.done.finally(() => (finished = true));
    // When the adapter stops sending (its budget spent), a minute passes.
    let seen = -1;
    while (!finished && connection.closedAtMs === undefined) {
      await sleep(300);
      const sent = speakChars(connection);
      if (sent === seen) clockMs += 61_000;
      seen = sent;
    }
    await turn.done;
    expect(turn.errors).toEqual([]);
    expect(refused()).toBe(refusedBefore);
    expect(connection.closedAtMs).toBeUndefined();
    expect(turn.rec.marks).toEqual(phrases.map((_, i) => `long.${i}`));
    expect(turn.handle.phrases.every((p) => p.audioBytes > 0)).toBe(true);
    expect(connection.segments.map((s) => s.text).join('')).toBe(phrases.map((p) => `${p} `).join(''));
  });

  it('a 25-phrase minute in five turns plays whole without waiting for the flush window: one or two flushes a turn', async () => {
    const session = await connect(standin);
    const connection = standin.connections.at(-1)!;
    const flushes = () => connection.received.filter((m) => m.json?.type === 'Flush').length;
    let sent = connection.received.length;
    for (let t = 0; t < 5; t += 1) {
      const phrases = Array.from({ length: 5 }, (_, p) => `Turn ${t}, phrase ${p} of the busy minute.`);
      const before = flushes();
      const turn = await speakTurn(session, `busy-${t}`, phrases);
      // The clock stands still: all 25 phrases fall in one minute. A 21st flush would wait for it.
      await vi.waitFor(() => expect(turn.rec.marks).toHaveLength(5), { timeout: WAIT_MS });
      await turn.done;
      expect(turn.errors).toEqual([]);
      expect(turn.rec.marks).toEqual(phrases.map((_, i) => `busy-${t}.${i}`));
      expect(turn.handle.phrases.every((p) => p.audioBytes > 0)).toBe(true);
      expect(flushes() - before).toBeLessThanOrEqual(2);
      // First audio is not later than with a flush per phrase: the turn's first phrase is flushed at once.
      const turnWire = connection.received.slice(sent).map((m) => m.json?.type);
      expect(turnWire.slice(0, 2)).toEqual(['Speak', 'Flush']);
      sent = connection.received.length;
    }
    expect(connection.sent.filter((m) => m.json?.type === 'Warning')).toEqual([]);
    expect(flushes()).toBeLessThanOrEqual(20);
  });

  it('moves to a new socket before the connection cap, between turns, so the cap never closes one', async () => {
    const capped = await startDeepgramTtsStandin({ apiKey: KEY, script: SCRIPT, now, maxConnectionMs: 2_000 });
    standins.push(capped);
    const session = await connect(capped, { maxSocketMs: 2_000, rotateAheadMs: 1_000 });
    const started = performance.now();
    for (let t = 0; performance.now() - started < 5_000; t += 1) {
      const turn = await speakTurn(session, `rot-${t}`, [`Turn ${t} says one thing.`, `And then another.`]);
      await turn.done;
      expect(turn.errors).toEqual([]);
      expect(turn.rec.marks).toEqual([`rot-${t}.0`, `rot-${t}.1`]);
      await sleep(150);
      // Turns ten seconds apart on the minute windows' clock: two flushes each stay well within 20 a minute.
      clockMs += 10_000;
    }
    expect(capped.connections.length).toBeGreaterThanOrEqual(3);
    expect(closedBy(capped, 1011)).toEqual([]);
  });
});
