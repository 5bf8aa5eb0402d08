import WebSocket from 'ws';
import { WIDEBAND_AUDIO, bytesPerMs } from '../../vendors/shared/audio-format.js';
import { speech } from './simulated-caller.js';
import { MessageLog, SimulatedMicrophone, SimulatedPlayback } from '../../media/far-end.js';

/**
 * A simulated meeting page that speaks the browser transport's protocol (docs/meeting.md) from Node, for
 * protocol tests and the web benchmark: `hello` with a web session credential, then 20 ms PCM16 16 kHz
 * frames in real time (silence unless something is being said, as a live microphone never goes quiet).
 * Agent audio is buffered and "played" in real time; a mark is echoed once the audio before it has played;
 * `clear` drops what is buffered and echoes the outstanding marks. The real page does the same in an
 * AudioWorklet (tested in Chromium).
 */
export interface PageMessage {
  readonly atMs: number;
  readonly type: string;
  readonly raw: Record<string, any>;
}

const FRAME_MS = 20;
const BYTES_PER_MS = bytesPerMs(WIDEBAND_AUDIO);
const FRAME_BYTES = FRAME_MS * BYTES_PER_MS;

export class SimulatedWebCaller {
  /** Every JSON message received, with its arrival time (performance.now()). */
  private readonly log = new MessageLog<PageMessage>();
  /** Every message received, in order. */
  readonly received: PageMessage[] = this.log.items;
  /** Agent audio received (bytes) and when its first byte arrived. */
  audioBytes = 0;
  firstAudioAtMs: number | undefined;
  /** Agent audio actually played, in order. */
  get heard(): Uint8Array[] {
    return this.playback.heard;
  }
  readonly echoed: { name: string; flushed: boolean }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly ws: WebSocket;
  private readonly playback = new SimulatedPlayback(BYTES_PER_MS, 2, 1, (name, flushed) => this.echo(name, flushed));
  private readonly microphone = new SimulatedMicrophone(FRAME_BYTES, 0, (frame) => {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(frame);
  });
  private open = true;

  private constructor(url: string, credential: string) {
    this.ws = new WebSocket(url);
    this.closed = new Promise((resolve) => {
      this.ws.on('close', (code, reason) => {
        this.open = false;
        this.stopTimers();
        resolve({ code, reason: reason.toString() });
      });
    });
    this.ws.on('error', () => undefined);
    this.ws.on('open', () => {
      this.ws.send(JSON.stringify({ type: 'hello', credential, format: { encoding: 'linear16', sampleRate: 16_000 } }));
      this.microphone.start();
    });
    this.ws.on('message', (data, isBinary) => (isBinary ? this.onAudio(data as Buffer) : this.onText(data.toString())));
  }

  /** Opens the socket and says hello; resolves on `ready`, rejects with the server's error otherwise. */
  static async join(url: string, credential: string): Promise<SimulatedWebCaller> {
    const caller = new SimulatedWebCaller(url, credential);
    const first = await Promise.race([caller.waitFor((m) => m.type === 'ready' || m.type === 'error'), caller.closed.then(() => undefined)]);
    if (first?.type !== 'ready') throw new Error(`not admitted: ${first ? String(first.raw.code) : 'socket closed'}`);
    return caller;
  }

  /** Opens a socket and says hello without waiting for an answer (refusal tests). */
  static attempt(url: string, credential: string): SimulatedWebCaller {
    return new SimulatedWebCaller(url, credential);
  }

  /** Says `text` (espeak-ng at 16 kHz, in `language`'s voice); resolves once all of it has been sent, in real time. */
  async say(text: string, language?: string): Promise<void> {
    await this.microphone.play(await speech(text, WIDEBAND_AUDIO, language));
  }

  /** The contact presses hang up. */
  hangUp(): void {
    this.sendJson({ type: 'hangup' });
  }

  /** The page goes away without hanging up (a reload, a lost network). */
  drop(): void {
    this.stopTimers();
    this.ws.terminate();
  }

  /** Captions received so far for one side (finals only unless `interim`). */
  captions(role: 'user' | 'agent', interim = false): string[] {
    return this.received.filter((m) => m.type === 'caption' && m.raw.role === role && (interim || m.raw.final)).map((m) => String(m.raw.text));
  }

  waitFor(match: (m: PageMessage) => boolean, timeoutMs = 20_000): Promise<PageMessage> {
    return this.log.waitFor(match, timeoutMs);
  }


  /** Resolves when all agent audio received so far has played. */
  whenIdle(timeoutMs = 20_000): Promise<void> {
    return this.playback.whenIdle(timeoutMs);
  }

  private sendJson(message: unknown): void {
    if (this.open && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private onAudio(data: Buffer): void {
    this.firstAudioAtMs ??= performance.now();
    this.audioBytes += data.length;
    this.playback.pushAudio(new Uint8Array(data));
  }

  private onText(text: string): void {
    let raw: Record<string, any>;
    try {
      raw = JSON.parse(text) as Record<string, any>;
    } catch {
      return;
    }
    const message = { atMs: performance.now(), type: String(raw.type), raw };
    this.log.add(message);
    if (raw.type === 'mark' && typeof raw.name === 'string') this.playback.pushMark(raw.name);
    else if (raw.type === 'clear') this.playback.clear();
  }

  private echo(name: string, flushed: boolean): void {
    this.echoed.push({ name, flushed });
    this.sendJson({ type: 'mark', name });
  }

  private stopTimers(): void {
    this.microphone.stop();
    this.playback.stop();
  }
}
