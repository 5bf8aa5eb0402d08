// Invariant: every speech-to-text provider keeps the SttProvider contract the pipeline relies on, against its
// stand-in always and against the real vendor when its key is set: connect resolves once the vendor accepted
// the stream; a caller's turn yields speech_started before its final, the final text with isFinal, and an end
// of turn (speechFinal) in the endpointing window; finalize() finalizes at once; close() completes `events`;
// failures are VendorErrors that retry only when retrying can help. Against the stand-ins, the exact wire
// sequence each adapter produced (handshake, parameters, auth, audio framing, keepalive, close) is asserted,
// so the stand-ins stay faithful to what the real SDK clients send.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, type Config } from '../../lib/config.js';
import { MULAW_SILENCE, mulawToPcm, pcmToMulaw } from '../../lib/vendors/shared/mulaw.js';
import { startSttStandins, type SttStandins } from '../../lib/local/standins/stt.js';
import { EnergyVad, normalizeTranscript, wireSteps, type StandinSession, type SttStandinControl, type WireFrame } from '../../lib/local/standins/stt-engine.js';
import { WIDEBAND_AUDIO } from '../../lib/vendors/shared/audio-format.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import { pcmToLinear16 } from '../../lib/vendors/shared/pcm.js';
import { createSttProvider } from '../../lib/vendors/stt/index.js';
import type { SttEvent, SttOptions, SttProvider, SttProviderId, SttStream } from '../../lib/vendors/stt/port.js';

const SPOKEN = 'Hello, I would like to book a table for two.';
const FRAME_BYTES = 160; // 20 ms of 8 kHz mu-law, Twilio's packet
const LEAD_SILENCE_MS = 300;
const FINAL_DELAY_MS = 80;
const OPTIONS: SttOptions = { language: 'en-US', endpointingMs: 300, utteranceEndMs: 1_000 };

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
const WIDEBAND_SPEECH = espeakPcm(SPOKEN, 16_000, 7_000) ?? syntheticPcm(16_000);

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

function collect(stream: SttStream): Run {
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
const finalText = (events: SttEvent[]) => normalizeTranscript(finals(events).map((e) => e.text).join(' '));
const received = (s: StandinSession) => s.frames.filter((f) => f.dir === 'in');
const sent = (s: StandinSession) => s.frames.filter((f) => f.dir === 'out');
const jsonIn = (s: StandinSession) => received(s).flatMap((f) => (f.kind === 'text' ? [f.json as Record<string, unknown>] : []));
const binaryIn = (s: StandinSession) => received(s).filter((f): f is Extract<WireFrame, { kind: 'binary' }> => f.kind === 'binary');

// ---------------------------------------------------------------------------------------------------------
// Per vendor: how finalize shows on the wire, and the exact wire sequence of a whole stream
// ---------------------------------------------------------------------------------------------------------

interface VendorCase {
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

const VENDORS: readonly VendorCase[] = [
  {
    id: 'deepgram',
    keyVar: 'DEEPGRAM_API_KEY',
    realSpeechStarted: true,
    isFinalize: (m) => m.type === 'Finalize',
    wire: (s, _control, audioBytes) => {
      expect(s.path).toBe('/v1/listen');
      expect(s.query).toEqual({
        model: 'nova-3',
        language: 'en-US',
        encoding: 'mulaw',
        sample_rate: '8000',
        channels: '1',
        interim_results: 'true',
        endpointing: '300',
        utterance_end_ms: '1000',
        vad_events: 'true',
        smart_format: 'true',
      });
      expect(s.headers.authorization).toBe('Token standin');
      const steps = wireSteps(s.frames);
      expect(steps.at(-1)).toEqual({ json: { type: 'CloseStream' } });
      for (const step of steps.slice(0, -1)) if ('json' in step) expect(step.json).toEqual({ type: 'KeepAlive' });
      expect(steps.filter((st) => 'json' in st && (st.json as { type: string }).type === 'KeepAlive').length).toBeGreaterThanOrEqual(1);
      expect(binaryIn(s).reduce((n, f) => n + f.bytes, 0)).toBe(audioBytes);
      expect((sent(s).at(-1) as { json: { type: string } }).json.type).toBe('Metadata');
      expect(s.closed).toEqual({ code: 1000, reason: '', by: 'server' });
    },
  },
  {
    id: 'assemblyai',
    keyVar: 'ASSEMBLYAI_API_KEY',
    realSpeechStarted: false,
    isFinalize: (m) => m.type === 'ForceEndpoint',
    wire: (s, _control, audioBytes) => {
      expect(s.path).toBe('/v3/ws');
      expect(s.query).toEqual({
        sample_rate: '8000',
        encoding: 'pcm_mulaw',
        speech_model: 'universal-streaming-english',
        min_turn_silence: '300',
        max_turn_silence: '1000',
        format_turns: 'false',
      });
      expect(s.headers.authorization).toBe('standin');
      // AssemblyAI refuses messages outside 50-1000 ms; the adapter gathers Twilio's 20 ms packets.
      for (const f of binaryIn(s)) {
        expect(f.bytes).toBeGreaterThanOrEqual(400);
        expect(f.bytes).toBeLessThanOrEqual(8_000);
      }
      const total = binaryIn(s).reduce((n, f) => n + f.bytes, 0);
      expect(total).toBeGreaterThanOrEqual(audioBytes);
      expect(total).toBeLessThan(audioBytes + 400);
      const steps = wireSteps(s.frames);
      expect(steps).toEqual([{ binary: binaryIn(s).length, bytes: total }, { json: { type: 'Terminate' } }]);
      expect((sent(s)[0] as { json: { type: string } }).json.type).toBe('Begin');
      expect((sent(s).at(-1) as { json: { type: string } }).json.type).toBe('Termination');
      expect(s.closed).toEqual({ code: 1000, reason: '', by: 'server' });
    },
  },
  {
    id: 'speechmatics',
    keyVar: 'SPEECHMATICS_API_KEY',
    realSpeechStarted: true,
    isFinalize: (m) => m.message === 'ForceEndOfUtterance',
    wire: (s, control, audioBytes) => {
      const keyRequest = control.httpRequests.at(-1)!;
      expect(keyRequest).toMatchObject({ method: 'POST', path: '/v1/api_keys', query: { type: 'rt' }, status: 201 });
      expect(keyRequest.headers.authorization).toBe('Bearer standin');
      expect(JSON.parse(keyRequest.body)).toEqual({ ttl: 60 });
      expect(s.path).toBe('/v2');
      expect(s.query.jwt).toMatch(/^[\w-]{20,}$/);
      expect(s.query.jwt).not.toBe('standin');
      const [start, ...rest] = wireSteps(s.frames);
      expect(start).toEqual({
        json: {
          message: 'StartRecognition',
          audio_format: { type: 'raw', encoding: 'mulaw', sample_rate: 8_000 },
          transcription_config: {
            language: 'en',
            output_locale: 'en-US',
            model: 'enhanced',
            enable_partials: true,
            max_delay: 0.7,
            conversation_config: { end_of_utterance_silence_trigger: 0.3 },
          },
        },
      });
      const packets = binaryIn(s).length;
      expect(rest).toEqual([{ binary: packets, bytes: audioBytes }, { json: { message: 'EndOfStream', last_seq_no: packets } }]);
      const out = sent(s).map((f) => (f.kind === 'text' ? (f.json as { message: string }).message : 'binary'));
      expect(out[0]).toBe('RecognitionStarted');
      expect(out.filter((m) => m === 'AudioAdded')).toHaveLength(packets);
      expect(out.at(-1)).toBe('EndOfTranscript');
      expect(s.closed?.code).toBe(1000);
    },
  },
  {
    id: 'openai',
    keyVar: 'OPENAI_API_KEY',
    realSpeechStarted: true,
    isFinalize: (m) => m.type === 'input_audio_buffer.commit',
    wire: (s, _control, audioBytes) => {
      expect(s.path).toBe('/v1/realtime');
      expect(s.query).toEqual({ intent: 'transcription' });
      expect(s.headers.authorization).toBe('Bearer standin');
      const [update, ...appends] = jsonIn(s);
      expect(update).toEqual({
        type: 'session.update',
        session: {
          type: 'transcription',
          audio: {
            input: {
              format: { type: 'audio/pcmu' },
              transcription: { model: 'gpt-4o-transcribe', language: 'en' },
              turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 300 },
            },
          },
        },
      });
      expect(binaryIn(s)).toHaveLength(0);
      expect(appends.every((m) => m.type === 'input_audio_buffer.append')).toBe(true);
      expect(appends.reduce((n, m) => n + Buffer.from(String(m.audio), 'base64').length, 0)).toBe(audioBytes);
      const out = sent(s).map((f) => (f.kind === 'text' ? (f.json as { type: string }).type : 'binary'));
      expect(out.slice(0, 2)).toEqual(['session.created', 'session.updated']);
      expect(out).toContain('input_audio_buffer.committed');
      expect(s.closed).toMatchObject({ code: 1000, by: 'client' });
    },
  },
];

// ---------------------------------------------------------------------------------------------------------
// Wideband: the browser's linear16 16 kHz, and how each adapter puts it on the wire
// ---------------------------------------------------------------------------------------------------------

const WIDEBAND_OPTIONS: SttOptions = { ...OPTIONS, format: WIDEBAND_AUDIO };
const WIDEBAND_PACKET_BYTES = 640; // 20 ms of linear16 16 kHz

/** Lead silence + speech + trailing silence, linear16 16 kHz bytes. */
function widebandCallerAudio(trailingMs: number): Uint8Array {
  const pcm = new Int16Array(((LEAD_SILENCE_MS + trailingMs) * 16_000) / 1_000 + WIDEBAND_SPEECH.length);
  pcm.set(WIDEBAND_SPEECH, (LEAD_SILENCE_MS * 16_000) / 1_000);
  return pcmToLinear16(pcm);
}

/** Per vendor: the stream's declared format and framing for wideband audio of `audioBytes`. */
const WIDEBAND_WIRE: Record<SttProviderId, (s: StandinSession, audioBytes: number) => void> = {
  deepgram: (s, audioBytes) => {
    expect(s.query).toMatchObject({ encoding: 'linear16', sample_rate: '16000', channels: '1' });
    expect(binaryIn(s).reduce((n, f) => n + f.bytes, 0)).toBe(audioBytes);
  },
  assemblyai: (s, audioBytes) => {
    expect(s.query).toMatchObject({ encoding: 'pcm_s16le', sample_rate: '16000' });
    // 50 ms of linear16 16 kHz is 1,600 bytes: the least AssemblyAI takes in one message.
    for (const f of binaryIn(s)) {
      expect(f.bytes).toBeGreaterThanOrEqual(1_600);
      expect(f.bytes % 2).toBe(0);
    }
    const total = binaryIn(s).reduce((n, f) => n + f.bytes, 0);
    expect(total).toBeGreaterThanOrEqual(audioBytes);
    expect(total).toBeLessThan(audioBytes + 1_600);
  },
  speechmatics: (s, audioBytes) => {
    expect(jsonIn(s)[0]).toMatchObject({ message: 'StartRecognition', audio_format: { type: 'raw', encoding: 'pcm_s16le', sample_rate: 16_000 } });
    expect(binaryIn(s).reduce((n, f) => n + f.bytes, 0)).toBe(audioBytes);
  },
  openai: (s, audioBytes) => {
    // audio/pcm is 24 kHz only: the adapter resamples 16 kHz to 24 kHz (1.5 times the samples).
    const [update, ...appends] = jsonIn(s);
    expect((update as { session: { audio: { input: { format: unknown } } } }).session.audio.input.format).toEqual({ type: 'audio/pcm', rate: 24_000 });
    const sentBytes = appends.filter((m) => m.type === 'input_audio_buffer.append').reduce((n, m) => n + Buffer.from(String(m.audio), 'base64').length, 0);
    const inputSamples = audioBytes / 2;
    // All of it, less the resampler's look-ahead (at most 2 input samples) still held when the stream closed.
    expect(sentBytes).toBeGreaterThanOrEqual((inputSamples - 2) * 1.5 * 2);
    expect(sentBytes).toBeLessThanOrEqual(inputSamples * 1.5 * 2);
    expect(sentBytes % 2).toBe(0);
  },
};

// ---------------------------------------------------------------------------------------------------------
// The contract, once per implementation
// ---------------------------------------------------------------------------------------------------------

interface Target {
  provider: (overrides?: Partial<Config>) => SttProvider;
  /** Present for the stand-in: timing and wire assertions need its script and recordings. */
  control?: SttStandinControl;
}

function contract(vendor: VendorCase, target: () => Target): void {
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
    await vi.waitFor(() => expect(finals(run.events).some((e) => e.text)).toBe(true), { timeout: 10_000, interval: 20 });
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

// ---------------------------------------------------------------------------------------------------------
// Stand-ins (always) and real vendors (when keyed)
// ---------------------------------------------------------------------------------------------------------

let standins: SttStandins;
let standinEnv: Record<string, string>;

beforeAll(async () => {
  // No keys: every vendor gets a stand-in here, whatever the environment holds for the real-vendor runs.
  standins = await startSttStandins(loadConfig({}), { transcripts: () => SPOKEN, finalDelayMs: FINAL_DELAY_MS });
  standinEnv = standins.env;
});

afterAll(async () => {
  await standins?.stop();
});

// The vendors' suites run side by side (most of their time is audio paced in real time, and each vendor has
// its own stand-in); inside one, the tests run one after another (`it.sequential`, in `contract` too), as they
// reprogram and read that stand-in.
for (const vendor of VENDORS) describe.concurrent(`${vendor.id} STT against its stand-in`, () => {
  const control = () => standins.control[vendor.id]!;
  const provider = (overrides: Partial<Config> = {}) =>
    createSttProvider(vendor.id, { ...loadConfig(standinEnv), ...overrides }, { retryBaseDelayMs: 10, retryMaxDelayMs: 20 });

  beforeEach(() => {
    control().reset();
    control().requireKey(undefined);
  });

  contract(vendor, () => ({ provider, control: control() }));

  it.sequential('refuses a wrong key with a non-retryable VendorError after a single attempt', async () => {
    control().requireKey('the-right-key');
    const error = await provider({ [vendor.keyVar]: 'a-wrong-key' }).connect(OPTIONS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect((error as VendorError).retryable).toBe(false);
    const c = control();
    const attempts = c.rejected.length + c.sessions.length + c.httpRequests.filter((r) => r.status >= 400).length;
    expect(attempts).toBe(1);
  });

  it.sequential('retries a vendor outage (503 on the handshake) and then connects', async () => {
    control().failNext(1, 503);
    const stream = await provider().connect(OPTIONS);
    expect(control().rejected).toEqual([{ path: expect.any(String), status: 503 }]);
    expect(control().sessions).toHaveLength(1);
    const run = collect(stream);
    await stream.close();
    await run.done;
    expect(run.events).toEqual([]);
  });

  it.sequential('reports a vendor dropping the stream as a retryable VendorError from events', async () => {
    const stream = await provider().connect(OPTIONS);
    const run = collect(stream);
    const before = received(control().sessions[0]!).length;
    stream.sendAudio(new Uint8Array(800).fill(MULAW_SILENCE));
    // The drop comes mid-stream: after the vendor has the audio (a frame more than it had), however long that
    // takes on a busy machine.
    await vi.waitFor(() => expect(received(control().sessions[0]!).length).toBeGreaterThan(before), { timeout: 10_000, interval: 5 });
    control().dropAll(1011, 'Internal server error');
    const error = await run.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VendorError);
    expect((error as VendorError).retryable).toBe(true);
    // Sending after the failure is ignored, never thrown at the caller.
    expect(() => stream.sendAudio(new Uint8Array(160))).not.toThrow();
    await stream.close();
  });

  it.sequential('aborting the signal cancels a connect, and later drops an open stream and completes events', async () => {
    const early = new AbortController();
    early.abort(new Error('call ended'));
    await expect(provider().connect(OPTIONS, early.signal)).rejects.toThrow('call ended');
    expect(control().sessions).toHaveLength(0);

    const later = new AbortController();
    const stream = await provider().connect(OPTIONS, later.signal);
    const run = collect(stream);
    later.abort();
    await run.done;
    // The vendor sees the socket close when its close frame arrives: waited for, not a fixed 100 ms (a whole
    // run on the busy two-core machine once took longer, 28 November).
    await vi.waitFor(() => expect(control().sessions[0]?.closed).toMatchObject({ by: 'client' }), { timeout: 10_000, interval: 5 });
  });

  it.sequential('transcribes linear16 16 kHz audio, declared to the vendor in its own terms', async () => {
    const audio = widebandCallerAudio(1_000);
    const stream = await provider().connect(WIDEBAND_OPTIONS);
    const run = collect(stream);
    // Unpaced: the stand-in measures silence on the audio itself, so no wall-clock wait is needed.
    for (let i = 0; i < audio.length; i += WIDEBAND_PACKET_BYTES) stream.sendAudio(audio.subarray(i, i + WIDEBAND_PACKET_BYTES));
    await vi.waitFor(() => expect(run.events.some((e) => e.type === 'transcript' && e.speechFinal)).toBe(true), { timeout: 10_000, interval: 20 });
    await stream.close();
    await run.done;
    expect(run.events.find((e) => e.type === 'speech_started')).toBeDefined();
    expect(finalText(run.events)).toBe(normalizeTranscript(SPOKEN));
    expect(control().sessions).toHaveLength(1);
    WIDEBAND_WIRE[vendor.id](control().sessions[0]!, audio.length);
  });

  it.sequential('hears nothing in wideband silence', async () => {
    const stream = await provider().connect(WIDEBAND_OPTIONS);
    const run = collect(stream);
    const silence = new Uint8Array(32 * 1_000);
    for (let i = 0; i < silence.length; i += WIDEBAND_PACKET_BYTES) stream.sendAudio(silence.subarray(i, i + WIDEBAND_PACKET_BYTES));
    await stream.close();
    await run.done;
    expect(run.events.filter((e) => e.type === 'speech_started' || (e.type === 'transcript' && e.text))).toEqual([]);
  });

  it.sequential('gives up after the configured attempts when the vendor stays down', async () => {
    control().failNext(5, 503);
    const error = await provider().connect(OPTIONS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect((error as VendorError).retryable).toBe(true);
    expect(control().rejected).toHaveLength(3);
  });
});

describe('createSttProvider without a key', () => {
  it('builds, and its connect fails with a non-retryable VendorError naming the variable', async () => {
    for (const vendor of VENDORS) {
      const error = await createSttProvider(vendor.id, loadConfig({})).connect(OPTIONS).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VendorError);
      expect((error as VendorError).retryable).toBe(false);
      expect((error as VendorError).message).toContain(vendor.keyVar);
    }
  });
});

for (const vendor of VENDORS) {
  describe.runIf(!!process.env[vendor.keyVar])(`${vendor.id} STT against the real service`, () => {
    // Only the vendor's own variables: other stand-in settings in the environment must not redirect it.
    const provider = () => createSttProvider(vendor.id, loadConfig({ [vendor.keyVar]: process.env[vendor.keyVar] }));
    contract(vendor, () => ({ provider }));
  });
}

describe('STT stand-ins refuse an audio format as their vendor does', () => {
  beforeEach(() => {
    for (const control of Object.values(standins.control)) {
      control.reset();
      control.requireKey(undefined);
    }
  });

  /** Opens a raw socket to a stand-in; resolves with its first messages, or its handshake status, or its close. */
  function probe(url: string, headers: Record<string, string>, send?: (ws: WebSocket) => void, until = 1) {
    return new Promise<{ status?: number; messages: Record<string, unknown>[]; close?: { code: number; reason: string } }>((resolve) => {
      const ws = new WebSocket(url, { headers });
      const messages: Record<string, unknown>[] = [];
      ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode, messages }));
      ws.on('error', () => undefined);
      ws.on('open', () => send?.(ws));
      ws.on('message', (data) => {
        messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
        if (messages.length === until) {
          resolve({ messages });
          ws.terminate();
        }
      });
      ws.on('close', (code, reason) => resolve({ messages, close: { code, reason: reason.toString() } }));
    });
  }
  const wsBase = (url: string) => url.replace(/^http/, 'ws');

  it('Deepgram: 400 for linear16 without a sample rate or at one it does not take', async () => {
    const base = `${wsBase(standinEnv.DEEPGRAM_BASE_URL!)}/v1/listen`;
    const auth = { Authorization: 'Token standin' };
    expect((await probe(`${base}?encoding=linear16`, auth)).status).toBe(400);
    expect((await probe(`${base}?encoding=linear16&sample_rate=abc`, auth)).status).toBe(400);
  });

  it('AssemblyAI: closes 3006 for an encoding it does not know', async () => {
    const result = await probe(`${standinEnv.ASSEMBLYAI_BASE_URL!}?sample_rate=16000&encoding=pcm_f64le`, { Authorization: 'standin' });
    expect(result.close?.code).toBe(3006);
  });

  it('Speechmatics: invalid_audio_type for an encoding the stand-in does not decode', async () => {
    const result = await probe(
      standinEnv.SPEECHMATICS_BASE_URL!,
      { Authorization: 'Bearer standin' },
      (ws) => ws.send(JSON.stringify({ message: 'StartRecognition', audio_format: { type: 'raw', encoding: 'pcm_f64le', sample_rate: 16_000 }, transcription_config: { language: 'en' } })),
    );
    expect(result.messages[0]).toMatchObject({ message: 'Error', type: 'invalid_audio_type' });
  });

  it('OpenAI: audio/pcm at any rate but 24 kHz is an invalid_value error, as OpenAI answers it', async () => {
    const result = await probe(
      `${wsBase(standinEnv.OPENAI_STT_BASE_URL!)}/realtime?intent=transcription`,
      { Authorization: 'Bearer standin' },
      (ws) => ws.send(JSON.stringify({ type: 'session.update', session: { type: 'transcription', audio: { input: { format: { type: 'audio/pcm', rate: 16_000 } } } } })),
      2,
    );
    expect(result.messages.map((m) => m.type)).toEqual(['session.created', 'error']);
    expect(result.messages[1]!.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_value', param: 'session.audio.input.format.rate' });
  });
});
