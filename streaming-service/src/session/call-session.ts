import { loggerWith, type Logger } from '../../../lib/observability/log.js';
import { bytesPerMs } from '../../../lib/vendors/shared/audio-format.js';
import { decodeToPcm, rms } from '../../../lib/vendors/shared/pcm.js';
import { DEFAULT_SESSION_OPTIONS, type CallOutcome, type CallSetup, type SessionOptions, type SessionServices } from '../call/types.js';
import type { TurnLatency } from '../call/latency.js';
import { Conversation } from '../conversation/conversation.js';
import { agentLlmChain } from '../conversation/llm-chain.js';
import { callText, GREETING_INSTRUCTION } from '../conversation/prompt.js';
import { newTurnHost, type TurnHost } from '../conversation/turn-loop.js';
import { CallRecorder } from '../end/recording.js';
import { END_REASONS, FrameQueue, HANGS_UP, sttEventToFrame, type EndCause, type Frame } from '../frames.js';
import { buildCallTools } from '../tools/registry.js';
import type { MediaTransport } from '../transport/port.js';
import type { CallControl, ShortcutContext } from './action-context.js';
import { startBed } from './ambience.js';
import { AudioOut, recordedOut } from './audio-out.js';
import { scheduleCallLimit, stoppedAtLimit, type CallLimitTimers } from './call-limit.js';
import { Keypad } from './dtmf.js';
import { endOfTurnWaitMs, turnTakingSettings, type TurnTakingSettings } from './end-of-turn.js';
import { CallerFloor } from './floor.js';
import { FailurePolicy } from './failure.js';
import { greetingOf, type Greeting } from './greeting.js';
import { HeldTurn } from './held-turn.js';
import { preemptionOf, type Preemption } from './preemption.js';
import { interruptionSettings } from './interruption.js';
import { CallLanguage, promptWithLanguage, silenceIn } from './language.js';
import { sayClosingLine, sayLine, type LineContext } from './lines.js';
import { runReply, WaitingPhrases, type ReplyContext } from './reply.js';
import { runShortcut } from './shortcut.js';
import { QuietLine, SilenceWatch, silenceSettings } from './silence.js';
import { speakerOn, type Speaker } from './speaker.js';
import { realtimeFor, type RealtimeCall } from './realtime/realtime-call.js';
import { SpeechHandle } from './speech-handle.js';
import { inEndpointingSilence } from './stt-link.js';
import { Notices } from './notices.js';
import { CallStateMachine } from './state.js';
import { hangUpCall } from './transfer.js';
import { callerSummary, Transfers } from './transfers.js';
import { TurnDetector } from './turn-detector.js';
import { CallTimeline } from './timeline.js';
import { outcomeOf } from './outcome.js';
import { LiveControl } from './live-control.js';
import { AgentVoice, VoiceHandoffs } from './handoff.js';
import { CallTap } from '../live/tap.js';

/**
 * One phone call: the orchestrator. It owns the frame loop, the state machine, the current speech handle,
 * interruption, the caller's turn and the end. Everything else gets a narrow context (action-context.ts): a
 * reply or a keypad shortcut its `ActionContext`; fixed lines, transfers, the silence clock and the failure
 * policy the call's `CallControl`; the voice and the ears only their vendors and the call's logger. All inputs
 * arrive as frames on one queue (system frames first), so the order of decisions is the order of events.
 */
export class CallSession {
  /** Who listens in, and what the API may do while the call runs (docs/live-calls.md). */
  readonly tap = new CallTap();
  readonly live: LiveControl;
  private readonly notices: Notices;
  readonly state = new CallStateMachine((change) => this.notices.state(change.to));
  readonly frames = new FrameQueue<Frame>();
  readonly options: SessionOptions;
  /** The call's language: the agent's, or under `multi` the caller's latest (language.ts). */
  readonly language: CallLanguage;
  /** Bound to the call: every line its parts write carries its id and workspace. */
  readonly log: Logger;
  readonly conversation: Conversation<SpeechHandle>;
  /** The model chain, the tools and their bookkeeping, as the turn loop sees them (turn-loop.ts). */
  readonly turnHost: TurnHost;
  readonly out: AudioOut;
  readonly recorder: CallRecorder;
  readonly latencies: TurnLatency[] = [];
  /** Barge-ins: caller speech event time and when `clear` went out (performance.now()). */
  readonly interruptions: { handleId: string; atMs: number; clearedAtMs: number }[] = [];
  /** Resolves with the outcome once the call is over. */
  readonly ended: Promise<CallOutcome>;
  private resolveEnded!: (o: CallOutcome) => void;
  /** The voice (tts-link.ts) and the ears (stt-link.ts): the agent's, then a handoff destination's. */
  private readonly voice: AgentVoice;
  readonly handoffs: VoiceHandoffs;
  /** The speech-to-speech model carrying the call, when the agent sets `realtime` (realtime/realtime-call.ts). */
  readonly realtime: RealtimeCall | undefined;
  readonly floor: CallerFloor;
  /** Turn ends only: whether caller speech interrupts is the floor's decision (VAD, words, backchannels). */
  private readonly detector = new TurnDetector();
  private readonly turnTaking: TurnTakingSettings;
  private readonly held: HeldTurn;
  readonly preemption: Preemption;
  private readonly quiet: QuietLine;
  private readonly keypad: Keypad;
  private readonly transfers: Transfers;
  private readonly lines: LineContext;
  private readonly actions: ReplyContext;
  private readonly failures: FailurePolicy;
  readonly greeting: Greeting;
  private current: SpeechHandle | undefined;
  private handles = 0;
  private lastVoicedAtMs = 0;
  private readonly startMs = performance.now();
  /** What happened in the call, for GET /api/history/{id}/events (timeline.ts). */
  readonly timeline: CallTimeline;
  private limit: CallLimitTimers | undefined;
  private endCause: EndCause | undefined;

  constructor(
    readonly setup: CallSetup,
    readonly services: SessionServices,
    readonly transport: MediaTransport,
    options: Partial<SessionOptions> = {},
  ) {
    const { agent } = setup;
    const language = (this.language = new CallLanguage(agent.language ?? options.language ?? DEFAULT_SESSION_OPTIONS.language));
    const o = (this.options = language.withLines({ ...DEFAULT_SESSION_OPTIONS, ...options }, options));
    this.notices = new Notices({ notify: (n) => void (transport.notify(n), this.tap.event(n)) }, () => this.endCause !== undefined, setup.agentTest !== undefined);
    this.log = loggerWith({ callId: setup.callId, workspaceId: setup.workspaceId });
    this.timeline = new CallTimeline(this.startMs, services.knownSecrets);
    const prompt = callText(setup, agent.system_prompt);
    this.conversation = new Conversation(() => promptWithLanguage(prompt, language));
    this.greeting = greetingOf(agent, callText(setup, agent.first_message));
    this.turnHost = newTurnHost({
      llm: agentLlmChain(agent, services, this.log, (e, to) => this.timeline.fallback('llm', e, to)),
      tools: buildCallTools(setup.tools, { transferMode: agent.transfer_mode, optOut: services.optOut !== undefined, handoffs: setup.handoffs }),
      services,
      options: o,
      messages: () => this.conversation.messages(),
      onToolCall: (name, status, durationMs, args) => (this.timeline.note({ type: 'tool_call', name, status, durationMs }), this.notices.toolCall(name, args)),
      onTool: (name, phase, ok) => this.tap.event({ type: 'tool_call', name, phase, ...(ok === undefined ? {} : { ok }) }),
      knowledge: services.knowledge,
    });
    this.recorder = new CallRecorder(Math.ceil(o.maxDurationMs / 1000), transport.format);
    // Audio is kept for the recording only when the agent records: half an hour of two tracks is ~60 MB.
    this.out = new AudioOut(transport, recordedOut(agent.recording_enabled ? this.recorder : undefined, this.startMs, (handleId, sentAt, audio, playAt) => {
      if (this.tap.size > 0) this.tap.agent(decodeToPcm(audio, transport.format), playAt - this.startMs);
      if (this.current?.id === handleId) this.onFirstAudio(handleId, sentAt);
    }));
    startBed(this.out, services.ambience, transport.format, this.startMs, this.log, this.timeline);
    this.turnTaking = turnTakingSettings(agent.turn_taking, language.continuationWords);
    this.held = new HeldTurn(this.turnTaking.unfinishedWaitMs, (text, atMs) => this.onUserTurn(text, atMs));
    const idle = () => this.current === undefined && this.state.state === 'listening' && !this.failures.isFailing && !this.greeting.holding;
    this.preemption = preemptionOf(this.turnTaking, this.turnHost, this.conversation, services.realtime ? () => false : idle);
    this.floor = new CallerFloor(interruptionSettings(agent.interruption, language), transport.format.sampleRate as 8_000 | 16_000, {
      activity: () => {
        const speaking = this.current !== undefined && !this.current.interrupted && this.state.interruptible;
        const audible = speaking && (this.out.isPaused || this.out.isBusy());
        // A greeting the caller may not cut is still heard over: a backchannel over it is feedback.
        return { active: speaking && !this.greeting.protects(this.current), audible, replying: this.current?.purpose === 'reply' };
      },
      pause: () => this.out.pause(),
      resume: () => this.out.resume(),
      keep: (text, atMs) => this.greeting.hold(text, atMs),
      interrupt: (atMs) => this.interrupt(atMs),
      log: this.log,
    });
    this.lines = {
      state: this.state,
      conversation: this.conversation,
      newHandle: (purpose) => this.newHandle(purpose),
      speakerFor: (handle) => this.speakerFor(handle),
      afterUtterance: (handle) => this.afterUtterance(handle),
    };
    const control: CallControl = {
      log: this.log,
      state: this.state,
      current: () => this.current,
      interrupt: () => this.interrupt(performance.now()),
      say: (text) => sayLine(this.lines, text),
      end: (cause) => this.end(cause),
      isEnded: () => this.endCause !== undefined,
    };
    this.quiet = new QuietLine(new SilenceWatch(silenceIn(silenceSettings(agent.silence), agent.silence?.reprompt_message, language), o.silenceTimeoutMs), control, o.silenceTimeoutMs, () => o.goodbyePhrase);
    this.failures = new FailurePolicy(control, o, this.timeline);
    const { telephony, onTransfer } = services;
    this.transfers = new Transfers({ ...control, telephony, onTransfer, callSid: setup.callSid, summary: () => callerSummary(setup, this.conversation) });
    this.actions = {
      hasPhoneLine: telephony !== undefined,
      optOut: services.optOut,
      out: this.out,
      transfer: (to, mode, summary) => this.transfers.start(to, mode, summary),
      hangUp: () => this.end('agent_hangup'),
      handOff: (action, call, handle, quiet) => this.handoffs.take(action, call, handle, quiet),
      turns: this.turnHost,
      speakerFor: (handle) => this.speakerFor(handle),
      waiting: new WaitingPhrases(o),
      get goodbyePhrase() {
        return o.goodbyePhrase;
      },
    };
    this.live = new LiveControl({ ...control, conversation: this.conversation, agent, tap: this.tap, hasPhoneLine: this.actions.hasPhoneLine, transfer: this.actions.transfer });
    const shortcuts: ShortcutContext = { ...this.actions, ...control };
    this.keypad = new Keypad(agent.dtmf_shortcuts ?? {}, {
      shortcut: (_key, shortcut) => void runShortcut(shortcuts, shortcut, o),
      input: (text) => this.onUserTurn(text, performance.now()),
    });
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
    const sttDown = (error: unknown) => void (!this.state.isEnding && this.failures.fail('stt', error));
    const parts = { log: this.log, timeline: this.timeline, format: transport.format, language, options: o, isOver: () => this.state.isEnding, sttDown };
    // Vendor sockets open now, before the first turn, and stay open for the call (no per-turn handshake).
    this.voice = new AgentVoice(services, agent, { ...parts, heard: (event) => this.push(sttEventToFrame(event)) });
    const [active, reply] = [() => !this.state.isEnding && this.state.state !== 'transferring', () => this.reply(this.newHandle('reply'), performance.now())];
    this.handoffs = new VoiceHandoffs({ ...this.lines, log: this.log, turnHost: this.turnHost, language, active, useVoice: (a, s, ears) => this.voice.prepare(a, s, ears), reply, handedOver: (a) => this.notices.handedOver(a._id, a.name) }, setup, services);
    const rt = { setup, out: this.out, format: transport.format, log: this.log, timeline: this.timeline, current: () => this.current, interrupt: (at: number) => this.interrupt(at) };
    this.realtime = realtimeFor({ ...this.lines, ...this.actions, ...rt, heard: (text) => (this.notices.user(text, true), this.quiet.onCallerSpoke()), fellBack: () => void this.voice.stt.run() }, services.realtime);
  }

  /** Starts the call: vendor streams, the greeting, and the frame loop. */
  start(): void {
    const o = this.options;
    this.limit = scheduleCallLimit(o.maxDurationMs, o.closingLineBeforeMs, () => void sayClosingLine(this.lines, this.current, o.closingPhrase), () => this.end('max_duration'));
    this.quiet.start();
    if (this.realtime) this.realtime.start();
    else void this.voice.stt.run();
    const opening = this.realtime ? undefined : this.greeting.speaksFirst;
    this.state.go(opening ? 'greeting' : 'listening');
    if (opening === 'line') sayLine(this.lines, this.greeting.text, 'greeting');
    if (opening === 'model') this.reply(this.newHandle('greeting'), performance.now(), GREETING_INSTRUCTION);
    void this.loop();
  }

  /** Twilio input and STT events enter here as frames. */
  push(frame: Frame): void {
    this.frames.push(frame);
  }

  /** Ends the call (idempotent): stops everything, then resolves {@link ended}. */
  end(cause: EndCause): void {
    if (this.endCause || this.transfers.isSettling) return;
    const streamStopped = cause === 'stop' || cause === 'socket_closed';
    // During a transfer a stop is either the transfer moving the call or the caller hanging up meanwhile.
    if (streamStopped && this.transfers.settleStop(cause)) return;
    if (streamStopped && stoppedAtLimit(performance.now() - this.startMs, this.options.maxDurationMs)) cause = 'max_duration';
    this.endCause = cause;
    this.frames.push({ kind: 'end', reason: cause, atMs: performance.now() });
  }

  /**
   * Barge-in: abort the utterance (LLM stream, TTS, queued audio), tell Twilio to drop what it buffered,
   * and settle the marks that never left. Tool calls already made are not touched (see runReply).
   */
  interrupt(atMs: number): void {
    const handle = this.current;
    if (!handle || handle.interrupted) return;
    handle.interrupt(atMs, this.out.heardBytes(handle.id));
    this.notices.agent(handle, true);
    this.floor.onUtteranceGone();
    for (const name of this.out.clear(handle.id)) handle.onMarkEcho(name);
    this.interruptions.push({ handleId: handle.id, atMs, clearedAtMs: performance.now() });
    this.tap.event({ type: 'interruption', atMs: Math.max(0, atMs - this.startMs) });
    this.current = undefined;
    if (this.state.canGo('listening')) this.state.go('listening');
  }

  private async loop(): Promise<void> {
    for await (const frame of this.frames) {
      try {
        if (frame.kind === 'end') return await this.finish(frame.reason);
        this.onFrame(frame);
      } catch (error) {
        this.failures.fail('session', error);
      }
    }
  }

  private onFrame(frame: Exclude<Frame, { kind: 'end' }>): void {
    switch (frame.kind) {
      case 'caller_audio': {
        // Decoded once: the recording, the level and the voice-activity detector all read the samples.
        const pcm = decodeToPcm(frame.audio, this.transport.format);
        if (this.setup.agent.recording_enabled) this.recorder.addCaller(pcm, frame.timestampMs);
        this.tap.caller(pcm, frame.timestampMs);
        if (rms(pcm) >= this.options.voiceRms) {
          this.lastVoicedAtMs = frame.atMs;
          this.quiet.heard(frame.atMs);
          this.held.onVoice();
        }
        this.floor.onAudio(pcm, frame.atMs);
        this.preemption.onAudio(frame.atMs, this.lastVoicedAtMs, this.detector.pendingText);
        if (!this.realtime?.sendAudio(frame.audio)) this.voice.stt.sendAudio(frame.audio, inEndpointingSilence(frame.atMs - this.lastVoicedAtMs));
        return;
      }
      case 'mark_echo':
        if (!this.out.acceptEcho(frame.name)) return;
        // Echoes for earlier handles (flushed by a clear) settle those handles too.
        for (const entry of this.conversation.entries) if (entry.type === 'agent') entry.handle.onMarkEcho(frame.name);
        return;
      case 'dtmf':
        this.keypad.press(frame.digit);
        return;
      default: {
        if (frame.kind === 'transcript' && frame.text.trim()) {
          this.notices.user(frame.text, frame.isFinal);
          if (frame.isFinal) this.language.heard(frame.language);
          // The caller went on after a held fragment: its words lead the turn being spoken.
          const held = this.held.take();
          if (held) this.detector.restore(held);
        }
        const decisions = this.detector.onFrame(frame);
        if (frame.kind === 'transcript' && decisions.length === 0) this.floor.onTranscript(this.detector.pendingText, frame.atMs), this.preemption.onWords(this.detector.pendingText, frame.atMs);
        for (const turn of decisions) if (this.floor.onTurnEnd(turn.text, turn.atMs)) this.onTurnEnded(turn.text, turn.atMs);
      }
    }
  }

  /**
   * The recognizer ended a turn the agent should answer: at once, or, when the words stop where a sentence
   * cannot (end-of-turn.ts), after the agent's `unfinished_wait_ms` without the caller going on.
   */
  private onTurnEnded(text: string, atMs: number): void {
    if (endOfTurnWaitMs(text, this.turnTaking) === 0) return this.onUserTurn(text, atMs);
    this.held.hold(text);
  }

  private onUserTurn(text: string, atMs: number): void {
    if (this.state.isEnding || this.state.state === 'transferring' || this.failures.isFailing) return void this.out.resume();
    // Words over a greeting the caller may not cut are answered once it has played.
    if (this.greeting.protects(this.current)) return this.greeting.hold(text, atMs);
    const kept = this.greeting.release();
    if (kept) text = `${kept.text} ${text}`;
    if (this.current) this.interrupt(atMs);
    this.quiet.onCallerSpoke();
    this.handoffs.callerSpoke();
    this.conversation.addUser(text, this.language.multi ? this.language.current : undefined);
    const opener = this.greeting.takeOpener();
    if (opener) {
      // wait_for_caller: the first message answers the caller's first words.
      this.state.go('thinking');
      sayLine(this.lines, opener, 'greeting');
      return;
    }
    const handle = this.newHandle('reply');
    const sttMs = this.lastVoicedAtMs > 0 ? Math.max(0, atMs - this.lastVoicedAtMs) : undefined;
    const latency: TurnLatency = { handleId: handle.id, sttFinalAtMs: atMs, sttMs };
    this.latencies.push(latency);
    this.state.go('thinking');
    this.reply(handle, atMs);
  }

  /**
   * The model's reply in `handle`; with `instruction` (a greeting the model writes), a message only the
   * model sees comes first. The turn's latency is measured from `atMs` for caller turns only.
   */
  private reply(handle: SpeechHandle, atMs: number, instruction?: string): void {
    if (instruction) this.conversation.open(instruction);
    const entry = this.conversation.addAgent(handle);
    const latency = this.latencies.find((l) => l.handleId === handle.id) ?? { handleId: handle.id, sttFinalAtMs: atMs };
    void runReply(this.actions, handle, entry, latency)
      .then(() => this.failures.replied())
      .catch((error: unknown) => this.failures.replyFailed(handle, error))
      .finally(() => this.afterUtterance(handle));
  }

  private newHandle(purpose: SpeechHandle['purpose']): SpeechHandle {
    this.handles += 1;
    this.current = new SpeechHandle(`h${this.handles}`, purpose, bytesPerMs(this.transport.format), this.language.current);
    return this.current;
  }

  /** A speaker on the warm TTS session, or undefined when TTS is down: the call ends, unless a realtime model carries it. */
  private speakerFor(handle: SpeechHandle): Promise<Speaker | undefined> {
    return speakerOn(this.voice.tts, handle, this.out, (e) => (this.realtime?.active ? this.failures.lineLost('tts', e) : this.failures.fail('tts', e)), () => this.notices.agent(handle, false), this.log);
  }

  /** Back to listening once the current utterance is over, unless something else took over. */
  private afterUtterance(handle: SpeechHandle): void {
    this.notices.agent(handle, true);
    if (this.current !== handle || this.state.isEnding || this.state.state === 'transferring') return;
    this.current = undefined;
    this.floor.onUtteranceGone();
    if (this.state.canGo('listening')) this.state.go('listening');
    const held = this.greeting.release();
    if (held) this.onUserTurn(held.text, held.atMs);
  }

  private onFirstAudio(handleId: string, atMs: number): void {
    const latency = this.latencies.find((l) => l.handleId === handleId);
    if (latency && latency.firstAudioAtMs === undefined) latency.firstAudioAtMs = atMs;
    this.handoffs.firstAudio(handleId, atMs);
    if (this.state.state === 'thinking') this.state.go('speaking');
  }

  private async finish(cause: EndCause): Promise<void> {
    this.limit?.cancel();
    this.held.cancel();
    for (const part of [this.keypad, this.quiet, this.floor, this.preemption]) part.close();
    if (!this.state.isEnding) this.state.go('ending');
    const handle = this.current;
    // Cut where the caller stopped hearing it (a hang-up mid-sentence): history keeps those words, marked.
    if (handle && !handle.settled) handle.interrupt(performance.now(), this.out.heardBytes(handle.id));
    for (const entry of this.conversation.entries) if (entry.type === 'agent') entry.handle.abandon();
    this.out.close();
    if (HANGS_UP.has(cause)) await hangUpCall(this.services.telephony, this.setup.callSid);
    // Closing the socket ends <Connect>; Twilio then runs the next verb or hangs up (transfers replaced it).
    this.transport.notify({ type: 'ended', reason: END_REASONS[cause] });
    this.transport.close(1000, cause);
    this.frames.close();
    this.realtime?.close();
    await this.voice.close();
    this.resolveEnded(outcomeOf(this, END_REASONS[cause], this.transfers.last, this.failures.failure));
  }
}
