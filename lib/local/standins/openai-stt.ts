import { randomBytes } from 'node:crypto';
import { bytesPerMs, type AudioFormat } from '../../vendors/shared/audio-format.js';
import {
  SttEngine,
  SttStandinControl,
  jsonOf,
  startWsStandin,
  type EngineEvent,
  type StandinConnection,
  type SttScript,
  type SttStandin,
} from './stt-engine.js';
import { STT_LANGUAGES } from '../../domain/language-support.js';
import { STT_MODELS, isKnown } from './catalog.js';

/** OpenAI refuses to commit less than 100 ms of audio. */
const MIN_COMMIT_MS = 100;
/**
 * A Realtime session lasts at most 60 minutes, then OpenAI sends an `error` `session_expired` ("Your session
 * hit the maximum duration of 60 minutes.") and closes 1001 with the same words (seen in pollen-robotics/
 * reachy_mini_conversation_app#134 and pipecat-ai/pipecat#3170; 30 minutes before, livekit/agents#2358).
 */
export const OPENAI_SESSION_LIMIT_MS = 60 * 60_000;

export interface OpenAiSttStandinOptions {
  /** The session limit ({@link OPENAI_SESSION_LIMIT_MS}); a test shortens it to see a rotation. */
  readonly sessionLimitMs?: number;
}
/** `audio/pcm` is 16-bit little-endian PCM at this rate only; `audio/pcmu` is G.711 mu-law at 8 kHz. */
const PCM_RATE = 24_000;

/** The engine's view of a session's input format (null: one the stand-in does not decode). */
function audioFormatOf(format: InputConfig['format']): AudioFormat | null {
  if (format.type === 'audio/pcmu') return { encoding: 'mulaw', sampleRate: 8_000 };
  if (format.type === 'audio/pcm') return { encoding: 'linear16', sampleRate: PCM_RATE };
  return null;
}

const id = (prefix: string) => `${prefix}_${randomBytes(11).toString('base64url')}`;

interface TurnDetection {
  type: 'server_vad' | 'semantic_vad';
  threshold?: number;
  prefix_padding_ms?: number;
  silence_duration_ms?: number;
}

interface InputConfig {
  format: { type: string; rate?: number };
  noise_reduction: unknown;
  transcription: { model?: string; language?: string; prompt?: string } | null;
  turn_detection: TurnDetection | null;
}

/**
 * A stand-in for OpenAI Realtime transcription sessions, `GET <base>/realtime?intent=transcription` upgraded:
 * - handshake: `Authorization: Bearer <key>` (401 with OpenAI's error body otherwise); `intent=transcription`
 *   (a `model=` URL would open a conversation session, which this stand-in does not serve: 400);
 * - server: `session.created` first (default session: audio/pcm 24 kHz, server_vad 500 ms), then
 *   `session.updated` answering each `session.update` with the effective configuration;
 * - client: `session.update` (`type: transcription`; input `audio/pcmu`, or `audio/pcm` whose `rate` must
 *   be 24000, as OpenAI's: any other rate is an `invalid_value` error; this stand-in does not decode
 *   `audio/pcma`), decoded for the VAD at the format's rate,
 *   `input_audio_buffer.append` (base64), `.commit` (error `input_audio_buffer_commit_empty` under
 *   100 ms), `.clear`;
 * - with server VAD: `input_audio_buffer.speech_started` at speech onset (minus prefix padding),
 *   `speech_stopped` + `committed` + `conversation.item.added`/`done` after `silence_duration_ms` of
 *   silence; then, after the script's delay, transcription `delta`s (when the script has interim results)
 *   and `completed`. OpenAI transcribes a turn only once it is committed, so there are no deltas during
 *   speech.
 */
export async function startOpenAiSttStandin(script: Partial<SttScript> = {}, options: OpenAiSttStandinOptions = {}): Promise<SttStandin> {
  const sessionLimitMs = options.sessionLimitMs ?? OPENAI_SESSION_LIMIT_MS;
  const control = new SttStandinControl('openai', script);
  const running = await startWsStandin(control, {
    authorize: (req, url) => {
      if (!url.pathname.endsWith('/realtime')) return { status: 404, body: { error: { message: 'Not found', type: 'invalid_request_error', code: null, param: null } } };
      const key = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!control.accepts(key)) {
        return {
          status: 401,
          body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key', param: null } },
        };
      }
      if (url.searchParams.get('intent') !== 'transcription') {
        return { status: 400, body: { error: { message: 'The stand-in serves transcription sessions (intent=transcription) only.', type: 'invalid_request_error', code: null, param: 'intent' } } };
      }
      return undefined;
    },
    onConnection: (connection) => runOpenAiSession(control, connection, sessionLimitMs),
  });
  return { baseUrl: `${running.origin}/v1`, control, stop: running.stop };
}

function runOpenAiSession(control: SttStandinControl, connection: StandinConnection, sessionLimitMs: number): void {
  const sessionId = id('sess');
  const expiresAt = Math.floor((Date.now() + sessionLimitMs) / 1_000);
  const input: InputConfig = {
    format: { type: 'audio/pcm', rate: 24_000 },
    noise_reduction: null,
    transcription: null,
    turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 },
  };
  let engine: SttEngine | undefined;
  let bufferedMs = 0;
  let previousItem: string | null = null;
  /** Item id per engine utterance: assigned at speech start, as the server announces it then. */
  const items = new Map<number, string>();

  const event = (body: Record<string, unknown>) => connection.sendJson({ event_id: id('event'), ...body });
  const session = () => ({ type: 'transcription', object: 'realtime.transcription_session', id: sessionId, expires_at: expiresAt, audio: { input }, include: null });
  const error = (code: string | null, message: string, param: string | null = null) =>
    event({ type: 'error', error: { type: 'invalid_request_error', code, message, param, event_id: null } });
  const itemFor = (utterance: number) => {
    let item = items.get(utterance);
    if (!item) {
      item = id('item');
      items.set(utterance, item);
    }
    return item;
  };
  const commit = (item: string, audioEndMs: number | undefined) => {
    if (audioEndMs !== undefined) event({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: Math.round(audioEndMs), item_id: item });
    event({ type: 'input_audio_buffer.committed', previous_item_id: previousItem, item_id: item });
    const message = { id: item, object: 'realtime.item', type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_audio', transcript: null }] };
    event({ type: 'conversation.item.added', previous_item_id: previousItem, item: message });
    event({ type: 'conversation.item.done', previous_item_id: previousItem, item: message });
    previousItem = item;
    bufferedMs = 0;
  };
  const transcribe = (item: string, e: Extract<EngineEvent, { type: 'final' }>) => {
    const text = e.text;
    if (control.script.interimResults) {
      // Deltas are append-only fragments; words keep their leading space, as gpt-4o-transcribe sends them.
      text.split(/(?=\s)/).forEach((delta) => event({ type: 'conversation.item.input_audio_transcription.delta', item_id: item, content_index: 0, delta }));
    }
    event({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: item,
      content_index: 0,
      transcript: text,
      usage: { type: 'duration', seconds: Math.max(0, (e.endMs - e.startMs) / 1_000) },
    });
  };

  const configure = () => {
    engine?.close();
    const vad = input.turn_detection;
    const serverVad = vad !== null;
    engine = new SttEngine(
      () => control.script,
      {
        endpointingMs: serverVad ? (vad.silence_duration_ms ?? 500) : null,
        utteranceEndMs: null,
        interimResults: false,
        format: audioFormatOf(input.format) ?? undefined,
        // Without a language the model detects it (and says nothing of which it heard).
        language: input.transcription?.language ?? 'detect',
      },
      connection.session.index,
      (e) => {
        switch (e.type) {
          case 'speech_started':
            if (serverVad) event({ type: 'input_audio_buffer.speech_started', audio_start_ms: Math.max(0, Math.round(e.atMs - (vad.prefix_padding_ms ?? 300))), item_id: itemFor(e.utterance) });
            return;
          case 'endpoint':
            commit(itemFor(e.utterance), e.lastVoicedMs);
            return;
          case 'final':
            // A manual commit already announced its item; an empty one never reaches the engine.
            if (e.utterance >= 0) transcribe(itemFor(e.utterance), e);
            return;
          default:
            return;
        }
      },
    );
  };

  event({ type: 'session.created', session: session() });
  const minutes = Math.round(sessionLimitMs / 60_000);
  const expiry = setTimeout(() => {
    const message = `Your session hit the maximum duration of ${minutes} minutes.`;
    event({ type: 'error', error: { type: 'invalid_request_error', code: 'session_expired', message, param: null, event_id: null } });
    connection.close(1001, message);
  }, sessionLimitMs);

  connection.ws.on('message', (data, isBinary) => {
    const m = jsonOf(data, isBinary);
    if (!m) {
      error('invalid_json', 'The server could not parse the message as JSON.');
      return;
    }
    switch (m.type) {
      case 'session.update': {
        const s = m.session as { type?: string; audio?: { input?: Partial<InputConfig> } } | undefined;
        if (s?.type !== 'transcription') {
          error('invalid_value', "Invalid value: session.type must be 'transcription' in a transcription session.", 'session.type');
          return;
        }
        const next = s.audio?.input ?? {};
        if (next.format?.type === 'audio/pcm' && next.format.rate !== undefined && next.format.rate !== PCM_RATE) {
          error('invalid_value', `Invalid value: ${next.format.rate}. Supported values are: ${PCM_RATE}.`, 'session.audio.input.format.rate');
          return;
        }
        if (next.format && !audioFormatOf(next.format)) {
          error('invalid_value', `The stand-in decodes audio/pcmu and audio/pcm, not ${next.format.type}.`, 'session.audio.input.format');
          return;
        }
        const model = next.transcription?.model;
        if (model !== undefined && !isKnown(STT_MODELS.openai, model)) {
          error('invalid_value', `Invalid value: '${model}'. Supported values are: ${STT_MODELS.openai.map((m) => `'${m}'`).join(', ')}.`, 'session.audio.input.transcription.model');
          return;
        }
        // `language` is ISO-639-1 (OpenAI's speech-to-text guide lists the languages it takes).
        const language = next.transcription?.language;
        if (language !== undefined && !STT_LANGUAGES.openai.languages.has(language)) {
          error('invalid_value', `Invalid language '${language}'. Language parameter must be specified in ISO-639-1 format.`, 'session.audio.input.transcription.language');
          return;
        }
        // A format given without a rate takes its default (audio/pcm: 24 kHz).
        if (next.format?.type === 'audio/pcm') next.format = { type: 'audio/pcm', rate: PCM_RATE };
        Object.assign(input, next);
        configure();
        event({ type: 'session.updated', session: session() });
        return;
      }
      case 'input_audio_buffer.append': {
        const format = audioFormatOf(input.format);
        if (!engine || !format) {
          error('invalid_value', 'Configure audio/pcmu or audio/pcm input with session.update before appending audio.', 'audio');
          return;
        }
        const bytes = new Uint8Array(Buffer.from(String(m.audio ?? ''), 'base64'));
        bufferedMs += bytes.length / bytesPerMs(format);
        engine.pushAudio(bytes);
        return;
      }
      case 'input_audio_buffer.commit': {
        if (bufferedMs < MIN_COMMIT_MS) {
          error(
            'input_audio_buffer_commit_empty',
            `Error committing input audio buffer: buffer too small. Expected at least ${MIN_COMMIT_MS}ms of audio, but buffer only has ${bufferedMs.toFixed(2)}ms of audio.`,
          );
          return;
        }
        const current = engine ? [...items.keys()].at(-1) : undefined;
        const pendingUtterance = current !== undefined && items.get(current) !== previousItem ? current : undefined;
        if (pendingUtterance !== undefined) {
          commit(itemFor(pendingUtterance), undefined);
          engine?.finalize();
        } else {
          // Audio without detected speech: OpenAI still makes an item and transcribes it (to nothing).
          const item = id('item');
          commit(item, undefined);
          setTimeout(() => event({ type: 'conversation.item.input_audio_transcription.completed', item_id: item, content_index: 0, transcript: '', usage: { type: 'duration', seconds: 0 } }), control.script.finalDelayMs);
        }
        return;
      }
      case 'input_audio_buffer.clear':
        bufferedMs = 0;
        event({ type: 'input_audio_buffer.cleared' });
        return;
      default:
        error('invalid_value', `Invalid value: '${String(m.type)}'. Supported values are session.update and input_audio_buffer.*.`, 'type');
    }
  });
  connection.ws.on('close', () => {
    clearTimeout(expiry);
    engine?.close();
  });
}
