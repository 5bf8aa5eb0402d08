import { DeepgramClient } from '@deepgram/sdk';
import { bytesPerMs, type AudioFormat } from '../shared/audio-format.js';
import { VendorError } from '../shared/errors.js';
import { formatOf } from '../shared/pcm.js';
import { now, primaryLanguage, toVendorError, toWebSocketUrl, type SttConnection, type SttConnector, type SttSink } from './base.js';
import type { SttOptions, VendorEndpoint } from './port.js';

/** Deepgram's production origin; the SDK appends `/v1/listen`. */
export const DEEPGRAM_DEFAULT_BASE_URL = 'wss://api.deepgram.com';

export interface DeepgramSttOptions {
  /**
   * Deepgram closes a live socket after 10 s without audio or a text message; a KeepAlive every 3-5 s is
   * its recommendation. 4 s leaves margin on both sides.
   */
  readonly keepAliveMs: number;
}

export const DEFAULT_DEEPGRAM_STT = { keepAliveMs: 4_000 } as const satisfies DeepgramSttOptions;

/**
 * Audio sent the moment the socket opens. Deepgram's KeepAlive is for silence "while streaming audio" (its
 * KeepAlive page); a socket that was sent only KeepAlive is closed all the same (deepgram-dotnet-sdk#133),
 * and the socket opens before the caller's first word. 20 ms (one Twilio packet) of digital silence moves
 * Deepgram's audio clock by as much, and its timestamps are not read here.
 */
export const DEEPGRAM_OPENING_SILENCE_MS = 20;

/** `ms` of digital silence in `format`: mu-law 0xFF, linear16 zeros. */
function silence(format: AudioFormat, ms: number): Uint8Array {
  return new Uint8Array(ms * bytesPerMs(format)).fill(format.encoding === 'mulaw' ? 0xff : 0);
}

/** Shapes we read from the SDK's listen-v1 messages (the SDK types them; we keep to the fields we use). */
type ListenMessage =
  | {
      type: 'Results';
      is_final?: boolean;
      speech_final?: boolean;
      from_finalize?: boolean;
      /** `languages`: with `language=multi`, the languages Deepgram assigned, dominant first (may be absent). */
      channel: { alternatives: { transcript: string; confidence: number; languages?: string[] }[] };
    }
  | { type: 'SpeechStarted'; timestamp: number }
  | { type: 'UtteranceEnd'; last_word_end: number }
  | { type: 'Metadata' };

/**
 * Deepgram live transcription (`/v1/listen`) through the official `@deepgram/sdk` v5 client.
 *
 * - Base URL: the SDK's `baseUrl` client option replaces the origin of every endpoint, the live socket
 *   included (`<baseUrl>/v1/listen`); `http(s)` is turned into `ws(s)`.
 * - Auth: `Authorization: Token <key>` (the SDK adds the scheme).
 * - Audio: the stream's format as is, `encoding=mulaw&sample_rate=8000` for the phone,
 *   `encoding=linear16&sample_rate=16000` for the browser; binary messages.
 * - Events: `SpeechStarted` (with `vad_events`) -> speech_started; `Results` -> transcript, `isFinal` =
 *   `is_final`, `speechFinal` = `speech_final` (Deepgram's endpointing: `endpointing` ms of silence);
 *   `UtteranceEnd` (`utterance_end_ms`, needs interim results) -> utterance_end, the fallback when noise
 *   keeps `speech_final` from firing. A Finalize answer (`from_finalize`) is final but not speech-final.
 * - Opens with 20 ms of silence (KeepAlive holds only a socket that has had audio), then keeps the socket
 *   alive with `KeepAlive`; `finalize()` sends `Finalize`; `close()` sends `CloseStream`
 *   and waits for Deepgram's last results and its close.
 * - The SDK's own reconnection is off: a silent reconnect would lose audio mid-turn, so failures surface as
 *   VendorErrors and the caller decides.
 */
/**
 * The regional codes Deepgram's Nova-3 takes as they are (its Models & Languages overview); any other tag goes
 * as its language alone (`es-ES` -> `es`), and `multi` as is (Nova-3 Multilingual).
 */
const DEEPGRAM_REGIONAL = new Set(['en-US', 'en-GB', 'en-AU', 'en-NZ', 'en-IN', 'en-CA', 'es-419', 'fr-CA', 'pt-BR', 'pt-PT', 'de-CH', 'nl-BE', 'sv-SE', 'da-DK', 'ko-KR', 'zh-CN', 'zh-TW', 'zh-HK']);

export function deepgramLanguage(tag: string): string {
  if (tag === 'multi' || DEEPGRAM_REGIONAL.has(tag)) return tag;
  return primaryLanguage(tag);
}

export function deepgramSttConnector(endpoint: VendorEndpoint, options: Partial<DeepgramSttOptions> = {}): SttConnector {
  const { keepAliveMs } = { ...DEFAULT_DEEPGRAM_STT, ...options };
  const client = new DeepgramClient({ apiKey: endpoint.apiKey, baseUrl: toWebSocketUrl(endpoint.baseUrl) });

  return {
    id: 'deepgram',
    async open(stt: SttOptions, sink: SttSink, signal: AbortSignal): Promise<SttConnection> {
      // Deepgram takes both of our encodings at any rate natively (`mulaw`, `linear16`): no conversion.
      const format = formatOf(stt);
      const socket = await client.listen.v1.connect({
        model: stt.model ?? 'nova-3',
        language: deepgramLanguage(stt.language),
        encoding: format.encoding,
        sample_rate: format.sampleRate,
        channels: 1,
        interim_results: 'true',
        endpointing: stt.endpointingMs,
        utterance_end_ms: stt.utteranceEndMs,
        vad_events: 'true',
        smart_format: 'true',
        reconnectAttempts: 0,
        shouldReconnect: () => false,
        abortSignal: signal,
      });

      const trySend = (send: () => void) => {
        try {
          send();
        } catch {
          // The socket is closing; its close handler reports the outcome.
        }
      };
      let opened = false;
      let closeRequested = false;
      let finished = false;
      let keepAlive: NodeJS.Timeout | undefined;
      let resolveClosed: () => void = () => undefined;
      const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
      const stop = () => {
        clearInterval(keepAlive);
        resolveClosed();
      };

      socket.on('message', (message) => {
        const m = message as ListenMessage;
        switch (m.type) {
          case 'Results': {
            const alt = m.channel.alternatives[0];
            const text = alt?.transcript ?? '';
            const isFinal = m.is_final === true;
            const speechFinal = m.speech_final === true;
            // Deepgram sends empty results over silence; only an end of turn is news without words.
            if (!text && !speechFinal) return;
            const language = alt?.languages?.[0];
            sink.emit({ type: 'transcript', text, isFinal, speechFinal, confidence: alt?.confidence, ...(language ? { language } : {}), atMs: now() });
            return;
          }
          case 'SpeechStarted':
            sink.emit({ type: 'speech_started', atMs: now() });
            return;
          case 'UtteranceEnd':
            sink.emit({ type: 'utterance_end', atMs: now() });
            return;
          default:
            return;
        }
      });
      socket.on('close', (event) => {
        if (!opened || finished) return;
        finished = true;
        stop();
        if (closeRequested) {
          sink.end();
          return;
        }
        const code = event.code;
        // 1008: Deepgram could not decode what we sent (DATA-0000); retrying the same audio would not help.
        const retryable = code !== 1008;
        sink.fail(new VendorError('deepgram', `socket closed unexpectedly (${code}${event.reason ? ` ${event.reason}` : ''})`, retryable));
      });
      socket.on('error', (error) => {
        if (!opened || finished) return;
        finished = true;
        stop();
        sink.fail(toVendorError('deepgram', error));
      });

      socket.connect();
      try {
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => reject(signal.reason);
          if (signal.aborted) return onAbort();
          signal.addEventListener('abort', onAbort, { once: true });
          socket.waitForOpen().then(
            () => {
              signal.removeEventListener('abort', onAbort);
              resolve();
            },
            (event: unknown) => {
              signal.removeEventListener('abort', onAbort);
              // The SDK rejects with the socket's error event; its message carries a refused handshake's status.
              reject(toVendorError('deepgram', event));
            },
          );
        });
      } catch (error) {
        socket.close();
        throw error;
      }
      opened = true;
      // KeepAlive keeps a socket only once it has had audio, so the first message is a packet of silence:
      // the socket then survives a caller who says nothing at first ({@link DEEPGRAM_OPENING_SILENCE_MS}).
      trySend(() => socket.sendMedia(silence(format, DEEPGRAM_OPENING_SILENCE_MS)));
      keepAlive = setInterval(() => {
        if (!closeRequested) trySend(() => socket.sendKeepAlive({ type: 'KeepAlive' }));
      }, keepAliveMs);
      keepAlive.unref();

      return {
        sendAudio: (audio) => trySend(() => socket.sendMedia(audio)),
        finalize: () => trySend(() => socket.sendFinalize({ type: 'Finalize' })),
        close: async () => {
          if (finished) return;
          closeRequested = true;
          clearInterval(keepAlive);
          trySend(() => socket.sendCloseStream({ type: 'CloseStream' }));
          await closed;
        },
        terminate: () => {
          closeRequested = true;
          if (!finished) {
            finished = true;
            stop();
          }
          socket.close();
        },
      };
    },
  };
}
