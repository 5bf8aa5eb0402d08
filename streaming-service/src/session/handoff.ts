import type { Logger } from '../../../lib/observability/log.js';
import type { LlmToolCall } from '../../../lib/vendors/llm/port.js';
import { AgentSegments, type AgentSegment } from '../../../lib/domain/handoff.js';
import { GREETING_DEFAULTS } from '../../../lib/domain/agent.js';
import type { CallSetup, SessionServices } from '../call/types.js';
import { handoffEvent, handoffResult, prepareHandoff, type PreparedHandoff } from '../conversation/handoff.js';
import { agentLlmChain } from '../conversation/llm-chain.js';
import { callText } from '../conversation/prompt.js';
import { switchTurnHost, type TurnHost } from '../conversation/turn-loop.js';
import { buildCallTools, type BuiltInAction } from '../tools/registry.js';
import { promptWithLanguage, type CallLanguage } from './language.js';
import { sayLine, type LineContext } from './lines.js';
import type { SpeechHandle } from './speech-handle.js';
import type { Agent } from '../../../lib/domain/agent.js';
import type { AudioFormat } from '../../../lib/vendors/shared/audio-format.js';
import type { SttEvent } from '../../../lib/vendors/stt/port.js';
import type { SessionOptions } from '../call/types.js';
import { SttLink } from './stt-link.js';
import { TtsLink } from './tts-link.js';
import type { CallTimeline } from './timeline.js';

/**
 * A call's handoffs (docs/handoffs.md): the model takes a handoff tool, and within the same call the
 * destination's prompt, tools, model, knowledge, voice and recognizer take over and its first line is said
 * in its voice. The destination's voice socket opens as soon as it is resolved, while the origin's last
 * words still play, so the caller hears no gap beyond the new voice. The call's own settings (recording,
 * limits, interruption and turn-taking, keypad shortcuts, the language) stay the call's.
 */

type HandoffAction = Extract<BuiltInAction, { kind: 'handoff' }>;

/** What a handoff may do to its call: its conversation and lines, its turn host, its voice and ears, a reply. */
export interface HandoffCallContext extends LineContext {
  readonly log: Logger;
  readonly turnHost: TurnHost;
  readonly language: CallLanguage;
  /** The call can still change (not ending, not transferring). */
  readonly active: () => boolean;
  /** Opens the destination's voice now (see {@link AgentVoice.prepare}): made the call's, or closed unused. */
  useVoice(agent: Agent, services: SessionServices, ears: boolean): PreparedVoice;
  /** A model reply now (the destination's first line when it has no fixed one). */
  reply(): void;
  /** The caller's page is told who took over (a browser call's `agent` notice). */
  handedOver(agent: Agent): void;
}

export class VoiceHandoffs {
  readonly segments: AgentSegments;
  /** From the tool call to the first audio of the destination's fixed first line, ms, per handoff. */
  readonly switchTimes: number[] = [];
  private setup: CallSetup;
  private services: SessionServices;
  /** A handoff since the caller last spoke: another before they speak is refused (no bouncing between models). */
  private justHandedOff = false;
  private waiting: { handleId: string; calledAt: number; segment: AgentSegment } | undefined;

  constructor(
    private readonly ctx: HandoffCallContext,
    setup: CallSetup,
    services: SessionServices,
  ) {
    this.setup = setup;
    this.services = services;
    this.segments = new AgentSegments(setup.startedAt, { agentId: setup.agent._id, agentName: setup.agent.name, ...(setup.agentVersion !== undefined ? { agentVersion: setup.agentVersion } : {}) });
  }

  /** The caller spoke: the agent may hand off again. */
  callerSpoke(): void {
    this.justHandedOff = false;
  }

  /**
   * The model took a handoff tool in `handle`'s turn: the destination is resolved (its voice opening at once),
   * then, once the origin's words have played, the switch; the turn stops and the destination speaks next.
   */
  async take(action: HandoffAction, call: LlmToolCall, handle: SpeechHandle, quiet: Promise<void>): Promise<{ content: string; stop?: boolean }> {
    if (this.justHandedOff) return { content: JSON.stringify({ error: 'the conversation was just handed to you: answer the caller first' }) };
    const prepared = await prepareHandoff(action, call, this.setup, this.services.handOff);
    if (!('target' in prepared)) return { content: prepared.content };
    if (!this.ctx.active()) return { content: JSON.stringify({ error: 'the call is ending' }) };
    const next = prepared.target;
    const voice = this.ctx.useVoice(next.setup.agent, next.services, next.setup.agent.stt_provider !== this.setup.agent.stt_provider);
    await quiet;
    // The caller cut in while the origin was still speaking: their words are answered where they are.
    if (handle.interrupted || !this.ctx.active()) {
      voice.cancel();
      return { content: JSON.stringify({ error: 'not handed off: the caller spoke first; answer them, then hand off if it still fits' }) };
    }
    const closeOld = voice.commit();
    this.apply(prepared);
    void handle.whenSettled().then(() => {
      closeOld();
      this.greet(prepared);
    });
    return { content: handoffResult(prepared), stop: true };
  }

  private apply(p: PreparedHandoff): void {
    const from = this.setup;
    const { setup, services } = p.target;
    this.services.onHandoff?.(handoffEvent(from, p));
    this.setup = setup;
    this.services = services;
    const { agent } = setup;
    switchTurnHost(this.ctx.turnHost, {
      llm: agentLlmChain(agent, services, this.ctx.log),
      tools: buildCallTools(setup.tools, { transferMode: agent.transfer_mode, optOut: services.optOut !== undefined, ...(setup.handoffs ? { handoffs: setup.handoffs } : {}) }),
      services,
      knowledge: services.knowledge,
    });
    const prompt = callText(setup, agent.system_prompt);
    this.ctx.conversation.handOver(() => promptWithLanguage(prompt, this.ctx.language), p.action.handoff.context === 'full', p.note);
    const { description: reason, context } = p.action.handoff;
    this.segments.handOver(
      { agentId: agent._id, agentName: agent.name, ...(p.target.version !== undefined ? { agentVersion: p.target.version } : {}) },
      { fromAgentId: from.agent._id, reason, context, variables: p.variables, ...(p.summary ? { summary: p.summary } : {}) },
      Date.now(),
    );
    this.justHandedOff = true;
    this.ctx.handedOver(agent);
    this.ctx.log.log('info', 'call handed off', { fromAgentId: from.agent._id, toAgentId: agent._id });
  }

  /** The destination's first line in its voice: its first message as written, else its model's answer. */
  private greet(p: PreparedHandoff): void {
    if (!this.ctx.active()) return;
    const { agent } = this.setup;
    const line = callText(this.setup, agent.first_message).trim();
    if (!line || (agent.first_message_mode ?? GREETING_DEFAULTS.first_message_mode) === 'model_generated') return this.ctx.reply();
    const said = sayLine(this.ctx, line);
    this.waiting = { handleId: said.handle.id, calledAt: p.calledAt, segment: this.segments.current };
  }

  /** The first audio of an utterance went out: the switch time, when it is the destination's first line. */
  firstAudio(handleId: string, atMs: number): void {
    if (this.waiting?.handleId !== handleId) return;
    const ms = Math.max(0, Math.round(atMs - this.waiting.calledAt));
    this.switchTimes.push(ms);
    if (this.waiting.segment.handoff) this.waiting.segment.handoff.switchMs = ms;
    this.waiting = undefined;
  }
}

/** What a call's voice and recognizer are opened with besides the agent's vendors (the call's own parts). */
export interface VoiceParts {
  readonly log: Logger;
  readonly timeline: CallTimeline;
  readonly format: AudioFormat;
  readonly language: CallLanguage;
  readonly options: SessionOptions;
  readonly isOver: () => boolean;
  /** Recognizer events, as frames of the call. */
  readonly heard: (event: SttEvent) => void;
  readonly sttDown: (error: unknown) => void;
}

/** The agent's voice for the call, its socket opening now (at the call's start, and at a handoff). */
export function ttsLinkOf(services: SessionServices, agent: Agent, p: VoiceParts): TtsLink {
  const speech = { format: p.format, language: p.language.multi ? undefined : p.language.current, pronunciations: agent.pronunciations };
  return new TtsLink({ provider: services.tts, voiceId: agent.tts_voice_id }, services.ttsFallbacks ?? [], speech, p.log, p.isOver, p.timeline);
}

/** The agent's recognizer for the call, in the call's language; {@link SttLink.run} opens it. */
export function sttLinkOf(services: SessionServices, p: VoiceParts): SttLink {
  const o = p.options;
  const stt = { language: p.language.configured, endpointingMs: o.endpointingMs, utteranceEndMs: o.utteranceEndMs, format: p.format };
  return new SttLink([services.stt, ...(services.sttFallbacks ?? [])], stt, p.heard, p.sttDown, p.log, o.sttLink, p.timeline);
}

/** A destination's voice, opened ahead of the switch. */
export interface PreparedVoice {
  commit(): () => void;
  cancel(): void;
}

/** The call's voice and recognizer: the first agent's, then each handoff destination's. */
export class AgentVoice {
  tts: TtsLink;
  stt: SttLink;

  constructor(
    services: SessionServices,
    agent: Agent,
    private readonly parts: VoiceParts,
  ) {
    this.tts = ttsLinkOf(services, agent, parts);
    this.stt = sttLinkOf(services, parts);
  }

  /**
   * Opens `agent`'s voice at once (its handshake overlaps the origin's last words). `commit` makes it the
   * call's, and with `ears` (another STT vendor) replaces the recognizer, the old one closing at once (two
   * would hear every word twice); it returns what closes the old voice once nothing speaks in it.
   */
  prepare(agent: Agent, services: SessionServices, ears: boolean): PreparedVoice {
    const tts = ttsLinkOf(services, agent, this.parts);
    return {
      commit: () => {
        const old = this.tts;
        this.tts = tts;
        if (ears) {
          const stt = this.stt;
          this.stt = sttLinkOf(services, this.parts);
          void this.stt.run();
          void stt.close();
        }
        return () => void old.close().catch(() => undefined);
      },
      cancel: () => void tts.close().catch(() => undefined),
    };
  }

  close(): Promise<unknown> {
    return Promise.allSettled([this.stt.close(), this.tts.close()]);
  }
}
