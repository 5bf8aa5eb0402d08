import type { BeginEvent, SpeechStartedEvent, TerminationEvent, TurnEvent } from 'assemblyai';
import { WebSocket, type RawData } from 'ws';
import { bytesPerMs, type AudioFormat } from '../shared/audio-format.js';
import { VendorError } from '../shared/errors.js';
import { formatOf } from '../shared/pcm.js';
import { connectAttempt, now, primaryLanguage, toVendorError, toWebSocketUrl, type SttConnection, type SttConnector, type SttSink } from './base.js';
import type { SttOptions, VendorEndpoint } from './port.js';

/** AssemblyAI's Universal-Streaming (v3) socket, the value the SDK calls `websocketBaseUrl`. */
export const ASSEMBLYAI_DEFAULT_BASE_URL = 'wss://streaming.assemblyai.com/v3/ws';

/**
 * AssemblyAI refuses audio messages shorter than 50 ms or longer than 1000 ms (error 3007). Twilio delivers
 * 20 ms packets, so we gather 50 ms (400 mu-law bytes; 1,600 bytes of linear16 16 kHz) before sending: the
 * least latency the rule allows.
 */
const MIN_CHUNK_MS = 50;

/** AssemblyAI's names for our encodings (`encoding` query parameter); both are native. */
const ENCODINGS = { mulaw: 'pcm_mulaw', linear16: 'pcm_s16le' } as const;

/** One byte of digital silence: mu-law's 0xFF decodes to 0; linear16 silence is zero bytes. */
const silenceByte = (format: AudioFormat): number => (format.encoding === 'mulaw' ? 0xff : 0x00);

/**
 * Close codes that say a retry would fail the same way: 1008 (a missing or bad key, an account problem),
 * 3006 (a message or parameter AssemblyAI refuses), 3007 for a message outside 50-1000 ms, and the retired
 * v2 API's auth, billing and schema codes. 3007 "Audio Transmission Rate Exceeded" (audio faster than real
 * time: AssemblyAI's common-errors page) is not among them: a new session paced at real time succeeds,
 * which is what the call's transcription link does ({@link isPermanentClose}).
 */
const PERMANENT_CLOSE_CODES = new Set([1008, 3006, 3007, 4000, 4001, 4002, 4003, 4101]);

/** Whether a close (code and reason) says the same session would be refused again. */
export function isPermanentClose(code: number, reason: string): boolean {
  if (code === 3007 && reason.startsWith('Audio Transmission Rate Exceeded')) return false;
  return PERMANENT_CLOSE_CODES.has(code);
}

type ServerMessage = BeginEvent | TurnEvent | SpeechStartedEvent | TerminationEvent | { type?: undefined; error: string; error_code?: number };

/**
 * AssemblyAI Universal-Streaming (v3) over its documented WebSocket protocol, with the message types of the
 * official `assemblyai` SDK.
 *
 * Why not the SDK's `StreamingTranscriber`: it refuses any `websocketBaseUrl` whose scheme is not `wss:`
 * ("Invalid protocol, must be wss") and gives no way to pass TLS options, so it cannot reach a loopback
 * stand-in (plain `ws:`), and Node 20 cannot be taught a local CA at run time. The protocol is small and
 * stable, so the adapter speaks it directly and stays identical for the real service and the stand-in.
 *
 * - Base URL: the full socket URL (`wss://streaming.assemblyai.com/v3/ws`, or a stand-in's `ws://.../v3/ws`).
 * - Auth: `Authorization: <key>` on the handshake (server side; browsers would use a temporary token).
 * - Parameters: the stream's format, `encoding=pcm_mulaw&sample_rate=8000` for the phone,
 *   `encoding=pcm_s16le&sample_rate=16000` for the browser (both native: no conversion), `speech_model`,
 *   `min_turn_silence` = endpointingMs (end of turn when the model is confident), `max_turn_silence` =
 *   utteranceEndMs (end of turn regardless: the fallback), `format_turns=false` (AssemblyAI advises voice agents not to wait for formatting).
 * - Events: `SpeechStarted` -> speech_started; `Turn` with `end_of_turn: false` -> interim transcript (all
 *   words heard so far, final or not); `Turn` with `end_of_turn: true` -> transcript with `isFinal` and
 *   `speechFinal` (AssemblyAI's end of turn is its endpointing). There is no separate utterance-end event:
 *   `max_turn_silence` already forces the end of turn.
 * - `finalize()` sends `ForceEndpoint`; `close()` sends `Terminate` and waits for `Termination`. Audio flows
 *   all call long, so no KeepAlive is needed (it matters only with `inactivity_timeout`).
 */
export function assemblyAiSttConnector(endpoint: VendorEndpoint): SttConnector {
  return {
    id: 'assemblyai',
    open(stt: SttOptions, sink: SttSink, signal: AbortSignal): Promise<SttConnection> {
      const url = new URL(toWebSocketUrl(endpoint.baseUrl));
      const english = primaryLanguage(stt.language) === 'en';
      const format = formatOf(stt);
      const minChunkBytes = MIN_CHUNK_MS * bytesPerMs(format);
      url.searchParams.set('sample_rate', String(format.sampleRate));
      url.searchParams.set('encoding', ENCODINGS[format.encoding]);
      url.searchParams.set('speech_model', stt.model ?? (english ? 'universal-streaming-english' : 'universal-streaming-multilingual'));
      url.searchParams.set('min_turn_silence', String(stt.endpointingMs));
      url.searchParams.set('max_turn_silence', String(stt.utteranceEndMs));
      url.searchParams.set('format_turns', 'false');
      if (!english) url.searchParams.set('language_detection', 'true');

      const ws = new WebSocket(url, { headers: { Authorization: endpoint.apiKey } });
      let pending: Uint8Array[] = [];
      /** A turn has begun (SpeechStarted, or its first words) and not ended: one speech_started per turn. */
      let inTurn = false;
      const speechStarted = () => {
        if (inTurn) return;
        inTurn = true;
        sink.emit({ type: 'speech_started', atMs: now() });
      };
      let pendingBytes = 0;
      let closeRequested = false;
      let finished = false;
      let resolveClosed: () => void = () => undefined;
      const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

      const flushAudio = (pad: boolean) => {
        if (pendingBytes === 0 || ws.readyState !== WebSocket.OPEN) return;
        if (pendingBytes < minChunkBytes && !pad) return;
        const chunk = new Uint8Array(Math.max(pendingBytes, minChunkBytes)).fill(silenceByte(format));
        let offset = 0;
        for (const part of pending) {
          chunk.set(part, offset);
          offset += part.length;
        }
        pending = [];
        pendingBytes = 0;
        ws.send(chunk);
      };

      return new Promise<SttConnection>((resolve, reject) => {
        const attempt = connectAttempt(signal, () => ws.terminate(), resolve, reject);
        if (!attempt) return;

        const fail = (error: VendorError) => {
          if (attempt.refuse(error)) return;
          if (finished) return;
          finished = true;
          resolveClosed();
          sink.fail(error);
        };

        // A refused handshake arrives as "Unexpected server response: <status>"; toVendorError reads it.
        ws.on('error', (error) => fail(toVendorError('assemblyai', error)));
        ws.on('close', (code: number, reason: Buffer) => {
          const why = reason.toString('utf8');
          if (!attempt.accepted) {
            fail(new VendorError('assemblyai', `closed before the session began (${code}${why ? ` ${why}` : ''})`, !isPermanentClose(code, why)));
            return;
          }
          if (finished) return;
          if (closeRequested && code === 1000) {
            finished = true;
            resolveClosed();
            sink.end();
            return;
          }
          fail(new VendorError('assemblyai', `socket closed (${code}${why ? ` ${why}` : ''})`, !isPermanentClose(code, why)));
        });
        ws.on('message', (data: RawData, isBinary: boolean) => {
          if (isBinary) return;
          let message: ServerMessage;
          try {
            message = JSON.parse(data.toString()) as ServerMessage;
          } catch {
            return;
          }
          if ('error' in message) {
            const code = message.error_code;
            fail(new VendorError('assemblyai', message.error, code === undefined || !isPermanentClose(code, message.error), code));
            return;
          }
          switch (message.type) {
            case 'Begin':
              attempt.accept(connection);
              return;
            case 'SpeechStarted':
              speechStarted();
              return;
            case 'Turn': {
              // Only Universal-3 Pro sends SpeechStarted; with the other models a turn's first words are its start.
              if (message.words.length > 0 || message.transcript) speechStarted();
              if (message.end_of_turn) {
                inTurn = false;
                const confidences = message.words.map((w) => w.confidence);
                const confidence = confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : undefined;
                // With language_detection, an ended turn says which language it was in (`language_code`).
                const language = message.language_code;
                sink.emit({ type: 'transcript', text: message.transcript, isFinal: true, speechFinal: true, confidence, ...(language ? { language } : {}), atMs: now() });
                return;
              }
              // `transcript` holds only finalized words; the words list also has the ones still changing,
              // which is what barge-in and eager turn detection want to see.
              const text = message.words.length ? message.words.map((w) => w.text).join(' ') : message.transcript;
              if (text) sink.emit({ type: 'transcript', text, isFinal: false, speechFinal: false, atMs: now() });
              return;
            }
            case 'Termination':
              // The server closes (1000) right after; the close handler completes the stream.
              return;
            default:
              return;
          }
        });

        const connection: SttConnection = {
          sendAudio: (audio) => {
            if (closeRequested || ws.readyState !== WebSocket.OPEN) return;
            pending.push(audio.slice());
            pendingBytes += audio.length;
            flushAudio(false);
          },
          finalize: () => {
            if (closeRequested || ws.readyState !== WebSocket.OPEN) return;
            flushAudio(true);
            ws.send(JSON.stringify({ type: 'ForceEndpoint' }));
          },
          close: async () => {
            if (finished) return;
            if (!closeRequested && ws.readyState === WebSocket.OPEN) {
              closeRequested = true;
              flushAudio(true);
              ws.send(JSON.stringify({ type: 'Terminate' }));
            }
            await closed;
          },
          terminate: () => {
            closeRequested = true;
            if (!finished) {
              finished = true;
              resolveClosed();
            }
            ws.terminate();
          },
        };
      });
    },
  };
}
