import type { PronunciationStyle } from './pronunciation.js';
import { VendorError, isRetryableStatus } from '../shared/errors.js';
import { WordAssembler } from './words.js';
import {
  DEFAULT_TTS_BASE_OPTIONS,
  TtsSessionBase,
  providerOf,
  toWebSocketBase,
  type TtsBaseOptions,
  type UtteranceHandle,
} from './base.js';
import type { TtsOptions, TtsProvider } from './port.js';
import { JsonSocketLink } from './websocket.js';

/**
 * Cartesia Sonic over its WebSocket (`/tts/websocket`): one socket per call, one `context_id` per
 * utterance, which is one agent turn (one context keeps the turn's prosody whole). Each phrase is a
 * generation request with `continue: true` (Cartesia joins a context's inputs verbatim, so each ends with a
 * space) followed by a manual flush (`transcript: ""`, `continue: true`, `flush: true`), answered with
 * `flush_done` and the flush's `flush_id`, 1 for the first, once that phrase's audio is out: the phrases
 * done (`TtsAudioChunk.phrasesDone`; docs.cartesia.ai "Context Flushing and Flush IDs"). The end is
 * an empty transcript with `continue: false`, answered by `done` after the last `chunk`; a cancel is
 * `{context_id, cancel: true}`, and our side ends the utterance's audio at once and drops any late chunks
 * for it. A context expires 1 s after its last audio: {@link CARTESIA_CONTEXT_IDLE_MS}.
 *
 * Audio: `output_format {container: raw, encoding: pcm_mulaw, sample_rate: 8000}` for the phone,
 * `{container: raw, encoding: pcm_s16le, sample_rate: 16000}` for the browser.
 *
 * Why not the SDK: `@cartesia/cartesia-js` 4.x builds the socket URL from its base URL but forces the
 * `wss:` scheme (so it cannot reach a plain `ws://` stand-in on loopback), and its ESM build loads `ws`
 * with `require`, which does not exist there; so this speaks the documented protocol with `ws`, with the
 * same API version the SDK pins.
 */

export interface CartesiaEndpoint {
  readonly apiKey: string;
  /** `https://api.cartesia.ai` or a stand-in's `http://127.0.0.1:port`. */
  readonly baseUrl: string;
}

/** The API version `@cartesia/cartesia-js` 4.2 sends; the request and response shapes below are its. */
export const CARTESIA_VERSION = '2026-08-14';

/** Sonic 3: Cartesia's current low-latency model. */
export const CARTESIA_DEFAULT_MODEL = 'sonic-3';

/**
 * Cartesia: "contexts automatically expire 1 second after the last audio output is streamed out"
 * (docs.cartesia.ai, Contexts). A phrase later than this after the turn's audio is all in goes to a new
 * context: 300 ms below the expiry covers the network between their clock and ours.
 */
export const CARTESIA_CONTEXT_IDLE_MS = 700;

/** What `language` says when the session names none: the language our agents speak until they carry their own. */
export const CARTESIA_DEFAULT_LANGUAGE = 'en';

/** Cartesia's raw encodings for ours: both native, so the session's format is asked for as is. */
const CARTESIA_ENCODINGS = { mulaw: 'pcm_mulaw', linear16: 'pcm_s16le' } as const;

interface CartesiaMessage {
  type?: 'chunk' | 'done' | 'flush_done' | 'timestamps' | 'phoneme_timestamps' | 'error';
  context_id?: string;
  /** On `flush_done`: how many flushes of the context are done. */
  flush_id?: number;
  data?: string;
  status_code?: number;
  title?: string;
  message?: string;
  error?: string;
  /** With `add_timestamps`: words and their start and end, in seconds from the context's audio start. */
  word_timestamps?: { words?: string[]; start?: number[]; end?: number[] };
}

/** Per utterance (one turn's context): its word indices, and how far its flushes have come. */
interface Turn {
  readonly words: WordAssembler;
  flushes: number;
  flushesDone: number;
  /** performance.now() of the context's last message from Cartesia. */
  lastHeardAtMs: number;
}

class CartesiaSession extends TtsSessionBase<Turn> {
  override readonly phraseEnds = true;
  override readonly contextIdleMs = CARTESIA_CONTEXT_IDLE_MS;
  private readonly link = new JsonSocketLink(
    'cartesia',
    (text) => this.onMessage(text),
    (error) => this.linkLost(error),
  );

  constructor(
    private readonly endpoint: CartesiaEndpoint,
    options: TtsOptions,
    base: TtsBaseOptions,
  ) {
    super('cartesia', options, base, false);
  }

  protected async openLink(signal: AbortSignal): Promise<void> {
    const url = `${toWebSocketBase(this.endpoint.baseUrl)}/tts/websocket`;
    await this.link.open(url, { 'X-API-Key': this.endpoint.apiKey, 'Cartesia-Version': CARTESIA_VERSION }, signal);
  }

  protected closeLink(): Promise<void> {
    return this.link.close((ws) => ws.close(1000));
  }

  protected dropLink(): void {
    this.link.drop();
  }

  /** Cartesia reads IPA inline as `<<p|h|o|n|e|m|e|s>>` (docs.cartesia.ai, "Specify Custom Pronunciations"). */
  protected override pronunciationStyle(): PronunciationStyle {
    return 'cartesia';
  }

  protected newVendorState(): Turn {
    return { words: new WordAssembler(), flushes: 0, flushesDone: 0, lastHeardAtMs: performance.now() };
  }

  protected begin(): void {
    // A context exists from its first request.
  }

  protected sendPhrase(u: UtteranceHandle<Turn>, text: string): void {
    this.send(this.request(u, text.endsWith(' ') ? text : `${text} `, true));
    this.send({ ...this.request(u, '', true), flush: true });
    u.vendor.flushes += 1;
  }

  protected sendEnd(u: UtteranceHandle<Turn>, text: string): void {
    const v = u.vendor;
    if (!text && v.flushes > 0 && v.flushesDone === v.flushes && performance.now() - v.lastHeardAtMs > CARTESIA_CONTEXT_IDLE_MS) {
      // All its audio is in and Cartesia may have let the context go: an end sent now could only be refused.
      this.complete(u);
      return;
    }
    this.send(this.request(u, text, false));
  }

  protected sendCancel(u: UtteranceHandle<Turn>): boolean {
    this.send({ context_id: u.wireId, cancel: true });
    return true;
  }

  private request(u: UtteranceHandle<Turn>, transcript: string, more: boolean): Record<string, unknown> {
    return {
      model_id: this.ttsOptions.model ?? CARTESIA_DEFAULT_MODEL,
      transcript,
      voice: { mode: 'id', id: this.ttsOptions.voiceId },
      // Cartesia's request field (docs.cartesia.ai/api-reference/tts/websocket), per request: the utterance's
      // language (a `multi` call's, turn by turn), else the session's.
      language: u.language ?? this.ttsOptions.language ?? CARTESIA_DEFAULT_LANGUAGE,
      output_format: { container: 'raw', encoding: CARTESIA_ENCODINGS[this.format.encoding], sample_rate: this.format.sampleRate },
      context_id: u.wireId,
      continue: more,
      // Our phrases arrive whole and flushed by the pipeline: start each at once rather than letting
      // Cartesia wait for more text (its default buffer is up to 3 s).
      max_buffer_delay_ms: 0,
      // Word timing, so history keeps what the caller heard to the word on an interruption.
      add_timestamps: true,
    };
  }

  private send(message: Record<string, unknown>): void {
    this.link.send(message);
    this.noteSent();
  }

  private onMessage(text: string): void {
    let message: CartesiaMessage;
    try {
      message = JSON.parse(text) as CartesiaMessage;
    } catch {
      return;
    }
    const u = message.context_id !== undefined ? this.byWireId(message.context_id) : undefined;
    if (u) u.vendor.lastHeardAtMs = performance.now();
    switch (message.type) {
      case 'chunk':
        if (u && typeof message.data === 'string') this.deliver(u, Buffer.from(message.data, 'base64'));
        return;
      case 'flush_done':
        if (u && typeof message.flush_id === 'number') {
          u.vendor.flushesDone = Math.max(u.vendor.flushesDone, message.flush_id);
          this.deliverPhrasesDone(u, message.flush_id);
        }
        return;
      case 'done':
        if (u) this.complete(u);
        return;
      case 'error': {
        const status = message.status_code;
        const failure = new VendorError(
          'cartesia',
          `${message.title ?? message.error ?? 'error'}: ${message.message ?? ''}`.trim(),
          status !== undefined && status >= 400 ? isRetryableStatus(status) : false,
          status,
        );
        for (const live of u ? [u] : this.live()) this.failUtterance(live, failure);
        return;
      }
      case 'timestamps': {
        const { words = [], start = [], end = [] } = message.word_timestamps ?? {};
        if (u) this.deliverWords(u, words.map((word, i) => ({ index: u.vendor.words.next(), word, startMs: Math.round((start[i] ?? 0) * 1_000), endMs: Math.round((end[i] ?? 0) * 1_000) })));
        return;
      }
      default:
        // Phoneme timestamps: we do not ask for them.
        return;
    }
  }
}

/** The Cartesia TTS provider; `endpoint` comes from config (CARTESIA_API_KEY, CARTESIA_BASE_URL). */
export function cartesiaTts(endpoint: CartesiaEndpoint, base: Partial<TtsBaseOptions> = {}): TtsProvider {
  const options = { ...DEFAULT_TTS_BASE_OPTIONS, ...base };
  return providerOf('cartesia', (tts) => new CartesiaSession(endpoint, tts, options));
}
