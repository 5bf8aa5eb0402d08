import { VendorError } from '../shared/errors.js';
import { formatOf } from '../shared/pcm.js';
import { bytesPerMs, type AudioFormat } from '../shared/audio-format.js';
import type { TtsBaseOptions } from './base-options.js';
import { connectWithRetry, toVendorError } from './connect.js';
import type { TtsOptions, TtsProvider, TtsProviderId, TtsSession, TtsUtterance, TtsWordTiming } from './port.js';
import { UtteranceHandle, type Op, type UtteranceOwner } from './utterance-handle.js';
import { pronouncer, type Pronouncer, type PronunciationStyle } from './pronunciation.js';

// The adapters import everything from here: options and metrics, the handle and the connect rules live beside it.
export { DEFAULT_TTS_BASE_OPTIONS, type TtsBaseOptions, type TtsUtteranceMetrics } from './base-options.js';
export { isRetryableClose, toVendorError, toWebSocketBase } from './connect.js';
export { UtteranceHandle } from './utterance-handle.js';

/**
 * What every TTS adapter shares (STYLE 8): connect timeouts and retries, a socket kept open for the whole
 * call and reopened when it drops, utterance handles whose `audio` ends the moment they are cancelled, and
 * first-byte timing. An adapter implements only its wire protocol: open the socket, and say what to send
 * for a phrase, an end and a cancel, and which utterance each inbound message belongs to.
 */

type LinkState = 'down' | 'connecting' | 'up' | 'closed';

/**
 * Socket drops answered with a fresh socket while no utterance needs one: enough to ride out a network
 * blip or a vendor restart, bounded so a vendor that keeps closing idle sockets does not get a reconnect
 * loop for the rest of the call.
 */
const MAX_IDLE_RECONNECTS = 3;

/**
 * A TTS session over one vendor socket. Subclasses implement the protocol hooks; the base decides when
 * they run. `serial` vendors (Deepgram: no context ids on the wire) get one utterance on the wire at a time,
 * the next starting when the previous settles; contextual vendors (ElevenLabs, Cartesia) run utterances
 * side by side.
 */
export abstract class TtsSessionBase<V> implements TtsSession, UtteranceOwner<V> {
  private state: LinkState = 'down';
  private connecting: Promise<void> | undefined;
  /** Unsettled utterances in creation order (a Map keeps insertion order). */
  private readonly utterances = new Map<string, UtteranceHandle<V>>();
  private readonly usedWireIds = new Set<string>();
  private keepaliveTimer: NodeJS.Timeout | undefined;

  protected constructor(
    readonly provider: TtsProviderId,
    /** What the session was opened with (voice, model, audio format); public for its utterance handles. */
    readonly ttsOptions: TtsOptions,
    protected readonly base: TtsBaseOptions,
    /** One utterance on the wire at a time. */
    private readonly serial: boolean,
    /** Vendor idle timeout guard: send `keepalive()` after this long without sending anything. */
    keepaliveMs?: number,
  ) {
    this.keepaliveMs = keepaliveMs === undefined ? undefined : (base.keepaliveMs ?? keepaliveMs);
  }

  private readonly keepaliveMs: number | undefined;

  /** See {@link TtsSession.phraseEnds}; adapters that report phrase ends say so. */
  readonly phraseEnds: boolean = false;
  /** See {@link TtsSession.contextIdleMs}. */
  readonly contextIdleMs: number | undefined = undefined;

  // ---- protocol hooks --------------------------------------------------------------------------------

  /** Opens the vendor socket; resolves once it is open. Must stop and reject when `signal` aborts. */
  protected abstract openLink(signal: AbortSignal): Promise<void>;
  /** Says goodbye the vendor's way and closes; the base cuts it after `closeTimeoutMs`. */
  protected abstract closeLink(): Promise<void>;
  /** Closes at once, without ceremony. */
  protected abstract dropLink(): void;
  /** Per-utterance adapter state. */
  protected abstract newVendorState(): V;
  /** The utterance's turn has come and the socket is open (e.g. open its vendor context). */
  protected abstract begin(u: UtteranceHandle<V>): void;
  /** A phrase ended: synthesize `text` now. */
  protected abstract sendPhrase(u: UtteranceHandle<V>, text: string): void;
  /** No more text; `text` is what was left unflushed ('' when nothing). Call {@link complete} when done. */
  protected abstract sendEnd(u: UtteranceHandle<V>, text: string): void;
  /**
   * Stop the vendor's synthesis for `u`. Return true when the vendor is done with it at once, false when
   * it acknowledges later (then call {@link settle}).
   */
  protected abstract sendCancel(u: UtteranceHandle<V>): boolean;
  /** Keeps an idle socket from being closed by the vendor. */
  protected keepalive(): void {}

  /** How this vendor (and model) reads pronunciations; plain substitution unless the adapter says more. */
  protected pronunciationStyle(): PronunciationStyle {
    return 'text';
  }

  private pronouncer: Pronouncer | undefined;

  /** The agent's pronunciations applied to a phrase on its way to the wire (never to the transcript). */
  private pronounce(text: string): string {
    this.pronouncer ??= pronouncer(this.ttsOptions.pronunciations, this.pronunciationStyle());
    return this.pronouncer(text);
  }

  /**
   * Whether the vendor has room for one more utterance on the socket now (ElevenLabs: 5 contexts). An
   * utterance that finds none waits, queued, until the adapter calls {@link wake}.
   */
  protected hasRoom(): boolean {
    return true;
  }

  /** Room freed up at the vendor: start the utterances that were waiting for it. */
  protected wake(): void {
    this.pump();
  }

  // ---- for subclasses ----------------------------------------------------------------------------------

  /**
   * Audio for `u` in the session's format, received at `atMs`. Dropped when `u` was cancelled or has
   * failed. Chunks go out as whole samples: vendors may split linear16 audio at an odd byte, which is held
   * for the next chunk (a trailing odd byte at the utterance's end is half a sample, and is dropped).
   */
  protected deliver(u: UtteranceHandle<V>, bytes: Uint8Array, atMs = performance.now()): void {
    if (u.outcome || bytes.length === 0) return;
    const audio = u.samples.take(bytes);
    if (audio.length === 0) return;
    if (u.firstByteAtMs === undefined) u.firstByteAtMs = atMs;
    u.audioBytes += audio.length;
    u.audio.push({ audio, atMs });
  }

  /** Word timing for `u` (see {@link TtsAudioChunk.words}), passed on in a chunk without audio. */
  protected deliverWords(u: UtteranceHandle<V>, words: readonly TtsWordTiming[], atMs = performance.now()): void {
    if (u.outcome || words.length === 0) return;
    u.audio.push({ audio: new Uint8Array(0), atMs, words });
  }

  /** All audio of `u`'s first `count` flushed phrases has been delivered ({@link TtsAudioChunk.phrasesDone}). */
  protected deliverPhrasesDone(u: UtteranceHandle<V>, count: number, atMs = performance.now()): void {
    if (u.outcome) return;
    u.audio.push({ audio: new Uint8Array(0), atMs, phrasesDone: count });
  }

  /** Milliseconds of audio delivered for `u` so far: where the vendor's next chunk starts. */
  protected deliveredMs(u: UtteranceHandle<V>): number {
    return u.audioBytes / bytesPerMs(this.format);
  }

  /** The session's audio format ({@link TtsOptions.format}, default the phone's). */
  protected get format(): AudioFormat {
    return formatOf(this.ttsOptions);
  }

  /** The vendor sent the last audio of `u`. */
  protected complete(u: UtteranceHandle<V>): void {
    if (!u.outcome) {
      u.outcome = 'complete';
      u.audio.end();
    }
    this.settle(u);
  }

  /** `u` failed at the vendor. */
  protected failUtterance(u: UtteranceHandle<V>, error: VendorError): void {
    if (!u.outcome) {
      u.outcome = 'failed';
      u.audio.fail(error);
    }
    this.settle(u);
  }

  /** The vendor is done with `u`: the wire is free for the next utterance. */
  protected settle(u: UtteranceHandle<V>): void {
    if (u.settled) return;
    u.settled = true;
    this.utterances.delete(u.wireId);
    this.base.onMetrics?.({ provider: this.provider, ...u.metrics });
    this.pump();
  }

  /** The unsettled utterance with this vendor context id. */
  protected byWireId(wireId: string): UtteranceHandle<V> | undefined {
    return this.utterances.get(wireId);
  }

  /** The utterance on the wire (serial vendors): the oldest unsettled one that has started. */
  protected onWire(): UtteranceHandle<V> | undefined {
    for (const u of this.utterances.values()) return u.started ? u : undefined;
    return undefined;
  }

  /** Started, unsettled utterances (e.g. the contexts a keepalive must touch). */
  protected live(): UtteranceHandle<V>[] {
    return [...this.utterances.values()].filter((u) => u.started);
  }

  /** Call after every send: re-arms the keepalive timer. */
  protected noteSent(): void {
    this.keepaliveTimer?.refresh();
  }

  /**
   * The socket closed without us asking. Utterances on the wire fail (their audio is lost); the ones still
   * waiting are sent once a new socket is open, which is opened now so the next turn finds it warm.
   */
  protected linkLost(error: VendorError): void {
    if (this.state === 'closed') return;
    this.state = 'down';
    this.stopKeepalive();
    for (const u of [...this.utterances.values()]) if (u.started) this.failUtterance(u, error);
    if (this.utterances.size > 0) {
      this.ensureLink();
    } else if (this.idleReconnects < MAX_IDLE_RECONNECTS) {
      this.idleReconnects += 1;
      this.ensureLink();
    }
    // Otherwise the vendor keeps closing a socket nobody uses: stop, and reopen for the next utterance.
  }

  /** Reconnects since an utterance last used the socket. */
  private idleReconnects = 0;

  // ---- the session ---------------------------------------------------------------------------------------

  /** Opens the socket for the first time (with retries); {@link TtsProvider.connect} awaits this. */
  async open(signal?: AbortSignal): Promise<void> {
    this.state = 'connecting';
    const attempt = this.connectWithRetry(signal).then(
      () => this.linkUp(),
      (error: unknown) => {
        if (this.state !== 'closed') this.state = 'down';
        throw error;
      },
    );
    this.connecting = attempt.finally(() => (this.connecting = undefined));
    await this.connecting;
  }

  utterance(id: string, language?: string): TtsUtterance {
    if (this.state === 'closed') throw new VendorError(this.provider, 'session is closed', false);
    let wireId = id;
    for (let n = 2; this.usedWireIds.has(wireId); n += 1) wireId = `${id}-${n}`;
    this.usedWireIds.add(wireId);
    const u = new UtteranceHandle<V>(id, wireId, this.newVendorState(), this, language);
    this.utterances.set(wireId, u);
    this.pump();
    return u;
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasUp = this.state === 'up';
    this.state = 'closed';
    this.stopKeepalive();
    for (const u of [...this.utterances.values()]) {
      if (!u.outcome) {
        u.outcome = 'cancelled';
        u.audio[Symbol.asyncIterator]().return?.();
      }
      u.settled = true;
    }
    this.utterances.clear();
    if (!wasUp) {
      this.dropLink();
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const cut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.base.closeTimeoutMs);
      timer.unref();
    });
    await Promise.race([this.closeLink().catch(() => undefined), cut]);
    clearTimeout(timer);
    this.dropLink();
  }

  /** Called by the handle: queue `op` and send it as soon as the socket and the utterance's turn allow. */
  submit(u: UtteranceHandle<V>, op: Op): void {
    u.pending.push(op);
    this.pump();
  }

  /**
   * Barge-in: `audio` ends now, dropping anything not yet read, whatever the vendor does next. An
   * utterance the vendor never heard of is dropped without a word on the wire.
   */
  cancelUtterance(u: UtteranceHandle<V>): void {
    u.outcome = 'cancelled';
    // AsyncQueue's return() ends the queue and discards what is buffered: exactly barge-in semantics.
    u.audio[Symbol.asyncIterator]().return?.();
    u.pending.length = 0;
    if (!u.started || this.state !== 'up') {
      this.settle(u);
      return;
    }
    let settledNow = true;
    try {
      settledNow = this.sendCancel(u);
    } catch {
      // The socket is going away; its close handler fails whatever else was on it.
    }
    if (settledNow) this.settle(u);
  }

  // ---- internals -------------------------------------------------------------------------------------------

  /** Moves work forward: starts utterances whose turn has come and sends their queued operations. */
  private pump(): void {
    // Sending can settle an utterance (an empty end completes at once), which pumps again: run the loop
    // once more instead of nesting.
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.pumpOnce();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  private pumping = false;
  private pumpAgain = false;

  private pumpOnce(): void {
    if (this.state !== 'up') {
      if (this.utterances.size > 0) this.ensureLink();
      return;
    }
    for (const u of [...this.utterances.values()]) {
      if (u.settled) continue;
      try {
        if (!u.started) {
          // Utterances start in order: none overtakes one that waits for room.
          if (!this.hasRoom()) return;
          u.started = true;
          this.idleReconnects = 0;
          this.begin(u);
        }
        for (let op = u.pending.shift(); op && !u.outcome; op = u.pending.shift()) {
          if (op.text.trim().length > 0) u.firstTextSentAtMs ??= performance.now();
          const text = this.pronounce(op.text);
          if (op.type === 'phrase') this.sendPhrase(u, text);
          else this.sendEnd(u, text);
        }
      } catch (error) {
        this.failUtterance(u, toVendorError(this.provider, error));
      }
      if (this.serial && !u.settled) return;
    }
  }

  /** Opens a socket when none is open or opening; failures fail the utterances that were waiting for it. */
  private ensureLink(): void {
    if (this.state !== 'down' || this.connecting) return;
    this.state = 'connecting';
    this.connecting = this.connectWithRetry()
      .then(
        () => this.linkUp(),
        (error: unknown) => {
          if (this.state === 'closed') return;
          this.state = 'down';
          const failure = toVendorError(this.provider, error);
          for (const u of [...this.utterances.values()]) this.failUtterance(u, failure);
        },
      )
      .finally(() => (this.connecting = undefined));
  }

  private linkUp(): void {
    if (this.state === 'closed') {
      this.dropLink();
      return;
    }
    this.state = 'up';
    if (this.keepaliveMs !== undefined) {
      this.keepaliveTimer = setInterval(() => {
        if (this.state === 'up') this.keepalive();
      }, this.keepaliveMs);
      this.keepaliveTimer.unref();
    }
    this.pump();
  }

  private stopKeepalive(): void {
    if (this.keepaliveTimer) clearInterval(this.keepaliveTimer);
    this.keepaliveTimer = undefined;
  }

  private connectWithRetry(signal?: AbortSignal): Promise<void> {
    return connectWithRetry(this.provider, this.base, (s) => this.openLink(s), signal, () => this.state === 'closed');
  }
}

/** A provider built from a session class: `connect` creates a session and opens its socket. */
export function providerOf<V>(id: TtsProviderId, create: (options: TtsOptions) => TtsSessionBase<V>): TtsProvider {
  return {
    id,
    async connect(options, signal) {
      const session = create(options);
      await session.open(signal);
      return session;
    },
  };
}
