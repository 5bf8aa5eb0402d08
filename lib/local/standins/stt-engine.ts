import { answerKeyCheck, openStandinAccount, standinAccountHolds, type StandinVendor } from './accounts.js';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { mulawToPcm } from '../../vendors/shared/mulaw.js';
import { PHONE_AUDIO, type AudioFormat } from '../../vendors/shared/audio-format.js';
import { FrameCutter, WholeSamples, decodeToPcm, rms } from '../../vendors/shared/pcm.js';
import { STANDIN_KEY } from './catalog.js';

/**
 * What every speech-to-text stand-in shares: an energy voice-activity detector over the caller's audio
 * (mu-law or linear16, at the rate the client declared, decoded as the vendor would), a scripted "recognizer" that turns detected speech into interim results, finals, end-of-turn and
 * utterance-end events with set delays, and the loopback WebSocket server scaffolding that records the exact
 * wire sequence each stand-in saw. The vendor files only translate engine events into their wire messages.
 *
 * Time has two clocks here, as at a real vendor: silence is measured on the audio (samples received at the
 * declared rate), so endpointing means "this much silent audio arrived"; processing latency (`finalDelayMs`) is
 * wall-clock, applied with timers after the audio condition is met.
 */

// ---------------------------------------------------------------------------------------------------------
// Script
// ---------------------------------------------------------------------------------------------------------

/** Which transcript to produce: the n-th connection to this stand-in (0-based) and its n-th utterance. */
export interface SttScriptContext {
  readonly connection: number;
  /** The recognizer stream hearing the audio (one per connection, whatever the vendor). */
  readonly stream?: object;
  readonly utterance: number;
  /**
   * The last {@link RECENT_AUDIO_MS} of audio up to the frame where speech was declared, 16-bit linear at
   * `sampleRate`: what a recognizer that knows the audio it hears (lib/local/standins/spoken-lines.ts)
   * matches.
   */
  readonly audio?: Int16Array;
  readonly sampleRate?: number;
  /** The language the client asked for (ISO 639-1), or `detect` when it asked the vendor to identify it. */
  readonly language?: string;
}

/** An utterance heard with the language it was spoken in (ISO 639-1): what a detecting recognizer reports. */
export interface HeardUtterance {
  readonly text: string;
  readonly language: string;
}

/** How much audio up to where speech was declared the script sees (the last of the VAD's 250 ms onset). */
export const RECENT_AUDIO_MS = 100;

/** How a stand-in "recognizes" speech. Every field has a default ({@link DEFAULT_STT_SCRIPT}). */
export interface SttScript {
  /**
   * The text of each detected utterance, with the language it was spoken in where the script knows it
   * (a recognizer told a language transcribes in it; one asked to detect reports the spoken one, else
   * English). Default: cycles {@link DEFAULT_TRANSCRIPTS}.
   */
  readonly transcripts: (ctx: SttScriptContext) => string | HeardUtterance;
  /** Emit interim results during speech (the client must also have asked for them, where the vendor asks). */
  readonly interimResults: boolean;
  /** Wall-clock processing latency: from the moment the end-of-turn condition is met in the audio to the final. */
  readonly finalDelayMs: number;
  /** End-of-turn silence when the client's request does not set the vendor's endpointing parameter. */
  readonly endpointingMs: number;
  /** Utterance-end fallback silence when the client's request does not set one (vendors that have one). */
  readonly utteranceEndMs: number;
  /** Audio between two interim results while speech goes on. */
  readonly interimIntervalMs: number;
  /**
   * Never declare end of turn by endpointing (as when line noise keeps a real vendor's endpointing from
   * firing): finals still arrive, without `speech_final`, and only the utterance-end fallback ends the turn.
   */
  readonly suppressSpeechFinal: boolean;
  /** Energy VAD tuning. */
  readonly vad: Partial<EnergyVadOptions>;
  /**
   * Deepgram closes a socket that has had neither audio nor a message this long (10 s, its NET-0001);
   * a test shortens it to catch a client that stops sending KeepAlive without waiting 10 s.
   */
  readonly idleTimeoutMs: number;
}

/** Lines a caller might say to a booking agent; the default script cycles through them. */
export const DEFAULT_TRANSCRIPTS = [
  'Hello, I would like to book a table for two.',
  'Tomorrow at seven, please.',
  'Thank you, goodbye.',
] as const;

/** A `transcripts` function that cycles a list by utterance index (every connection starts at the top). */
export function cycleTranscripts(list: readonly string[]): SttScript['transcripts'] {
  if (list.length === 0) throw new Error('cycleTranscripts needs at least one line');
  return ({ utterance }) => list[utterance % list.length]!;
}

/**
 * Defaults chosen to look like a fast cloud recognizer on a phone line: Deepgram's typical conversational
 * endpointing (300 ms) and utterance-end (1000 ms), about 80 ms of processing after the end of turn, and an
 * interim result every 300 ms of speech (Deepgram sends them roughly that often), with one more, holding every
 * word, when speech stops.
 */
export const DEFAULT_STT_SCRIPT = {
  transcripts: cycleTranscripts(DEFAULT_TRANSCRIPTS),
  interimResults: true,
  finalDelayMs: 80,
  endpointingMs: 300,
  utteranceEndMs: 1_000,
  interimIntervalMs: 300,
  suppressSpeechFinal: false,
  vad: {},
  idleTimeoutMs: 10_000,
} as const satisfies SttScript;

/** A full script from defaults and overrides. */
export function resolveScript(overrides: Partial<SttScript> = {}): SttScript {
  return { ...DEFAULT_STT_SCRIPT, ...overrides };
}

// ---------------------------------------------------------------------------------------------------------
// Energy VAD
// ---------------------------------------------------------------------------------------------------------

export interface EnergyVadOptions {
  readonly sampleRate: number;
  /** Analysis frame; 20 ms is Twilio's packet size and the usual VAD frame. */
  readonly frameMs: number;
  /**
   * RMS (16-bit linear) above which a frame counts as voiced. 300 is about -40 dBFS: well under telephone
   * speech (-30 to -15 dBFS) and well over line noise and mu-law's idle pattern (below -55 dBFS).
   */
  readonly thresholdRms: number;
  /**
   * Continuous voiced audio needed before speech is declared, so a click, a cough's burst or a beep is not a
   * word. Without it a browser meeting floods: Chromium's fake microphone (what `npm start` users and page
   * tests get without a real device) beeps every 500 ms, each beep about 120 ms over the threshold at 16 kHz
   * with its decay, and every beep became an utterance with a scripted sentence.
   */
  readonly onsetMs: number;
  /** Unvoiced audio tolerated inside speech (gaps between words, stops) before speech is declared over. */
  readonly hangoverMs: number;
}

/**
 * Unvoiced audio inside a word that does not restart the onset count: a plosive's closure ("st-o-p": the
 * /t/) is 40-100 ms. Silero VAD likewise joins speech across silences shorter than its
 * `min_silence_duration_ms` (100 ms by default) before applying its minimum speech length.
 */
export const ONSET_GAP_MS = 100;

export const DEFAULT_VAD = {
  sampleRate: 8_000,
  frameMs: 20,
  thresholdRms: 300,
  // Silero VAD's own minimum speech length (`min_speech_duration_ms`, 250 ms by default): the shortest
  // "yes" is longer, the Chromium beep above (120 ms) and a key tap are shorter.
  onsetMs: 250,
  hangoverMs: 200,
} as const satisfies EnergyVadOptions;

/** One analysed frame. Times are ms of audio since the stream began. */
export interface VadFrame {
  readonly startMs: number;
  readonly endMs: number;
  readonly rms: number;
  readonly voiced: boolean;
  /** Speech is in progress after this frame (confirmed, and not yet ended by the hangover). */
  readonly speaking: boolean;
  /** Set on the frame where speech was confirmed (`atMs` = start of its first voiced frame). */
  readonly speechStart?: { readonly atMs: number };
  /** Set on the frame where the hangover ran out (`atMs` = end of the last voiced frame). */
  readonly speechEnd?: { readonly atMs: number };
}


/**
 * Frame-energy voice activity detection with onset confirmation and hangover. Feed it samples in any chunk
 * size; it analyses whole frames and carries the remainder, so results do not depend on packetization.
 */
export class EnergyVad {
  readonly options: EnergyVadOptions;
  private readonly cutter: FrameCutter;
  private frameIndex = 0;
  private voicedRun = 0;
  private runStartMs = 0;
  private unvoicedMs = 0;
  private lastVoicedEndMs = 0;
  private speaking = false;

  constructor(options: Partial<EnergyVadOptions> = {}) {
    this.options = { ...DEFAULT_VAD, ...options };
    this.cutter = new FrameCutter(Math.round((this.options.sampleRate * this.options.frameMs) / 1_000));
  }

  /** True while speech is in progress (confirmed and not yet ended by the hangover). */
  get inSpeech(): boolean {
    return this.speaking;
  }

  /** Analyses the samples; returns one entry per completed frame. */
  push(samples: Int16Array): VadFrame[] {
    const frames: VadFrame[] = [];
    this.cutter.push(samples, (frame) => frames.push(this.analyse(frame, 0, frame.length)));
    return frames;
  }

  private analyse(samples: Int16Array, from: number, to: number): VadFrame {
    const { frameMs, thresholdRms, onsetMs, hangoverMs } = this.options;
    const startMs = this.frameIndex * frameMs;
    const endMs = startMs + frameMs;
    this.frameIndex += 1;
    const level = rms(samples, from, to);
    const voiced = level >= thresholdRms;
    let speechStart: VadFrame['speechStart'];
    let speechEnd: VadFrame['speechEnd'];
    if (voiced) {
      if (this.voicedRun === 0) this.runStartMs = startMs;
      this.voicedRun += frameMs;
      this.unvoicedMs = 0;
      this.lastVoicedEndMs = endMs;
      if (!this.speaking && this.voicedRun >= onsetMs) {
        this.speaking = true;
        speechStart = { atMs: this.runStartMs };
      }
    } else {
      this.unvoicedMs += frameMs;
      // A gap longer than a word's own stops ends the run, so a cough, a tap or a beep stays short of the onset.
      if (this.unvoicedMs > ONSET_GAP_MS) this.voicedRun = 0;
      if (this.speaking && this.unvoicedMs >= hangoverMs) {
        this.speaking = false;
        speechEnd = { atMs: this.lastVoicedEndMs };
      }
    }
    return { startMs, endMs, rms: level, voiced, speaking: this.speaking, ...(speechStart && { speechStart }), ...(speechEnd && { speechEnd }) };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------------------

/** A scripted word placed in the audio. */
export interface TimedWord {
  /** Lower case, no punctuation: what an unformatted transcript shows. */
  readonly word: string;
  /** As written in the script, with case and punctuation. */
  readonly punctuated: string;
  readonly startMs: number;
  readonly endMs: number;
}

/** Lower-cases and strips punctuation, the way unformatted vendor transcripts look. */
export function normalizeTranscript(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

/** Spreads the script's words evenly over the speech they were "heard" in. */
export function timeWords(text: string, startMs: number, endMs: number): TimedWord[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  const span = Math.max(endMs - startMs, tokens.length);
  return tokens.map((punctuated, i) => ({
    word: normalizeTranscript(punctuated) || punctuated,
    punctuated,
    startMs: Math.round(startMs + (span * i) / tokens.length),
    endMs: Math.round(startMs + (span * (i + 1)) / tokens.length),
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Engine
// ---------------------------------------------------------------------------------------------------------

/** Why a final was produced. */
export type FinalReason =
  /** The vendor's endpointing silence elapsed. */
  | 'endpointing'
  /** The client asked to finalize now (Deepgram Finalize, AssemblyAI ForceEndpoint, ...). */
  | 'finalize'
  /** The client ended the stream with speech still pending. */
  | 'flush'
  /** Endpointing is off or suppressed, and the utterance-end silence elapsed. */
  | 'utterance_end';

/** What the scripted recognizer reports; stand-ins turn these into their vendor's messages. */
export type EngineEvent =
  | { readonly type: 'speech_started'; readonly utterance: number; readonly atMs: number }
  | {
      readonly type: 'interim';
      readonly utterance: number;
      readonly text: string;
      readonly words: readonly TimedWord[];
      readonly startMs: number;
      readonly endMs: number;
      /** ISO 639-1: what the recognizer reports the speech was in. */
      readonly language: string;
    }
  /** The end-of-turn silence was just observed (before the final's processing delay). */
  | { readonly type: 'endpoint'; readonly utterance: number; readonly lastVoicedMs: number; readonly atMs: number }
  | {
      readonly type: 'final';
      /** -1 when a finalize request found no speech to finalize. */
      readonly utterance: number;
      readonly text: string;
      readonly words: readonly TimedWord[];
      readonly startMs: number;
      readonly endMs: number;
      readonly reason: FinalReason;
      /** The vendor's endpointing says the turn is over (Deepgram `speech_final`). */
      readonly speechFinal: boolean;
      /** ISO 639-1; absent on a finalize that found no speech. */
      readonly language?: string;
    }
  | { readonly type: 'utterance_end'; readonly utterance: number; readonly lastWordEndMs: number };

/** Per-stream settings, taken from the client's request where the vendor has the parameter. */
export interface EngineParams {
  /** Silence that ends a turn; null turns endpointing off (finals then come only with the utterance end). */
  readonly endpointingMs: number | null;
  /** Silence after which `utterance_end` is reported; null when the vendor or request has none. */
  readonly utteranceEndMs: number | null;
  /** Whether the client asked for interim results. */
  readonly interimResults: boolean;
  /** The audio the client declared (query, config); default mu-law 8 kHz. Fixed for the stream. */
  readonly format?: AudioFormat;
  /** The language asked for (ISO 639-1), or `detect`; default `en`. */
  readonly language?: string;
}

interface Utterance {
  readonly index: number;
  readonly text: string;
  /** The language it is reported in (ISO 639-1). */
  readonly language: string;
  readonly startMs: number;
  lastVoicedMs: number;
  interims: number;
  /** A final has been scheduled (endpointing, finalize or flush): later speech starts a new utterance. */
  finalScheduled: boolean;
  utteranceEndTimer: NodeJS.Timeout | undefined;
}

/**
 * The scripted recognizer for one stream. Push audio as it arrives; events come out through `emit`, some at
 * once (speech start, interims), some after the script's `finalDelayMs` (finals, utterance ends).
 */
export class SttEngine {
  private readonly vad: EnergyVad;
  private readonly format: AudioFormat;
  /** A linear16 message may end mid-sample; the vendor's stream decoding carries the odd byte over. */
  private readonly samples: WholeSamples;
  private audioMs = 0;
  /** The last {@link RECENT_AUDIO_MS} of samples and how many came before them. */
  private recent = new Int16Array(0);
  private recentStart = 0;
  private utteranceCount = 0;
  private current: Utterance | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  private readonly paramsOf: () => EngineParams;

  /**
   * `params` may be a function when the client can change them mid-stream (AssemblyAI's
   * UpdateConfiguration); it is read on every frame.
   */
  constructor(
    private readonly script: () => SttScript,
    params: EngineParams | (() => EngineParams),
    private readonly connection: number,
    private readonly emit: (event: EngineEvent) => void,
  ) {
    this.paramsOf = typeof params === 'function' ? params : () => params;
    this.format = this.paramsOf().format ?? PHONE_AUDIO;
    this.samples = new WholeSamples(this.format);
    this.vad = new EnergyVad({ ...script().vad, sampleRate: this.format.sampleRate });
  }

  /** Milliseconds of audio received so far. */
  get receivedMs(): number {
    return this.audioMs;
  }

  /** Feeds caller audio as it came off the wire, in the stream's declared format. */
  pushAudio(bytes: Uint8Array): void {
    this.pushPcm(decodeToPcm(this.samples.take(bytes), this.format));
  }

  /** Feeds caller audio (raw mu-law, at the stream's rate). */
  pushMulaw(mulaw: Uint8Array): void {
    this.pushPcm(mulawToPcm(mulaw));
  }

  /** Feeds 16-bit linear audio at the VAD's sample rate. */
  pushPcm(samples: Int16Array): void {
    if (this.closed) return;
    this.remember(samples);
    for (const frame of this.vad.push(samples)) this.onFrame(frame);
    this.audioMs += (samples.length * 1_000) / this.vad.options.sampleRate;
  }

  /** Finalizes the open utterance now (the client's finalize request). */
  finalize(): void {
    if (this.closed) return;
    const u = this.current;
    if (u && !u.finalScheduled) {
      this.scheduleFinal(u, 'finalize', false);
      return;
    }
    // Nothing pending: vendors still acknowledge, with an empty final (stand-ins decide whether to send it).
    this.later(this.script().finalDelayMs, () =>
      this.emit({ type: 'final', utterance: -1, text: '', words: [], startMs: this.audioMs, endMs: this.audioMs, reason: 'finalize', speechFinal: false }),
    );
  }

  /**
   * The client ended the stream: finalizes pending speech, drops utterance-end reports that can no longer
   * happen, and resolves once every scheduled event has been emitted.
   */
  async flush(): Promise<void> {
    const u = this.current;
    if (u) {
      if (u.utteranceEndTimer) this.cancel(u.utteranceEndTimer);
      if (!u.finalScheduled) this.scheduleFinal(u, 'flush', false);
    }
    this.current = undefined;
    if (this.timers.size === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops everything at once (the socket went away). */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.settleIdle();
  }

  /** Keeps the last {@link RECENT_AUDIO_MS} of audio (a frame's worth more, since a push may hold several). */
  private remember(samples: Int16Array): void {
    const keep = Math.round((this.vad.options.sampleRate * RECENT_AUDIO_MS) / 1_000) + samples.length;
    const joined = new Int16Array(Math.min(keep, this.recent.length + samples.length));
    const old = joined.length - samples.length;
    joined.set(this.recent.subarray(this.recent.length - old), 0);
    joined.set(samples, old);
    this.recentStart += this.recent.length - old;
    this.recent = joined;
  }

  /** The remembered audio that ends where `endMs` of the stream ends. */
  private audioUntil(endMs: number): Int16Array {
    const end = Math.round((endMs * this.vad.options.sampleRate) / 1_000) - this.recentStart;
    const span = Math.round((this.vad.options.sampleRate * RECENT_AUDIO_MS) / 1_000);
    return this.recent.slice(Math.max(0, end - span), Math.max(0, end));
  }

  private onFrame(frame: VadFrame): void {
    const script = this.script();
    if (frame.speechStart) {
      const previous = this.current;
      // Speech resuming before the turn ended is the same utterance (a pause between words or phrases).
      if (!previous || previous.finalScheduled) {
        if (previous?.utteranceEndTimer) this.cancel(previous.utteranceEndTimer);
        const index = this.utteranceCount;
        this.utteranceCount += 1;
        const asked = this.paramsOf().language ?? 'en';
        const heard = script.transcripts({ connection: this.connection, stream: this, utterance: index, audio: this.audioUntil(frame.endMs), sampleRate: this.vad.options.sampleRate, language: asked });
        this.current = {
          index,
          text: typeof heard === 'string' ? heard : heard.text,
          // Told a language, a recognizer hears it in that one; asked to detect, it reports the spoken one.
          language: asked !== 'detect' ? asked : typeof heard === 'string' ? 'en' : heard.language,
          startMs: frame.speechStart.atMs,
          lastVoicedMs: frame.endMs,
          interims: 0,
          finalScheduled: false,
          utteranceEndTimer: undefined,
        };
        this.emit({ type: 'speech_started', utterance: index, atMs: frame.speechStart.atMs });
      }
    }
    const u = this.current;
    if (!u) return;
    // Only confirmed speech holds the turn open: a blip too short to be speech (a beep, a click between
    // words of silence) is silence to the endpointing, as it is to the VAD.
    if (frame.voiced && frame.speaking && !u.finalScheduled) u.lastVoicedMs = frame.endMs;

    const params = this.paramsOf();
    if (!u.finalScheduled && frame.speaking && script.interimResults && params.interimResults) {
      const due = u.startMs + (u.interims + 1) * script.interimIntervalMs;
      if (frame.endMs >= due) {
        u.interims += 1;
        const words = this.heardSoFar(u, frame.endMs);
        this.emit({ type: 'interim', utterance: u.index, text: words.map((w) => w.punctuated).join(' '), words, startMs: u.startMs, endMs: frame.endMs, language: u.language });
      }
    }

    // Speech stopped (the VAD's hangover ran out): the recognizer has caught up with the audio, and its
    // next interim holds every word of the utterance so far, as a real one's does once the caller pauses.
    if (frame.speechEnd && !u.finalScheduled && script.interimResults && params.interimResults) {
      const words = timeWords(u.text, u.startMs, Math.max(u.lastVoicedMs, u.startMs + 1));
      this.emit({ type: 'interim', utterance: u.index, text: words.map((w) => w.punctuated).join(' '), words, startMs: u.startMs, endMs: frame.endMs, language: u.language });
    }

    const silenceMs = frame.endMs - u.lastVoicedMs;
    const { endpointingMs, utteranceEndMs } = params;
    if (!u.finalScheduled && endpointingMs !== null && !frame.voiced && silenceMs >= endpointingMs) {
      this.emit({ type: 'endpoint', utterance: u.index, lastVoicedMs: u.lastVoicedMs, atMs: frame.endMs });
      this.scheduleFinal(u, 'endpointing', !script.suppressSpeechFinal);
      if (utteranceEndMs === null) this.current = undefined;
    }
    if (utteranceEndMs !== null && !u.utteranceEndTimer && !frame.voiced) {
      // Never before the endpointing final: a report that the utterance ended must follow its last words.
      const threshold = Math.max(utteranceEndMs, endpointingMs ?? 0);
      if (silenceMs >= threshold) {
        if (!u.finalScheduled) this.scheduleFinal(u, 'utterance_end', false);
        const lastWordEndMs = u.lastVoicedMs;
        u.utteranceEndTimer = this.later(this.script().finalDelayMs, () =>
          this.emit({ type: 'utterance_end', utterance: u.index, lastWordEndMs }),
        );
        if (this.current === u) this.current = undefined;
      }
    }
  }

  /** A growing prefix of the script, about one word per 200 ms of speech (brisk conversational pace). */
  private heardSoFar(u: Utterance, nowMs: number): TimedWord[] {
    const all = timeWords(u.text, u.startMs, Math.max(nowMs, u.startMs + 1));
    const count = Math.min(all.length, Math.max(1, Math.floor((nowMs - u.startMs) / 200)));
    return all.slice(0, count);
  }

  private scheduleFinal(u: Utterance, reason: FinalReason, speechFinal: boolean): void {
    u.finalScheduled = true;
    const endMs = Math.max(u.lastVoicedMs, u.startMs + 1);
    const words = timeWords(u.text, u.startMs, endMs);
    const event: EngineEvent = { type: 'final', utterance: u.index, text: u.text, words, startMs: u.startMs, endMs, reason, speechFinal, language: u.language };
    this.later(this.script().finalDelayMs, () => this.emit(event));
  }

  private later(delayMs: number, fn: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) fn();
      if (this.timers.size === 0) this.settleIdle();
    }, delayMs);
    this.timers.add(timer);
    return timer;
  }

  private cancel(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    this.timers.delete(timer);
    if (this.timers.size === 0) this.settleIdle();
  }

  private settleIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Wire recording and control
// ---------------------------------------------------------------------------------------------------------

/** One WebSocket message a stand-in received (`in`) or sent (`out`). */
export type WireFrame =
  | { readonly dir: 'in' | 'out'; readonly kind: 'binary'; readonly bytes: number }
  | { readonly dir: 'in' | 'out'; readonly kind: 'text'; readonly text: string; readonly json: unknown };

/** Everything one connection showed on the wire, for exact wire-sequence assertions. */
export interface StandinSession {
  /** 0-based, in order of accepted connections. */
  readonly index: number;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Request headers, lower-cased names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Frames in order, up to the control's `recordLimits.framesPerSession`. */
  readonly frames: WireFrame[];
  /** Frames past the limit, counted but not kept (a long `npm start` call must not grow without bound). */
  droppedFrames: number;
  closed?: { readonly code: number; readonly reason: string; readonly by: 'client' | 'server' };
}

/** A plain HTTP request a stand-in served (for example Speechmatics' temporary-key endpoint). */
export interface StandinHttpRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
  readonly status: number;
}

/** A consecutive run of binary frames collapsed, or one text frame's JSON: the readable wire sequence. */
export type WireStep = { readonly binary: number; readonly bytes: number } | { readonly json: unknown };

/** Collapses consecutive binary frames so a wire sequence reads like the protocol does. */
export function wireSteps(frames: readonly WireFrame[], dir: 'in' | 'out' = 'in'): WireStep[] {
  const steps: WireStep[] = [];
  for (const f of frames) {
    if (f.dir !== dir) continue;
    if (f.kind === 'binary') {
      const last = steps.at(-1);
      if (last && 'binary' in last) steps[steps.length - 1] = { binary: last.binary + 1, bytes: last.bytes + f.bytes };
      else steps.push({ binary: 1, bytes: f.bytes });
    } else {
      steps.push({ json: f.json });
    }
  }
  return steps;
}

/**
 * The handle a test (or `npm start`) holds on a stand-in: swap the script, require a key, make the next
 * handshakes fail, and read what each connection sent and received.
 */
export class SttStandinControl {
  private currentScript: SttScript;
  private expectedKey: string | undefined;
  private failures: number[] = [];
  private accepted = 0;
  /** The most recent sessions, oldest first (at most `recordLimits.sessions`). */
  readonly sessions: StandinSession[] = [];
  /**
   * Recording is for assertions; these bounds keep a long-running `npm start` or a benchmark from holding
   * every packet of every call. 5,000 frames is 100 s of 20 ms audio: far more than any test streams.
   */
  readonly recordLimits = { sessions: 100, framesPerSession: 5_000 };
  readonly httpRequests: StandinHttpRequest[] = [];
  /** Handshakes refused (failure injection, bad credentials, bad parameters). */
  readonly rejected: { readonly path: string; readonly status: number }[] = [];

  constructor(
    readonly vendor: string,
    script: Partial<SttScript> = {},
  ) {
    this.currentScript = resolveScript(script);
  }

  get script(): SttScript {
    return this.currentScript;
  }

  /** Replaces the script (unset fields take the defaults); applies to utterances that start afterwards. */
  setScript(script: Partial<SttScript>): void {
    this.currentScript = resolveScript(script);
  }

  /** Accepted connections since start (or the last reset). */
  get connections(): number {
    return this.accepted;
  }

  /** @internal Registers an accepted connection and returns its record. */
  openSession(init: Omit<StandinSession, 'index' | 'frames' | 'droppedFrames'>): StandinSession {
    const session: StandinSession = { index: this.accepted, ...init, frames: [], droppedFrames: 0 };
    this.accepted += 1;
    this.sessions.push(session);
    if (this.sessions.length > this.recordLimits.sessions) this.sessions.shift();
    return session;
  }

  /** @internal Records one frame, within the limits. */
  record(session: StandinSession, frame: WireFrame): void {
    if (session.frames.length < this.recordLimits.framesPerSession) session.frames.push(frame);
    else session.droppedFrames += 1;
  }

  /**
   * Only this credential authenticates; by default the placeholder `STANDIN_KEY` every stand-in hands out
   * (undefined restores it), as a vendor accepts only keys it issued.
   */
  requireKey(key: string | undefined): void {
    this.expectedKey = key;
    if (key) openStandinAccount(this.vendor as StandinVendor, key);
  }

  /** Whether a presented credential is accepted: also the key of any account the vendor's books hold. */
  accepts(key: string | undefined): boolean {
    // The placeholder key, or the key of an account the vendor's books hold (a workspace's own key).
    const held = standinAccountHolds(this.vendor as StandinVendor, key);
    return key === (this.expectedKey ?? STANDIN_KEY) || held;
  }

  /** The next `count` handshakes fail with this HTTP status (503: the vendor is having a moment). */
  failNext(count: number, status = 503): void {
    for (let i = 0; i < count; i += 1) this.failures.push(status);
  }

  /** @internal The status the next handshake must fail with, if any. */
  takeFailure(): number | undefined {
    return this.failures.shift();
  }

  /** @internal Open connections, for {@link dropAll}. */
  readonly live = new Set<StandinConnection>();

  /**
   * Fault knob: the next connection to receive `afterBytes` more caller audio is closed from the server side
   * with `code` (Deepgram closes 1011 on an internal error) in the middle of the stream, once. Tests use it
   * to prove a call survives an STT socket drop while the caller is talking.
   */
  dropMidStream(afterBytes: number, code = 1011, reason = 'Internal server error'): void {
    this.pendingDrop = { remaining: afterBytes, code, reason };
  }

  private pendingDrop: { remaining: number; code: number; reason: string } | undefined;
  /** Sockets {@link dropMidStream} has closed so far. */
  midStreamDrops = 0;

  /** @internal Counts caller audio a connection received, for {@link dropMidStream}. */
  audioReceived(connection: StandinConnection, bytes: number): void {
    const drop = this.pendingDrop;
    if (!drop) return;
    drop.remaining -= bytes;
    if (drop.remaining > 0) return;
    this.pendingDrop = undefined;
    this.midStreamDrops += 1;
    connection.close(drop.code, drop.reason);
  }

  /** Closes every open connection from the server side, as a vendor outage or restart would. */
  dropAll(code = 1011, reason = 'Internal server error'): void {
    for (const connection of this.live) connection.close(code, reason);
  }

  /** Forgets recorded sessions and pending failures; keeps the script and the key rule. */
  reset(): void {
    this.accepted = 0;
    this.sessions.length = 0;
    this.httpRequests.length = 0;
    this.rejected.length = 0;
    this.failures = [];
  }
}

/** An HTTP answer that refuses a WebSocket handshake. */
export interface HandshakeRejection {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One accepted connection: sends are recorded, and `close` remembers that the server closed. */
export class StandinConnection {
  constructor(
    readonly ws: WebSocket,
    readonly session: StandinSession,
    private readonly control: SttStandinControl,
  ) {}

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  sendJson(message: unknown): void {
    if (!this.isOpen) return;
    const text = JSON.stringify(message);
    this.control.record(this.session, { dir: 'out', kind: 'text', text, json: message });
    this.ws.send(text);
  }

  sendBinary(data: Uint8Array): void {
    if (!this.isOpen) return;
    this.control.record(this.session, { dir: 'out', kind: 'binary', bytes: data.length });
    this.ws.send(data);
  }

  close(code: number, reason = ''): void {
    if (this.ws.readyState === WebSocket.CLOSED || this.ws.readyState === WebSocket.CLOSING) return;
    this.session.closed ??= { code, reason, by: 'server' };
    this.ws.close(code, reason);
  }
}

/** A vendor's half of a stand-in: who may connect and what to do with a connection. */
export interface WsStandinHandlers {
  /** Refuses the handshake by returning an HTTP answer; returns undefined to accept. */
  readonly authorize: (req: IncomingMessage, url: URL) => HandshakeRejection | undefined;
  /** The vendor's answer to an injected failure ({@link SttStandinControl.failNext}): 429 or 5xx. */
  readonly fault?: (status: number) => HandshakeRejection;
  /** Extra response headers on an accepted handshake (Deepgram's `dg-request-id`). */
  readonly handshakeHeaders?: (req: IncomingMessage) => Readonly<Record<string, string>>;
  /** Runs the vendor protocol on an accepted connection. */
  readonly onConnection: (connection: StandinConnection, url: URL, req: IncomingMessage) => void;
  /** Plain HTTP requests (token endpoints); 404 when absent. */
  readonly http?: (req: IncomingMessage, url: URL, body: string) => Promise<{ status: number; body: unknown }> | { status: number; body: unknown };
}

/** A running speech-to-text stand-in. */
export interface SttStandin {
  /** The value for the vendor's base-URL variable. */
  readonly baseUrl: string;
  readonly control: SttStandinControl;
  stop(): Promise<void>;
}

/** A running loopback server. */
export interface RunningStandin {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  stop(): Promise<void>;
}

function headerRecord(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

function rejectHandshake(socket: Socket, rejection: HandshakeRejection): void {
  const body = rejection.body === undefined ? '' : typeof rejection.body === 'string' ? rejection.body : JSON.stringify(rejection.body);
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 503: 'Service Unavailable' }[rejection.status] ?? 'Error';
  const headers = {
    'Content-Type': typeof rejection.body === 'string' ? 'text/plain' : 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...rejection.headers,
  };
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n');
  socket.end(`HTTP/1.1 ${rejection.status} ${reason}\r\n${head}\r\n\r\n${body}`);
}

/**
 * Starts a WebSocket stand-in on 127.0.0.1 with an OS-chosen port. The scaffolding applies failure
 * injection, records every accepted connection's frames in order, and leaves the protocol to `handlers`.
 */
export async function startWsStandin(control: SttStandinControl, handlers: WsStandinHandlers): Promise<RunningStandin> {
  const wss = new WebSocketServer({ noServer: true });
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      void (async () => {
        // The vendor's cheap authenticated request (a key test), where its stand-in does not serve it itself.
        const check = control.vendor === 'speechmatics' ? undefined : answerKeyCheck(control.vendor as Exclude<StandinVendor, 'speechmatics'>, req);
        const answer = check ?? (handlers.http ? await handlers.http(req, url, body) : { status: 404, body: { error: 'not found' } });
        control.httpRequests.push({
          method: req.method ?? 'GET',
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: headerRecord(req),
          body,
          status: answer.status,
        });
        const text = JSON.stringify(answer.body);
        res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      })();
    });
  });

  let extraHeaders: Readonly<Record<string, string>> = {};
  wss.on('headers', (headers) => {
    for (const [k, v] of Object.entries(extraHeaders)) headers.push(`${k}: ${v}`);
  });

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const injected = control.takeFailure();
    const rejection = injected !== undefined ? (handlers.fault?.(injected) ?? { status: injected, body: { error: 'injected failure' } }) : handlers.authorize(req, url);
    if (rejection) {
      control.rejected.push({ path: url.pathname, status: rejection.status });
      rejectHandshake(socket, rejection);
      return;
    }
    extraHeaders = handlers.handshakeHeaders?.(req) ?? {};
    wss.handleUpgrade(req, socket, head, (ws) => {
      const session = control.openSession({ path: url.pathname, query: Object.fromEntries(url.searchParams), headers: headerRecord(req) });
      const connection = new StandinConnection(ws, session, control);
      ws.on('message', (data: RawData, isBinary: boolean) => {
        if (isBinary) {
          const bytes = toBytes(data).length;
          control.record(session, { dir: 'in', kind: 'binary', bytes });
          control.audioReceived(connection, bytes);
          return;
        }
        const text = Buffer.from(toBytes(data)).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        control.record(session, { dir: 'in', kind: 'text', text, json });
      });
      control.live.add(connection);
      ws.on('close', (code: number, reason: Buffer) => {
        control.live.delete(connection);
        session.closed ??= { code, reason: reason.toString('utf8'), by: 'client' };
      });
      handlers.onConnection(connection, url, req);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    stop: async () => {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The bytes of a `ws` message, whatever shape `ws` delivered them in. */
export function toBytes(data: RawData): Uint8Array {
  if (Buffer.isBuffer(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  return new Uint8Array(data);
}

/** A parsed JSON text frame, or undefined when the frame was binary or not JSON. */
export function jsonOf(data: RawData, isBinary: boolean): Record<string, unknown> | undefined {
  if (isBinary) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(toBytes(data)).toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A vendor-looking random id. */
export const newId = (): string => randomUUID();

/** Parses a query value as a non-negative integer, or returns the fallback. */
export function intParam(value: string | null | undefined, fallback: number): number {
  if (value === null || value === undefined || value === '') return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : fallback;
}

/** A vendor boolean query value ("true"/"false"), or the fallback. */
export function boolParam(value: string | null | undefined, fallback: boolean): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return fallback;
}
