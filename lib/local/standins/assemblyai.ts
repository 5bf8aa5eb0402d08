import { bytesPerMs, type AudioFormat } from '../../vendors/shared/audio-format.js';
import {
  SttEngine,
  SttStandinControl,
  boolParam,
  intParam,
  jsonOf,
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
import { STT_MODELS, isKnown } from './catalog.js';

/** Universal-Streaming's defaults: end of turn after 400 ms when confident, 1280 ms regardless. */
const DEFAULT_MIN_TURN_SILENCE_MS = 400;
const DEFAULT_MAX_TURN_SILENCE_MS = 1_280;
/** Sessions last at most three hours; `Begin.expires_at` says when. */
const SESSION_LIFETIME_S = 3 * 60 * 60;
/**
 * The one streaming model AssemblyAI documents `SpeechStarted` for: Universal-3 Pro Streaming (its message
 * sequence and `usm-streaming-u3-pro.yml` in AssemblyAI's api-spec repository; `usm-streaming.yml`, the
 * Universal-Streaming models' spec, has no such message). `u3-pro` is its older alias.
 */
const SPEECH_STARTED_MODELS: ReadonlySet<string> = new Set(['u3-rt-pro', 'u3-pro']);

/**
 * A stand-in for AssemblyAI's Universal-Streaming (v3) WebSocket, `/v3/ws`:
 * - handshake: `Authorization: <key>` header or `token` query parameter; a missing or bad credential is
 *   accepted at the HTTP level and closed with 1008 "Unauthorized Connection: ..." (AssemblyAI's
 *   common-errors page, fern/pages/speech-to-text/universal-streaming/common-errors.mdx in its api-spec
 *   repository; the SDK's 4001 belongs to the retired v2 real-time API); parameters
 *   `sample_rate` (required), `encoding` (`pcm_s16le` default, `pcm_mulaw`; anything else closes 3006),
 *   decoded for the VAD at the declared rate, `speech_model` (required: "There is no default model. If you
 *   omit speech_model, the request will fail", assemblyai.com/docs/streaming/universal-streaming; missing or
 *   not one of the catalog's, an `Error` frame `{type, error_code: 3006, error}` and close 3006, as the
 *   service reports validation errors), `min_turn_silence`, `max_turn_silence`, `format_turns`;
 * - server: `Begin {id, expires_at}` first; `SpeechStarted {timestamp}` for Universal-3 Pro only
 *   ({@link SPEECH_STARTED_MODELS}); `Turn` messages (`turn_order`,
 *   `end_of_turn`, `transcript` of finalized words, `words` with `word_is_final`, `utterance`), an extra
 *   formatted `Turn` after the end of turn when `format_turns=true`; `Termination` then close 1000 after
 *   `Terminate`;
 * - client: binary audio of 50-1000 ms per message (otherwise close 3007, as the service does), no faster
 *   than real time (close 3007 "Audio Transmission Rate Exceeded", {@link audioRateCheck});
 *   `ForceEndpoint` ends the current turn now; `KeepAlive`; `UpdateConfiguration`; `Terminate`.
 * End of turn comes at `min_turn_silence` of silence; when the script suppresses endpointing (noise), at
 * `max_turn_silence` instead, which is AssemblyAI's own fallback.
 */
export async function startAssemblyAiStandin(script: Partial<SttScript> = {}): Promise<SttStandin> {
  const control = new SttStandinControl('assemblyai', script);
  const running = await startWsStandin(control, {
    authorize: (_req, url) => (url.pathname === '/v3/ws' ? undefined : { status: 404, body: { error: 'Not Found' } }),
    onConnection: (connection, url) => runAssemblyAiSession(control, connection, url),
  });
  return { baseUrl: `${running.origin.replace(/^http/, 'ws')}/v3/ws`, control, stop: running.stop };
}

function runAssemblyAiSession(control: SttStandinControl, connection: StandinConnection, url: URL): void {
  const q = url.searchParams;
  const key = connection.session.headers.authorization ?? q.get('token') ?? undefined;
  if (!control.accepts(key)) {
    connection.close(1008, key ? 'Unauthorized Connection: Invalid API key' : 'Unauthorized Connection: Missing Authorization header');
    return;
  }
  const sampleRate = intParam(q.get('sample_rate'), 0);
  if (sampleRate <= 0) {
    connection.close(4000, 'Sample rate must be a positive integer');
    return;
  }
  const speechModel = q.get('speech_model');
  if (speechModel === null || !isKnown(STT_MODELS.assemblyai, speechModel)) {
    // Parameters are validated after the upgrade: an `Error` frame, then the close with the same code.
    const message = speechModel === null
      ? 'Input validation error: speech_model is required'
      : `Input validation error: speech_model must be one of ${STT_MODELS.assemblyai.join(', ')}`;
    connection.sendJson({ type: 'Error', error_code: 3006, error: message });
    // A close reason holds at most 123 bytes (RFC 6455); the Error frame carries the whole message.
    connection.close(3006, message.slice(0, 123));
    return;
  }
  const encoding = q.get('encoding') ?? 'pcm_s16le';
  if (encoding !== 'pcm_mulaw' && encoding !== 'pcm_s16le') {
    connection.close(3006, `Input validation error: encoding must be one of pcm_s16le, pcm_mulaw, not ${encoding}`);
    return;
  }
  // Both encodings at the declared rate, as the service takes them (it resamples internally).
  const format: AudioFormat = { encoding: encoding === 'pcm_mulaw' ? 'mulaw' : 'linear16', sampleRate };
  const audioBytesPerMs = bytesPerMs(format);
  let minTurnSilence = intParam(q.get('min_turn_silence') ?? q.get('min_end_of_turn_silence_when_confident'), DEFAULT_MIN_TURN_SILENCE_MS);
  let maxTurnSilence = intParam(q.get('max_turn_silence'), DEFAULT_MAX_TURN_SILENCE_MS);
  const formatTurns = boolParam(q.get('format_turns'), false);
  const startedAt = Date.now();
  let turnOrder = 0;
  let terminating = false;
  /** Turns that already ended, so a later utterance-end for them says nothing. */
  const endedTurns = new Set<number>();
  /** Words of turns left open by suppressed endpointing, for the end of turn at max_turn_silence. */
  const openTurnWords = new Map<number, readonly TimedWord[]>();

  const turnWords = (ws: readonly TimedWord[], allFinal: boolean) =>
    ws.map((w, i) => ({ start: w.startMs, end: w.endMs, text: w.word, confidence: 0.99, word_is_final: allFinal || i < ws.length - 1 }));
  // Universal-Streaming English hears English; Multilingual hears its six languages, and with
  // `language_detection=true` an ended turn names its `language_code` and `language_confidence`
  // (assemblyai.com/docs/streaming/universal-streaming/multilingual-transcription).
  const multilingual = speechModel === 'universal-streaming-multilingual';
  const detection = multilingual && boolParam(q.get('language_detection'), false);
  const turn = (order: number, words: readonly TimedWord[], endOfTurn: boolean, allFinal: boolean, formatted?: string, language?: string) => {
    const finalWords = turnWords(words, allFinal).filter((w) => w.word_is_final);
    const transcript = formatted ?? finalWords.map((w) => w.text).join(' ');
    return {
      turn_order: order,
      turn_is_formatted: formatted !== undefined,
      end_of_turn: endOfTurn,
      transcript,
      end_of_turn_confidence: endOfTurn ? 0.93 : 0.02,
      words: turnWords(words, allFinal),
      utterance: allFinal ? normalizeTranscript(transcript) : '',
      ...(detection && endOfTurn && language && { language_code: language, language_confidence: 0.97 }),
      type: 'Turn',
    };
  };
  const orderOf = (utterance: number) => (utterance < 0 ? turnOrder : utterance);

  const endTurn = (e: Extract<EngineEvent, { type: 'final' }>) => {
    const order = orderOf(e.utterance);
    if (endedTurns.has(order)) return;
    endedTurns.add(order);
    if (e.utterance >= 0) turnOrder = e.utterance + 1;
    connection.sendJson(turn(order, e.words, true, true, undefined, e.language));
    if (formatTurns) connection.sendJson(turn(order, e.words, true, true, e.text, e.language));
  };

  const params = () => ({ endpointingMs: minTurnSilence, utteranceEndMs: maxTurnSilence, interimResults: true, format, language: multilingual ? 'detect' : 'en' });
  const engine = new SttEngine(() => control.script, params, connection.session.index, (e) => {
    switch (e.type) {
      case 'speech_started':
        if (SPEECH_STARTED_MODELS.has(speechModel)) connection.sendJson({ type: 'SpeechStarted', timestamp: Math.round(e.atMs) });
        return;
      case 'interim':
        connection.sendJson(turn(orderOf(e.utterance), e.words, false, false));
        return;
      case 'final':
        if (e.utterance < 0) return; // ForceEndpoint with nothing heard ends nothing.
        if (e.reason === 'endpointing' && !e.speechFinal) {
          // Endpointing suppressed (noise): every word is final, the turn stays open until max_turn_silence.
          openTurnWords.set(e.utterance, e.words);
          connection.sendJson(turn(e.utterance, e.words, false, true));
          return;
        }
        endTurn(e);
        return;
      case 'utterance_end': {
        const order = e.utterance;
        if (endedTurns.has(order)) return;
        // max_turn_silence reached: AssemblyAI ends the turn whatever the model's confidence.
        endedTurns.add(order);
        turnOrder = order + 1;
        connection.sendJson(turn(order, openTurnWords.get(order) ?? [], true, true));
        openTurnWords.delete(order);
        return;
      }
      case 'endpoint':
        return;
    }
  });

  connection.sendJson({ type: 'Begin', id: newId(), expires_at: Math.floor(startedAt / 1_000) + SESSION_LIFETIME_S });
  const tooFast = audioRateCheck(performance.now());

  connection.ws.on('message', (data, isBinary) => {
    if (terminating) return;
    if (isBinary) {
      const bytes = toBytes(data);
      const ms = bytes.length / audioBytesPerMs;
      if (ms < 50 || ms > 1_000) {
        connection.close(3007, `Input duration violation: ${ms.toFixed(1)} ms. Expected between 50 and 1000 ms.`);
        return;
      }
      const rate = tooFast(ms, performance.now());
      if (rate) {
        connection.close(3007, rate);
        return;
      }
      engine.pushAudio(bytes);
      return;
    }
    const message = jsonOf(data, isBinary);
    switch (message?.type) {
      case 'KeepAlive':
        return;
      case 'ForceEndpoint':
        engine.finalize();
        return;
      case 'UpdateConfiguration':
        // Applies to turns that start afterwards, as the service documents.
        if (typeof message.min_turn_silence === 'number') minTurnSilence = message.min_turn_silence;
        if (typeof message.max_turn_silence === 'number') maxTurnSilence = message.max_turn_silence;
        return;
      case 'Terminate':
        terminating = true;
        void engine.flush().then(() => {
          const audioSeconds = engine.receivedMs / 1_000;
          connection.sendJson({ type: 'Termination', audio_duration_seconds: Math.round(audioSeconds), session_duration_seconds: Math.round((Date.now() - startedAt) / 1_000) });
          connection.close(1000, '');
        });
        return;
      default:
        connection.close(3006, 'Input validation error: unknown message');
    }
  });
  connection.ws.on('close', () => engine.close());
}

/**
 * AssemblyAI closes a session whose audio arrives faster than real time: 3007 "Audio Transmission Rate
 * Exceeded: Received <time> sec. audio in <time> sec" (its common-errors page). AssemblyAI documents no
 * burst allowance, so none is modelled: a message may arrive once the audio before it has been heard in
 * real time since the session began, i.e. a real-time source that starts when the session does (it sends
 * each message when its first sample is due, or later) always passes, and a replayed backlog sent in one
 * burst does not. Returns the close reason for a message of `ms` that came too early, else undefined.
 */
export function audioRateCheck(startedAtMs: number): (ms: number, nowMs: number) => string | undefined {
  let receivedMs = 0;
  return (ms, nowMs) => {
    const elapsedMs = nowMs - startedAtMs;
    const before = receivedMs;
    receivedMs += ms;
    if (before <= elapsedMs) return undefined;
    return `Audio Transmission Rate Exceeded: Received ${(receivedMs / 1_000).toFixed(2)} sec. audio in ${(elapsedMs / 1_000).toFixed(2)} sec`;
  };
}
