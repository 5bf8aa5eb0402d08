// Invariant: the speech-to-text stand-ins enforce the vendors' documented limits with the vendor's own close
// code, and the platform's adapters and the call's transcription link (stt-link.ts) stay inside them:
// - AssemblyAI closes a session whose audio comes faster than real time (3007 "Audio Transmission Rate
//   Exceeded", its common-errors page): a burst is refused, and after a dropped socket the link's replay of
//   the words in progress is paced, so the call goes on hearing the caller instead of going deaf;
// - Deepgram's KeepAlive keeps a socket open only once it has had audio (a socket that never received any
//   closes with 1011 NET-0001): the adapter's first message is audio, so a silent caller's socket stays up.
// - OpenAI ends a Realtime session at 60 minutes (error session_expired, close 1001): the link rotates the
//   stream at a turn's end before that, and every turn of the caller is still transcribed once.
// Limits are shortened through the stand-ins' knobs where the vendor's value would make a test wait.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { startOpenAiSttStandin } from '../../lib/local/standins/openai-stt.js';
import { startSttStandins, type SttStandins } from '../../lib/local/standins/stt.js';
import { loggerWith } from '../../lib/observability/log.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import { MULAW_SILENCE, pcmToMulaw } from '../../lib/vendors/shared/mulaw.js';
import { BaseSttProvider } from '../../lib/vendors/stt/base.js';
import { deepgramSttConnector } from '../../lib/vendors/stt/deepgram.js';
import { createSttProvider, type SttEvent, type SttOptions } from '../../lib/vendors/stt/index.js';
import { SttLink } from '../../streaming-service/src/session/stt-link.js';
import { WAIT_MS } from '../support/progress.js';

let stt: SttStandins;

beforeAll(async () => {
  stt = await startSttStandins(loadConfig({}), { idleTimeoutMs: 400 });
});
afterAll(async () => {
  await stt?.stop();
});

const OPTIONS: SttOptions = { language: 'en-US', endpointingMs: 300, utteranceEndMs: 1_000 };
const FRAME = 160; // 20 ms of mu-law 8 kHz, Twilio's packet

/** `speechMs` of a loud voiced tone (well over the stand-ins' energy threshold) then `silenceMs` of silence. */
function utterance(speechMs: number, silenceMs: number): Uint8Array {
  const speech = new Int16Array(speechMs * 8).map((_, i) => Math.round(8_000 * Math.sin((2 * Math.PI * 220 * i) / 8_000)));
  const out = new Uint8Array((speechMs + silenceMs) * 8).fill(MULAW_SILENCE);
  out.set(pcmToMulaw(speech));
  return out;
}

/** Plays audio into `send` in 20 ms packets on the wall clock, as Twilio delivers a caller. */
async function playRealTime(audio: Uint8Array, send: (packet: Uint8Array) => void): Promise<void> {
  const t0 = performance.now();
  for (let i = 0, n = 0; i < audio.length; i += FRAME, n += 1) {
    const wait = t0 + n * 20 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    send(audio.subarray(i, i + FRAME));
  }
}

/**
 * Line silence in 20 ms packets on the wall clock until `done()` (at most 15 s): a phone line never stops
 * sending audio, and a vendor hears the end of a turn in the silence it receives.
 */
async function silenceUntil(done: () => boolean, send: (packet: Uint8Array) => void): Promise<void> {
  const packet = new Uint8Array(FRAME).fill(MULAW_SILENCE);
  for (let i = 0; i < 750 && !done(); i += 1) await playRealTime(packet, send);
}

const finalTexts = (events: SttEvent[]) => events.flatMap((e) => (e.type === 'transcript' && e.isFinal && e.text ? [e.text] : []));

describe('AssemblyAI: no audio faster than real time (3007)', () => {
  const assemblyai = () => createSttProvider('assemblyai', loadConfig(stt.env));

  it('closes a session sent two seconds of audio in one burst with 3007, and the adapter calls it retryable', async () => {
    const control = stt.control.assemblyai!;
    const stream = await assemblyai().connect(OPTIONS);
    const session = control.sessions.at(-1)!;
    const failed = (async () => {
      for await (const _event of stream.events) {
        // Nothing to read: the burst is refused.
      }
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    const burst = utterance(1_000, 1_000);
    for (let i = 0; i < burst.length; i += 480) stream.sendAudio(burst.subarray(i, i + 480));
    const failure = await failed;
    expect(session.closed).toMatchObject({ code: 3007, by: 'server', reason: expect.stringMatching(/^Audio Transmission Rate Exceeded: Received [\d.]+ sec\. audio in [\d.]+ sec$/) });
    expect(failure).toBeInstanceOf(VendorError);
    expect((failure as VendorError).retryable).toBe(true);
  });

  it('a socket dropped mid-word: the link replays the words in progress at real time and the call goes on hearing', async () => {
    const control = stt.control.assemblyai!;
    const firstSession = control.connections;
    const events: SttEvent[] = [];
    const fatal: unknown[] = [];
    const link = new SttLink([assemblyai()], OPTIONS, (e) => events.push(e), (e) => fatal.push(e), loggerWith({}));
    const running = link.run();
    await vi.waitFor(() => expect(control.connections).toBe(firstSession + 1), { timeout: WAIT_MS });
    // Three turns; the socket drops 1.2 s into the first one's 1.6 s of speech, so the replay holds over a
    // second of audio the vendor has not finalized.
    control.dropMidStream(1_200 * 8);
    const audio = [utterance(1_600, 900), utterance(800, 900), utterance(800, 900)];
    for (const turn of audio) await playRealTime(turn, (p) => link.sendAudio(p));
    // The replay put the vendor behind the caller until it caught up in a pause; the line goes on meanwhile.
    await silenceUntil(() => finalTexts(events).length >= 3, (p) => link.sendAudio(p));
    await vi.waitFor(() => expect(finalTexts(events)).toHaveLength(3), { timeout: WAIT_MS, interval: 50 });
    await link.close();
    await running;
    expect(fatal).toEqual([]);
    expect(control.midStreamDrops).toBeGreaterThanOrEqual(1);
    // The link caught up with the caller in a pause, skipping silence rather than sending it late.
    expect(link.skippedMs).toBeGreaterThan(0);
    const sessions = control.sessions.filter((s) => s.index >= firstSession);
    expect(sessions.map((s) => s.closed?.code)).toEqual([1011, 1000]);
  });
});

describe('Deepgram: KeepAlive keeps only a socket that has had audio', () => {
  const deepgram = (keepAliveMs: number) =>
    new BaseSttProvider(deepgramSttConnector({ apiKey: stt.env.DEEPGRAM_API_KEY!, baseUrl: stt.env.DEEPGRAM_BASE_URL! }, { keepAliveMs }));

  it('a socket that was sent only KeepAlive is closed with 1011 NET-0001', async () => {
    const control = stt.control.deepgram!;
    const ws = new (await import('ws')).WebSocket(`${stt.env.DEEPGRAM_BASE_URL!.replace(/^http/, 'ws')}/v1/listen?model=nova-3&encoding=mulaw&sample_rate=8000`, {
      headers: { Authorization: `Token ${stt.env.DEEPGRAM_API_KEY!}` },
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const session = control.sessions.at(-1)!;
    const keepAlive = setInterval(() => ws.send(JSON.stringify({ type: 'KeepAlive' })), 100);
    try {
      const closed = await new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
      expect(closed).toEqual({ code: 1011, reason: 'NET-0001' });
      expect(session.frames.filter((f) => f.dir === 'in' && f.kind === 'text').length).toBeGreaterThanOrEqual(2);
    } finally {
      clearInterval(keepAlive);
    }
  });

  it('the adapter opens with audio, so a caller who says nothing keeps the socket with KeepAlive', async () => {
    const control = stt.control.deepgram!;
    const stream = await deepgram(100).connect(OPTIONS);
    const session = control.sessions.at(-1)!;
    const inbound = () => session.frames.filter((f) => f.dir === 'in');
    const keepAlives = () => inbound().filter((f) => f.kind === 'text' && (f.json as { type?: string }).type === 'KeepAlive').length;
    // Ten KeepAlives at 100 ms span 2.5 idle timeouts with no caller audio.
    await vi.waitFor(() => expect(keepAlives()).toBeGreaterThanOrEqual(10), { timeout: WAIT_MS });
    expect(session.closed).toBeUndefined();
    expect(inbound()[0]).toMatchObject({ kind: 'binary' });
    await stream.close();
    expect(session.closed).toMatchObject({ code: 1000 });
  });
});

describe('OpenAI: a Realtime session ends at 60 minutes', () => {
  it('the link rotates the stream at a turn\'s end before the limit; every turn is transcribed once', async () => {
    // The stand-in's limit and the link's, shortened alike from OpenAI's 60 minutes to 4 s.
    const limitMs = 4_000;
    const openai = await startOpenAiSttStandin({}, { sessionLimitMs: limitMs });
    try {
      const provider = createSttProvider('openai', loadConfig({ OPENAI_API_KEY: 'standin', OPENAI_STT_BASE_URL: openai.baseUrl }));
      const events: SttEvent[] = [];
      const fatal: unknown[] = [];
      const link = new SttLink([provider], OPTIONS, (e) => events.push(e), (e) => fatal.push(e), loggerWith({}), { sessionLimitMs: { openai: limitMs } });
      const running = link.run();
      await vi.waitFor(() => expect(openai.control.connections).toBe(1), { timeout: WAIT_MS });
      const turns = 5;
      for (let i = 0; i < turns; i += 1) await playRealTime(utterance(700, 1_000), (p) => link.sendAudio(p));
      await silenceUntil(() => finalTexts(events).length >= turns, (p) => link.sendAudio(p));
      await vi.waitFor(() => expect(finalTexts(events)).toHaveLength(turns), { timeout: WAIT_MS, interval: 50 });
      await link.close();
      await running;
      expect(fatal).toEqual([]);
      // No session reached the vendor's limit: each was closed by the client.
      expect(openai.control.sessions.flatMap((s) => s.frames).some((f) => f.kind === 'text' && f.text.includes('session_expired'))).toBe(false);
      for (const session of openai.control.sessions) expect(session.closed).toMatchObject({ by: 'client' });
      expect(openai.control.sessions.length).toBeGreaterThanOrEqual(2);
      expect(link.rotations).toBeGreaterThanOrEqual(1);
      expect(link.reconnects).toBe(0);
    } finally {
      await openai.stop();
    }
  });
});
