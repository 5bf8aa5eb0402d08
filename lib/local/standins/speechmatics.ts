import { standinAccountHolds } from './accounts.js';
import { randomBytes } from 'node:crypto';
import type { AudioFormat } from '../../vendors/shared/audio-format.js';
import {
  SttEngine,
  SttStandinControl,
  jsonOf,
  newId,
  startWsStandin,
  toBytes,
  type EngineEvent,
  type StandinConnection,
  type SttScript,
  type SttStandin,
  type TimedWord,
} from './stt-engine.js';
import { STT_MODELS, isKnown } from './catalog.js';

/**
 * Languages Speechmatics' real-time service transcribes (its language list, ISO 639-1 and its own codes such
 * as `cmn` and `yue`); `auto` asks it to identify the language.
 */
const LANGUAGES = new Set([
  'auto', 'ar', 'ba', 'eu', 'be', 'bn', 'bg', 'yue', 'ca', 'hr', 'cs', 'da', 'nl', 'en', 'eo', 'et', 'fi', 'fr', 'gl',
  'de', 'el', 'he', 'hi', 'hu', 'id', 'ia', 'ga', 'it', 'ja', 'ko', 'lv', 'lt', 'ms', 'mt', 'cmn', 'mr', 'mn', 'no',
  'fa', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'es', 'sw', 'sv', 'tl', 'ta', 'th', 'tr', 'uk', 'ur', 'ug', 'vi', 'cy',
]);

/** A Speechmatics stand-in also serves the temporary-key endpoint, so it exposes both URLs. */
export interface SpeechmaticsStandin extends SttStandin {
  /** The value for SPEECHMATICS_AUTH_URL. */
  readonly authUrl: string;
}

/** The service's default when the request sets no max_delay; finals without EndOfUtterance come this late. */
const DEFAULT_MAX_DELAY_S = 0.7;
const OUTPUT_FORMAT = '2.9';

/**
 * A stand-in for Speechmatics real-time v2 and the management platform's temporary keys:
 * - `POST /v1/api_keys?type=rt` with `Authorization: Bearer <api key>` and `{ttl}` -> 201 `{apikey_id,
 *   key_value}` (403 for a bad key), as `@speechmatics/auth` expects;
 * - WebSocket `/v2` authenticated by `?jwt=<temporary key>` (or `Authorization: Bearer <api key>`,
 *   Speechmatics' server-side form); 401 on the handshake otherwise;
 * - protocol: `StartRecognition` first (audio_format raw `mulaw` or `pcm_s16le` at its `sample_rate`, decoded
 *   for the VAD at that rate; otherwise `Error invalid_audio_type`, transcription_config
 *   with language (one Speechmatics transcribes, else `Error invalid_language`), model or operating_point
 *   (`standard`, `enhanced`, `melia-1`, else `Error invalid_model`), enable_partials, max_delay,
 *   conversation_config.end_of_utterance_silence_trigger) ->
 *   `RecognitionStarted` and an `Info` (recognition_quality: telephony); each binary message ->
 *   `AudioAdded {seq_no}`; `AddPartialTranscript` / `AddTranscript` (format 2.9, metadata, word and
 *   punctuation results); `EndOfUtterance` after the configured silence or a `ForceEndOfUtterance`;
 *   `EndOfStream {last_seq_no}` -> last finals, `EndOfTranscript`, close 1000. A protocol violation answers
 *   `Error {type, reason}` and closes.
 */
export async function startSpeechmaticsStandin(script: Partial<SttScript> = {}): Promise<SpeechmaticsStandin> {
  const control = new SttStandinControl('speechmatics', script);
  const tempKeys = new Map<string, number>();
  const running = await startWsStandin(control, {
    http: (req, url, body) => {
      if (req.method !== 'POST' || url.pathname !== '/v1/api_keys') return { status: 404, body: { code: 404, error: 'Not Found' } };
      const key = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      // Strict, from the account books: this request is also how a key is tested (docs/provider-keys.md).
      if (!standinAccountHolds('speechmatics', key)) return { status: 403, body: { code: 403, error: 'Forbidden' } };
      if (url.searchParams.get('type') !== 'rt' && url.searchParams.get('type') !== 'batch') {
        return { status: 422, body: { code: 422, message: 'type must be rt, batch or flow' } };
      }
      let ttl = 60;
      try {
        const parsed = JSON.parse(body || '{}') as { ttl?: unknown };
        if (typeof parsed.ttl === 'number' && parsed.ttl > 0) ttl = parsed.ttl;
      } catch {
        return { status: 422, body: { code: 422, message: 'body must be JSON' } };
      }
      const keyValue = randomBytes(24).toString('base64url');
      tempKeys.set(keyValue, Date.now() + ttl * 1_000);
      return { status: 201, body: { apikey_id: newId(), key_value: keyValue } };
    },
    authorize: (req, url) => {
      if (url.pathname.replace(/\/+$/, '') !== '/v2') return { status: 404, body: { message: 'Not Found' } };
      const jwt = url.searchParams.get('jwt');
      const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const jwtValid = jwt !== null && (tempKeys.get(jwt) ?? 0) > Date.now();
      if (!jwtValid && !(bearer && control.accepts(bearer))) return { status: 401, body: { message: 'Unauthorized' } };
      return undefined;
    },
    onConnection: (connection) => runSpeechmaticsSession(control, connection),
  });
  const ws = running.origin.replace(/^http/, 'ws');
  return { baseUrl: `${ws}/v2`, authUrl: `${running.origin}/v1`, control, stop: running.stop };
}

interface StartRecognition {
  message: 'StartRecognition';
  audio_format?: { type?: string; encoding?: string; sample_rate?: number };
  transcription_config?: {
    language?: string;
    model?: string;
    operating_point?: string;
    enable_partials?: boolean;
    max_delay?: number;
    conversation_config?: { end_of_utterance_silence_trigger?: number };
  };
}

function runSpeechmaticsSession(control: SttStandinControl, connection: StandinConnection): void {
  let engine: SttEngine | undefined;
  let seqNo = 0;
  let ending = false;
  /** Whether EndOfUtterance is on (a silence trigger above 0 was configured). */
  let endOfUtterance = false;

  const error = (type: string, reason: string) => {
    connection.sendJson({ message: 'Error', type, reason });
    connection.close(1011, reason);
  };
  // Every result's alternative names its `language`: the configured one, or with `auto` the identified one.
  const results = (words: readonly TimedWord[], withPunctuation: boolean, language: string) =>
    words.flatMap((w) => {
      const content = withPunctuation ? w.punctuated.replace(/[.,!?;:]+$/, '') : w.word;
      const word = { type: 'word', start_time: w.startMs / 1_000, end_time: w.endMs / 1_000, alternatives: [{ content, confidence: 0.99, language }] };
      const mark = withPunctuation ? /([.,!?;:])$/.exec(w.punctuated)?.[1] : undefined;
      if (!mark) return [word];
      const punct = {
        type: 'punctuation',
        start_time: w.endMs / 1_000,
        end_time: w.endMs / 1_000,
        attaches_to: 'previous',
        is_eos: mark === '.' || mark === '!' || mark === '?',
        alternatives: [{ content: mark, confidence: 1, language }],
      };
      return [word, punct];
    });
  const transcriptOf = (words: readonly TimedWord[], withPunctuation: boolean) =>
    words.length ? `${words.map((w) => (withPunctuation ? w.punctuated : w.word)).join(' ')} ` : '';
  const add = (message: 'AddPartialTranscript' | 'AddTranscript', e: Extract<EngineEvent, { type: 'interim' | 'final' }>) => {
    // Partials are rough and unpunctuated; finals carry the written form.
    const punctuate = message === 'AddTranscript';
    connection.sendJson({
      message,
      format: OUTPUT_FORMAT,
      metadata: { start_time: e.startMs / 1_000, end_time: e.endMs / 1_000, transcript: transcriptOf(e.words, punctuate) },
      results: results(e.words, punctuate, e.language ?? 'en'),
    });
  };

  const start = (m: StartRecognition) => {
    const format = m.audio_format ?? {};
    const config = m.transcription_config ?? {};
    if (format.type !== 'raw' || (format.encoding !== 'mulaw' && format.encoding !== 'pcm_s16le')) {
      // The service also takes pcm_f32le and files; the stand-in decodes what our transports carry.
      return error('invalid_audio_type', 'the stand-in accepts raw mulaw or pcm_s16le audio');
    }
    const rate = format.sample_rate;
    if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 8_000 || rate > 48_000) {
      return error('invalid_audio_type', `sample_rate ${String(rate)} is not supported`);
    }
    if (!config.language) return error('invalid_config', 'transcription_config.language is required');
    if (!LANGUAGES.has(config.language)) return error('invalid_language', `language not supported: ${config.language}`);
    // `model` (and the older `operating_point` it replaced) must name one of the service's models.
    const model = config.model ?? config.operating_point;
    if (model !== undefined && !isKnown(STT_MODELS.speechmatics, model)) return error('invalid_model', `model not supported: ${model}`);
    const audio: AudioFormat = { encoding: format.encoding === 'mulaw' ? 'mulaw' : 'linear16', sampleRate: rate };
    const trigger = config.conversation_config?.end_of_utterance_silence_trigger ?? 0;
    if (trigger < 0 || trigger > 2) return error('invalid_config', 'end_of_utterance_silence_trigger must be between 0 and 2');
    endOfUtterance = trigger > 0;
    const silenceMs = Math.round((endOfUtterance ? trigger : (config.max_delay ?? DEFAULT_MAX_DELAY_S)) * 1_000);
    engine = new SttEngine(
      () => control.script,
      { endpointingMs: silenceMs, utteranceEndMs: null, interimResults: config.enable_partials === true, format: audio, language: config.language === 'auto' ? 'detect' : config.language },
      connection.session.index,
      (e) => {
        switch (e.type) {
          case 'interim':
            add('AddPartialTranscript', e);
            return;
          case 'final':
            if (e.words.length) add('AddTranscript', e);
            // Noise that keeps endpointing from firing keeps EndOfUtterance away too; a forced one always comes.
            if (endOfUtterance && (e.speechFinal || e.reason === 'finalize')) {
              connection.sendJson({ message: 'EndOfUtterance', metadata: { start_time: e.endMs / 1_000, end_time: e.endMs / 1_000 } });
            }
            return;
          default:
            return;
        }
      },
    );
    connection.sendJson({
      message: 'RecognitionStarted',
      orchestrator_version: '2024.12.26085+a0a32e61ad.HEAD',
      id: newId(),
      language_pack_info: { adapted: false, itn: true, language_description: 'English', word_delimiter: ' ', writing_direction: 'left-to-right' },
    });
    connection.sendJson({ message: 'Info', type: 'recognition_quality', quality: 'telephony', reason: 'Running recognition using a telephony model' });
  };

  connection.ws.on('message', (data, isBinary) => {
    if (ending) return;
    if (isBinary) {
      if (!engine) return error('protocol_error', 'audio before StartRecognition');
      engine.pushAudio(toBytes(data));
      seqNo += 1;
      connection.sendJson({ message: 'AudioAdded', seq_no: seqNo });
      return;
    }
    const m = jsonOf(data, isBinary);
    switch (m?.message) {
      case 'StartRecognition':
        if (engine) return error('protocol_error', 'StartRecognition sent twice');
        start(m as unknown as StartRecognition);
        return;
      case 'ForceEndOfUtterance':
        engine?.finalize();
        return;
      case 'SetRecognitionConfig':
        return;
      case 'EndOfStream':
        if (!engine) return error('protocol_error', 'EndOfStream before StartRecognition');
        ending = true;
        void engine.flush().then(() => {
          connection.sendJson({ message: 'EndOfTranscript' });
          connection.close(1000, '');
        });
        return;
      default:
        error('invalid_message', 'unknown message');
    }
  });
  connection.ws.on('close', () => engine?.close());
}
