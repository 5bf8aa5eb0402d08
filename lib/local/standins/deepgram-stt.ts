import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AudioFormat } from '../../vendors/shared/audio-format.js';
import {
  SttEngine,
  SttStandinControl,
  boolParam,
  intParam,
  newId,
  normalizeTranscript,
  startWsStandin,
  toBytes,
  type EngineEvent,
  type StandinConnection,
  type SttScript,
  type SttStandin,
  type TimedWord,
} from './stt-engine.js';
import { primarySubtag, STT_LANGUAGES } from '../../domain/language-support.js';
import { STT_MODELS, isKnown } from './catalog.js';
import { deepgramFault } from './deepgram-tts.js';

/** Deepgram's default endpointing when the request does not set it. */
const DEFAULT_ENDPOINTING_MS = 10;

const MODEL_INFO = { name: '2-general-nova', version: '2024-01-09.29447', arch: 'nova-3' } as const;
const MODEL_UUID = '1dbdfb4d-85b2-4659-9831-16b3c76229aa';

/**
 * A stand-in for Deepgram's live transcription endpoint, `GET /v1/listen` upgraded to a WebSocket, as the
 * `@deepgram/sdk` client uses it:
 * - handshake: `Authorization: Token <key>` (401 with Deepgram's error body otherwise), query parameters
 *   `model`, `language`, `encoding` (`mulaw` or `linear16`, decoded for the VAD at the declared `sample_rate`,
 *   which raw audio requires, 400 otherwise), `sample_rate`, `channels`, `interim_results`, `endpointing`
 *   (milliseconds or `false`; Deepgram's default is 10), `utterance_end_ms`, `vad_events`, `smart_format`,
 *   `punctuate`; a `dg-request-id` response header;
 * - client frames: binary audio; `{"type":"KeepAlive"}`, `{"type":"Finalize"}` (answered by results with
 *   `from_finalize: true`), `{"type":"CloseStream"}` (last results, then `Metadata`, then close 1000);
 *   anything else closes 1008 (DATA-0000); 10 s with nothing closes 1011 (NET-0001), and KeepAlive counts only
 *   once the socket has had audio;
 * - server messages: `SpeechStarted` (only with `vad_events=true`), `Results` (interims only with
 *   `interim_results=true`; `is_final`, `speech_final`, `from_finalize`), `UtteranceEnd` (only with
 *   `utterance_end_ms` and interim results), `Metadata`.
 */
export async function startDeepgramSttStandin(script: Partial<SttScript> = {}): Promise<SttStandin> {
  const control = new SttStandinControl('deepgram', script);
  const running = await startWsStandin(control, {
    authorize: (req, url) => {
      if (url.pathname !== '/v1/listen') return { status: 404, body: { err_code: 'NOT_FOUND', err_msg: 'Not found.' } };
      const auth = req.headers.authorization ?? '';
      const key = /^Token (.+)$/i.exec(auth)?.[1];
      if (!control.accepts(key)) {
        return { status: 401, body: { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.', request_id: newId() }, headers: { 'dg-error': 'Invalid credentials.' } };
      }
      const model = url.searchParams.get('model') ?? 'base';
      if (!isKnown(STT_MODELS.deepgram, model) || !deepgramHears(model, url.searchParams.get('language') ?? 'en')) {
        const message = 'No such model/language/tier combination found.';
        return { status: 400, body: { err_code: 'INVALID_QUERY_PARAMETER', err_msg: message, request_id: newId() }, headers: { 'dg-error': message } };
      }
      const encoding = url.searchParams.get('encoding');
      if (encoding && !url.searchParams.get('sample_rate')) {
        return { status: 400, body: { err_code: 'Bad Request', err_msg: 'Bad Request: sample_rate must be specified for raw audio encodings.', request_id: newId() } };
      }
      const rate = url.searchParams.get('sample_rate');
      if (encoding && (!/^\d+$/.test(rate ?? '') || Number(rate) < 8_000 || Number(rate) > 48_000)) {
        return { status: 400, body: { err_code: 'Bad Request', err_msg: `Bad Request: sample_rate ${rate} is not supported.`, request_id: newId() } };
      }
      if (encoding && encoding !== 'mulaw' && encoding !== 'linear16') {
        // The stand-in hears only what Twilio sends; a real Deepgram accepts more, but nothing here sends it.
        return { status: 400, body: { err_code: 'Bad Request', err_msg: `Bad Request: the stand-in decodes mulaw and linear16, not ${encoding}.`, request_id: newId() } };
      }
      return undefined;
    },
    fault: deepgramFault,
    handshakeHeaders: () => ({ 'dg-request-id': newId() }),
    onConnection: (connection, url, req) => runDeepgramSession(control, connection, url, req),
  });
  return { baseUrl: running.origin, control, stop: running.stop };
}

/**
 * Whether Deepgram serves `model` in `language`, as its Models & Languages overview lists them: Nova-3 in
 * its monolingual languages (a language alone, or one of its listed regional codes) and `multi`; Nova-2 in
 * its own list (`multi` being its Spanish/English code-switching); the older models in English. Anything
 * else Deepgram answers 400 "No such model/language/tier combination found.".
 */
function deepgramHears(model: string, language: string): boolean {
  const family = model.startsWith('nova-3') ? 'nova-3' : model.startsWith('nova-2') ? 'nova-2' : 'older';
  if (language === 'multi') return family !== 'older';
  const [primary, region] = language.split('-');
  if (family === 'older') return primary === 'en';
  const known = family === 'nova-3' ? STT_LANGUAGES.deepgram.languages : NOVA_2_LANGUAGES;
  if (!known.has(primary!)) return false;
  return region === undefined || DEEPGRAM_REGIONAL.has(language);
}

/** Nova-2's languages (developers.deepgram.com/docs/models-languages-overview, Nova-2). */
const NOVA_2_LANGUAGES = new Set('bg ca zh cs da nl en et fi fr de el hi hu id it ja ko lv lt ms no pl pt ro ru sk es sv th tr uk vi'.split(' '));
/** Regional codes Deepgram lists beside the bare languages. */
const DEEPGRAM_REGIONAL = new Set(['en-US', 'en-GB', 'en-AU', 'en-NZ', 'en-IN', 'en-CA', 'es-419', 'fr-CA', 'pt-BR', 'pt-PT', 'de-CH', 'nl-BE', 'sv-SE', 'da-DK', 'ko-KR', 'zh-CN', 'zh-TW', 'zh-HK', 'zh-Hans', 'zh-Hant']);

function runDeepgramSession(control: SttStandinControl, connection: StandinConnection, url: URL, _req: IncomingMessage): void {
  const q = url.searchParams;
  const requestId = newId();
  const interim = boolParam(q.get('interim_results'), false);
  const vadEvents = boolParam(q.get('vad_events'), false);
  const formatted = boolParam(q.get('smart_format'), false) || boolParam(q.get('punctuate'), false);
  const endpointingRaw = q.get('endpointing');
  const endpointingMs = endpointingRaw === 'false' ? null : intParam(endpointingRaw, DEFAULT_ENDPOINTING_MS);
  const utteranceEndMs = q.get('utterance_end_ms') && interim ? intParam(q.get('utterance_end_ms'), 1_000) : null;
  // Without `encoding` Deepgram sniffs a container; every client here sends raw audio, so that is mu-law 8 kHz.
  const format: AudioFormat = q.get('encoding') === 'linear16'
    ? { encoding: 'linear16', sampleRate: intParam(q.get('sample_rate'), 16_000) }
    : { encoding: 'mulaw', sampleRate: intParam(q.get('sample_rate'), 8_000) };
  const startedAt = Date.now();
  let closing = false;

  const text = (t: string) => (formatted ? t : normalizeTranscript(t));
  // `language=multi` (Nova-3 Multilingual): each word's `language`, and the alternative's `languages`.
  const language = q.get('language') ?? 'en';
  const multi = language === 'multi';
  const words = (ws: readonly TimedWord[], lang: string | undefined) =>
    ws.map((w) => ({ word: w.word, start: w.startMs / 1_000, end: w.endMs / 1_000, confidence: 0.99, ...(formatted && { punctuated_word: w.punctuated }), ...(multi && lang && { language: lang }) }));
  const results = (e: Extract<EngineEvent, { type: 'interim' | 'final' }>, isFinal: boolean, speechFinal: boolean, fromFinalize: boolean) => ({
    type: 'Results',
    channel_index: [0, 1],
    duration: (e.endMs - e.startMs) / 1_000,
    start: e.startMs / 1_000,
    is_final: isFinal,
    speech_final: speechFinal,
    ...(fromFinalize && { from_finalize: true }),
    channel: { alternatives: [{ transcript: text(e.text), confidence: e.text ? 0.99 : 0, words: words(e.words, e.language), ...(multi && e.language && e.text && { languages: [e.language] }) }] },
    metadata: { request_id: requestId, model_info: MODEL_INFO, model_uuid: MODEL_UUID },
  });

  const engine = new SttEngine(() => control.script, { endpointingMs, utteranceEndMs, interimResults: interim, format, language: multi ? 'detect' : primarySubtag(language) }, connection.session.index, (e) => {
    switch (e.type) {
      case 'speech_started':
        if (vadEvents) connection.sendJson({ type: 'SpeechStarted', channel: [0], timestamp: e.atMs / 1_000 });
        return;
      case 'interim':
        connection.sendJson(results(e, false, false, false));
        return;
      case 'final':
        connection.sendJson(results(e, true, e.speechFinal, e.reason === 'finalize'));
        return;
      case 'utterance_end':
        connection.sendJson({ type: 'UtteranceEnd', channel: [0, 1], last_word_end: e.lastWordEndMs / 1_000 });
        return;
      case 'endpoint':
        return;
    }
  });

  // Deepgram closes a socket without audio or a message for 10 s (NET-0001; `idleTimeoutMs`). Checked a
  // few times per timeout rather than re-armed per packet: 50 packets a second per call add up in a benchmark.
  let lastActivity = Date.now();
  const idleMs = control.script.idleTimeoutMs;
  const idle = setInterval(() => {
    if (Date.now() - lastActivity >= idleMs) connection.close(1011, 'NET-0001');
  }, Math.min(1_000, idleMs / 4));
  const hash = createHash('sha256');

  /**
   * KeepAlive holds a socket open only once it has had audio: a socket sent nothing but KeepAlive still
   * closes (deepgram/deepgram-dotnet-sdk#133: "Connect but don't send bytes and wait (with the keep alive
   * working)" is closed; Deepgram's KeepAlive page is about silence "while streaming audio").
   */
  let heardAudio = false;

  connection.ws.on('message', (data, isBinary) => {
    if (closing) return;
    const bytes = Buffer.from(toBytes(data));
    const keepAlive = !isBinary && /"type"\s*:\s*"KeepAlive"/.test(bytes.toString('utf8'));
    if (isBinary) heardAudio = true;
    if (heardAudio || !keepAlive) lastActivity = Date.now();
    if (isBinary) {
      hash.update(bytes);
      engine.pushAudio(bytes);
      return;
    }
    let message: { type?: unknown } | undefined;
    try {
      message = JSON.parse(bytes.toString('utf8')) as { type?: unknown };
    } catch {
      message = undefined;
    }
    switch (message?.type) {
      case 'KeepAlive':
        return;
      case 'Finalize':
        engine.finalize();
        return;
      case 'CloseStream':
        closing = true;
        clearInterval(idle);
        void engine.flush().then(() => {
          connection.sendJson({
            type: 'Metadata',
            transaction_key: 'deprecated',
            request_id: requestId,
            sha256: hash.digest('hex'),
            created: new Date(startedAt).toISOString(),
            duration: engine.receivedMs / 1_000,
            channels: 1,
            models: [MODEL_UUID],
            model_info: { [MODEL_UUID]: MODEL_INFO },
          });
          connection.close(1000, '');
        });
        return;
      default:
        connection.close(1008, 'DATA-0000');
    }
  });
  connection.ws.on('close', () => {
    clearInterval(idle);
    engine.close();
  });
}
