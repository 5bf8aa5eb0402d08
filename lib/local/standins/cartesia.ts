import { cartesiaPhonemeProblem } from './pronunciation-syntax.js';
import type { WebSocket } from 'ws';
import { bytesPerMs, type AudioFormat } from '../../vendors/shared/audio-format.js';
import {
  SegmentPlayer,
  keyAccepted,
  pendingBytes,
  receiveJson,
  sendJson,
  startStandinServer,
  type ConnectionRecord,
  type ContextRecord,
  type TtsStandin,
  type TtsStandinOptions,
  type SegmentRecord,
  charTimings,
  wordTimings,
} from './tts-audio.js';
import { CARTESIA_MODELS, CARTESIA_VOICES, isKnown } from './catalog.js';

/**
 * A stand-in for Cartesia's text-to-speech WebSocket, `GET /tts/websocket`:
 *
 * - auth: `X-API-Key` or `Authorization: Bearer` header, or `?api_key=` / `?access_token=`; a version from
 *   the `Cartesia-Version` header or `?cartesia_version=` (the query wins). Without a key: 401; without a
 *   version: 400;
 * - a generation request `{model_id, transcript, voice, output_format, context_id, continue?, flush?, …}`
 *   adds an input to its context (created by its first request); each input with text is spoken in order
 *   as `{type: "chunk", data, done: false, status_code: 206, step_time, context_id}`; `flush: true` is
 *   answered `{type: "flush_done", flush_id, …}` after the audio before it; `continue: false` (the default)
 *   ends the context with `{type: "done", done: true, status_code: 200, context_id}` after its audio;
 * - `{context_id, cancel: true}` halts the context's inputs that have not begun generating (the one
 *   generating finishes), and no `done` follows;
 * - `language` (optional) must be one Cartesia speaks, and not given with `locale`;
 * - a bad request is answered `{type: "error", context_id, status_code: 400, done: true, title, message}`;
 * - a context expires 1 s after its last audio went out: a later input on it is an error;
 * - the socket closes after 5 minutes without a message.
 *
 * Audio: `output_format {container: "raw", encoding, sample_rate}` with `pcm_mulaw` or `pcm_s16le` at 8000,
 * 16000, 22050, 24000, 44100 or 48000 Hz, per context (its first request's). Other formats are errors:
 * unknown ones as Cartesia answers them, and the ones the stand-in does not produce (wav, mp3, pcm_f32le,
 * pcm_alaw) the same way.
 */

const RAW_ENCODINGS: Readonly<Record<string, AudioFormat['encoding']>> = { pcm_mulaw: 'mulaw', pcm_s16le: 'linear16' };
const SAMPLE_RATES = new Set([8_000, 16_000, 22_050, 24_000, 44_100, 48_000]);

/** The raw format a request's `output_format` names, or undefined. */
function outputFormat(value: unknown): AudioFormat | undefined {
  const format = value as { container?: unknown; encoding?: unknown; sample_rate?: unknown } | undefined;
  const encoding = typeof format?.encoding === 'string' ? RAW_ENCODINGS[format.encoding] : undefined;
  if (format?.container !== 'raw' || !encoding || typeof format.sample_rate !== 'number' || !SAMPLE_RATES.has(format.sample_rate)) return undefined;
  return { encoding, sampleRate: format.sample_rate };
}

export interface CartesiaStandinOptions extends TtsStandinOptions {
  /** Overrides Cartesia's 5-minute idle close (ms). */
  readonly idleTimeoutMs?: number;
  /** Overrides how long a context lives after its last audio went out (Cartesia: 1 s). */
  readonly contextExpiryMs?: number;
  /**
   * The clock a context's expiry is measured on (default `performance.now`): a test moves it past the expiry
   * instead of waiting it out.
   */
  readonly now?: () => number;
}

/** "Contexts automatically expire 1 second after the last audio output is streamed out" (Cartesia docs). */
const CONTEXT_EXPIRY_MS = 1_000;

const IDLE_TIMEOUT_MS = 5 * 60_000;

interface Context {
  readonly record: ContextRecord;
  readonly player: SegmentPlayer;
  flushId: number;
  ended: boolean;
  cancelled: boolean;
  /** When its last queued audio finished going out (see {@link CONTEXT_EXPIRY_MS}). */
  quietSince?: number;
  /** The context's requests ask for word timestamps (`add_timestamps: true`). */
  timestamps: boolean;
}

/**
 * Cartesia's `timestamps` message for one generation: its words with start and end in seconds from the
 * start of the context's audio (the generations before it included).
 */
function timestampsMessage(contextId: string, segments: readonly SegmentRecord[], segment: SegmentRecord, format: AudioFormat): Record<string, unknown> {
  const before = segments.slice(0, segments.indexOf(segment)).reduce((ms, s) => ms + (s.totalBytes ?? 0) / bytesPerMs(format), 0);
  const { words, startsMs, endsMs } = wordTimings(charTimings(segment.text, segment.totalBytes ?? 0, format));
  const seconds = (ms: number) => Math.round(before + ms) / 1_000;
  return { type: 'timestamps', context_id: contextId, status_code: 206, done: false, word_timestamps: { words, start: startsMs.map(seconds), end: endsMs.map(seconds) } };
}

/** Starts the stand-in on 127.0.0.1:0. */
export function startCartesiaStandin(options: CartesiaStandinOptions = {}): Promise<TtsStandin> {
  return startStandinServer(
    'cartesia',
    options,
    (url, req) => {
      if (url.pathname !== '/tts/websocket') return { refuse: { status: 404, body: { error: 'Not found' } } };
      const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const key = headerValue(req.headers['x-api-key']) ?? bearer ?? url.searchParams.get('api_key') ?? url.searchParams.get('access_token') ?? undefined;
      if (!keyAccepted(options.apiKey, key, 'cartesia')) return { refuse: { status: 401, body: { error: 'Invalid API key' } } };
      const version = url.searchParams.get('cartesia_version') ?? headerValue(req.headers['cartesia-version']);
      if (!version || !/^\d{4}-\d{2}-\d{2}$/.test(version)) {
        return { refuse: { status: 400, body: { error: 'A Cartesia-Version header (YYYY-MM-DD) is required' } } };
      }
      return {};
    },
    (ws, record, _url, standin) => runConnection(ws, record, standin, options),
    (status) => ({ status, body: { error: status === 429 ? 'Rate limit exceeded' : 'Internal server error' } }),
  );
}

const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

function runConnection(ws: WebSocket, record: ConnectionRecord, standin: TtsStandin, options: CartesiaStandinOptions): void {
  const contexts = new Map<string, Context>();
  const idle = setTimeout(() => ws.close(1000, 'idle timeout'), options.idleTimeoutMs ?? IDLE_TIMEOUT_MS);
  const now = options.now ?? (() => performance.now());
  ws.on('close', () => {
    clearTimeout(idle);
    for (const ctx of contexts.values()) ctx.player.clear();
  });

  const error = (contextId: string | undefined, message: string) =>
    sendJson(ws, record, {
      type: 'error',
      ...(contextId !== undefined ? { context_id: contextId } : {}),
      status_code: 400,
      done: true,
      title: 'Invalid request',
      message,
    });

  const open = (id: string, format: AudioFormat): Context => {
    let stepStart = performance.now();
    const player = new SegmentPlayer(
      () => standin.script,
      (chunk, segment) => {
        const now = performance.now();
        // Word timestamps (asked with `add_timestamps`) go out with a generation's first audio.
        if (ctx.timestamps && segment.sentBytes === chunk.length) sendJson(ws, record, timestampsMessage(id, ctx.record.segments, segment, format));
        sendJson(
          ws,
          record,
          {
            type: 'chunk',
            data: Buffer.from(chunk).toString('base64'),
            done: false,
            status_code: 206,
            step_time: Math.round(now - Math.max(stepStart, segment.startedAtMs ?? now)),
            context_id: id,
          },
          chunk.length,
        );
        stepStart = now;
      },
      [],
      format,
    );
    const ctx: Context = { record: { id, received: [], segments: player.segments }, player, flushId: 0, ended: false, cancelled: false, timestamps: false };
    record.contexts.set(id, ctx.record);
    contexts.set(id, ctx);
    return ctx;
  };

  ws.on('message', (data, isBinary) => {
    idle.refresh();
    const message = receiveJson(data, isBinary, record.received);
    if (!message) {
      error(undefined, 'Messages must be JSON text frames');
      return;
    }
    const id = typeof message.context_id === 'string' ? message.context_id : undefined;
    if (message.cancel === true) {
      const ctx = id !== undefined ? contexts.get(id) : undefined;
      if (!ctx) return;
      ctx.record.received.push(record.received.at(-1)!);
      ctx.cancelled = true;
      ctx.record.cancelledAtMs = performance.now();
      ctx.record.pendingBytesAtCancel = pendingBytes(ctx.record.segments, ctx.player.format);
      ctx.player.dropQueued();
      return;
    }
    const problem = invalid(message);
    if (problem || id === undefined) {
      error(id, problem ?? 'context_id is required');
      return;
    }
    const format = outputFormat(message.output_format)!;
    record.format = format;
    const ctx = contexts.get(id) ?? open(id, format);
    ctx.record.received.push(record.received.at(-1)!);
    if (ctx.ended || ctx.cancelled) {
      error(id, `context ${id} has already ${ctx.cancelled ? 'been cancelled' : 'ended'}`);
      return;
    }
    if (ctx.player.idle && ctx.quietSince !== undefined && now() - ctx.quietSince > (options.contextExpiryMs ?? CONTEXT_EXPIRY_MS)) {
      // Cartesia documents that inputs after expiry are not supported; the stand-in says so rather than
      // speaking them with the prosody of a context that no longer exists.
      error(id, `context ${id} has expired: contexts expire 1 second after their last audio`);
      return;
    }
    ctx.timestamps = message.add_timestamps === true;
    const transcript = message.transcript as string;
    if (transcript.length > 0) {
      ctx.player.speak(transcript, typeof message.language === 'string' ? message.language : undefined);
      ctx.player.then(() => (ctx.quietSince = now()));
    }
    if (message.flush === true) {
      const flushId = ++ctx.flushId;
      ctx.player.then(() =>
        sendJson(ws, record, { type: 'flush_done', context_id: id, done: false, flush_done: true, flush_id: flushId, status_code: 206 }),
      );
    }
    if (message.continue !== true) {
      ctx.ended = true;
      ctx.player.then(() => {
        sendJson(ws, record, { type: 'done', context_id: id, done: true, status_code: 200 });
        ctx.record.finishedAtMs = performance.now();
      });
    }
  });
}

/**
 * The `language` codes of `@cartesia/cartesia-js` 4.x's `SupportedLanguage` (the request field "the
 * transcript's language"; a request sets `language` or `locale`, never both).
 */
const LANGUAGES = new Set('en fr de es pt zh ja hi it ko nl pl ru sv tr tl bg ro ar cs el fi hr ms sk da ta uk hu no vi bn th he ka id te gu kn ml mr pa or ur'.split(' '));

/** What is wrong with a generation request, or undefined. */
function invalid(message: Record<string, unknown>): string | undefined {
  if (typeof message.model_id !== 'string' || message.model_id.length === 0) return 'model_id is required';
  if (typeof message.transcript !== 'string') return 'transcript is required';
  const voice = message.voice as { id?: unknown } | string | undefined;
  if (!(typeof voice === 'string' || (typeof voice === 'object' && voice !== null && typeof voice.id === 'string'))) {
    return 'voice must be a voice id or {id}';
  }
  if (!isKnown(CARTESIA_MODELS, message.model_id)) return `Model ${message.model_id} not found`;
  if (message.language !== undefined && message.language !== null && !LANGUAGES.has(String(message.language))) {
    return `language ${String(message.language)} is not supported`;
  }
  if (message.language != null && message.locale != null) return 'set language or locale, not both';
  const voiceId = typeof voice === 'string' ? voice : voice!.id;
  if (!isKnown(CARTESIA_VOICES, voiceId)) return `Voice ${String(voiceId)} not found`;
  const phonemes = cartesiaPhonemeProblem(message.transcript);
  if (phonemes) return phonemes;
  if (!outputFormat(message.output_format)) {
    return 'output_format must be {container: "raw", encoding: "pcm_mulaw" | "pcm_s16le", sample_rate: 8000 | 16000 | 22050 | 24000 | 44100 | 48000} here';
  }
  return undefined;
}
