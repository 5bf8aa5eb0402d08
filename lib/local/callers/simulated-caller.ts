import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { mulawToPcm, pcmToMulaw } from '../../vendors/shared/mulaw.js';
import { PHONE_AUDIO, type AudioFormat } from '../../vendors/shared/audio-format.js';
import { espeakVoice } from '../standins/tts-audio.js';
import { MessageLog, SimulatedMicrophone, SimulatedPlayback } from '../../media/far-end.js';
import { GaussianNoise } from '../../media/noise.js';

/** How long a wait lasts by default: a bound on a stall, far past any machine's pace (a met wait returns at once). */
const WAIT_DEFAULT_MS = 90_000;

/**
 * A simulated phone caller that speaks Twilio's Media Streams protocol, for tests, the pipeline benchmark
 * and (later) the Twilio stand-in's placed calls. It behaves like Twilio on both directions:
 *
 * - outbound (caller -> service): `connected`, `start` (with custom parameters such as the stream token),
 *   then a continuous stream of 20 ms mu-law `media` frames paced in real time — silence unless something is
 *   being "said" — and `stop` on hang-up. Like a phone line, it never goes quiet on the wire, which is what
 *   a vendor's endpointing needs to see the caller stop talking.
 * - inbound (service -> caller): agent `media` is buffered and "played" at `playbackSpeed` times real time;
 *   a `mark` is echoed once the audio before it has played (at once when nothing is buffered); `clear`
 *   drops the buffered audio and echoes every outstanding mark.
 *
 * Every message received is kept with its arrival time (performance.now()).
 */
export interface SimulatedCallerOptions {
  /** ws:// URL of the media-stream endpoint. */
  readonly url: string;
  readonly customParameters?: Readonly<Record<string, string>>;
  readonly callSid?: string;
  readonly accountSid?: string;
  /** 1 = real time. Faster playback makes marks come back sooner (benchmarks). */
  readonly playbackSpeed?: number;
  /** Send `connected`/`start` on open (false: a test drives the handshake itself). */
  readonly autoStart?: boolean;
  /**
   * Line echo: the agent audio this caller plays comes back in what it sends, scaled by this linear gain
   * (0.03 is 30 dB down, a handset with poor echo cancellation), mixed with whatever it says. Default none.
   */
  readonly echoGain?: number;
  /**
   * Background noise under everything the caller sends (a street, a car, an open-plan office): white noise
   * of this RMS on the 16-bit scale (100 is about -50 dBFS, 300 about -40 dBFS), from a fixed seed so a test
   * sends the same noise every run. Default none.
   */
  readonly noiseLevel?: number;
  /**
   * Keep no agent audio (benchmarks: hundreds of callers for minutes, a bed on every line): a media message
   * is logged without its payload, with `raw.media.peakRms`, the loudest 20 ms frame's RMS, in its place,
   * and nothing is added to {@link SimulatedCaller.heard}. Default false.
   */
  readonly lean?: boolean;
}

export interface ReceivedMessage {
  readonly atMs: number;
  readonly event: string;
  readonly raw: Record<string, any>;
}

const FRAME_BYTES = 160;
const FRAME_MS = 20;
const BYTES_PER_MS = 8;
/** A mu-law byte of silence (linear 0). */
const SILENCE = 0xff;

export class SimulatedCaller {
  private readonly log = new MessageLog<ReceivedMessage>();
  /** Every message received, in order. */
  readonly received: ReceivedMessage[] = this.log.items;
  /** Marks echoed back, and whether each was played or flushed by a clear. */
  readonly echoed: { name: string; flushed: boolean; atMs: number }[] = [];
  /** Agent audio actually "played" (bytes), in order. */
  get heard(): Uint8Array[] {
    return this.playback.heard;
  }
  readonly streamSid = `MZ${randomBytes(16).toString('hex')}`;
  readonly callSid: string;
  readonly accountSid: string;
  readonly closed: Promise<{ code: number; reason: string; atMs: number }>;
  private readonly ws: WebSocket;
  private readonly playback: SimulatedPlayback;
  private readonly microphone: SimulatedMicrophone;
  /** Agent audio played and not yet echoed back (only with `echoGain`). */
  private echoBytes: Uint8Array[] = [];
  private sequence = 1;
  private isOpen = false;
  /** Set once the line is hung up or dropped: audio still queued will never be sent. */
  private hungUp = false;

  private constructor(
    private readonly options: SimulatedCallerOptions,
    ws: WebSocket,
  ) {
    this.ws = ws;
    this.playback = new SimulatedPlayback(
      BYTES_PER_MS,
      1,
      options.playbackSpeed ?? 1,
      (name, flushed) => this.echo(name, flushed),
      options.echoGain ? (played) => this.echoBytes.push(played) : undefined,
      options.lean,
    );
    this.microphone = new SimulatedMicrophone(FRAME_BYTES, SILENCE, (frame, chunk) => this.sendMedia(this.withNoise(this.withEcho(frame)), chunk));
    this.callSid = options.callSid ?? `CA${randomBytes(16).toString('hex')}`;
    this.accountSid = options.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.isOpen = false;
        this.stopTimers();
        resolve({ code, reason: reason.toString(), atMs: performance.now() });
      });
    });
    ws.on('message', (data) => this.onMessage(data.toString()));
    ws.on('error', () => undefined);
  }

  /** Opens the stream (and, unless `autoStart` is false, sends `connected` and `start`). */
  static async connect(options: SimulatedCallerOptions): Promise<SimulatedCaller> {
    const ws = new WebSocket(options.url);
    const caller = new SimulatedCaller(options, ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    caller.isOpen = true;
    if (options.autoStart ?? true) caller.start();
    return caller;
  }

  /** Sends `connected` and `start`, then streams audio (silence until something is said). */
  start(): void {
    this.sendJson({ event: 'connected', protocol: 'Call', version: '1.0.0' });
    this.sendJson({
      event: 'start',
      sequenceNumber: String(this.sequence++),
      streamSid: this.streamSid,
      start: {
        accountSid: this.accountSid,
        streamSid: this.streamSid,
        callSid: this.callSid,
        tracks: ['inbound'],
        customParameters: { ...(this.options.customParameters ?? {}) },
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
      },
    });
    this.microphone.start();
  }

  /** Sends a raw text frame (tests of malformed input). */
  sendRaw(text: string): void {
    if (this.isOpen) this.ws.send(text);
  }

  /** Queues caller audio (mu-law 8 kHz); resolves once all of it has been sent, in real time. */
  play(mulaw: Uint8Array): Promise<void> {
    // A line that has hung up plays nothing more: there is nothing to wait for.
    if (this.hungUp) return Promise.resolve();
    return this.microphone.play(mulaw);
  }

  /** Says `text` with espeak-ng (converted to mu-law 8 kHz by sox), in `language`'s voice (ISO 639-1; default English). */
  async say(text: string, language?: string): Promise<void> {
    await this.play(await speech(text, PHONE_AUDIO, language));
  }

  /** Waits `ms` of stream time (silence keeps flowing meanwhile). */
  pause(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Presses a key: Twilio's `dtmf` message, as a bidirectional stream delivers a caller's keypad press. */
  press(digit: string): void {
    this.sendJson({ event: 'dtmf', sequenceNumber: String(this.sequence++), streamSid: this.streamSid, dtmf: { track: 'inbound_track', digit } });
  }

  /** Hangs up like Twilio: `stop`, then closes the socket. */
  hangUp(): void {
    this.sendJson({ event: 'stop', sequenceNumber: String(this.sequence++), streamSid: this.streamSid, stop: { accountSid: this.accountSid, callSid: this.callSid } });
    this.stopTimers();
    this.ws.close(1000, 'caller hung up');
  }

  /** Closes the socket without `stop` (a dropped connection). */
  drop(): void {
    this.stopTimers();
    this.ws.terminate();
  }

  /** The first received message (already received or future) that matches. */
  waitFor(match: (m: ReceivedMessage) => boolean, timeoutMs = WAIT_DEFAULT_MS): Promise<ReceivedMessage> {
    return this.log.waitFor(match, timeoutMs);
  }


  /** The next message matching after `afterIndex` messages (defaults to now). */
  waitForNext(match: (m: ReceivedMessage) => boolean, timeoutMs = WAIT_DEFAULT_MS, afterIndex = this.received.length): Promise<ReceivedMessage> {
    return this.waitFor((m) => this.received.indexOf(m) >= afterIndex && match(m), timeoutMs);
  }

  /** Milliseconds of agent audio buffered here, not yet played. */
  get bufferedMs(): number {
    return this.playback.bufferedMs;
  }

  /** Resolves when nothing is buffered (all agent audio so far has played). */
  whenIdle(timeoutMs = WAIT_DEFAULT_MS): Promise<void> {
    return this.playback.whenIdle(timeoutMs);
  }

  /**
   * Resolves once the agent has finished its answer: everything received has played and no agent audio
   * (`isVoice`; with a bed on the line, the messages loud enough to be the voice) came for `quietMs`.
   * {@link whenIdle} alone resolves in the gap between two phrases, and a caller that speaks then talks
   * over the rest of the answer. With a bed on the line (`bed`), the far end's buffer is never empty: the
   * answer is over once no voice came for `quietMs`, longer than the agent's lead of buffered audio.
   */
  async whenAnswered(isVoice: (m: ReceivedMessage) => boolean = (m) => m.event === 'media', quietMs = 600, timeoutMs = WAIT_DEFAULT_MS, bed = false): Promise<void> {
    const until = performance.now() + timeoutMs;
    for (;;) {
      if (bed) {
        const from = this.received.length;
        await new Promise((r) => setTimeout(r, quietMs));
        if (!this.received.slice(from).some(isVoice)) return;
        if (performance.now() > until) throw new Error(`the agent was still answering after ${timeoutMs} ms`);
        continue;
      }
      await this.whenIdle(Math.max(1, until - performance.now()));
      const from = this.received.length;
      await new Promise((r) => setTimeout(r, quietMs));
      if (!this.received.slice(from).some(isVoice) && this.bufferedMs === 0) return;
      if (performance.now() > until) throw new Error(`the agent was still answering after ${timeoutMs} ms`);
    }
  }

  /** Mixes the next 20 ms of played agent audio, scaled by `echoGain`, into `frame`. */
  private withEcho(frame: Uint8Array): Uint8Array {
    const gain = this.options.echoGain;
    if (!gain || this.echoBytes.length === 0) return frame;
    const echo = new Uint8Array(FRAME_BYTES).fill(0xff);
    let filled = 0;
    while (filled < FRAME_BYTES && this.echoBytes.length > 0) {
      const head = this.echoBytes[0]!;
      const take = Math.min(FRAME_BYTES - filled, head.length);
      echo.set(head.subarray(0, take), filled);
      filled += take;
      if (take === head.length) this.echoBytes.shift();
      else this.echoBytes[0] = head.subarray(take);
    }
    const mine = mulawToPcm(frame);
    const back = mulawToPcm(echo);
    for (let i = 0; i < mine.length; i += 1) mine[i] = Math.max(-32768, Math.min(32767, mine[i]! + Math.round(back[i]! * gain)));
    return pcmToMulaw(mine);
  }

  /** Adds the next 20 ms of background noise ({@link SimulatedCallerOptions.noiseLevel}) to `frame`. */
  private withNoise(frame: Uint8Array): Uint8Array {
    const level = this.options.noiseLevel;
    if (!level) return frame;
    const pcm = mulawToPcm(frame);
    for (let i = 0; i < pcm.length; i += 1) pcm[i] = Math.max(-32768, Math.min(32767, pcm[i]! + Math.round(this.noise.next() * level)));
    return pcmToMulaw(pcm);
  }

  private readonly noise = new GaussianNoise(0x5eed);

  private sendJson(message: unknown): void {
    if (this.isOpen && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private sendMedia(frame: Uint8Array, chunk: number): void {
    this.sendJson({
      event: 'media',
      sequenceNumber: String(this.sequence++),
      streamSid: this.streamSid,
      media: { track: 'inbound', chunk: String(chunk), timestamp: String(chunk * FRAME_MS), payload: Buffer.from(frame).toString('base64') },
    });
  }

  private onMessage(text: string): void {
    let raw: Record<string, any>;
    try {
      raw = JSON.parse(text) as Record<string, any>;
    } catch {
      return;
    }
    const atMs = performance.now();
    const audio = raw.event === 'media' && typeof raw.media?.payload === 'string' ? new Uint8Array(Buffer.from(raw.media.payload, 'base64')) : undefined;
    // Replaced before anyone waiting for messages sees it.
    if (audio && this.options.lean) raw.media = { peakRms: peakFrameRms(audio) };
    this.log.add({ atMs, event: String(raw.event), raw });
    if (audio) {
      this.playback.pushAudio(audio);
    } else if (raw.event === 'mark' && typeof raw.mark?.name === 'string') {
      this.playback.pushMark(raw.mark.name);
    } else if (raw.event === 'clear') {
      this.playback.clear();
    }
  }

  private echo(name: string, flushed: boolean): void {
    this.echoed.push({ name, flushed, atMs: performance.now() });
    this.sendJson({ event: 'mark', sequenceNumber: String(this.sequence++), streamSid: this.streamSid, mark: { name } });
  }

  private stopTimers(): void {
    this.hungUp = true;
    this.microphone.stop();
    this.playback.stop();
  }
}

const speechCache = new Map<string, Promise<Uint8Array>>();

/**
 * Speech for `text` made with espeak-ng and sox (cached per text and format): raw mu-law 8 kHz for a phone
 * caller, or raw PCM16 little-endian at the format's rate for a browser caller.
 */
export function speech(text: string, format: AudioFormat = PHONE_AUDIO, language?: string): Promise<Uint8Array> {
  const cacheKey = `${format.encoding}/${format.sampleRate}/${language ?? ''}/${text}`;
  let found = speechCache.get(cacheKey);
  if (!found) {
    const encoding = format.encoding === 'mulaw' ? ['-e', 'mu-law'] : ['-e', 'signed-integer', '-b', '16', '-L'];
    found = new Promise<Uint8Array>((resolve, reject) => {
      // espeak-ng's voices are named by language (es, de, hi, ja…); without one it speaks English.
      const espeak = spawn('espeak-ng', ['--stdout', ...(language ? ['-v', espeakVoice(language)] : []), '--', text]);
      const sox = spawn('sox', ['-t', 'wav', '-', '-r', String(format.sampleRate), ...encoding, '-c', '1', '-t', 'raw', '-']);
      espeak.stdout.pipe(sox.stdin);
      const chunks: Buffer[] = [];
      sox.stdout.on('data', (c: Buffer) => chunks.push(c));
      espeak.on('error', reject);
      sox.on('error', reject);
      sox.on('close', (code) => (code === 0 ? resolve(new Uint8Array(Buffer.concat(chunks))) : reject(new Error(`sox exited ${code}`))));
    });
    speechCache.set(cacheKey, found);
  }
  return found;
}

/** A tone burst (mu-law 8 kHz): loud enough for any energy-based voice detector. */
export function tone(ms: number, hz = 440, amplitude = 8_000): Uint8Array {
  const samples = Math.round(ms * BYTES_PER_MS);
  const pcm = new Int16Array(samples);
  for (let i = 0; i < samples; i += 1) pcm[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / 8000));
  return pcmToMulaw(pcm);
}

/** The RMS of the loudest 20 ms frame of mu-law `audio`. */
function peakFrameRms(audio: Uint8Array): number {
  const pcm = mulawToPcm(audio);
  let peak = 0;
  for (let at = 0; at < pcm.length; at += FRAME_BYTES) {
    let sum = 0;
    const end = Math.min(pcm.length, at + FRAME_BYTES);
    for (let i = at; i < end; i += 1) sum += pcm[i]! * pcm[i]!;
    peak = Math.max(peak, Math.sqrt(sum / (end - at)));
  }
  return peak;
}
