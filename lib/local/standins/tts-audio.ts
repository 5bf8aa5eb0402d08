import { answerKeyCheck, openStandinAccount, standinAccountHolds } from './accounts.js';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { pcmToMulaw } from '../../vendors/shared/mulaw.js';
import { PHONE_AUDIO, bytesPerMs, bytesPerSample, type AudioFormat } from '../../vendors/shared/audio-format.js';
import { pcmToLinear16 } from '../../vendors/shared/pcm.js';
import { STANDIN_KEY } from './catalog.js';
import type { SpokenLines } from './spoken-lines.js';

/**
 * What the TTS stand-ins say and how fast: the audio every TTS stand-in returns for a text, and the timing
 * that makes first-byte latency and barge-in testable. Audio is raw, mono, in the format the client asked
 * the vendor for: mu-law 8 kHz by default (what Twilio plays, 8 bytes per millisecond), or linear16 (signed
 * 16-bit little-endian) at its rate, 16 kHz for the browser (32 bytes per millisecond).
 */

/** Timing and voice of a TTS stand-in. */
export interface TtsScript {
  /** Delay from a generation request (flush, end of input) to its first audio chunk. */
  readonly firstByteDelayMs: number;
  /** Audio per chunk sent on the wire, in milliseconds of playback. */
  readonly chunkMs: number;
  /**
   * Send speed relative to playback: 4 sends one second of audio every 250 ms, as real vendors stream
   * faster than real time. 0 or Infinity sends everything at once.
   */
  readonly realtimeFactor: number;
  /** Real speech with espeak-ng + sox instead of a tone (falls back to the tone when espeak-ng is missing). */
  readonly speech: boolean;
  /**
   * Cut linear16 audio into chunks of an odd byte count (each one byte longer than the scripted size), so a
   * sample straddles two chunks, as vendors' PCM streams may: the client must carry the odd byte over.
   */
  readonly splitSamples?: boolean;
  /**
   * Where what is synthesized in a browser format (linear16) is registered with its audio (spoken-lines.ts),
   * so the recognizer stand-ins hear a caller our own TTS speaks (a voice agent test, docs/agent-tests.md)
   * as the text it was given. Phone audio (mu-law) is left out: a phone line's simulated people register
   * their own lines (the Twilio stand-in's callee).
   */
  readonly spokenLines?: SpokenLines;
}

/**
 * Defaults: Twilio's published TTS first-byte budget (100 ms); 40 ms chunks, near what vendors send for
 * 8 kHz; 4x real time, fast enough to keep Twilio's buffer fed without the whole reply arriving at once.
 */
export const DEFAULT_TTS_SCRIPT = {
  firstByteDelayMs: 100,
  chunkMs: 40,
  realtimeFactor: 4,
  speech: false,
} as const satisfies TtsScript;

/** mu-law 8 kHz (the default format): one byte per sample. */
export const BYTES_PER_MS = 8;

/** Tone length per character of text: long enough that a barge-in test has audio to interrupt. */
export const TONE_MS_PER_CHAR = 70;

/** The text a stand-in would speak: surrounding whitespace never makes sound (ElevenLabs' " " opener). */
const spoken = (text: string): string => text.trim();

/** Length in bytes of the tone for `text` in `format`: {@link TONE_MS_PER_CHAR} per character, whitespace-trimmed. */
export function toneBytes(text: string, format: AudioFormat = PHONE_AUDIO): number {
  return spoken(text).length * TONE_MS_PER_CHAR * bytesPerMs(format);
}

/**
 * Where each character of `text` plays, in ms from the start of its audio (`totalBytes` long): the tone
 * gives every character of the trimmed text {@link TONE_MS_PER_CHAR}; speech spreads them evenly (espeak
 * gives no timing). A trailing space closes the last word, as a vendor's alignment of "text " would.
 */
export function charTimings(text: string, totalBytes: number, format: AudioFormat = PHONE_AUDIO): { chars: string[]; startsMs: number[]; durationsMs: number[] } {
  const chars = [...spoken(text)];
  const perChar = chars.length > 0 ? totalBytes / bytesPerMs(format) / chars.length : 0;
  const startsMs = chars.map((_c, i) => Math.round(i * perChar));
  const durationsMs = chars.map((_c, i) => Math.round((i + 1) * perChar) - startsMs[i]!);
  const endMs = Math.round(chars.length * perChar);
  return { chars: [...chars, ' '], startsMs: [...startsMs, endMs], durationsMs: [...durationsMs, 0] };
}

/** Words of a {@link charTimings}: each from its first character's start to its last one's end. */
export function wordTimings(timing: ReturnType<typeof charTimings>): { words: string[]; startsMs: number[]; endsMs: number[] } {
  const out = { words: [] as string[], startsMs: [] as number[], endsMs: [] as number[] };
  let word = '';
  timing.chars.forEach((c, i) => {
    if (/\s/.test(c)) {
      if (word) out.words.push(word);
      word = '';
      return;
    }
    if (!word) out.startsMs.push(timing.startsMs[i]!);
    out.endsMs[out.words.length] = timing.startsMs[i]! + timing.durationsMs[i]!;
    word += c;
  });
  return out;
}

/** 16-bit samples as bytes in `format`. */
const encode = (pcm: Int16Array, format: AudioFormat): Uint8Array => (format.encoding === 'mulaw' ? pcmToMulaw(pcm) : pcmToLinear16(pcm));

/** Peak amplitude of the tone on the 16-bit scale (about -12 dBFS). */
export const TONE_AMPLITUDE = 8_000;

/**
 * A tone for `text`: its pitch comes from the text (so two utterances' audio can be told apart byte for
 * byte), its length from {@link toneBytes}, with 5 ms ramps so chunk joins do not click. The same tone at
 * any rate and encoding (the mu-law 8 kHz bytes are what they have always been).
 */
export function synthesizeTone(text: string, format: AudioFormat = PHONE_AUDIO): Uint8Array {
  const s = spoken(text);
  const key = `${format.encoding}/${format.sampleRate}/${s}`;
  const made = tones.get(key);
  if (made) {
    // Most recently used last: the oldest tone is the first to go.
    tones.delete(key);
    tones.set(key, made);
    return made;
  }
  const tone = makeTone(s, format);
  tones.set(key, tone);
  if (tones.size > MAX_TONES) tones.delete(tones.keys().next().value!);
  return tone;
}

/**
 * Tones already made, by format and text: a stand-in under load says the same scripted lines again and again,
 * and making a tone costs a sine per sample (the pipeline benchmark's load process spent 8 % of its time there).
 * Callers only read the bytes they get.
 */
const tones = new Map<string, Uint8Array>();
const MAX_TONES = 512;

function makeTone(s: string, format: AudioFormat): Uint8Array {
  const rate = format.sampleRate;
  const length = toneBytes(s, format) / bytesPerSample(format.encoding);
  let hash = 0;
  for (let i = 0; i < s.length; i += 1) hash = (hash * 31 + s.charCodeAt(i)) >>> 0;
  const frequency = 300 + (hash % 600);
  const ramp = (5 * rate) / 1_000;
  const pcm = new Int16Array(length);
  for (let i = 0; i < length; i += 1) {
    const envelope = Math.min(1, i / ramp, (length - 1 - i) / ramp);
    // Rounded, not truncated as an Int16Array store would: the tone's bytes stay what they have always been.
    pcm[i] = Math.round(TONE_AMPLITUDE * envelope * Math.sin((2 * Math.PI * frequency * i) / rate));
  }
  return encode(pcm, format);
}

const ESPEAK = '/usr/bin/espeak-ng';

/** True when real speech can be made here. */
export const speechAvailable = (): boolean => existsSync(ESPEAK);

/** sox's output options for a raw format. */
const soxRaw = (format: AudioFormat): string[] =>
  format.encoding === 'mulaw'
    ? ['-t', 'raw', '-r', String(format.sampleRate), '-e', 'mu-law', '-b', '8', '-c', '1']
    : ['-t', 'raw', '-r', String(format.sampleRate), '-e', 'signed-integer', '-b', '16', '-L', '-c', '1'];

/**
 * Real speech for `text`: espeak-ng writes a WAV to stdout, sox resamples it to the raw format (8 kHz mu-law
 * by default). The text goes as an argument, never through a shell.
 */
export function synthesizeSpeech(text: string, format: AudioFormat = PHONE_AUDIO, language = 'en'): Promise<Uint8Array> {
  const s = spoken(text);
  if (s.length === 0) return Promise.resolve(new Uint8Array(0));
  return new Promise((resolve, reject) => {
    const espeak = spawn(ESPEAK, ['--stdout', '-v', espeakVoice(language), '--', s], { stdio: ['ignore', 'pipe', 'ignore'] });
    const sox = spawn('sox', ['-t', 'wav', '-', ...soxRaw(format), '-'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const parts: Buffer[] = [];
    espeak.on('error', reject);
    sox.on('error', reject);
    espeak.stdout.pipe(sox.stdin);
    sox.stdout.on('data', (b: Buffer) => parts.push(b));
    sox.on('close', (code) => {
      if (code === 0) resolve(new Uint8Array(Buffer.concat(parts)));
      else reject(new Error(`sox exited with ${code}`));
    });
  });
}

/** The audio a stand-in returns for `text` under `script`, in `format`, spoken in `language` (ISO 639-1). */
export async function synthesize(text: string, script: Pick<TtsScript, 'speech'>, format: AudioFormat = PHONE_AUDIO, language?: string): Promise<Uint8Array> {
  return script.speech && speechAvailable() ? synthesizeSpeech(text, format, language) : synthesizeTone(text, format);
}

/** espeak-ng's voice for a language: its own code (es, de, hi, ja…), American English for `en`. */
export const espeakVoice = (language: string): string => (/^en\b/i.test(language) ? 'en-us' : language.toLowerCase());

/** Bytes per chunk for `script` in `format`: whole samples, or one byte more when the script splits them. */
export function chunkBytesOf(script: Pick<TtsScript, 'chunkMs' | 'splitSamples'>, format: AudioFormat): number {
  const sample = bytesPerSample(format.encoding);
  const whole = Math.max(1, Math.round((script.chunkMs * bytesPerMs(format)) / sample)) * sample;
  return script.splitSamples && sample > 1 ? whole + 1 : whole;
}

/** One generation a stand-in ran: what was asked, what was sent, and whether it was cut short. */
export interface SegmentRecord {
  readonly text: string;
  /** The language the request asked for (ISO 639-1), where the vendor takes one. */
  readonly language?: string;
  readonly requestedAtMs: number;
  startedAtMs?: number;
  /** Audio length for the whole text (known once synthesized). */
  totalBytes?: number;
  sentBytes: number;
  finishedAtMs?: number;
  /** Dropped by a clear or cancel before all its audio was sent. */
  aborted: boolean;
}

type Item = { kind: 'audio'; record: SegmentRecord } | { kind: 'event'; fire: () => void };

/**
 * Plays a vendor context's (or a Deepgram connection's) generations in order: each waits for its first-byte
 * delay (counted from its request, so pipelined phrases do not add up delays), then goes out in chunks paced
 * by the script. Events (Flushed, isFinal, done) are queued between audio so they fire after the audio
 * before them, as vendors send them.
 */
export class SegmentPlayer {
  private readonly items: Item[] = [];
  private running = false;
  /** Bumped by {@link clear}: a playing segment checks it between chunks and stops. */
  private generation = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly script: () => TtsScript,
    private readonly sendChunk: (chunk: Uint8Array, record: SegmentRecord) => void,
    /** Where each generation is recorded (a connection's or a context's record). */
    readonly segments: SegmentRecord[] = [],
    /** The audio format the client asked for. */
    readonly format: AudioFormat = PHONE_AUDIO,
  ) {}

  /** Queues the audio for `text`. */
  speak(text: string, language?: string): SegmentRecord {
    const record: SegmentRecord = { text, ...(language ? { language } : {}), requestedAtMs: performance.now(), sentBytes: 0, aborted: false };
    this.segments.push(record);
    this.items.push({ kind: 'audio', record });
    this.run();
    return record;
  }

  /** Queues `fire` to run after all audio queued before it. */
  then(fire: () => void): void {
    this.items.push({ kind: 'event', fire });
    this.run();
  }

  /** Drops queued and playing audio (and queued events) at once: Deepgram's Clear. */
  clear(): void {
    this.generation += 1;
    for (const item of this.items.splice(0)) if (item.kind === 'audio') item.record.aborted = true;
  }

  /** Drops what has not started yet and lets the playing segment finish: Cartesia's cancel. */
  dropQueued(): void {
    for (const item of this.items.splice(0)) if (item.kind === 'audio') item.record.aborted = true;
  }

  get idle(): boolean {
    return !this.running && this.items.length === 0;
  }

  /** Resolves when nothing is queued or playing. */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private run(): void {
    if (this.running) return;
    this.running = true;
    void this.loop().finally(() => {
      this.running = false;
      if (this.items.length > 0) this.run();
      else for (const resolve of this.idleWaiters.splice(0)) resolve();
    });
  }

  private async loop(): Promise<void> {
    for (let item = this.items.shift(); item; item = this.items.shift()) {
      if (item.kind === 'event') {
        item.fire();
        continue;
      }
      await this.play(item.record);
    }
  }

  private async play(record: SegmentRecord): Promise<void> {
    const generation = this.generation;
    const script = this.script();
    const audio = await synthesize(record.text, script, this.format, record.language);
    record.totalBytes = audio.length;
    if (this.format.encoding !== 'mulaw') script.spokenLines?.sayAudio(record.text, audio, this.format, record.language);
    await sleep(record.requestedAtMs + script.firstByteDelayMs - performance.now());
    if (generation !== this.generation) {
      record.aborted = true;
      return;
    }
    record.startedAtMs = performance.now();
    const chunkBytes = chunkBytesOf(script, this.format);
    const paced = Number.isFinite(script.realtimeFactor) && script.realtimeFactor > 0;
    for (let offset = 0, i = 0; offset < audio.length; offset += chunkBytes, i += 1) {
      if (paced) await sleep(record.startedAtMs + (i * script.chunkMs) / script.realtimeFactor - performance.now());
      if (generation !== this.generation) {
        record.aborted = true;
        return;
      }
      const chunk = audio.subarray(offset, Math.min(audio.length, offset + chunkBytes));
      record.sentBytes += chunk.length;
      this.sendChunk(chunk, record);
    }
    record.finishedAtMs = performance.now();
  }
}

const sleep = (ms: number): Promise<void> => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

// ---- What the three TTS stand-ins share: their wire records and a loopback WebSocket server ----------------

/** One message on a stand-in's socket: parsed JSON, or a binary frame's length. */
export interface WireMessage {
  readonly atMs: number;
  readonly json?: Record<string, unknown>;
  readonly binaryBytes?: number;
  /** A text frame that was not JSON. */
  readonly text?: string;
}

/** One vendor context (ElevenLabs, Cartesia) as the stand-in saw it. */
export interface ContextRecord {
  readonly id: string;
  readonly received: WireMessage[];
  readonly segments: SegmentRecord[];
  /** When the vendor's cancel for it arrived (ElevenLabs: close_context; Cartesia: cancel). */
  cancelledAtMs?: number;
  /** Audio of the context not yet sent when the cancel (or close) arrived. */
  pendingBytesAtCancel?: number;
  /** When its final event (isFinal, done) went out. */
  finishedAtMs?: number;
}

/** One client connection to a stand-in. */
export interface ConnectionRecord {
  readonly id: number;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** The upgrade request's headers (stand-in keys only: nothing secret lives here). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly openedAtMs: number;
  /** Client → stand-in, in order. */
  readonly received: WireMessage[];
  /** Stand-in → client, in order (audio payloads as `<n bytes>`, binary frames as their length). */
  readonly sent: WireMessage[];
  /** Per context, for vendors that have them. */
  readonly contexts: Map<string, ContextRecord>;
  /** Generations on a context-less socket (Deepgram), in order. */
  readonly segments: SegmentRecord[];
  /** Deepgram `Clear`s: when, and how much audio they dropped. */
  readonly clears: { readonly atMs: number; readonly pendingBytes: number }[];
  /** The audio format the client asked for (per connection; Cartesia: its last request's). */
  format?: AudioFormat;
  closedAtMs?: number;
  closeCode?: number;
}

/** Audio of `segments` not yet sent: started segments' remainder plus whole segments still queued. */
export function pendingBytes(segments: readonly SegmentRecord[], format: AudioFormat = PHONE_AUDIO): number {
  let total = 0;
  for (const s of segments) {
    if (s.aborted || s.finishedAtMs !== undefined) continue;
    total += (s.totalBytes ?? toneBytes(s.text, format)) - s.sentBytes;
  }
  return total;
}

/** What every TTS stand-in lets a test or `npm start` do. */
export interface TtsStandin {
  readonly vendor: 'elevenlabs' | 'deepgram' | 'cartesia';
  /** `http://127.0.0.1:port`: what the vendor's base URL variable is set to. */
  readonly baseUrl: string;
  /** A key the stand-in accepts. */
  readonly apiKey: string;
  readonly script: TtsScript;
  setScript(script: Partial<TtsScript>): void;
  /** Recent connections, oldest first (the last {@link MAX_RECORDED_CONNECTIONS}). */
  readonly connections: readonly ConnectionRecord[];
  /** Cuts every open socket as a network fault would (no close frame), to exercise reconnects. */
  dropConnections(): void;
  /**
   * Fault knob: the next socket to send `afterBytes` more bytes (wire bytes: JSON with base64 audio, or
   * binary audio) is cut there, no close frame, mid-utterance, once.
   */
  dropMidStream(afterBytes: number): void;
  /** Sockets {@link dropMidStream} has cut so far. */
  readonly midStreamDrops: number;
  /** Fault knob: refuses the next `count` handshakes with `status` (503: the vendor is down). 0 clears. */
  refuseNext(count: number, status?: number): void;
  stop(): Promise<void>;
}

/** Options every TTS stand-in takes. */
export interface TtsStandinOptions {
  /** Accept only this key; default {@link STANDIN_KEY}, the placeholder every stand-in hands out. */
  readonly apiKey?: string;
  readonly script?: Partial<TtsScript>;
}

/** Records kept per stand-in: enough for a test, bounded for a long `npm start`. */
export const MAX_RECORDED_CONNECTIONS = 50;

/**
 * Accepts the required key (the shared placeholder when none was given) and the key of any account the
 * vendor's books hold (lib/local/standins/accounts.ts: a workspace's own key), as a vendor accepts only keys
 * it issued: a missing, empty or different key is refused with the vendor's 401.
 */
export const keyAccepted = (required: string | undefined, given: string | undefined, vendor: TtsStandin['vendor']): boolean => {
  const held = standinAccountHolds(vendor, given);
  return given === (required ?? STANDIN_KEY) || held;
};

/** An HTTP refusal of a handshake: status, JSON body and headers, as the vendor answers. */
export interface Refusal {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface UpgradeDecision {
  readonly refuse?: Refusal;
}

/** How a vendor words an outage or a rate limit (for {@link TtsStandin.refuseNext}): 429, 5xx. */
export type FaultAnswer = (status: number) => Refusal;

/**
 * A WebSocket server on 127.0.0.1:0. `check` vets each upgrade request (path, auth, query) before the
 * handshake; `connected` runs the vendor protocol on an accepted socket with its fresh record.
 */
export async function startStandinServer(
  vendor: TtsStandin['vendor'],
  options: TtsStandinOptions,
  check: (url: URL, req: IncomingMessage) => UpgradeDecision,
  connected: (ws: WebSocket, record: ConnectionRecord, url: URL, standin: TtsStandin) => void,
  fault: FaultAnswer,
): Promise<TtsStandin> {
  if (options.apiKey) openStandinAccount(vendor, options.apiKey);
  openStandinAccount(vendor, STANDIN_KEY);
  const server = createServer((req, res) => {
    // The vendor's cheap authenticated request (a key test); everything else here is the WebSocket.
    const check = answerKeyCheck(vendor, req);
    res.writeHead(check?.status ?? 404, { 'content-type': 'application/json' }).end(JSON.stringify(check?.body ?? { error: 'not found' }));
  });
  // No permessage-deflate, like the adapters: base64 audio barely compresses.
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const connections: ConnectionRecord[] = [];
  let nextId = 1;
  let script: TtsScript = { ...DEFAULT_TTS_SCRIPT, ...options.script };
  let pendingDrop: { remaining: number } | undefined;
  let midStreamDrops = 0;
  const refusals = { count: 0, status: 503 };
  /** Counts what `ws` sends, for {@link TtsStandin.dropMidStream}; the vendor code sends as always. */
  const watchSends = (ws: WebSocket) => {
    const send = ws.send.bind(ws) as (data: unknown, ...rest: unknown[]) => void;
    ws.send = ((data: unknown, ...rest: unknown[]) => {
      if (pendingDrop) {
        pendingDrop.remaining -= typeof data === 'string' ? Buffer.byteLength(data) : (data as Uint8Array).byteLength;
        if (pendingDrop.remaining <= 0) {
          pendingDrop = undefined;
          midStreamDrops += 1;
          ws.terminate();
          return;
        }
      }
      send(data, ...rest);
    }) as typeof ws.send;
  };

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const refusing = refusals.count > 0;
    if (refusing) refusals.count -= 1;
    const decision = refusing ? { refuse: fault(refusals.status) } : check(url, req);
    if (decision.refuse) {
      const { status, headers = {} } = decision.refuse;
      const body = JSON.stringify(decision.refuse.body);
      const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.end(
        `HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const record: ConnectionRecord = {
        id: nextId++,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: { ...req.headers },
        openedAtMs: performance.now(),
        received: [],
        sent: [],
        contexts: new Map(),
        segments: [],
        clears: [],
      };
      connections.push(record);
      if (connections.length > MAX_RECORDED_CONNECTIONS) connections.shift();
      ws.on('close', (code) => {
        record.closedAtMs = performance.now();
        record.closeCode = code;
      });
      ws.on('error', () => {
        // A client that vanished; 'close' records it.
      });
      watchSends(ws);
      connected(ws, record, url, standin);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const standin: TtsStandin = {
    vendor,
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: options.apiKey ?? STANDIN_KEY,
    get script() {
      return script;
    },
    setScript(next) {
      script = { ...script, ...next };
    },
    connections,
    dropConnections() {
      for (const ws of wss.clients) ws.terminate();
    },
    dropMidStream(afterBytes) {
      pendingDrop = { remaining: afterBytes };
    },
    get midStreamDrops() {
      return midStreamDrops;
    },
    refuseNext(count, status = 503) {
      refusals.count = count;
      refusals.status = status;
    },
    async stop() {
      for (const ws of wss.clients) ws.terminate();
      // A response still streaming paced audio would hold the close until its last byte.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standin;
}

/** Parses a client text frame and records it; undefined when it is not a JSON object. */
export function receiveJson(
  data: RawData,
  isBinary: boolean,
  ...into: WireMessage[][]
): Record<string, unknown> | undefined {
  const atMs = performance.now();
  if (isBinary) {
    const bytes = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer | ArrayBuffer).byteLength;
    for (const list of into) list.push({ atMs, binaryBytes: bytes });
    return undefined;
  }
  const text = data.toString();
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
      for (const list of into) list.push({ atMs, json: json as Record<string, unknown> });
      return json as Record<string, unknown>;
    }
  } catch {
    // Not JSON: recorded as text below.
  }
  for (const list of into) list.push({ atMs, text });
  return undefined;
}

/** The field that carries base64 audio in a vendor's JSON chunk (ElevenLabs `audio`, Cartesia `data`). */
const audioField = (message: Record<string, unknown>): string => ('audio' in message ? 'audio' : 'data');

/** Sends a JSON message and records it (audio payloads replaced by their byte count). */
export function sendJson(
  ws: WebSocket,
  record: ConnectionRecord,
  message: Record<string, unknown>,
  audioBytes?: number,
): void {
  if (ws.readyState !== ws.OPEN) return;
  ws.send(JSON.stringify(message));
  // Audio messages are recorded without their payload: a long call's records stay small.
  const recorded = audioBytes === undefined ? message : { ...message, [audioField(message)]: `<${audioBytes} bytes>` };
  record.sent.push({ atMs: performance.now(), json: recorded });
}
