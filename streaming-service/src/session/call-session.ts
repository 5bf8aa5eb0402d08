import { describeError, log } from '../../../lib/observability/log.js';
import type { CallCapability } from '../../../lib/domain/provider-key.js';
import type { Agent } from '../../../lib/domain/agent.js';
import type { Contact } from '../../../lib/domain/contact.js';
import type { CallEndReason } from '../../../lib/domain/history.js';
import type { CallTransfer } from '../../../lib/domain/call.js';
import type { DtmfShortcut } from '../../../lib/domain/agent.js';
import type { Tool } from '../../../lib/domain/tool.js';
import type { LlmProvider } from '../../../lib/vendors/llm/port.js';
import type { SttProvider } from '../../../lib/vendors/stt/port.js';
import type { TtsProvider, TtsSession } from '../../../lib/vendors/tts/port.js';
import { bytesPerMs } from '../../../lib/vendors/shared/audio-format.js';
import { decodeToPcm, rms } from '../../../lib/vendors/shared/pcm.js';
import { FrameQueue, sttEventToFrame, type EndCause, type Frame } from '../frames.js';
import { CallRecorder } from '../end/recording.js';
import type { HttpToolOptions } from '../tools/http.js';
import type { MediaTransport, SessionNotice } from '../transport/port.js';
import { ToolCallCache } from '../tools/idempotency.js';
import { buildCallTools, type CallTools } from '../tools/registry.js';
import { DEFAULT_SESSION_OPTIONS, type CallOutcome, type CallSetup, type SessionOptions, type SessionServices } from '../call/types.js';
import { AudioOut } from './audio-out.js';
import { scheduleCallLimit, stoppedAtLimit, type CallLimitTimers } from './call-limit.js';
import { Keypad } from './dtmf.js';
import { coldTransfer, movedByTransfer, transferRecord, warmTransfer, WarmAttempt, type SessionTelephony, type TransferResult } from './transfer.js';
import { Conversation } from '../conversation/conversation.js';
import { endOfTurnWaitMs, turnTakingSettings, type TurnTakingSettings } from './end-of-turn.js';
import { CallerFloor } from './floor.js';
import { interruptionSettings } from './interruption.js';
import { contactVariables, fillTemplate } from '../conversation/prompt.js';
import { runReply } from './reply.js';
import { type TurnLatency } from '../call/latency.js';
import { Speaker } from './speaker.js';
import { SpeechHandle } from './speech-handle.js';
import { SilenceWatch, silenceSettings } from './silence.js';
import { LlmChain, type LlmChoice } from '../conversation/llm-chain.js';
import { SttLink, type SttLinkOptions } from './stt-link.js';
import { CallStateMachine, type CallState } from './state.js';
import { TurnDetector } from './turn-detector.js';

/** The failure apology gets this long to play; marks that never come back must not hold a broken call open. */
const FAILURE_PLAYOUT_CAP_MS = 10_000;

const REASONS: Record<EndCause, CallEndReason> = {
  stop: 'customer_hangup',
  socket_closed: 'customer_hangup',
  agent_hangup: 'agent_hangup',
  transferred: 'transferred',
  max_duration: 'max_duration',
  silence_timeout: 'silence_timeout',
  error: 'error',
};

/**
 * One phone call: the orchestrator. It owns the state machine, the turn detector, the current speech handle
 * and the outbound audio; replies (LLM, tools, TTS) run in {@link runReply}, on the turn loop text chats share (turn-loop.ts). All inputs arrive as frames on
 * one queue (system frames first), so the order of decisions is the order of events.
 */
export class CallSession {
  readonly state = new CallStateMachine((change) => this.onStateChange(change.to));
  readonly frames = new FrameQueue<Frame>();
  readonly conversation: Conversation;
  readonly tools: CallTools;
  readonly out: AudioOut;
  readonly recorder: CallRecorder;
  readonly latencies: TurnLatency[] = [];
  readonly llmUsage = { inputTokens: 0, outputTokens: 0 };
  /** Tool call ids already run: a call is executed once, whatever interrupts its reply. */
  readonly executedToolCalls = new Set<string>();
  /** Tool results by tool and arguments: the model asking the same thing again gets the first answer. */
  readonly toolCache = new ToolCallCache();
  /** How many filler and "still working" phrases were said, to take the next one in turn. */
  readonly waitingPhrasesSaid = { filler: 0, stillWorking: 0 };
  readonly options: SessionOptions;
  /** The transcription stream, reopened on failure (stt-link.ts). */
  readonly stt: SttLink;
  /** The models a turn is tried on: the agent's own, then its fallbacks (llm-chain.ts). */
  readonly llm: LlmChain;
  private ttsSession: Promise<TtsSession>;
  private current: SpeechHandle | undefined;
  /** Turn ends only: whether caller speech interrupts is the floor's decision (VAD, words, backchannels). */
  private readonly turns = new TurnDetector();
  readonly floor: CallerFloor;
  readonly silence: SilenceWatch;
  private readonly turnTaking: TurnTakingSettings;
  /** A turn that ended on an unfinished-looking fragment, waiting for the rest (end-of-turn.ts). */
  private heldTurn: { text: string; sinceMs: number; timer: NodeJS.Timeout } | undefined;
  private handles = 0;
  /** Consecutive replies the model failed; a third in a row ends the call (the model is down). */
  private replyFailures = 0;
  private lastVoicedAtMs = 0;
  private readonly startMs = performance.now();
  private limit: CallLimitTimers | undefined;
  private silenceTimer: NodeJS.Timeout | undefined;
  private lastActivityMs = performance.now();
  /** DTMF digits the caller pressed, in order. */
  readonly dtmfDigits: string[] = [];
  private readonly keypad: Keypad;
  /** A transfer under way: a stream that stops meanwhile was moved by it, not hung up. */
  private transferring: { destination: string; mode: 'cold' | 'warm'; warm?: WarmAttempt } | undefined;
  private lastTransfer: CallTransfer | undefined;
  /** A stream stop during a transfer is being looked into (endAfterTransferStop). */
  private endPending = false;
  private endCause: EndCause | undefined;
  /** Resolves with the outcome once the call is over. */
  readonly ended: Promise<CallOutcome>;
  private resolveEnded!: (o: CallOutcome) => void;
  readonly systemPrompt: string;

  constructor(
    readonly setup: CallSetup,
    readonly services: SessionServices,
    private readonly transport: MediaTransport,
    options: Partial<SessionOptions> = {},
  ) {
    this.options = { ...DEFAULT_SESSION_OPTIONS, ...options };
    const vars = contactVariables(setup.contact);
    this.systemPrompt = fillTemplate(setup.agent.system_prompt, vars);
    this.conversation = new Conversation(this.systemPrompt);
    this.tools = buildCallTools(setup.tools, { transferMode: setup.agent.transfer_mode, optOut: services.optOut !== undefined });
    this.keypad = new Keypad(setup.agent.dtmf_shortcuts ?? {}, {
      shortcut: (_key, shortcut) => void this.runShortcut(shortcut),
      input: (text) => this.onUserTurn(text, performance.now()),
    });
    this.recorder = new CallRecorder(Math.ceil(this.options.maxDurationMs / 1000), transport.format);
    // Audio is kept for the recording only when the agent records: half an hour of two tracks is ~60 MB.
    const recording = setup.agent.recording_enabled;
    this.out = new AudioOut(transport, {
      onAudioSent: (handleId, audio, sentAt, playAt) => {
        if (recording) this.recorder.addAgent(audio, playAt - this.startMs);
        if (this.current?.id === handleId) this.onFirstAudio(handleId, sentAt);
      },
      onCleared: (atMs) => {
        if (recording) this.recorder.cutAgent(atMs - this.startMs);
      },
    });
    this.silence = new SilenceWatch(silenceSettings(setup.agent.silence), this.options.silenceTimeoutMs);
    this.turnTaking = turnTakingSettings(setup.agent.turn_taking);
    this.floor = new CallerFloor(interruptionSettings(setup.agent.interruption), transport.format.sampleRate as 8_000 | 16_000, {
      activity: () => {
        const active = this.current !== undefined && !this.current.interrupted && this.interruptible();
        return { active, audible: active && (this.out.isPaused || this.out.isBusy()) };
      },
      pause: () => this.out.pause(),
      resume: () => this.out.resume(),
      interrupt: (atMs) => this.interrupt(atMs),
    });
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
    this.llm = new LlmChain({ provider: services.llm, model: setup.agent.llm_model }, services.llmFallbacks, { callId: setup.callId });
    this.stt = new SttLink(
      [services.stt, ...(services.sttFallbacks ?? [])],
      {
        language: this.options.language,
        endpointingMs: this.options.endpointingMs,
        utteranceEndMs: this.options.utteranceEndMs,
        format: transport.format,
      },
      (event) => this.push(sttEventToFrame(event)),
      (error) => {
        if (!this.state.isEnding) this.fail('stt', error);
      },
      { callId: setup.callId },
      this.options.sttLink,
    );
    // Vendor sockets open now, before the first turn, and stay open for the call (no per-turn handshake).
    this.ttsSession = this.connectVoice({ provider: services.tts, voiceId: setup.agent.tts_voice_id });
    this.ttsSession.catch(() => undefined);
  }

  /** The messages for the next LLM request (turn-loop.ts). */
  messages() {
    return this.conversation.messages();
  }

  /**
   * Opens a voice; when the vendor refuses it (an unknown voice id, a bad key, an outage that outlasts the
   * adapter's retries) the agent's next fallback voice is opened instead, so a wrong voice id costs the
   * call its first choice of voice, not the call.
   */
  private connectVoice(voice: { readonly provider: TtsProvider; readonly voiceId: string }): Promise<TtsSession> {
    return voice.provider.connect({ voiceId: voice.voiceId, format: this.transport.format }).catch((error: unknown) => {
      const next = this.services.ttsFallbacks?.[this.ttsFallbacksUsed];
      if (!next || this.state.isEnding) throw error;
      this.ttsFallbacksUsed += 1;
      log('warn', 'tts voice refused; switching to the fallback voice', { callId: this.setup.callId, provider: next.provider.id, ...describeError(error) });
      return this.connectVoice(next);
    });
  }

  /** Milliseconds since the stream started. */
  get elapsedMs(): number {
    return performance.now() - this.startMs;
  }

  /** The handle currently speaking or thinking, if any. */
  get currentHandle(): SpeechHandle | undefined {
    return this.current;
  }

  /** Starts the call: vendor streams, the greeting, and the frame loop. */
  start(): void {
    this.limit = scheduleCallLimit(
      this.options.maxDurationMs,
      this.options.closingLineBeforeMs,
      () => void this.sayClosingLine(),
      () => this.end('max_duration'),
    );
    // Checked every second: a re-prompt a second late is not noticed; one timer a second per call is cheap.
    this.silenceTimer = setInterval(() => this.checkSilence(), Math.min(1_000, this.options.silenceTimeoutMs));
    this.silenceTimer.unref?.();
    void this.stt.run();
    const greeting = fillTemplate(this.setup.agent.first_message, contactVariables(this.setup.contact)).trim();
    if (greeting) {
      this.state.go('greeting');
      const handle = this.newHandle('greeting');
      const entry = this.conversation.addAgent(handle);
      entry.rounds.push({ generated: greeting, toolCalls: [], results: new Map() });
      void this.speakLine(handle, greeting).then(() => this.afterUtterance(handle));
    } else {
      this.state.go('listening');
    }
    void this.loop();
  }

  /** The line is quiet (agent idle, caller silent): re-prompt the caller, or end the call (silence.ts). */
  private checkSilence(): void {
    const now = performance.now();
    if (this.current && !this.current.settled) this.lastActivityMs = now;
    if (this.state.state !== 'listening') return;
    const decision = this.silence.check(now - this.lastActivityMs);
    if (decision === 'end') this.end('silence_timeout');
    else if (decision === 'reprompt') {
      this.lastActivityMs = now;
      this.sayLine(this.silence.settings.repromptMessage);
    }
  }

  /** Twilio input and STT events enter here as frames. */
  push(frame: Frame): void {
    this.frames.push(frame);
  }

  /** Ends the call (idempotent): stops everything, then resolves {@link ended}. */
  end(cause: EndCause): void {
    if (this.endCause || this.endPending) return;
    const streamStopped = cause === 'stop' || cause === 'socket_closed';
    if (streamStopped && this.transferring) {
      // Either the transfer moved the call (a redirect ends the stream) or the caller hung up meanwhile.
      this.endPending = true;
      void this.endAfterTransferStop(cause, this.transferring);
      return;
    }
    if (streamStopped && stoppedAtLimit(this.elapsedMs, this.options.maxDurationMs)) cause = 'max_duration';
    this.endCause = cause;
    this.frames.push({ kind: 'end', reason: cause, atMs: performance.now() });
  }

  /** The stream stopped during a transfer: a call still up at Twilio was moved (transferred), else hung up. */
  private async endAfterTransferStop(cause: EndCause, pending: NonNullable<CallSession['transferring']>): Promise<void> {
    const moved = await movedByTransfer(this.services.telephony, this.setup.callSid, pending.warm);
    this.endPending = false;
    pending.warm?.finish(moved ? 'bridged' : 'abandoned');
    const result: TransferResult = moved
      ? { ok: true, outcome: pending.mode === 'warm' ? 'accepted' : 'transferred' }
      : { ok: false, outcome: 'failed', reason: 'the caller hung up' };
    this.lastTransfer = transferRecord(pending.destination, pending.mode, result);
    this.end(moved ? 'transferred' : cause);
  }

  /**
   * A vendor failed mid-call after its retries: the call cannot go on without hearing or thinking. The
   * caller is told before the line goes dead (a silent hang-up sounds like a dropped call), unless speech
   * itself is what failed; the apology gets a bounded time to play.
   */
  fail(where: string, error: unknown): void {
    if (this.failing || this.endCause) return;
    this.failing = true;
    log('error', 'call failed', { where, callId: this.setup.callId, ...describeError(error) });
    if (where === 'tts' || this.state.isEnding || this.state.state === 'transferring') return this.end('error');
    if (this.current) this.interrupt(performance.now());
    const { handle } = this.sayLine(this.options.failurePhrase);
    const cap = setTimeout(() => this.end('error'), FAILURE_PLAYOUT_CAP_MS);
    cap.unref?.();
    void handle.whenSettled().then(() => this.end('error'));
  }

  private failing = false;

  private newHandle(purpose: SpeechHandle['purpose']): SpeechHandle {
    this.handles += 1;
    const handle = new SpeechHandle(`h${this.handles}`, purpose, bytesPerMs(this.transport.format));
    this.current = handle;
    return handle;
  }

  /** Speaks fixed text (greeting, goodbye) as its own utterance. */
  async speakLine(handle: SpeechHandle, text: string): Promise<void> {
    const speaker = await this.speakerFor(handle);
    if (!speaker) return;
    speaker.say(text, 0);
    speaker.end();
    await handle.whenSettled();
  }

  /** A speaker on the warm TTS session, or undefined when TTS is unavailable (the call then ends). */
  async speakerFor(handle: SpeechHandle): Promise<Speaker | undefined> {
    try {
      const tts = await this.ttsSession;
      return new Speaker(handle, tts, this.out, (error) => this.fail('tts', error), (failed) => this.nextTts(failed), () => this.captionAgent(handle, false));
    } catch (error) {
      this.fail('tts', error);
      handle.finishProducing();
      return undefined;
    }
  }

  /**
   * The TTS session `failed` stays down: the call switches to the agent's next fallback voice (once per
   * failed session, whoever asks), or undefined when there is none left.
   */
  nextTts(failed: TtsSession): Promise<TtsSession | undefined> {
    if (this.ttsSwitch?.from === failed) return this.ttsSwitch.to;
    const next = this.services.ttsFallbacks?.[this.ttsFallbacksUsed];
    if (!next || this.state.isEnding) return Promise.resolve(undefined);
    this.ttsFallbacksUsed += 1;
    log('warn', 'tts vendor down; switching to the fallback voice', { callId: this.setup.callId, provider: next.provider.id });
    const to = this.connectVoice(next);
    this.ttsSession = to;
    this.ttsSession.catch(() => undefined);
    void failed.close().catch(() => undefined);
    this.ttsSwitch = { from: failed, to: to.catch(() => undefined) };
    return this.ttsSwitch.to;
  }

  private ttsFallbacksUsed = 0;
  private ttsSwitch: { from: TtsSession; to: Promise<TtsSession | undefined> } | undefined;

  private onFirstAudio(handleId: string, atMs: number): void {
    const latency = this.latencies.find((l) => l.handleId === handleId);
    if (latency && latency.firstAudioAtMs === undefined) latency.firstAudioAtMs = atMs;
    if (this.state.state === 'thinking') this.state.go('speaking');
  }

  /** What the caller sees of the agent's words (a browser caller): the phrases so far, then what was heard. */
  private captionAgent(handle: SpeechHandle, final: boolean): void {
    const text = final ? handle.playedText() : handle.phrases.map((p) => p.text).join(' ');
    if (text.trim()) this.notify({ type: 'caption', role: 'agent', text, final });
  }

  private notify(notice: SessionNotice): void {
    if (!this.endCause) this.transport.notify(notice);
  }

  private onStateChange(to: CallState): void {
    const shown = to === 'greeting' ? 'speaking' : to;
    if (shown === 'listening' || shown === 'thinking' || shown === 'speaking') this.notify({ type: 'state', state: shown });
  }

  /** Back to listening once the current utterance is over, unless something else took over. */
  afterUtterance(handle: SpeechHandle): void {
    this.captionAgent(handle, true);
    if (this.current !== handle || this.state.isEnding || this.state.state === 'transferring') return;
    this.current = undefined;
    this.floor.onUtteranceGone();
    if (this.state.canGo('listening')) this.state.go('listening');
  }

  private async loop(): Promise<void> {
    for await (const frame of this.frames) {
      try {
        if (frame.kind === 'end') {
          await this.finish(frame.reason);
          return;
        }
        this.onFrame(frame);
      } catch (error) {
        this.fail('session', error);
      }
    }
  }

  private onFrame(frame: Frame): void {
    switch (frame.kind) {
      case 'caller_audio': {
        // Decoded once: the recording, the level and the voice-activity detector all read the samples.
        const pcm = decodeToPcm(frame.audio, this.transport.format);
        if (this.setup.agent.recording_enabled) this.recorder.addCaller(pcm, frame.timestampMs);
        if (rms(pcm) >= this.options.voiceRms) {
          this.lastVoicedAtMs = frame.atMs;
          this.lastActivityMs = frame.atMs;
          // The caller is talking again: a held fragment waits for the words that follow.
          if (this.heldTurn) this.holdTurn(this.heldTurn.text, this.heldTurn.sinceMs);
        }
        this.floor.onAudio(pcm, frame.atMs);
        this.stt.sendAudio(frame.audio);
        return;
      }
      case 'mark_echo':
        if (!this.out.acceptEcho(frame.name)) return;
        // Echoes for earlier handles (flushed by a clear) settle those handles too.
        for (const entry of this.conversation.entries) if (entry.type === 'agent') entry.handle.onMarkEcho(frame.name);
        return;
      case 'speech_started':
      case 'transcript':
      case 'utterance_end': {
        if (frame.kind === 'transcript' && frame.text.trim()) {
          this.notify({ type: 'caption', role: 'user', text: frame.text, final: frame.isFinal });
          this.resumeHeldTurn();
        }
        const decisions = this.turns.onFrame(frame);
        if (frame.kind === 'transcript' && decisions.length === 0) this.floor.onTranscript(this.turns.pendingText, frame.atMs);
        for (const decision of decisions) {
          if (this.floor.onTurnEnd(decision.text, decision.atMs)) this.onTurnEnded(decision.text, decision.atMs);
        }
        return;
      }
      case 'dtmf':
        this.dtmfDigits.push(frame.digit);
        this.keypad.press(frame.digit);
        return;
    }
  }

  private interruptible(): boolean {
    const s = this.state.state;
    return s === 'greeting' || s === 'thinking' || s === 'speaking';
  }

  /**
   * Barge-in: abort the utterance (LLM stream, TTS, queued audio), tell Twilio to drop what it buffered,
   * and settle the marks that never left. Tool calls already made are not touched (see runReply).
   */
  interrupt(atMs: number): void {
    const handle = this.current;
    if (!handle || handle.interrupted) return;
    handle.interrupt(atMs, this.out.heardBytes(handle.id));
    this.captionAgent(handle, true);
    this.floor.onUtteranceGone();
    for (const name of this.out.clear(handle.id)) handle.onMarkEcho(name);
    this.interruptions.push({ handleId: handle.id, atMs, clearedAtMs: performance.now() });
    this.current = undefined;
    if (this.state.canGo('listening')) this.state.go('listening');
  }

  /** Barge-ins: caller speech event time and when `clear` went out (performance.now()). */
  readonly interruptions: { handleId: string; atMs: number; clearedAtMs: number }[] = [];

  /**
   * The recognizer ended a turn the agent should answer: at once, or, when the words stop where a sentence
   * cannot (end-of-turn.ts), after the agent's `unfinished_wait_ms` without the caller going on.
   */
  private onTurnEnded(text: string, atMs: number): void {
    if (endOfTurnWaitMs(text, this.turnTaking) === 0) return this.onUserTurn(text, atMs);
    this.holdTurn(text);
  }

  /**
   * (Re)starts the wait on a held fragment. Voiced caller audio restarts it, so a caller slow to get going
   * again is not cut off; but never past twice the wait in all, or a loud room (a television, traffic) would
   * hold the turn forever: real words reach the recognizer well within that and take over the turn.
   */
  private holdTurn(text: string, sinceMs = performance.now()): void {
    if (this.heldTurn) clearTimeout(this.heldTurn.timer);
    const wait = this.turnTaking.unfinishedWaitMs;
    const timer = setTimeout(() => {
      this.heldTurn = undefined;
      // The turn ends now: latency figures count from here, not from the fragment's end.
      this.onUserTurn(text, performance.now());
    }, Math.max(0, Math.min(wait, sinceMs + 2 * wait - performance.now())));
    timer.unref?.();
    this.heldTurn = { text, sinceMs, timer };
  }

  /** The caller went on after a held fragment: its words lead the turn being spoken. */
  private resumeHeldTurn(): void {
    const held = this.heldTurn;
    if (!held) return;
    clearTimeout(held.timer);
    this.heldTurn = undefined;
    this.turns.restore(held.text);
  }

  private onUserTurn(text: string, atMs: number): void {
    if (this.state.isEnding || this.state.state === 'transferring' || this.failing) return;
    if (this.current) this.interrupt(atMs);
    this.silence.onCallerSpoke();
    this.conversation.addUser(text);
    const handle = this.newHandle('reply');
    const entry = this.conversation.addAgent(handle);
    const latency: TurnLatency = {
      handleId: handle.id,
      sttFinalAtMs: atMs,
      sttMs: this.lastVoicedAtMs > 0 ? Math.max(0, atMs - this.lastVoicedAtMs) : undefined,
    };
    this.latencies.push(latency);
    this.state.go('thinking');
    void runReply(this, handle, entry, latency)
      .then(() => {
        this.replyFailures = 0;
      })
      .catch((error: unknown) => this.onReplyFailed(handle, error))
      .finally(() => this.afterUtterance(handle));
  }

  /**
   * The LLM failed after its own retries. One bad request should not cost the caller the call: apologize
   * and listen again; only repeated failures end it.
   */
  private onReplyFailed(handle: SpeechHandle, error: unknown): void {
    this.replyFailures += 1;
    if (this.replyFailures >= 3 || this.state.isEnding) return this.fail('llm', error);
    log('warn', 'reply failed', { callId: this.setup.callId, ...describeError(error) });
    // runReply has already waited for the failed handle to settle: what it played stays in the transcript.
    if (this.current !== handle || handle.interrupted) return;
    this.sayLine(this.options.apologyPhrase);
  }

  /**
   * Moves the caller to `to` (transfer.ts): cold at once, warm once the target accepted. On success the
   * session ends as `transferred`; otherwise the call goes on and the result says why.
   */
  async transfer(to: string, mode: 'cold' | 'warm' = 'cold', summary = ''): Promise<TransferResult> {
    if (this.state.isEnding || this.transferring) return { ok: false, outcome: 'failed', reason: 'a transfer is already under way' };
    const warm = mode === 'warm' ? new WarmAttempt() : undefined;
    this.transferring = { destination: to, mode, warm };
    const t = this.services.telephony;
    const result = warm ? await warmTransfer(t, to, summary || this.transferSummary(), warm) : await coldTransfer(t, this.setup.callSid, to);
    // A stream stop while this ran is being settled by endAfterTransferStop, which keeps its own record.
    if (this.endCause || this.endPending) {
      this.transferring = undefined;
      return result;
    }
    this.transferring = undefined;
    this.lastTransfer = transferRecord(to, mode, result);
    if (!result.ok) return result;
    this.services.onTransfer?.(to);
    if (this.state.canGo('transferring')) this.state.go('transferring');
    this.end('transferred');
    return result;
  }

  /** For a warm transfer started without the model (a keypad shortcut): who is calling, and their last words. */
  private transferSummary(): string {
    const who = this.setup.contact?.contactName || this.setup.callerNumber || 'A caller';
    const lastWords = this.conversation.entries.findLast((e) => e.type === 'user');
    const said = lastWords?.type === 'user' ? ` Their last words were: ${lastWords.text}` : '';
    return `${who} is on the line for you.${said}`;
  }

  /** A keypad shortcut: acts without the model, with a short line so the caller knows what is happening. */
  private async runShortcut(shortcut: DtmfShortcut): Promise<void> {
    if (this.state.isEnding || this.state.state === 'transferring') return;
    if (this.current) this.interrupt(performance.now());
    if (shortcut.action === 'end_call') {
      await this.sayLine(this.options.goodbyePhrase).done;
      this.end('agent_hangup');
      return;
    }
    await this.sayLine(this.options.transferHoldPhrase).done;
    const result = await this.transfer(shortcut.destination, shortcut.mode);
    if (!result.ok && !this.state.isEnding) await this.sayLine(this.options.transferFailedPhrase).done;
  }

  /** Says the closing line before the duration limit, after whatever the agent is saying now. */
  private async sayClosingLine(): Promise<void> {
    await this.current?.whenSettled();
    if (this.state.isEnding || this.state.state === 'transferring') return;
    await this.sayLine(this.options.closingPhrase).done;
  }

  /** Speaks a fixed line as its own utterance, kept in the transcript, and listens again after it. */
  private sayLine(text: string): { readonly handle: SpeechHandle; readonly done: Promise<void> } {
    const handle = this.newHandle('line');
    const entry = this.conversation.addAgent(handle);
    entry.rounds.push({ generated: text, toolCalls: [], results: new Map() });
    if (this.state.canGo('thinking')) this.state.go('thinking');
    const done = this.speakLine(handle, text).then(() => this.afterUtterance(handle));
    return { handle, done };
  }


  private async finish(cause: EndCause): Promise<void> {
    this.limit?.cancel();
    if (this.heldTurn) clearTimeout(this.heldTurn.timer);
    this.heldTurn = undefined;
    this.keypad.close();
    if (this.silenceTimer) clearInterval(this.silenceTimer);
    this.floor.close();
    if (!this.state.isEnding) this.state.go('ending');
    const handle = this.current;
    // Cut where the caller stopped hearing it (a hang-up mid-sentence): history keeps those words, marked.
    if (handle && !handle.settled) handle.interrupt(performance.now(), this.out.heardBytes(handle.id));
    for (const entry of this.conversation.entries) if (entry.type === 'agent') entry.handle.abandon();
    this.out.close();
    if (cause === 'agent_hangup' || cause === 'max_duration' || cause === 'silence_timeout' || cause === 'error') await this.hangUp();
    // Closing the socket ends <Connect>; Twilio then runs the next verb or hangs up (transfers replaced it).
    this.transport.notify({ type: 'ended', reason: REASONS[cause] });
    this.transport.close(1000, cause);
    this.frames.close();
    await Promise.allSettled([this.stt.close(), this.ttsSession.then((s) => s.close())]);
    this.resolveEnded({
      setup: this.setup,
      reason: REASONS[cause],
      endedAt: Date.now(),
      transcript: this.conversation.transcript(),
      conversation: this.conversation,
      recorder: this.recorder,
      latencies: this.latencies,
      llmUsage: this.llmUsage,
      ...(this.lastTransfer ? { transfer: this.lastTransfer } : {}),
    });
  }

  /** Best effort: the socket closing hangs up anyway when there is no next TwiML verb. */
  private async hangUp(): Promise<void> {
    const t = this.services.telephony;
    try {
      const account = await t?.account();
      if (t && account) await t.port.updateCall(account, this.setup.callSid, { status: 'completed' });
    } catch {
      // Already ended (20404) or telephony unreachable: closing the stream below ends the call.
    }
  }
}
