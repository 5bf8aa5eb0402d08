import { ssmlPhonemeProblem, ssmlSpokenText } from './pronunciation-syntax.js';
import type { WebSocket } from 'ws';
import type { AudioFormat } from '../../vendors/shared/audio-format.js';
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
  type Refusal,
  type SegmentRecord,
  charTimings,
} from './tts-audio.js';
import { bytesPerMs } from '../../vendors/shared/audio-format.js';
import { TTS_LANGUAGES } from '../../domain/language-support.js';
import { ELEVENLABS_MODELS, ELEVENLABS_VOICES, isKnown } from './catalog.js';

/** The models that enforce `language_code` (the others follow the text's language). */
const LANGUAGE_CODE_MODELS: ReadonlySet<string> = new Set(['eleven_flash_v2_5', 'eleven_turbo_v2_5']);

/**
 * A stand-in for ElevenLabs' multi-context text-to-speech WebSocket,
 * `GET /v1/text-to-speech/{voice_id}/multi-stream-input?model_id=…&output_format=ulaw_8000`, as documented
 * (AsyncAPI `V1TextToSpeechVoiceIdMultiStreamInput`):
 *
 * - auth: `xi-api-key` header, or `xi_api_key` in a context's first message when the header is absent; a
 *   wrong header key refuses the handshake with 401;
 * - requests (snake_case): `{text, context_id, voice_settings?, generation_config?, flush?}`,
 *   `{context_id, flush: true}`, `{context_id, close_context: true}`, `{close_socket: true}`, and
 *   keepalives `{text: "", context_id}` (or `{text: ""}` with no context);
 * - text is buffered per context until `flush` or until the first `chunk_length_schedule` step (120
 *   characters by default) is reached;
 * - responses: `{audio, normalizedAlignment, alignment, contextId}` per chunk, and `{is_final: true,
 *   contextId}` once a closed context has sent all its audio: the multi-context socket's spelling in
 *   ElevenLabs' AsyncAPI spec (elevenlabs/elevenlabs-docs `fern/apis/api/asyncapi.yml`, its
 *   multi-context server message; the single-context socket says `isFinal`, so clients read both). `close_context` drops text
 *   not yet flushed, but audio already flushed is still sent ("if it has already been set to flush it will
 *   continue flushing");
 * - at most 5 contexts per socket (closing ones count until their `is_final`): the 6th is an error and the
 *   socket closes with 1008; so does `inactivity_timeout` (default 20 s) without any message.
 *
 * Audio: `output_format` `ulaw_8000` or `pcm_<rate>` (16-bit little-endian at 8000, 16000, 22050, 24000,
 * 44100 or 48000 Hz), raw, as ElevenLabs produces them. Anything else is refused (400), so a client asking
 * for the wrong format fails here rather than playing noise: unknown formats as ElevenLabs refuses them, and
 * the compressed ones (mp3, opus) and a-law because the stand-in does not produce them.
 */

const PCM_RATES = new Set([8_000, 16_000, 22_050, 24_000, 44_100, 48_000]);

/** The raw format an `output_format` names, or undefined. */
function outputFormat(name: string): AudioFormat | undefined {
  if (name === 'ulaw_8000') return { encoding: 'mulaw', sampleRate: 8_000 };
  const rate = Number(/^pcm_(\d+)$/.exec(name)?.[1]);
  return PCM_RATES.has(rate) ? { encoding: 'linear16', sampleRate: rate } : undefined;
}

const PATH = /^\/v1\/text-to-speech\/([^/]+)\/multi-stream-input$/;
const MAX_CONTEXTS = 5;
const DEFAULT_SCHEDULE_FIRST = 120;

export interface ElevenLabsStandinOptions extends TtsStandinOptions {
  /** Overrides the socket's `inactivity_timeout` (ms), so tests need not wait 20 s. */
  readonly inactivityTimeoutMs?: number;
  /** The final flag's spelling: the multi-context spec's `is_final` (default), or the single-context `isFinal`. */
  readonly finalFlag?: 'is_final' | 'isFinal';
}

interface Context {
  readonly record: ContextRecord;
  readonly player: SegmentPlayer;
  buffer: string;
  closed: boolean;
  scheduleFirst: number;
}

/** Starts the stand-in on 127.0.0.1:0. */
export function startElevenLabsStandin(options: ElevenLabsStandinOptions = {}): Promise<TtsStandin> {
  return startStandinServer(
    'elevenlabs',
    options,
    (url, req) => {
      if (!PATH.test(url.pathname)) return { refuse: { status: 404, body: { detail: { status: 'not_found', message: 'Not found' } } } };
      const key = req.headers['xi-api-key'];
      if (key !== undefined && !keyAccepted(options.apiKey, String(key), 'elevenlabs')) {
        return { refuse: { status: 401, body: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } } } };
      }
      // Unknown voice (in the path) or model: refused before the upgrade, with ElevenLabs' HTTP error body.
      const voiceId = decodeURIComponent(PATH.exec(url.pathname)![1]!);
      if (!isKnown(ELEVENLABS_VOICES, voiceId)) {
        return { refuse: { status: 404, body: { detail: { status: 'voice_not_found', message: `A voice with voice_id ${voiceId} does not exist.` } } } };
      }
      const modelId = url.searchParams.get('model_id') ?? 'eleven_multilingual_v2';
      if (!isKnown(ELEVENLABS_MODELS, modelId)) {
        return { refuse: { status: 400, body: { detail: { status: 'model_not_found', message: `A model with model ID ${modelId} does not exist.` } } } };
      }
      // `language_code` is enforced by Flash and Turbo v2.5 only, and must be one of their languages (a 400
      // "Model '…' does not support language_code '…'.", as probed in pipecat-ai/pipecat#5395); other models
      // take the language from the text and ignore it (ElevenLabs support, livekit/agents#6197).
      const languageCode = url.searchParams.get('language_code');
      if (languageCode !== null && LANGUAGE_CODE_MODELS.has(modelId) && !TTS_LANGUAGES.elevenlabs.languages.has(languageCode)) {
        return { refuse: { status: 400, body: { detail: { message: `Model '${modelId}' does not support language_code '${languageCode}'.` } } } };
      }
      const format = url.searchParams.get('output_format') ?? 'mp3_44100_128';
      if (!outputFormat(format)) {
        return { refuse: { status: 400, body: { detail: { status: 'invalid_output_format', message: `stand-in speaks ulaw_8000 or pcm_<rate>, not ${format}` } } } };
      }
      return {};
    },
    (ws, record, url, standin) => runConnection(ws, record, url, standin, options),
    elevenLabsFault,
  );
}

/** ElevenLabs' answers to a refused request: `detail {status, message}`; no Retry-After is documented. */
function elevenLabsFault(status: number): Refusal {
  if (status === 429) {
    return { status, body: { detail: { status: 'too_many_concurrent_requests', message: 'Too many concurrent requests. Your current subscription is associated with a maximum of 5 concurrent requests.' } } };
  }
  return { status, body: { detail: { status: 'internal_server_error', message: 'An internal server error occurred.' } } };
}

/**
 * The alignment ElevenLabs sends with an audio message: the characters whose audio starts in it, their
 * start times from the message's own start and their durations (`charsDurationsMs`, the API's spelling).
 */
function chunkAlignment(segment: SegmentRecord, chunkBytes: number, format: AudioFormat): Record<string, unknown> | null {
  const perMs = bytesPerMs(format);
  const fromMs = (segment.sentBytes - chunkBytes) / perMs;
  const toMs = segment.sentBytes / perMs;
  const last = segment.sentBytes >= (segment.totalBytes ?? Infinity);
  const timing = charTimings(segment.text, segment.totalBytes ?? 0, format);
  const picked = timing.chars.flatMap((char, i) => {
    const start = timing.startsMs[i]!;
    return start >= fromMs && (start < toMs || last) ? [{ char, start: start - fromMs, duration: timing.durationsMs[i]! }] : [];
  });
  if (picked.length === 0) return null;
  return { chars: picked.map((p) => p.char), charStartTimesMs: picked.map((p) => Math.round(p.start)), charsDurationsMs: picked.map((p) => p.duration) };
}

function runConnection(ws: WebSocket, record: ConnectionRecord, url: URL, standin: TtsStandin, options: ElevenLabsStandinOptions): void {
  const headerAuth = record.headers['xi-api-key'] !== undefined;
  const format = outputFormat(url.searchParams.get('output_format') ?? '')!;
  record.format = format;
  const contexts = new Map<string, Context>();
  const timeoutS = Number(url.searchParams.get('inactivity_timeout') ?? 20);
  const idleMs = options.inactivityTimeoutMs ?? timeoutS * 1000;

  const fail = (error: string, message: string) => {
    sendJson(ws, record, { message, error, code: 1008 });
    ws.close(1008, error);
  };
  // The vendor counts from the last message it received. Here the client and the stand-in may share one
  // process: after a stalled event loop the timer can fire before a message sent in time has been read, so
  // the verdict waits one turn of the loop (setImmediate runs after the socket reads): a message read in that
  // turn re-armed the timer, and only a socket that sent nothing is closed. Counted, not timed: a timer may
  // fire a fraction of a millisecond before performance.now() says its time is up.
  let inputs = 0;
  const timedOut = () => {
    const seen = inputs;
    setImmediate(() => {
      if (inputs === seen) fail('input_timeout_exceeded', `Have not received a new text input within the timeout of ${Math.round(idleMs / 1000)} seconds.`);
    });
  };
  const idle = setTimeout(timedOut, idleMs);
  ws.on('close', () => {
    clearTimeout(idle);
    for (const ctx of contexts.values()) ctx.player.clear();
  });

  const generate = (ctx: Context) => {
    const text = ctx.buffer;
    ctx.buffer = '';
    if (text.trim().length > 0) ctx.player.speak(text, url.searchParams.get('language_code') ?? undefined);
  };

  const close = (id: string, ctx: Context) => {
    if (ctx.closed) return;
    ctx.closed = true;
    ctx.buffer = '';
    ctx.record.cancelledAtMs = performance.now();
    ctx.record.pendingBytesAtCancel = pendingBytes(ctx.record.segments, format);
    ctx.player.then(() => {
      sendJson(ws, record, { [options.finalFlag ?? 'is_final']: true, contextId: id });
      ctx.record.finishedAtMs = performance.now();
      contexts.delete(id);
    });
  };

  const open = (id: string, message: Record<string, unknown>): Context | undefined => {
    if (contexts.size >= MAX_CONTEXTS) {
      fail(
        'max_active_conversations',
        `Maximum simultaneous contexts per WebSocket connection exceeded (${MAX_CONTEXTS}). Please close an existing context before opening a new one.`,
      );
      return undefined;
    }
    if (!headerAuth && !keyAccepted(options.apiKey, typeof message.xi_api_key === 'string' ? message.xi_api_key : undefined, 'elevenlabs')) {
      fail('invalid_api_key', 'Invalid API key');
      return undefined;
    }
    const player = new SegmentPlayer(
      () => standin.script,
      (chunk, segment) => {
        const alignment = chunkAlignment(segment, chunk.length, format);
        sendJson(ws, record, { audio: Buffer.from(chunk).toString('base64'), normalizedAlignment: alignment, alignment, contextId: id }, chunk.length);
      },
      [],
      format,
    );
    // The record's segments are the player's: one list of what was asked and what was sent.
    const contextRecord: ContextRecord = { id, received: [], segments: player.segments };
    record.contexts.set(id, contextRecord);
    const schedule = (message.generation_config as { chunk_length_schedule?: number[] } | undefined)?.chunk_length_schedule;
    const ctx: Context = { record: contextRecord, player, buffer: '', closed: false, scheduleFirst: schedule?.[0] ?? DEFAULT_SCHEDULE_FIRST };
    contexts.set(id, ctx);
    return ctx;
  };

  ws.on('message', (data, isBinary) => {
    inputs += 1;
    idle.refresh();
    const message = receiveJson(data, isBinary, record.received);
    if (!message) {
      fail('invalid_message', 'Messages must be JSON text frames');
      return;
    }
    if (message.close_socket === true) {
      for (const [id, ctx] of contexts) close(id, ctx);
      void Promise.all([...contexts.values()].map((ctx) => ctx.player.whenIdle())).then(() => setImmediate(() => ws.close(1000)));
      return;
    }
    const text = typeof message.text === 'string' ? message.text : undefined;
    const id = typeof message.context_id === 'string' ? message.context_id : undefined;
    // `{text: ""}` without a context: a socket keepalive.
    if (id === undefined && text === '') return;
    const contextId = id ?? '';
    let ctx = contexts.get(contextId);
    ctx?.record.received.push(record.received.at(-1)!);
    if (message.close_context === true) {
      if (ctx) close(contextId, ctx);
      return;
    }
    if (!ctx) {
      // An empty text for an unknown context is a keepalive for nothing.
      if (text === '') return;
      ctx = open(contextId, message);
      if (!ctx) return;
      ctx.record.received.push(record.received.at(-1)!);
    }
    if (ctx.closed) return;
    const tags = text ? ssmlPhonemeProblem(text) : undefined;
    if (tags) {
      fail('invalid_text', tags);
      return;
    }
    if (text) ctx.buffer += ssmlSpokenText(text);
    if (message.flush === true || ctx.buffer.trim().length >= ctx.scheduleFirst) generate(ctx);
  });
}
