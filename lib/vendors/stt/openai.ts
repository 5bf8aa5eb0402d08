import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { WebSocket, type RawData } from 'ws';
import { PHONE_AUDIO, sameFormat, type AudioFormat } from '../shared/audio-format.js';
import { VendorError } from '../shared/errors.js';
import { PcmConverter, formatOf } from '../shared/pcm.js';
import { connectAttempt, joinUrl, now, primaryLanguage, toVendorError, toWebSocketUrl, type SttConnection, type SttConnector, type SttSink } from './base.js';
import type { SttOptions, VendorEndpoint } from './port.js';

/** The OpenAI API base, as the `openai` SDK spells it (`baseURL`); the socket is `<base>/realtime`. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Server-VAD settings OpenAI documents as defaults; the silence is ours (endpointingMs). */
const VAD_THRESHOLD = 0.5;
const VAD_PREFIX_PADDING_MS = 300;

/** `audio/pcm`, OpenAI's only linear format, is 16-bit little-endian PCM at 24 kHz and no other rate. */
const OPENAI_PCM_RATE = 24_000 as const;

interface WireAudio {
  /** The session's `audio.input.format`. */
  readonly format: { type: 'audio/pcmu' } | { type: 'audio/pcm'; rate: typeof OPENAI_PCM_RATE };
  /** Caller audio in the stream's format -> bytes in `format` (possibly none yet). */
  readonly convert: (audio: Uint8Array) => Uint8Array;
}

/**
 * What goes on the wire for the caller's audio: the phone's mu-law 8 kHz is `audio/pcmu`, taken as is; any
 * other format (the browser's linear16 16 kHz) is converted here, at the adapter's edge, to `audio/pcm`
 * 24 kHz, with the resampler's state kept across chunks so chunk edges leave no mark.
 */
function wireAudio(format: AudioFormat): WireAudio {
  if (sameFormat(format, PHONE_AUDIO)) return { format: { type: 'audio/pcmu' }, convert: (audio) => audio };
  const converter = new PcmConverter(format, OPENAI_PCM_RATE);
  return { format: { type: 'audio/pcm', rate: OPENAI_PCM_RATE }, convert: (audio) => converter.push(audio) };
}

/** Error codes that leave the session healthy: a commit that found nothing new to commit. */
const BENIGN_ERROR_CODES = new Set(['input_audio_buffer_commit_empty']);

/**
 * OpenAI Realtime transcription over its documented WebSocket protocol, typed with the `openai` SDK's
 * realtime event types.
 *
 * Why not the SDK's `OpenAIRealtimeWS`: it always rewrites the URL scheme to `wss` (no loopback stand-in
 * without TLS) and insists on `?model=` or `?call_id=`, while a transcription session is opened with
 * `?intent=transcription` and no model (a model URL opens a conversation session, which refuses the
 * transcription update). The protocol is JSON events, so speaking it directly costs little.
 *
 * - Base URL: the SDK's `baseURL` convention (`https://api.openai.com/v1`); the socket is
 *   `<base>/realtime?intent=transcription` with `http(s)` turned into `ws(s)`. Auth: `Authorization: Bearer`.
 * - Session: `session.update` with `type: transcription`, input format `audio/pcmu` (G.711 mu-law, what the
 *   beta API called `g711_ulaw`) for the phone, or `audio/pcm` at 24 kHz for anything else (the browser's
 *   linear16 16 kHz is resampled to 24 kHz in this adapter, see {@link wireAudio}), the transcription
 *   model, and `server_vad` turn detection whose `silence_duration_ms` is endpointingMs. Connect resolves on `session.updated`.
 * - Events: `input_audio_buffer.speech_started` -> speech_started; transcription deltas -> interim
 *   transcripts (accumulated per item); `...input_audio_transcription.completed` -> transcript with
 *   `isFinal` and `speechFinal`: OpenAI transcribes one committed turn per item, and server VAD commits the
 *   buffer (`input_audio_buffer.committed`) only at the end of a turn, so every completed item is a whole
 *   turn. A failed transcription still ends its turn (empty text) so a caller's turn is never lost.
 *   No utterance-end fallback exists.
 * - `finalize()` commits the buffer; `close()` waits for transcriptions of committed turns, then closes.
 *   No keepalive: audio flows all call long.
 */
export function openAiSttConnector(endpoint: VendorEndpoint): SttConnector {
  return {
    id: 'openai',
    open(stt: SttOptions, sink: SttSink, signal: AbortSignal): Promise<SttConnection> {
      const url = new URL(joinUrl(toWebSocketUrl(endpoint.baseUrl), 'realtime'));
      url.searchParams.set('intent', 'transcription');
      const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${endpoint.apiKey}` } });
      const send = (event: RealtimeClientEvent) => ws.send(JSON.stringify(event));
      const audio = wireAudio(formatOf(stt));

      let closeRequested = false;
      let finished = false;
      /** Items committed and not yet transcribed; close waits for them. */
      const awaiting = new Set<string>();
      const partial = new Map<string, string>();
      let resolveDrained: () => void = () => undefined;
      let drained: Promise<void> | undefined;
      let resolveClosed: () => void = () => undefined;
      const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

      const settleItem = (itemId: string) => {
        awaiting.delete(itemId);
        partial.delete(itemId);
        if (awaiting.size === 0) resolveDrained();
      };

      return new Promise<SttConnection>((resolve, reject) => {
        const attempt = connectAttempt(signal, () => ws.terminate(), resolve, reject);
        if (!attempt) return;

        const fail = (error: VendorError) => {
          if (attempt.refuse(error)) return;
          if (finished) return;
          finished = true;
          resolveDrained();
          resolveClosed();
          ws.terminate();
          sink.fail(error);
        };

        // A refused handshake arrives as "Unexpected server response: <status>"; toVendorError reads it.
        ws.on('error', (error) => fail(toVendorError('openai', error)));
        ws.on('close', (code: number, reason: Buffer) => {
          if (attempt.accepted && closeRequested && !finished) {
            finished = true;
            resolveClosed();
            sink.end();
            return;
          }
          const why = reason.toString('utf8');
          // 1008 is a policy refusal (bad key, bad request): the same request would be refused again.
          fail(new VendorError('openai', `socket closed (${code}${why ? ` ${why}` : ''})`, code !== 1008));
        });
        ws.on('message', (data: RawData, isBinary: boolean) => {
          if (isBinary) return;
          let event: RealtimeServerEvent;
          try {
            event = JSON.parse(data.toString()) as RealtimeServerEvent;
          } catch {
            return;
          }
          switch (event.type) {
            case 'session.created':
              send({
                type: 'session.update',
                session: {
                  type: 'transcription',
                  audio: {
                    input: {
                      format: audio.format,
                      // No `language`: the model detects it (a `multi` call; agents refuse that pairing since these
                      // events do not say which language was heard, lib/domain/languages.ts).
                      transcription: { model: stt.model ?? 'gpt-4o-transcribe', ...(stt.language === 'multi' ? {} : { language: primaryLanguage(stt.language) }) },
                      turn_detection: {
                        type: 'server_vad',
                        threshold: VAD_THRESHOLD,
                        prefix_padding_ms: VAD_PREFIX_PADDING_MS,
                        silence_duration_ms: stt.endpointingMs,
                      },
                    },
                  },
                },
              });
              return;
            case 'session.updated':
              if (!attempt.accepted) attempt.accept(connection);
              return;
            case 'input_audio_buffer.speech_started':
              sink.emit({ type: 'speech_started', atMs: now() });
              return;
            case 'input_audio_buffer.committed':
              awaiting.add(event.item_id);
              return;
            case 'conversation.item.input_audio_transcription.delta': {
              const text = (partial.get(event.item_id) ?? '') + (event.delta ?? '');
              partial.set(event.item_id, text);
              if (text.trim()) sink.emit({ type: 'transcript', text: text.trim(), isFinal: false, speechFinal: false, atMs: now() });
              return;
            }
            case 'conversation.item.input_audio_transcription.completed':
              settleItem(event.item_id);
              sink.emit({ type: 'transcript', text: event.transcript.trim(), isFinal: true, speechFinal: true, atMs: now() });
              return;
            case 'conversation.item.input_audio_transcription.failed':
              settleItem(event.item_id);
              sink.emit({ type: 'transcript', text: '', isFinal: true, speechFinal: true, atMs: now() });
              return;
            case 'error': {
              const code = event.error.code ?? undefined;
              if (attempt.accepted && code && BENIGN_ERROR_CODES.has(code)) return;
              // A session past OpenAI's 60 minutes (`session_expired`) is over, but a new one starts fine.
              const retryable = event.error.type === 'server_error' || code === 'rate_limit_exceeded' || code === 'session_expired';
              fail(new VendorError('openai', `${event.error.type}${code ? ` (${code})` : ''}: ${event.error.message}`, retryable));
              return;
            }
            default:
              return;
          }
        });

        const connection: SttConnection = {
          sendAudio: (bytes) => {
            if (closeRequested || ws.readyState !== WebSocket.OPEN) return;
            const wire = audio.convert(bytes);
            if (wire.length > 0) send({ type: 'input_audio_buffer.append', audio: Buffer.from(wire).toString('base64') });
          },
          finalize: () => {
            if (closeRequested || ws.readyState !== WebSocket.OPEN) return;
            send({ type: 'input_audio_buffer.commit' });
          },
          close: async () => {
            if (finished) return;
            if (!closeRequested) {
              closeRequested = true;
              // Turns already committed are transcribed before we hang up; the base bounds the wait.
              drained ??= awaiting.size === 0 ? Promise.resolve() : new Promise<void>((r) => (resolveDrained = r));
              await drained;
              if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'done');
            }
            await closed;
          },
          terminate: () => {
            closeRequested = true;
            if (!finished) {
              finished = true;
              resolveDrained();
              resolveClosed();
            }
            ws.terminate();
          },
        };
      });
    },
  };
}
