import { describeError, type Logger } from '../../../lib/observability/log.js';
import type { AudioFormat } from '../../../lib/vendors/shared/audio-format.js';
import type { TtsOptions, TtsProvider, TtsSession } from '../../../lib/vendors/tts/port.js';
import { VendorError } from '../../../lib/vendors/shared/errors.js';
import type { CallTimeline } from './timeline.js';

/** One voice a call can speak in: a vendor and the voice it is asked for. */
export interface Voice {
  readonly provider: TtsProvider;
  readonly voiceId: string;
}

/**
 * The call's speech session, kept warm for the whole call and moved to the agent's next fallback voice when
 * its vendor gives out (the TTS side of stt-link.ts). The socket opens with the call, before the first turn,
 * so no turn pays a handshake. A voice the vendor refuses at connect (an unknown voice id, a bad key, an
 * outage that outlasts the adapter's retries) costs the call its first choice of voice, not the call; a
 * session that dies mid-call (Speaker's second failure on one phrase) is replaced once, whoever asks.
 * Fallbacks are used in order and never given back: a vendor that failed once this call is not trusted again.
 */
export class TtsLink {
  private current: Promise<TtsSession>;
  /** How many of the fallbacks were taken, by a refusal or by a failure. */
  private used = 0;
  /** The vendor of the session that last opened (the one a mid-call failure is about). */
  private inUse: string;
  /** The last replacement: asked again for the same failed session, the same answer. */
  private replaced: { from: TtsSession; to: Promise<TtsSession | undefined> } | undefined;

  constructor(
    voice: Voice,
    private readonly fallbacks: readonly Voice[],
    /**
     * What every voice of the call is opened with besides its own id: the call's audio format, its language
     * (ISO 639-1) unless it follows the caller (`multi`), and the agent's pronunciations.
     */
    private readonly speech: { readonly format: AudioFormat; readonly language?: string } & Pick<TtsOptions, 'pronunciations'>,
    private readonly log: Logger,
    /** The call is ending: no new voice is opened for it. */
    private readonly isOver: () => boolean,
    /** The call's timeline: connects and fallbacks are noted there. */
    private readonly timeline?: CallTimeline,
  ) {
    this.inUse = voice.provider.id;
    this.current = this.open(voice);
  }

  /** The session in use (rejects when no voice could be opened). */
  get session(): Promise<TtsSession> {
    return this.current;
  }

  /** The session `failed` stays down: the next fallback voice, or undefined when none is left. */
  replace(failed: TtsSession): Promise<TtsSession | undefined> {
    if (this.replaced?.from === failed) return this.replaced.to;
    const next = this.fallbacks[this.used];
    if (!next || this.isOver()) return Promise.resolve(undefined);
    this.used += 1;
    this.log.log('warn', 'tts vendor down; switching to the fallback voice', { provider: next.provider.id });
    this.timeline?.fallback('tts', new VendorError(this.inUse, 'the voice stopped answering mid-call', true), next.provider.id);
    this.current = this.open(next);
    void failed.close().catch(() => undefined);
    this.replaced = { from: failed, to: this.current.catch(() => undefined) };
    return this.replaced.to;
  }

  async close(): Promise<void> {
    await this.current.then((s) => s.close());
  }

  private open(voice: Voice): Promise<TtsSession> {
    const connected = voice.provider.connect({ voiceId: voice.voiceId, ...this.speech });
    connected.then(() => {
      this.inUse = voice.provider.id;
      this.timeline?.note({ type: 'vendor_connected', stage: 'tts', vendor: voice.provider.id });
    }, () => undefined);
    const session = connected.catch((error: unknown) => {
      const next = this.fallbacks[this.used];
      if (!next || this.isOver()) throw error;
      this.used += 1;
      this.log.log('warn', 'tts voice refused; switching to the fallback voice', { provider: next.provider.id, ...describeError(error) });
      this.timeline?.fallback('tts', error, next.provider.id);
      return this.open(next);
    });
    // A refusal is reported to whoever speaks next (speakerFor), not as an unhandled rejection.
    session.catch(() => undefined);
    return session;
  }
}
