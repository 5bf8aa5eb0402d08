import { RealtimeClient, type Model, type RealtimeServerMessage } from '@speechmatics/real-time-client';
import { VendorError, isRetryableStatus } from '../shared/errors.js';
import { formatOf } from '../shared/pcm.js';
import { joinUrl, now, primaryLanguage, toVendorError, toWebSocketUrl, type SttConnection, type SttConnector, type SttSink } from './base.js';
import type { SttOptions, VendorEndpoint } from './port.js';

/** Speechmatics' EU real-time endpoint, the client's own default (`url` option). */
export const SPEECHMATICS_DEFAULT_BASE_URL = 'wss://eu2.rt.speechmatics.com/v2';
/** The management platform that issues temporary keys (what `@speechmatics/auth` calls). */
export const SPEECHMATICS_DEFAULT_AUTH_URL = 'https://mp.speechmatics.com/v1';

/** Where the Speechmatics adapter connects: the real-time socket and the temporary-key endpoint. */
export interface SpeechmaticsEndpoint extends VendorEndpoint {
  readonly authUrl: string;
}

/**
 * A temporary key lives long enough to open one session (the session then runs on); a minute covers a slow
 * handshake and retries.
 */
const TEMP_KEY_TTL_S = 60;
/** Lowest latency the enhanced model allows between a word and its final. */
const MAX_DELAY_S = 0.7;

/** Speechmatics' model names; anything else gets `enhanced`, the accurate one. */
const MODELS = new Set<string>(['standard', 'enhanced', 'melia-1']);

/** Speechmatics' names for our encodings (`audio_format.encoding`). */
const ENCODINGS = { mulaw: 'mulaw', linear16: 'pcm_s16le' } as const;

/** Error types after which the same request would fail again. */
const PERMANENT_ERRORS = new Set(['invalid_message', 'invalid_model', 'invalid_language', 'invalid_config', 'invalid_audio_type', 'invalid_output_format', 'not_authorised', 'not_allowed', 'protocol_error']);

/** The client's socket is private; aborting a connect or dropping a stream needs it. */
function clientSocket(client: RealtimeClient): { terminate(): void } | undefined {
  return (client as unknown as { socket?: { terminate(): void } }).socket;
}

/**
 * Fetches a temporary real-time key, as `@speechmatics/auth`'s `createSpeechmaticsJWT` does: the official
 * client authenticates only with such a key in the `jwt` query parameter.
 */
async function temporaryKey(endpoint: SpeechmaticsEndpoint, signal: AbortSignal): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`${joinUrl(endpoint.authUrl, 'api_keys')}?type=rt`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${endpoint.apiKey}` },
      body: JSON.stringify({ ttl: TEMP_KEY_TTL_S }),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new VendorError('speechmatics', `temporary key request failed: ${(error as Error).message}`, true, undefined, { cause: error });
  }
  if (!response.ok) {
    throw new VendorError('speechmatics', `temporary key refused (${response.status})`, isRetryableStatus(response.status), response.status);
  }
  const body = (await response.json()) as { key_value?: unknown };
  if (typeof body.key_value !== 'string') throw new VendorError('speechmatics', 'temporary key response had no key_value', true);
  return body.key_value;
}

/**
 * Speechmatics real-time transcription through the official `@speechmatics/real-time-client`.
 *
 * - Base URL: the client's `url` option (`wss://eu2.rt.speechmatics.com/v2`, or a stand-in's); temporary
 *   keys come from `authUrl` (`SPEECHMATICS_AUTH_URL`), because the client authenticates only with a
 *   temporary key in the `jwt` query parameter. One key is fetched per stream, during connect.
 * - Audio: the stream's format, natively: `audio_format {type: raw, encoding: mulaw, sample_rate: 8000}` for
 *   the phone, `{type: raw, encoding: pcm_s16le, sample_rate: 16000}` for the browser; binary messages.
 * - Turn end: `conversation_config.end_of_utterance_silence_trigger` = endpointingMs (seconds on the wire)
 *   makes the service send `EndOfUtterance` after that much silence: the port's end of turn, reported as an
 *   empty transcript with `isFinal` and `speechFinal` after the utterance's `AddTranscript` finals.
 * - Events: `AddPartialTranscript` -> interim; `AddTranscript` -> final (not speech-final). Speechmatics has
 *   no speech-start message, so speech_started is derived: the first words of an utterance (its first
 *   non-empty partial or final after the start or after an `EndOfUtterance`). No utterance-end fallback
 *   exists beyond `EndOfUtterance`.
 * - `finalize()` sends `ForceEndOfUtterance`; `close()` waits until every audio packet is acknowledged
 *   (`AudioAdded`, whose seq_no the client puts in `EndOfStream.last_seq_no`), sends `EndOfStream` and waits
 *   for `EndOfTranscript`.
 *   No keepalive: audio flows all call long.
 */
export function speechmaticsSttConnector(endpoint: SpeechmaticsEndpoint): SttConnector {
  return {
    id: 'speechmatics',
    async open(stt: SttOptions, sink: SttSink, signal: AbortSignal): Promise<SttConnection> {
      const jwt = await temporaryKey(endpoint, signal);
      const client = new RealtimeClient({ url: toWebSocketUrl(endpoint.baseUrl), appId: 'voice-agent-platform' });
      let started = false;
      let closeRequested = false;
      let finished = false;
      let inUtterance = false;
      const auto = stt.language === 'multi';
      let serverError: { type: string; reason: string } | undefined;
      // EndOfStream carries the seq_no of the last AudioAdded the client saw; the client fills it from the acks
      // received so far, so closing waits for every packet's ack (bounded by the base's close timeout).
      let packetsSent = 0;
      let packetsAcked = 0;
      let onAllAcked: (() => void) | undefined;
      let resolveClosed: () => void = () => undefined;
      const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

      const fail = (error: VendorError) => {
        if (!started || finished) return;
        finished = true;
        resolveClosed();
        clientSocket(client)?.terminate();
        sink.fail(error);
      };
      const words = (text: string, isFinal: boolean, language?: string) => {
        if (!text) return;
        if (!inUtterance) {
          inUtterance = true;
          sink.emit({ type: 'speech_started', atMs: now() });
        }
        sink.emit({ type: 'transcript', text, isFinal, speechFinal: false, ...(language ? { language } : {}), atMs: now() });
      };
      // Each word's alternative carries its `language`: with `language: auto`, the one identified.
      const languageOf = (results: readonly { alternatives?: readonly { language?: string }[] }[] | undefined) =>
        auto ? results?.find((r) => r.alternatives?.[0]?.language)?.alternatives?.[0]?.language : undefined;

      client.addEventListener('receiveMessage', ({ data }: { data: RealtimeServerMessage }) => {
        switch (data.message) {
          case 'AddPartialTranscript':
            words(data.metadata.transcript.trim(), false);
            return;
          case 'AddTranscript':
            words(data.metadata.transcript.trim(), true, languageOf(data.results));
            return;
          case 'AudioAdded':
            packetsAcked = data.seq_no;
            if (packetsAcked >= packetsSent) onAllAcked?.();
            return;
          case 'EndOfUtterance':
            inUtterance = false;
            sink.emit({ type: 'transcript', text: '', isFinal: true, speechFinal: true, atMs: now() });
            return;
          case 'EndOfTranscript':
            if (!finished) {
              finished = true;
              resolveClosed();
              sink.end();
            }
            return;
          case 'Error':
            serverError = { type: data.type, reason: data.reason };
            fail(new VendorError('speechmatics', `${data.type}: ${data.reason}`, !PERMANENT_ERRORS.has(data.type)));
            return;
          default:
            return;
        }
      });
      client.addEventListener('socketStateChange', ({ socketState }) => {
        if (socketState !== 'closed' || !started || finished) return;
        if (closeRequested) {
          finished = true;
          resolveClosed();
          sink.end();
          return;
        }
        fail(new VendorError('speechmatics', 'socket closed unexpectedly', true));
      });

      const onAbort = () => clientSocket(client)?.terminate();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const english = primaryLanguage(stt.language) === 'en';
        const locale = /^en-(US|GB|AU)$/i.exec(stt.language)?.[0];
        const format = formatOf(stt);
        await client.start(jwt, {
          audio_format: { type: 'raw', encoding: ENCODINGS[format.encoding], sample_rate: format.sampleRate },
          transcription_config: {
            // `auto`: Speechmatics identifies the language (a `multi` agent).
            language: auto ? 'auto' : primaryLanguage(stt.language),
            ...(english && locale && { output_locale: `en-${locale.slice(3).toUpperCase()}` }),
            model: MODELS.has(stt.model ?? '') ? (stt.model as Model) : 'enhanced',
            enable_partials: true,
            max_delay: MAX_DELAY_S,
            conversation_config: { end_of_utterance_silence_trigger: stt.endpointingMs / 1_000 },
          },
        });
      } catch (error) {
        clientSocket(client)?.terminate();
        if (signal.aborted) throw signal.reason;
        if (serverError) throw new VendorError('speechmatics', `${serverError.type}: ${serverError.reason}`, !PERMANENT_ERRORS.has(serverError.type), undefined, { cause: error });
        throw toVendorError('speechmatics', error);
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
      started = true;

      const guard = (send: () => void) => {
        if (closeRequested || finished) return;
        try {
          send();
        } catch (error) {
          fail(toVendorError('speechmatics', error));
        }
      };
      return {
        sendAudio: (audio) =>
          guard(() => {
            // Frames come from Node buffers, never from shared memory, which is what the client's type rules out.
            client.sendAudio(audio as Uint8Array<ArrayBuffer>);
            packetsSent += 1;
          }),
        finalize: () => guard(() => client.forceEndOfUtterance()),
        close: async () => {
          if (finished) return;
          if (!closeRequested) {
            closeRequested = true;
            if (packetsAcked < packetsSent) {
              await Promise.race([new Promise<void>((r) => (onAllAcked = r)), closed]);
            }
            // EndOfTranscript (or the socket closing) settles `closed`; the base bounds the wait.
            if (!finished) client.stopRecognition({ noTimeout: true }).catch(() => undefined);
          }
          await closed;
        },
        terminate: () => {
          closeRequested = true;
          if (!finished) {
            finished = true;
            resolveClosed();
          }
          clientSocket(client)?.terminate();
        },
      };
    },
  };
}
