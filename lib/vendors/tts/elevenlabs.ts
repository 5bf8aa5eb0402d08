import { ssmlSpoken, type PronunciationStyle } from './pronunciation.js';
import type { AudioFormat } from '../shared/audio-format.js';
import { VendorError } from '../shared/errors.js';
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
 * ElevenLabs over its multi-context WebSocket (`/v1/text-to-speech/{voice_id}/multi-stream-input`): one
 * socket per call, one `context_id` per utterance, which is one agent turn, so a barge-in closes one
 * context while the next turn starts on the same warm socket. ElevenLabs says nothing when a flushed
 * phrase's audio is all out; its `alignment` (on by default) names the characters each audio message
 * speaks and when, so a phrase is done (`TtsAudioChunk.phrasesDone`) once its characters, whitespace
 * aside, have all been aligned and the audio delivered reaches its last one's end, or the next phrase's
 * characters have begun. Without alignment the turn's phrases complete together, at `is_final`.
 *
 * Why not the SDK: `@elevenlabs/elevenlabs-js` (2.x) wraps the HTTP API and the realtime speech-to-text
 * socket, but has no client for the text-to-speech input-streaming sockets (it only ships their message
 * types), so this speaks the documented protocol with `ws`.
 *
 * Audio: `output_format=ulaw_8000` for the phone, `pcm_16000` for the browser (the session's format,
 * natively; {@link elevenLabsOutputFormat}).
 *
 * Wire: requests are snake_case (`context_id`, `close_context`, `close_socket`), responses camelCase
 * (`audio`, `contextId`) but for the final flag, `is_final` in the multi-context spec and `isFinal` in the
 * single-context one (both read). Per utterance: `{text: " ", context_id}` opens the context;
 * each phrase goes as `{text: "phrase ", context_id, flush: true}` (text ends with a space, flush forces
 * audio now instead of waiting for ~120 buffered characters); the end is `{context_id, close_context:
 * true}`, answered with `{is_final: true, contextId}` after the last audio; a cancel is the same
 * `close_context` with the utterance's audio ended on our side at once (late chunks for a closed context
 * are dropped). At most 5 contexts may be open per socket: cancelled contexts are closed immediately.
 */

export interface ElevenLabsEndpoint {
  readonly apiKey: string;
  /** `https://api.elevenlabs.io` or a stand-in's `http://127.0.0.1:port`. */
  readonly baseUrl: string;
}

/** Flash v2.5: ElevenLabs' lowest-latency model (~75 ms model time), the one meant for agents. */
export const ELEVENLABS_DEFAULT_MODEL = 'eleven_flash_v2_5';

/** The models that take `language_code` (ElevenLabs: "currently only Turbo v2.5 and Flash v2.5 support language enforcement"). */
export const LANGUAGE_CODE_MODELS: ReadonlySet<string> = new Set(['eleven_flash_v2_5', 'eleven_turbo_v2_5']);

/**
 * The models that read SSML `<phoneme>` tags ("Phoneme tags are only compatible with Eleven Flash v2, Eleven
 * Turbo v2 and Eleven English v1", elevenlabs.io/docs/best-practices/prompting); others ignore them.
 */
export const ELEVENLABS_PHONEME_MODELS: ReadonlySet<string> = new Set(['eleven_flash_v2', 'eleven_turbo_v2', 'eleven_monolingual_v1']);

/**
 * The model a session speaks with: the one asked for, else Flash v2.5, but Flash v2 (the same latency class,
 * English only) when the agent has phoneme pronunciations, which Flash v2.5 would ignore.
 */
export function elevenLabsModel(options: Pick<TtsOptions, 'model' | 'pronunciations'>): string {
  if (options.model) return options.model;
  return options.pronunciations?.some((p) => 'phoneme' in p) ? 'eleven_flash_v2' : ELEVENLABS_DEFAULT_MODEL;
}

/**
 * The socket closes after 20 s without input (`inactivity_timeout`); a keepalive every 10 s leaves room
 * for a late timer and a slow network.
 */
export const ELEVENLABS_KEEPALIVE_MS = 10_000;

/** ElevenLabs' limit of open contexts per socket; a closed context counts until its `isFinal`. */
export const ELEVENLABS_MAX_CONTEXTS = 5;

/** Per utterance: its characters' timing joined into words, and how far alignment has come through its phrases. */
interface Words {
  readonly words: WordAssembler;
  /** Each flushed phrase's end, in characters (whitespace aside) from the utterance's start. */
  readonly phraseEnds: number[];
  /** Characters (whitespace aside) aligned so far. */
  aligned: number;
  /** Where the last aligned character ends, in ms of the utterance's audio. */
  alignedEndMs: number;
  /** Phrases reported done. */
  done: number;
}

const nonSpace = (text: string): number => text.replace(/\s+/g, '').length;

/** Character timing of one audio message, in ms from that message's audio start. */
interface Alignment {
  chars?: string[];
  charStartTimesMs?: number[];
  /** The API's spelling; `charDurationsMs` is accepted too. */
  charsDurationsMs?: number[];
  charDurationsMs?: number[];
}

interface ElevenLabsMessage {
  audio?: string | null;
  alignment?: Alignment | null;
  /** The single-context socket's spelling. */
  isFinal?: boolean | null;
  /** The multi-context socket's, in ElevenLabs' AsyncAPI spec (`fern/apis/api/asyncapi.yml`). */
  is_final?: boolean | null;
  contextId?: string;
  /** Errors arrive as `{message, error, code}` before the socket closes. */
  message?: string;
  error?: string;
  code?: number;
}

class ElevenLabsSession extends TtsSessionBase<Words> {
  override readonly phraseEnds = true;
  private readonly link = new JsonSocketLink(
    'elevenlabs',
    (text) => this.onMessage(text),
    (error) => this.linkLost(error),
  );

  constructor(
    private readonly endpoint: ElevenLabsEndpoint,
    options: TtsOptions,
    base: TtsBaseOptions,
  ) {
    super('elevenlabs', options, base, false, ELEVENLABS_KEEPALIVE_MS);
  }

  /**
   * Contexts we closed on a barge-in and ElevenLabs still counts until their `isFinal` (it finishes the
   * audio already flushed): with the live ones they may not pass 5 a socket, or the socket closes 1008.
   */
  private readonly draining = new Set<string>();

  protected override hasRoom(): boolean {
    return this.live().length + this.draining.size < ELEVENLABS_MAX_CONTEXTS;
  }

  protected async openLink(signal: AbortSignal): Promise<void> {
    // A new socket has no contexts.
    this.draining.clear();
    const query = new URLSearchParams({
      model_id: elevenLabsModel(this.ttsOptions),
      output_format: elevenLabsOutputFormat(this.format),
      // `language_code` enforces the language (Flash and Turbo v2.5 only; other models refuse it). Without it
      // the model speaks the text's language, which is how one voice follows a `multi` caller
      // (elevenlabs.io/docs/api-reference/multi-context-websocket, query parameters).
      ...(this.ttsOptions.language && LANGUAGE_CODE_MODELS.has(this.ttsOptions.model ?? ELEVENLABS_DEFAULT_MODEL) ? { language_code: this.ttsOptions.language } : {}),
    });
    const url = `${toWebSocketBase(this.endpoint.baseUrl)}/v1/text-to-speech/${encodeURIComponent(this.ttsOptions.voiceId)}/multi-stream-input?${query}`;
    await this.link.open(url, { 'xi-api-key': this.endpoint.apiKey }, signal);
  }

  protected closeLink(): Promise<void> {
    // close_socket lets ElevenLabs finish what it was flushing, then it closes the socket itself.
    return this.link.close((ws) => ws.send(JSON.stringify({ close_socket: true })));
  }

  protected dropLink(): void {
    this.link.drop();
  }

  protected override pronunciationStyle(): PronunciationStyle {
    return ELEVENLABS_PHONEME_MODELS.has(elevenLabsModel(this.ttsOptions)) ? 'ssml-phoneme' : 'text';
  }

  protected newVendorState(): Words {
    return { words: new WordAssembler(), phraseEnds: [], aligned: 0, alignedEndMs: 0, done: 0 };
  }

  protected begin(u: UtteranceHandle<Words>): void {
    this.send({ text: ' ', context_id: u.wireId });
  }

  protected sendPhrase(u: UtteranceHandle<Words>, text: string): void {
    const v = u.vendor;
    // Alignment comes back for what is spoken: a phoneme tag counts as the word it wraps.
    v.phraseEnds.push((v.phraseEnds.at(-1) ?? 0) + nonSpace(ssmlSpoken(text)));
    this.send({ text: withTrailingSpace(text), context_id: u.wireId, flush: true });
  }

  protected sendEnd(u: UtteranceHandle<Words>, text: string): void {
    if (text) this.sendPhrase(u, text);
    this.send({ context_id: u.wireId, close_context: true });
  }

  protected sendCancel(u: UtteranceHandle<Words>): boolean {
    this.send({ context_id: u.wireId, close_context: true });
    this.draining.add(u.wireId);
    return true;
  }

  /**
   * Empty text resets a context's inactivity timer without adding speech (the documented KeepContextAlive);
   * with no context open, `{text: ""}` alone keeps the socket, as pipecat's multi-context client does.
   */
  protected override keepalive(): void {
    const live = this.live();
    if (live.length === 0) this.send({ text: '' });
    for (const u of live) this.send({ text: '', context_id: u.wireId });
  }

  /** Reports the phrases whose audio alignment shows complete (see the class comment). */
  private phrasesAligned(u: UtteranceHandle<Words>, atMs: number): void {
    const v = u.vendor;
    const before = v.done;
    for (;;) {
      const end = v.phraseEnds[v.done];
      if (end === undefined || v.aligned < end) break;
      if (v.aligned === end && this.deliveredMs(u) < v.alignedEndMs) break;
      v.done += 1;
    }
    if (v.done > before) this.deliverPhrasesDone(u, v.done, atMs);
  }

  private send(message: Record<string, unknown>): void {
    this.link.send(message);
    this.noteSent();
  }

  private onMessage(text: string): void {
    let message: ElevenLabsMessage;
    try {
      message = JSON.parse(text) as ElevenLabsMessage;
    } catch {
      return;
    }
    const u = message.contextId !== undefined ? this.byWireId(message.contextId) : undefined;
    if (typeof message.audio === 'string' && message.audio.length > 0) {
      const atMs = performance.now();
      if (u) {
        // Alignment times count from this message's audio, which starts where the delivered audio ends.
        const { chars, charStartTimesMs = [], charsDurationsMs, charDurationsMs } = message.alignment ?? {};
        const v = u.vendor;
        const fromMs = this.deliveredMs(u);
        const durations = charsDurationsMs ?? charDurationsMs ?? [];
        const words = chars ? v.words.add(chars, charStartTimesMs, durations, fromMs) : [];
        this.deliver(u, Buffer.from(message.audio, 'base64'), atMs);
        this.deliverWords(u, words, atMs);
        (chars ?? []).forEach((c, i) => {
          if (/\s/.test(c)) return;
          v.aligned += 1;
          v.alignedEndMs = fromMs + (charStartTimesMs[i] ?? 0) + (durations[i] ?? 0);
        });
        this.phrasesAligned(u, atMs);
      }
    }
    // ElevenLabs' own spec spells the final flag both ways: either ends the context.
    if (message.isFinal === true || message.is_final === true) {
      if (u) {
        const last = u.vendor.words.finish();
        if (last) this.deliverWords(u, [last]);
        this.complete(u);
      }
      else if (message.contextId !== undefined && this.draining.delete(message.contextId)) this.wake();
      return;
    }
    if (message.error !== undefined && message.audio === undefined) {
      const failure = new VendorError('elevenlabs', `${message.error}: ${message.message ?? ''}`.trim(), false, undefined);
      // An error names no context: it concerns the socket, which the vendor closes next.
      for (const live of u ? [u] : this.live()) this.failUtterance(live, failure);
    }
  }
}

/** ElevenLabs' raw output formats: mu-law only at 8 kHz, PCM (16-bit little-endian) at these rates. */
const ELEVENLABS_PCM_RATES = new Set([8_000, 16_000, 22_050, 24_000, 44_100, 48_000]);

/**
 * The `output_format` for a session format: `ulaw_8000` for the phone, `pcm_16000` for the browser. A
 * format ElevenLabs cannot produce is refused before connecting (the same request would always fail).
 */
export function elevenLabsOutputFormat(format: AudioFormat): string {
  if (format.encoding === 'mulaw' && format.sampleRate === 8_000) return 'ulaw_8000';
  if (format.encoding === 'linear16' && ELEVENLABS_PCM_RATES.has(format.sampleRate)) return `pcm_${format.sampleRate}`;
  throw new VendorError('elevenlabs', `no output_format for ${format.encoding} at ${format.sampleRate} Hz`, false);
}

const withTrailingSpace = (text: string): string => (text.endsWith(' ') ? text : `${text} `);

/** The ElevenLabs TTS provider; `endpoint` comes from config (ELEVENLABS_API_KEY, ELEVENLABS_BASE_URL). */
export function elevenLabsTts(endpoint: ElevenLabsEndpoint, base: Partial<TtsBaseOptions> = {}): TtsProvider {
  const options = { ...DEFAULT_TTS_BASE_OPTIONS, ...base };
  return providerOf('elevenlabs', (tts) => new ElevenLabsSession(endpoint, tts, options));
}
