// Invariant: the STT stand-ins' shared engine hears speech only where the audio has voiced energy (20 ms
// frames over an RMS threshold, confirmed by 250 ms of voice, held through short gaps by a hangover), so a
// beep, a click or low noise is never an utterance and one utterance is one final, whatever the
// packet sizes, and turns each utterance into the scripted events in order and at the scripted times:
// speech start, growing interims, the end-of-turn final only after the endpointing silence plus the final
// delay, then the utterance-end fallback; finalize and flush finalize early; transcripts follow the script,
// in the language asked for (or, asked to detect, the one spoken).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mulawToPcm, pcmToMulaw, resample } from '../../lib/vendors/shared/mulaw.js';
import { WIDEBAND_AUDIO } from '../../lib/vendors/shared/audio-format.js';
import { pcmToLinear16 } from '../../lib/vendors/shared/pcm.js';
import {
  EnergyVad,
  SttEngine,
  cycleTranscripts,
  normalizeTranscript,
  resolveScript,
  timeWords,
  type EngineEvent,
  type EngineParams,
  type SttScript,
  type VadFrame,
} from '../../lib/local/standins/stt-engine.js';

const RATE = 8_000;

/** A voiced sound: 140 Hz with four harmonics, like a vowel; peak about `amplitude`. */
function voiced(ms: number, amplitude = 6_000): Int16Array {
  const n = (RATE * ms) / 1_000;
  const out = new Int16Array(n);
  for (let i = 0; i < n; i += 1) {
    const t = i / RATE;
    let v = 0;
    for (let h = 1; h <= 4; h += 1) v += Math.sin(2 * Math.PI * 140 * h * t) / h;
    out[i] = Math.round((v / 2.1) * amplitude);
  }
  return out;
}

const silence = (ms: number): Int16Array => new Int16Array((RATE * ms) / 1_000);

/** Deterministic low-level noise (well under the threshold). */
function noise(ms: number, amplitude: number): Int16Array {
  const n = (RATE * ms) / 1_000;
  const out = new Int16Array(n);
  let seed = 42;
  for (let i = 0; i < n; i += 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    out[i] = Math.round(((seed / 2 ** 31) * 2 - 1) * amplitude);
  }
  return out;
}

function concat(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

const starts = (frames: VadFrame[]) => frames.filter((f) => f.speechStart).map((f) => f.speechStart!.atMs);
const ends = (frames: VadFrame[]) => frames.filter((f) => f.speechEnd).map((f) => f.speechEnd!.atMs);

describe('EnergyVad', () => {
  it('hears nothing in digital silence or in low line noise', () => {
    const vad = new EnergyVad();
    const frames = vad.push(concat(silence(500), noise(500, 150)));
    expect(frames).toHaveLength(50);
    expect(frames.every((f) => !f.voiced)).toBe(true);
    expect(starts(frames)).toEqual([]);
  });

  it('finds one utterance: starts at its first voiced frame, ends at its last, reported after the hangover', () => {
    const vad = new EnergyVad({ hangoverMs: 200 });
    const frames = vad.push(concat(silence(200), voiced(600), silence(500)));
    expect(starts(frames)).toEqual([200]);
    expect(ends(frames)).toEqual([800]);
    const endFrame = frames.find((f) => f.speechEnd)!;
    expect(endFrame.endMs).toBe(1_000);
    expect(vad.inSpeech).toBe(false);
  });

  it('does not take a click, a cough or a beep for speech (onset needs 250 ms of voice)', () => {
    for (const ms of [20, 120, 240]) {
      const frames = new EnergyVad().push(concat(silence(100), voiced(ms), silence(300)));
      expect(frames.some((f) => f.voiced)).toBe(true);
      expect(starts(frames), `${ms} ms`).toEqual([]);
    }
    expect(starts(new EnergyVad().push(concat(silence(100), voiced(260), silence(300))))).toEqual([100]);
  });

  it('bridges a gap shorter than the hangover and splits on a longer one', () => {
    const short = new EnergyVad({ hangoverMs: 200 }).push(concat(voiced(300), silence(100), voiced(300), silence(400)));
    expect(starts(short)).toEqual([0]);
    expect(ends(short)).toEqual([700]);
    const long = new EnergyVad({ hangoverMs: 200 }).push(concat(voiced(300), silence(300), voiced(300), silence(400)));
    expect(starts(long)).toEqual([0, 600]);
    expect(ends(long)).toEqual([300, 900]);
  });

  it('gives the same frames whatever the packet sizes, including mu-law round trips', () => {
    const audio = mulawToPcm(pcmToMulaw(concat(silence(260), voiced(430), silence(330), voiced(310), silence(600))));
    const whole = new EnergyVad().push(audio);
    const chunked = new EnergyVad();
    const pieces: VadFrame[] = [];
    for (let i = 0; i < audio.length; i += 37) pieces.push(...chunked.push(audio.subarray(i, i + 37)));
    expect(pieces).toEqual(whole);
    expect(starts(whole)).toEqual([260, 1020]);
  });
});

describe('words', () => {
  it('normalizes like an unformatted transcript and spreads words over the speech', () => {
    expect(normalizeTranscript('Hello, I would like: two!')).toBe('hello i would like two');
    const words = timeWords('Hello, there.', 1_000, 1_400);
    expect(words).toEqual([
      { word: 'hello', punctuated: 'Hello,', startMs: 1_000, endMs: 1_200 },
      { word: 'there', punctuated: 'there.', startMs: 1_200, endMs: 1_400 },
    ]);
  });
});

describe('SttEngine', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const PARAMS: EngineParams = { endpointingMs: 300, utteranceEndMs: 1_000, interimResults: true };

  function engine(script: Partial<SttScript> = {}, params: EngineParams = PARAMS, connection = 0) {
    const events: EngineEvent[] = [];
    const resolved = resolveScript({ finalDelayMs: 80, interimIntervalMs: 300, ...script });
    const e = new SttEngine(() => resolved, params, connection, (ev) => events.push(ev));
    return { e, events, types: () => events.map((ev) => ev.type) };
  }

  it('reports speech start, growing interims, then the final only after endpointing silence plus the delay', async () => {
    const { e, events, types } = engine({ transcripts: () => 'one two three four five six' });
    e.pushPcm(concat(silence(200), voiced(1_000)));
    expect(events[0]).toEqual({ type: 'speech_started', utterance: 0, atMs: 200 });
    const interims = events.filter((ev) => ev.type === 'interim');
    expect(interims.length).toBe(3);
    const texts = interims.map((ev) => (ev.type === 'interim' ? ev.text : ''));
    for (let i = 1; i < texts.length; i += 1) expect(texts[i]!.startsWith(texts[i - 1]!)).toBe(true);
    expect(texts.at(-1)!.split(' ').length).toBeGreaterThan(texts[0]!.split(' ').length);

    e.pushPcm(silence(280));
    expect(types()).not.toContain('endpoint');
    e.pushPcm(silence(20));
    expect(types()).toContain('endpoint');
    expect(types()).not.toContain('final');
    await vi.advanceTimersByTimeAsync(79);
    expect(types()).not.toContain('final');
    await vi.advanceTimersByTimeAsync(1);
    const final = events.find((ev) => ev.type === 'final');
    expect(final).toMatchObject({ type: 'final', utterance: 0, text: 'one two three four five six', reason: 'endpointing', speechFinal: true, startMs: 200, endMs: 1_200 });

    e.pushPcm(silence(700));
    await vi.advanceTimersByTimeAsync(80);
    expect(types().slice(-1)).toEqual(['utterance_end']);
    expect(events.at(-1)).toEqual({ type: 'utterance_end', utterance: 0, lastWordEndMs: 1_200 });
  });

  it('decodes linear16 at the declared rate, carrying a sample split across messages, with audio time at that rate', async () => {
    const { e, events, types } = engine({ transcripts: () => 'wide band' }, { ...PARAMS, format: WIDEBAND_AUDIO });
    // The 8 kHz voice, upsampled to 16 kHz, as little-endian bytes cut at odd offsets (97 bytes a message).
    const audio = pcmToLinear16(resample(concat(silence(200), voiced(600), silence(300)), RATE, 16_000));
    for (let i = 0; i < audio.length; i += 97) e.pushAudio(audio.subarray(i, i + 97));
    expect(e.receivedMs).toBeCloseTo(1_100, 0);
    expect(events[0]).toEqual({ type: 'speech_started', utterance: 0, atMs: 200 });
    expect(types()).toContain('endpoint');
    await vi.advanceTimersByTimeAsync(80);
    expect(events.find((ev) => ev.type === 'final')).toMatchObject({ text: 'wide band', reason: 'endpointing', startMs: 200, endMs: 800 });
  });

  it('reads wideband silence as silence, and mu-law by default', () => {
    const wide = engine({}, { ...PARAMS, format: WIDEBAND_AUDIO });
    wide.e.pushAudio(new Uint8Array(32 * 500));
    expect(wide.types()).toEqual([]);
    const phone = engine();
    phone.e.pushAudio(pcmToMulaw(concat(silence(100), voiced(300))));
    expect(phone.types()[0]).toBe('speech_started');
  });

  it('holds back interims the client did not ask for or the script turns off', () => {
    const client = engine({}, { ...PARAMS, interimResults: false });
    client.e.pushPcm(voiced(1_000));
    expect(client.types()).toEqual(['speech_started']);
    const scripted = engine({ interimResults: false });
    scripted.e.pushPcm(voiced(1_000));
    expect(scripted.types()).toEqual(['speech_started']);
  });

  it('keeps a pause shorter than endpointing inside one utterance', async () => {
    const { e, events } = engine({ interimResults: false });
    e.pushPcm(concat(voiced(400), silence(200), voiced(400), silence(400)));
    await vi.advanceTimersByTimeAsync(100);
    expect(events.filter((ev) => ev.type === 'speech_started')).toHaveLength(1);
    expect(events.find((ev) => ev.type === 'final')).toMatchObject({ startMs: 0, endMs: 1_000 });
  });

  it('with endpointing suppressed (noise), finals lack speech_final and only the utterance end closes the turn', async () => {
    const { e, events } = engine({ suppressSpeechFinal: true, interimResults: false });
    e.pushPcm(concat(voiced(500), silence(1_100)));
    await vi.advanceTimersByTimeAsync(100);
    const final = events.find((ev) => ev.type === 'final');
    expect(final).toMatchObject({ reason: 'endpointing', speechFinal: false });
    expect(events.map((ev) => ev.type)).toEqual(['speech_started', 'endpoint', 'final', 'utterance_end']);
  });

  it('with endpointing off, the final comes with the utterance end', async () => {
    const { e, events } = engine({ interimResults: false }, { endpointingMs: null, utteranceEndMs: 1_000, interimResults: true });
    e.pushPcm(concat(voiced(500), silence(900)));
    await vi.advanceTimersByTimeAsync(200);
    expect(events.map((ev) => ev.type)).toEqual(['speech_started']);
    e.pushPcm(silence(100));
    await vi.advanceTimersByTimeAsync(80);
    expect(events.map((ev) => ev.type)).toEqual(['speech_started', 'final', 'utterance_end']);
    expect(events[1]).toMatchObject({ reason: 'utterance_end', speechFinal: false });
  });

  it('finalize finalizes the open utterance at once and endpointing does not finalize it again', async () => {
    const { e, events } = engine({ interimResults: false });
    e.pushPcm(voiced(600));
    e.finalize();
    await vi.advanceTimersByTimeAsync(80);
    expect(events.filter((ev) => ev.type === 'final')).toEqual([expect.objectContaining({ reason: 'finalize', speechFinal: false, utterance: 0 })]);
    e.pushPcm(silence(600));
    await vi.advanceTimersByTimeAsync(200);
    expect(events.filter((ev) => ev.type === 'final')).toHaveLength(1);
  });

  it('finalize with nothing heard answers with an empty final', async () => {
    const { e, events } = engine();
    e.pushPcm(silence(400));
    e.finalize();
    await vi.advanceTimersByTimeAsync(80);
    expect(events).toEqual([expect.objectContaining({ type: 'final', utterance: -1, text: '', reason: 'finalize' })]);
  });

  it('reports the language asked for, or when asked to detect the one the script says was spoken (else English)', async () => {
    const heard = { transcripts: () => ({ text: 'Guten Tag.', language: 'de' }), interimResults: false };
    const languageOf = async (params: EngineParams, script: Partial<SttScript> = heard) => {
      const { e, events } = engine(script, params);
      e.pushPcm(concat(voiced(300), silence(1_200)));
      await vi.advanceTimersByTimeAsync(100);
      return events.flatMap((ev) => (ev.type === 'final' ? [[ev.text, ev.language]] : []));
    };
    expect(await languageOf({ ...PARAMS, language: 'es' })).toEqual([['Guten Tag.', 'es']]);
    expect(await languageOf({ ...PARAMS, language: 'detect' })).toEqual([['Guten Tag.', 'de']]);
    expect(await languageOf({ ...PARAMS, language: 'detect' }, { transcripts: () => 'Hello.', interimResults: false })).toEqual([['Hello.', 'en']]);
    expect(await languageOf(PARAMS)).toEqual([['Guten Tag.', 'en']]);
  });

  it('cycles scripted transcripts per utterance and passes the connection index and the stream', async () => {
    const seen: unknown[] = [];
    const lines = cycleTranscripts(['first', 'second']);
    const { e, events } = engine(
      {
        interimResults: false,
        transcripts: (ctx) => {
          seen.push(ctx);
          return lines(ctx);
        },
      },
      PARAMS,
      3,
    );
    for (let i = 0; i < 3; i += 1) e.pushPcm(concat(voiced(300), silence(1_200)));
    await vi.advanceTimersByTimeAsync(100);
    const finals = events.filter((ev) => ev.type === 'final').map((ev) => (ev.type === 'final' ? ev.text : ''));
    expect(finals).toEqual(['first', 'second', 'first']);
    expect(seen.map((ctx) => ({ ...(ctx as object), audio: undefined, stream: undefined }))).toEqual([
      { connection: 3, utterance: 0, audio: undefined, stream: undefined, sampleRate: RATE, language: 'en' },
      { connection: 3, utterance: 1, audio: undefined, stream: undefined, sampleRate: RATE, language: 'en' },
      { connection: 3, utterance: 2, audio: undefined, stream: undefined, sampleRate: RATE, language: 'en' },
    ]);
    // Every utterance names the stream hearing it: this engine.
    expect(seen.every((ctx) => (ctx as { stream?: unknown }).stream === e)).toBe(true);
    // Each also sees the 100 ms of audio up to the frame where speech was declared (onset: 250 ms of
    // voice, reached in the 20 ms frame that ends at 260 ms), here the voice from 160 ms to 260 ms.
    const expected = concat(silence(1_200), voiced(300)).subarray(1_200 * 8 + 160 * 8, 1_200 * 8 + 260 * 8);
    for (const ctx of seen.slice(1)) expect((ctx as { audio: Int16Array }).audio).toEqual(expected);
  });

  /**
   * Chromium's fake microphone, what a browser meeting under `npm start` hears without a real device: a beep
   * every 500 ms, over the threshold for about 120 ms with its decay (measured at 16 kHz through
   * getUserMedia). Each beep used to be an utterance, two scripted sentences a second.
   */
  const beeps = (count: number) => concat(...Array.from({ length: count }, () => concat(voiced(120, 12_000), silence(380))));

  it('hears no utterance in beeps, clicks or low noise: no event at all', async () => {
    const { e, events } = engine();
    e.pushPcm(concat(beeps(20), noise(2_000, 150), silence(1_000)));
    for (let i = 0; i < 30; i += 1) e.pushPcm(concat(voiced(20), silence(180)));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(events).toEqual([]);
  });

  it('turns one utterance among beeps into exactly one final, whose turn the beeps do not hold open', async () => {
    const { e, events } = engine({ transcripts: cycleTranscripts(['the one', 'a second']) });
    e.pushPcm(concat(beeps(6), voiced(1_200), silence(250), beeps(12)));
    await vi.advanceTimersByTimeAsync(1_000);
    const finals = events.filter((ev) => ev.type === 'final');
    expect(finals).toEqual([expect.objectContaining({ text: 'the one', reason: 'endpointing', speechFinal: true, startMs: 3_000, endMs: 4_200 })]);
    expect(events.filter((ev) => ev.type === 'speech_started')).toHaveLength(1);
    expect(events.filter((ev) => ev.type === 'utterance_end')).toEqual([expect.objectContaining({ lastWordEndMs: 4_200 })]);
  });

  it('flush finalizes pending speech, drops the utterance end that can no longer come, and waits for the final', async () => {
    const { e, events } = engine({ interimResults: false });
    e.pushPcm(voiced(500));
    let flushed = false;
    const done = e.flush().then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(79);
    expect(flushed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(events.map((ev) => ev.type)).toEqual(['speech_started', 'final']);
    expect(events[1]).toMatchObject({ reason: 'flush', speechFinal: false });
  });
});
