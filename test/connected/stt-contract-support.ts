/**
 * What the STT contract files share (./stt-contract.test.ts): the caller's audio (espeak-ng speech or a
 * synthetic voice), playing it in real time, reading a stand-in's recorded frames, and the contract itself.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, it, vi } from 'vitest';
import type { Config } from '../../lib/config.js';
import { MULAW_SILENCE, mulawToPcm, pcmToMulaw } from '../../lib/vendors/shared/mulaw.js';
import { EnergyVad, normalizeTranscript, type StandinSession, type SttStandinControl, type WireFrame } from '../../lib/local/standins/stt-engine.js';
import type { SttEvent, SttOptions, SttProvider, SttProviderId, SttStream } from '../../lib/vendors/stt/port.js';
import { WAIT_MS } from '../support/progress.js';

/** One STT vendor's contract: its key, what it reports, and its exact wire sequence (stt-contract-wire.ts). */
export interface VendorCase {
  readonly id: SttProviderId;
  readonly keyVar: 'DEEPGRAM_API_KEY' | 'ASSEMBLYAI_API_KEY' | 'SPEECHMATICS_API_KEY' | 'OPENAI_API_KEY';
  /**
   * Whether the real service is documented to report speech starts for this configuration. AssemblyAI lists
   * SpeechStarted in its message sequence, but not for every model, so there it is checked only when sent.
   */
  readonly realSpeechStarted: boolean;
  /** Is this client message the adapter's finalize request? */
  readonly isFinalize: (m: Record<string, unknown>) => boolean;
  /** Asserts the whole wire sequence of one stream that sent `audioBytes` of audio, then closed. */
  readonly wire: (s: StandinSession, control: SttStandinControl, audioBytes: number) => void;
}

export const SPOKEN = 'Hello, I would like to book a table for two.';
const FRAME_BYTES = 160; // 20 ms of 8 kHz mu-law, Twilio's packet
export const LEAD_SILENCE_MS = 300;
export const FINAL_DELAY_MS = 80;
export const OPTIONS: SttOptions = { language: 'en-US', endpointingMs: 300, utteranceEndMs: 1_000 };

// ---------------------------------------------------------------------------------------------------------
// Audio: espeak-ng speech (22.05 kHz WAV, low-passed and decimated to 8 kHz mu-law), or a synthetic voice
// ---------------------------------------------------------------------------------------------------------

function lowPassResample(input: Int16Array, fromRate: number, toRate: number, cutoffHz = 3_400): Int16Array {
  // Windowed-sinc low-pass (3.4 kHz: the telephone band) so decimation does not fold energy back in.
  const taps = 63;
  const cutoff = cutoffHz / fromRate;
  const kernel = Array.from({ length: taps }, (_, i) => {
    const m = i - (taps - 1) / 2;
    const sinc = m === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * m) / (Math.PI * m);
    return sinc * (0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (taps - 1)));
  });
  const out = new Int16Array(Math.floor((input.length * toRate) / fromRate));
  for (let o = 0; o < out.length; o += 1) {
    const center = Math.round((o * fromRate) / toRate);
    let acc = 0;
    for (let k = 0; k < taps; k += 1) {
      const idx = center + k - (taps - 1) / 2;
      if (idx >= 0 && idx < input.length) acc += input[idx]! * kernel[k]!;
    }
    out[o] = Math.max(-32_768, Math.min(32_767, Math.round(acc)));
  }
  return out;
}

/** espeak-ng's voice at `toRate` (band-limited to `cutoffHz`), or undefined where espeak-ng is missing. */
function espeakPcm(text: string, toRate: number, cutoffHz: number): Int16Array | undefined {
  if (!existsSync('/usr/bin/espeak-ng')) return undefined;
  const wav = execFileSync('/usr/bin/espeak-ng', ['--stdout', text]);
  // espeak writes to a pipe, so its size fields are placeholders: read the format, take everything after "data".
  const rate = wav.readUInt32LE(24);
  const dataAt = wav.indexOf('data', 12, 'latin1') + 8;
  const pcm = new Int16Array(wav.buffer.slice(wav.byteOffset + dataAt, wav.byteOffset + dataAt + ((wav.length - dataAt) & ~1)));
  return lowPassResample(pcm, rate, toRate, cutoffHz);
}

function syntheticPcm(rate: number): Int16Array {
  // Eleven "syllables": voiced 140 Hz bursts with harmonics and a gentle envelope, 60 ms apart.
  const voiced = (rate * 180) / 1_000;
  const samples: number[] = [];
  for (let s = 0; s < 11; s += 1) {
    for (let i = 0; i < voiced; i += 1) {
      const t = i / rate;
      const env = Math.sin((Math.PI * i) / voiced);
      let v = 0;
      for (let h = 1; h <= 5; h += 1) v += Math.sin(2 * Math.PI * 140 * h * t) / h;
      samples.push(v * env * 5_000);
    }
    for (let i = 0; i < voiced / 3; i += 1) samples.push(0);
  }
  return Int16Array.from(samples, (v) => Math.round(v));
}

const SPEECH = pcmToMulaw(espeakPcm(SPOKEN, 8_000, 3_400) ?? syntheticPcm(8_000));
/** The same words as the browser carries them: linear16, 16 kHz, band-limited to 7 kHz (wideband voice). */
export const WIDEBAND_SPEECH = espeakPcm(SPOKEN, 16_000, 7_000) ?? syntheticPcm(16_000);

/** Lead silence + speech + trailing silence, and where the stand-ins' VAD will hear the speech end. */
function callerAudio(trailingMs: number): { audio: Uint8Array; lastVoicedMs: number } {
  const audio = new Uint8Array((LEAD_SILENCE_MS + trailingMs) * 8 + SPEECH.length).fill(MULAW_SILENCE);
  audio.set(SPEECH, LEAD_SILENCE_MS * 8);
  const ends = new EnergyVad().push(mulawToPcm(audio)).filter((f) => f.speechEnd);
  return { audio, lastVoicedMs: ends.at(-1)?.speechEnd?.atMs ?? LEAD_SILENCE_MS + SPEECH.length / 8 };
}

// ---------------------------------------------------------------------------------------------------------
// Driving a stream like the pipeline does: real-time 20 ms packets, events collected with their times
// ---------------------------------------------------------------------------------------------------------

interface Run {
  readonly events: SttEvent[];
  readonly done: Promise<unknown>;
}

export function collect(stream: SttStream): Run {
  const events: SttEvent[] = [];
  const done = (async () => {
    for await (const event of stream.events) events.push(event);
  })();
  return { events, done };
}

/** Sends audio in 20 ms packets paced by the wall clock; `at(ms)` runs once the audio clock passes ms. */
async function play(stream: SttStream, audio: Uint8Array, at?: { ms: number; run: () => void }): Promise<number> {
  const t0 = performance.now();
  let fired = false;
  for (let i = 0, n = 0; i < audio.length; i += FRAME_BYTES, n += 1) {
    const due = t0 + n * 20;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (at && !fired && n * 20 >= at.ms) {
      fired = true;
      at.run();
    }
    stream.sendAudio(audio.subarray(i, i + FRAME_BYTES));
  }
  return t0;
}

const finals = (events: SttEvent[]) => events.filter((e): e is Extract<SttEvent, { type: 'transcript' }> => e.type === 'transcript' && e.isFinal);
export const finalText = (events: SttEvent[]) => normalizeTranscript(finals(events).map((e) => e.text).join(' '));
export const received = (s: StandinSession) => s.frames.filter((f) => f.dir === 'in');
export const sent = (s: StandinSession) => s.frames.filter((f) => f.dir === 'out');
export const jsonIn = (s: StandinSession) => received(s).flatMap((f) => (f.kind === 'text' ? [f.json as Record<string, unknown>] : []));
export const binaryIn = (s: StandinSession) => received(s).filter((f): f is Extract<WireFrame, { kind: 'binary' }> => f.kind === 'binary');
interface Target {
  provider: (overrides?: Partial<Config>) => SttProvider;
  /** Present for the stand-in: timing and wire assertions need its script and recordings. */
  control?: SttStandinControl;
}

export function contract(vendor: VendorCase, target: () => Target): void {
  it.sequential('transcribes a caller turn: speech start, the final text, end of turn in the endpointing window, then closes', async () => {
    const { provider, control } = target();
    // Long enough for a Deepgram KeepAlive (every 4 s) to show on the wire.
    const { audio, lastVoicedMs } = callerAudio(Math.max(1_500, 4_600 - LEAD_SILENCE_MS - SPEECH.length / 8));
    const stream = await provider().connect(OPTIONS);
    const run = collect(stream);
    const t0 = await play(stream, audio);
    await stream.close();
    await run.done;

    const { events } = run;
    const finalIndex = events.findIndex((e) => e.type === 'transcript' && e.isFinal && e.text);
    expect(finalIndex).toBeGreaterThan(-1);
    const started = events.findIndex((e) => e.type === 'speech_started');
    if (control || vendor.realSpeechStarted || started > -1) {
      expect(started).toBeGreaterThan(-1);
      expect(started).toBeLessThan(finalIndex);
    }
    const endOfTurn = events.find((e) => e.type === 'transcript' && e.speechFinal);
    expect(endOfTurn).toBeDefined();
    expect(events.indexOf(endOfTurn!)).toBeGreaterThanOrEqual(finalIndex);
    for (let i = 1; i < events.length; i += 1) expect(events[i]!.atMs).toBeGreaterThanOrEqual(events[i - 1]!.atMs);

    if (control) {
      expect(finalText(events)).toBe(normalizeTranscript(SPOKEN));
      expect(events.some((e) => e.type === 'transcript' && !e.isFinal)).toBe(true);
      // The vendor can declare the end of turn only once the endpointing silence has arrived (audio is paced
      // in real time), and then within its processing delay; the upper bound is generous for slow machines.
      const speechEnd = t0 + lastVoicedMs;
      const earliest = speechEnd + OPTIONS.endpointingMs + FINAL_DELAY_MS - 60;
      expect(endOfTurn!.atMs).toBeGreaterThanOrEqual(earliest);
      expect(endOfTurn!.atMs).toBeLessThan(earliest + 1_200);
      expect(control.sessions).toHaveLength(1);
      vendor.wire(control.sessions[0]!, control, audio.length);
    } else {
      // A real recognizer hears the synthetic voice imperfectly; most of the words must come through.
      const heard = new Set(finalText(events).split(' '));
      const words = normalizeTranscript(SPOKEN).split(' ');
      expect(words.filter((w) => heard.has(w)).length).toBeGreaterThanOrEqual(Math.ceil(words.length / 2));
    }
  });

  it.sequential('finalize() makes the vendor finalize now instead of after its endpointing silence', async () => {
    const { provider, control } = target();
    // Endpointing longer than the silence the vendor will hear (2 s, Speechmatics' maximum): only finalize()
    // can end this utterance.
    const slow: SttOptions = { ...OPTIONS, endpointingMs: 2_000, utteranceEndMs: 3_000 };
    const { audio, lastVoicedMs } = callerAudio(1_000);
    const stream = await provider().connect(slow);
    const run = collect(stream);
    // The speech and 200 ms of its trailing silence, then no more audio: the vendor's clock is the audio it
    // hears, so without finalize no final could come while the stream stays open.
    const heard = Math.ceil((lastVoicedMs + 200) / 20) * FRAME_BYTES;
    await play(stream, audio.subarray(0, heard));
    stream.finalize();
    const finalized = run.events.length;
    await vi.waitFor(() => expect(finals(run.events).some((e) => e.text)).toBe(true), { timeout: WAIT_MS, interval: 20 });
    // Answered to the finalize, before the stream was closed (closing also makes a vendor finalize).
    expect(run.events.indexOf(finals(run.events).find((e) => e.text)!)).toBeGreaterThanOrEqual(finalized);
    await stream.close();
    await run.done;
    if (control) {
      expect(finalText(run.events)).toBe(normalizeTranscript(SPOKEN));
      const messages = jsonIn(control.sessions[0]!);
      expect(messages.filter(vendor.isFinalize)).toHaveLength(1);
    }
  });
}
