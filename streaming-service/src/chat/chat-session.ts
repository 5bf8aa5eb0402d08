import { describeError, loggerWith, type Logger } from '../../../lib/observability/log.js';
import { GREETING_DEFAULTS } from '../../../lib/domain/agent.js';
import type { CallEndReason } from '../../../lib/domain/history.js';
import type { LlmToolCall } from '../../../lib/vendors/llm/port.js';
import { LocalWindows, type RatePolicy } from '../../../lib/domain/rate-window.js';
import type { CallSetup, SessionServices } from '../call/types.js';
import { Conversation, type AgentRound } from '../conversation/conversation.js';
import { agentLlmChain, type LlmChain } from '../conversation/llm-chain.js';
import { callText, GREETING_INSTRUCTION } from '../conversation/prompt.js';
import { CallLanguage, promptWithLanguage } from '../session/language.js';
import { runTurn, type TurnChannel, type TurnHost } from '../conversation/turn-loop.js';
import { SEARCH_KNOWLEDGE_SPEC, type KnowledgeAccess } from '../conversation/knowledge.js';
import type { KnowledgeUse } from '../../../lib/domain/knowledge/schema.js';
import { ToolCallCache } from '../tools/idempotency.js';
import { buildCallTools, type BuiltInAction, type CallTools } from '../tools/registry.js';
import { AgentSegments, type AgentSegment } from '../../../lib/domain/handoff.js';
import { handoffEvent, handoffResult, prepareHandoff, type PreparedHandoff } from '../conversation/handoff.js';

/**
 * One text chat with an agent (docs/chat.md): the agent's system prompt and tools, the very turn loop a
 * call runs (turn-loop.ts), its words streamed to the page as deltas instead of speech. The chat lives in
 * this process while it runs; its page's socket may come and go (a reload) and gets the messages so far
 * back when it returns.
 */

export interface ChatOptions {
  /** A chat ends this long after it started, as a call does at its maximum duration. */
  readonly maxDurationMs: number;
  /** A chat nobody wrote in for this long is over (a visitor who left without closing it). */
  readonly idleTimeoutMs: number;
  /** The longest visitor message, in characters (a page of text; longer is a paste, not a question). */
  readonly maxMessageChars: number;
  /** Visitor messages per minute: a person types far fewer; a script is stopped here. */
  readonly messagesPerMinute: number;
  readonly toolTimeoutMs?: number;
  /** Shown when the model asks for a transfer: a chat has no line to hand over, so it tells the visitor. */
  readonly handoffMessage: string;
  readonly goodbyeMessage: string;
}

export const DEFAULT_CHAT_OPTIONS = {
  maxDurationMs: 30 * 60_000,
  idleTimeoutMs: 10 * 60_000,
  maxMessageChars: 2_000,
  messagesPerMinute: 20,
  handoffMessage: 'I can\u2019t hand a chat over to a person from here, but our team can help you directly: please call us, and mention this conversation.',
  goodbyeMessage: 'Thanks for chatting. Goodbye!',
} as const satisfies ChatOptions;

/** One line of the conversation as the page shows it. */
export interface ChatLine {
  readonly role: 'user' | 'agent';
  readonly text: string;
}

/** What the chat tells its page; `turn` numbers the agent's replies so deltas join the right bubble. */
export type ChatNotice =
  | { readonly type: 'delta'; readonly turn: number; readonly text: string }
  | { readonly type: 'reply'; readonly turn: number; readonly text: string; readonly handoff?: boolean; readonly toolCalls?: readonly ReplyToolCall[] }
  | { readonly type: 'state'; readonly state: 'listening' | 'thinking' }
  /** Another agent took the chat over (docs/handoffs.md): the page may show its name. */
  | { readonly type: 'agent'; readonly agentId: string; readonly agentName: string }
  | { readonly type: 'error'; readonly code: string; readonly message: string; readonly retryAfterSeconds?: number }
  | { readonly type: 'ended'; readonly reason: CallEndReason };

/** A tool call of the reply, named only to an agent-test run's chat (docs/agent-tests.md): a visitor never sees the agent's tools. */
export interface ReplyToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** The model's JSON arguments as an object; text that is not a JSON object is kept under `_raw`. */
function argumentsOf(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { _raw: text };
  } catch {
    return { _raw: text };
  }
}

/** The page's socket as the chat sees it: whichever is attached now, or none. */
export interface ChatSink {
  send(notice: ChatNotice): void;
  close(code: number, reason: string): void;
}

/** Takes one message's price from the workspace; false when it cannot cover it. */
export type ChargeMessage = (n: number) => Promise<boolean>;

export interface ChatOutcome {
  readonly setup: CallSetup;
  readonly reason: CallEndReason;
  readonly endedAt: number;
  readonly transcript: string;
  /** Visitor messages answered, each charged once (per-message billing, docs/chat.md). */
  readonly messagesCharged: number;
  readonly llmUsage: { inputTokens: number; outputTokens: number };
  /** The knowledge-base chunks the answers were given. */
  readonly knowledge: readonly KnowledgeUse[];
  /** The agents that ran the chat (one unless it handed off). */
  readonly segments: readonly AgentSegment[];
}

/** A written agent reply: everything generated was sent, so all of it counts as said. */
class TextUtterance {
  interrupted = false;
  settled = false;
  /** The conversation entry's rounds, set when the entry is added. */
  rounds: AgentRound[] = [];

  playedText(round?: number): string {
    const rounds = round === undefined ? this.rounds : this.rounds.slice(round, round + 1);
    return rounds
      .map((r) => r.generated.trim())
      .filter(Boolean)
      .join(' ');
  }
}

const MESSAGE_POLICY_NAME = 'chat-messages';

/** What a chat uses of its agent's services; a handoff replaces them with the destination's. */
type ChatServices = Pick<SessionServices, 'llm' | 'llmFallbacks' | 'loadTool' | 'httpTools' | 'knowledge' | 'handOff' | 'onHandoff'>;

export class ChatSession implements TurnHost {
  readonly conversation: Conversation<TextUtterance>;
  /** The running agent's (a handoff switches them, docs/handoffs.md). */
  tools!: CallTools;
  llm!: LlmChain;
  knowledge: KnowledgeAccess | undefined;
  /** The agent running now; the outcome names the chat's own ({@link origin}). */
  setup: CallSetup;
  services: ChatServices;
  readonly segments: AgentSegments;
  readonly llmUsage = { inputTokens: 0, outputTokens: 0 };
  readonly executedToolCalls = new Set<string>();
  readonly toolCache = new ToolCallCache();
  readonly knowledgeUsed: KnowledgeUse[] = [];
  agentTurns = 0;
  /** A handoff since the visitor last wrote: another one before they write again is refused (no bouncing). */
  private handedOffThisTurn = false;
  readonly options: ChatOptions;
  /** Bound to the chat: every line carries its id and workspace. */
  readonly log: Logger;
  readonly ended: Promise<ChatOutcome>;
  private resolveEnded!: (o: ChatOutcome) => void;
  private endReason: CallEndReason | undefined;
  private turns = 0;
  private charged = 0;
  /** Visitor messages are answered one after another, in the order they came. */
  private queue: Promise<void> = Promise.resolve();
  /** `wait_for_caller`: the first message, kept to answer the visitor's first message. */
  private opener: string | undefined;
  private readonly abort = new AbortController();
  private readonly rate = new LocalWindows(1);
  private readonly policy: RatePolicy;
  private idleTimer: NodeJS.Timeout | undefined;
  private limitTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly origin: CallSetup,
    services: ChatServices,
    private readonly sink: ChatSink,
    private readonly charge: ChargeMessage,
    options: Partial<ChatOptions> = {},
  ) {
    this.options = { ...DEFAULT_CHAT_OPTIONS, ...options };
    const setup = origin;
    this.setup = setup;
    this.services = services;
    this.log = loggerWith({ callId: setup.callId, workspaceId: setup.workspaceId });
    this.conversation = new Conversation(ChatSession.prompt(setup));
    this.useAgent(setup, services);
    this.segments = new AgentSegments(setup.startedAt, { agentId: setup.agent._id, agentName: setup.agent.name, ...(setup.agentVersion !== undefined ? { agentVersion: setup.agentVersion } : {}) });
    this.policy = { name: MESSAGE_POLICY_NAME, limit: this.options.messagesPerMinute, windowSeconds: 60 };
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
  }

  /** A chat is written, not heard: only the model is told the agent's language (`multi`: follow the writer's). */
  private static prompt(setup: CallSetup): string {
    return promptWithLanguage(callText(setup, setup.agent.system_prompt), new CallLanguage(setup.agent.language), false);
  }

  /** The agent's tools, model chain and knowledge become the chat's (at the start, and at each handoff). */
  private useAgent(setup: CallSetup, services: ChatServices): void {
    this.setup = setup;
    this.services = services;
    const tools = buildCallTools(setup.tools, { transferMode: setup.agent.transfer_mode, ...(setup.handoffs ? { handoffs: setup.handoffs } : {}) });
    this.knowledge = services.knowledge;
    // `tool` mode offers search_knowledge beside the agent's tools, as newTurnHost does for calls.
    this.tools = this.knowledge?.mode === 'tool' ? { ...tools, specs: [...tools.specs, SEARCH_KNOWLEDGE_SPEC] } : tools;
    this.llm = agentLlmChain(setup.agent, services, this.log);
  }

  /**
   * The model took a handoff tool: the destination is resolved and, when it is there, takes the chat over
   * (prompt, tools, model, knowledge; the context rule decides what its model sees). The result is the
   * tool's answer to the origin's model.
   */
  async handOff(action: Extract<BuiltInAction, { kind: 'handoff' }>, call: LlmToolCall): Promise<{ content: string; switched: boolean }> {
    if (this.handedOffThisTurn) return { content: JSON.stringify({ error: 'the conversation was just handed to you: answer the visitor first' }), switched: false };
    const prepared = await prepareHandoff(action, call, this.setup, this.services.handOff);
    if (!('target' in prepared)) return { content: prepared.content, switched: false };
    if (this.isOver) return { content: JSON.stringify({ error: 'the chat has ended' }), switched: false };
    this.switchTo(prepared);
    return { content: handoffResult(prepared), switched: true };
  }

  private switchTo(p: PreparedHandoff): void {
    const from = this.setup;
    const { setup, services } = p.target;
    this.services.onHandoff?.(handoffEvent(from, p));
    this.useAgent(setup, services);
    this.conversation.handOver(ChatSession.prompt(setup), p.action.handoff.context === 'full', p.note);
    const { description: reason, context } = p.action.handoff;
    this.segments.handOver(
      { agentId: setup.agent._id, agentName: setup.agent.name, ...(p.target.version !== undefined ? { agentVersion: p.target.version } : {}) },
      { fromAgentId: from.agent._id, reason, context, variables: p.variables, ...(p.summary ? { summary: p.summary } : {}) },
      Date.now(),
    );
    this.handedOffThisTurn = true;
    this.log.log('info', 'chat handed off', { fromAgentId: from.agent._id, toAgentId: setup.agent._id, switchMs: Math.round(performance.now() - p.calledAt) });
    this.sink.send({ type: 'agent', agentId: setup.agent._id, agentName: setup.agent.name });
  }

  /** The destination's first line after a handoff: its first message as written, else its model's answer. */
  private async greetAfterHandoff(): Promise<void> {
    const { agent } = this.setup;
    const greeting = callText(this.setup, agent.first_message).trim();
    if (greeting && (agent.first_message_mode ?? GREETING_DEFAULTS.first_message_mode) !== 'model_generated') {
      this.addFixedReply(greeting);
      this.sink.send({ type: 'reply', turn: (this.turns += 1), text: greeting });
      return this.sink.send({ type: 'state', state: 'listening' });
    }
    await this.reply();
  }

  /** Starts the chat: the agent's first message (free: nothing was asked), and the clocks. */
  start(): void {
    const greeting = callText(this.setup, this.setup.agent.first_message).trim();
    const mode = this.setup.agent.first_message_mode ?? GREETING_DEFAULTS.first_message_mode;
    if (mode === 'agent_speaks_first' && greeting) this.addFixedReply(greeting);
    // wait_for_caller: the first message answers the visitor's first message.
    if (mode === 'wait_for_caller' && greeting) this.opener = greeting;
    if (mode === 'model_generated') {
      this.conversation.open(GREETING_INSTRUCTION);
      this.queue = this.queue.then(() => this.reply());
    }
    this.limitTimer = setTimeout(() => this.end('max_duration'), this.options.maxDurationMs);
    this.limitTimer.unref?.();
    this.touch();
  }

  /** A reply the agent says as written (the first message), without the model. */
  private addFixedReply(text: string) {
    const entry = this.addAgentEntry();
    entry.rounds.push({ generated: text, toolCalls: [], results: new Map() });
    entry.handle.settled = true;
  }

  /** An agent entry whose utterance reads the entry's own rounds. */
  private addAgentEntry() {
    const utterance = new TextUtterance();
    const entry = this.conversation.addAgent(utterance);
    utterance.rounds = entry.rounds;
    return entry;
  }

  messages() {
    return this.conversation.messages();
  }

  /** The conversation as the page shows it (a page that came back after a reload redraws it). */
  lines(): ChatLine[] {
    return this.conversation.entries
      .map((e): ChatLine => (e.type === 'user' ? { role: 'user', text: e.text } : { role: 'agent', text: e.handle.playedText() }))
      .filter((l) => l.text !== '');
  }

  get isOver(): boolean {
    return this.endReason !== undefined;
  }

  /** The idle clock restarts with every visitor message. */
  private touch(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.end('silence_timeout'), this.options.idleTimeoutMs);
    this.idleTimer.unref?.();
  }

  /**
   * A visitor message. Refused with an error notice (and nothing else changes) when it is empty or too long,
   * over the per-minute rate, or the workspace cannot pay for it; otherwise charged once and answered.
   */
  receive(raw: string, nowMs: number = Date.now()): void {
    if (this.isOver) return;
    const text = raw.trim();
    if (!text) return this.sink.send({ type: 'error', code: 'empty_message', message: 'Type a message first.' });
    if (text.length > this.options.maxMessageChars) {
      return this.sink.send({ type: 'error', code: 'message_too_long', message: `A message can be at most ${this.options.maxMessageChars} characters.` });
    }
    const rate = this.rate.take(this.policy, 'chat', nowMs);
    if (!rate.allowed) {
      return this.sink.send({ type: 'error', code: 'rate_limited', message: 'You are sending messages too quickly. Wait a moment.', retryAfterSeconds: rate.resetSeconds });
    }
    this.touch();
    this.queue = this.queue.then(() => this.answer(text));
  }

  private async answer(text: string): Promise<void> {
    if (this.isOver) return;
    const paid = await this.charge(this.charged + 1).catch((error: unknown) => {
      this.log.log('warn', 'chat charge failed', describeError(error));
      return undefined;
    });
    if (paid === undefined) return this.sink.send({ type: 'error', code: 'unavailable', message: 'The agent is unavailable right now. Try again in a moment.' });
    if (!paid) return this.sink.send({ type: 'error', code: 'insufficient_credits', message: 'The agent is unavailable right now.' });
    this.charged += 1;
    this.handedOffThisTurn = false;
    this.conversation.addUser(text);
    const opener = this.opener;
    this.opener = undefined;
    if (opener) {
      this.addFixedReply(opener);
      this.sink.send({ type: 'reply', turn: (this.turns += 1), text: opener });
      return this.sink.send({ type: 'state', state: 'listening' });
    }
    await this.reply();
  }

  /** The model's answer to the conversation so far (or, first of all, the greeting it writes). */
  private async reply(): Promise<void> {
    if (this.isOver) return;
    const { handle: utterance, rounds } = this.addAgentEntry();
    const channel = new TextChannel(this, (this.turns += 1));
    this.sink.send({ type: 'state', state: 'thinking' });
    try {
      await runTurn(this, channel, rounds);
    } catch (error) {
      this.log.log('warn', 'chat reply failed', describeError(error));
      if (!this.isOver) this.sink.send({ type: 'error', code: 'reply_failed', message: 'Sorry, the agent could not answer that. Please try again.' });
    } finally {
      utterance.settled = true;
    }
    const toolCalls = this.setup.agentTest ? rounds.flatMap((r) => r.toolCalls.map((c) => ({ name: c.name, arguments: argumentsOf(c.arguments) }))) : undefined;
    const text = utterance.playedText();
    // An agent that handed over without a word leaves no empty bubble: the destination's first line follows.
    if (!this.isOver && (text || !channel.switched)) this.sink.send({ type: 'reply', turn: channel.turn, text, ...(channel.handoff ? { handoff: true } : {}), ...(toolCalls ? { toolCalls } : {}) });
    if (channel.ending) return this.end('agent_hangup');
    if (channel.switched && !this.isOver) return this.greetAfterHandoff();
    this.sink.send({ type: 'state', state: 'listening' });
  }

  /** The model's hand-off or goodbye, added to the reply as if it had written it. */
  write(r: AgentRound, turn: number, text: string): void {
    const before = r.generated.trim();
    const delta = before ? ` ${text}` : text;
    r.generated = before + delta;
    this.send({ type: 'delta', turn, text: delta });
  }

  send(notice: ChatNotice): void {
    if (!this.isOver) this.sink.send(notice);
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Ends the chat (idempotent): a reply under way is aborted, the page is told, the outcome resolves. */
  end(reason: CallEndReason): void {
    if (this.endReason) return;
    this.endReason = reason;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.limitTimer) clearTimeout(this.limitTimer);
    this.abort.abort();
    this.sink.send({ type: 'ended', reason });
    this.sink.close(1000, 'ended');
    // A reply still running finishes (its tool results are kept) before the transcript is taken.
    void this.queue.finally(() =>
      this.resolveEnded({
        setup: this.origin,
        reason,
        endedAt: Date.now(),
        transcript: this.conversation.transcript(),
        messagesCharged: this.charged,
        llmUsage: this.llmUsage,
        knowledge: this.knowledgeUsed,
        segments: this.segments.close(Date.now()),
      }),
    );
  }
}

/** A chat's side of a turn: deltas to the page; a transfer becomes a hand-off message, end-call closes the chat. */
class TextChannel implements TurnChannel {
  handoff = false;
  ending = false;
  /** A handoff tool switched the agent: the turn stops, the destination speaks next. */
  switched = false;

  constructor(
    private readonly chat: ChatSession,
    readonly turn: number,
  ) {}

  get signal(): AbortSignal {
    return this.chat.signal;
  }

  get interrupted(): boolean {
    return this.chat.isOver;
  }

  text(delta: string): void {
    this.chat.send({ type: 'delta', turn: this.turn, text: delta });
  }

  roundEnd(): void {}

  toolsStart(): () => void {
    return () => undefined;
  }

  async builtIn(action: BuiltInAction, call: LlmToolCall, r: AgentRound): Promise<{ content: string; stop?: boolean }> {
    if (action.kind === 'handoff') {
      const { content, switched } = await this.chat.handOff(action, call);
      if (switched) this.switched = true;
      return { content, ...(switched ? { stop: true } : {}) };
    }
    if (action.kind === 'send_dtmf') return { content: JSON.stringify({ error: 'this is a text chat: there is no phone keypad' }) };
    // Never offered in a chat (no number to keep from being called), but never mistaken for end-call either.
    if (action.kind === 'opt_out') return { content: JSON.stringify({ error: 'this is a text chat: there is no phone number to add to the do-not-call list' }) };
    if (action.kind === 'transfer') {
      // A chat has no line to move; the visitor is told how to reach a person, in the chat itself.
      this.handoff = true;
      this.chat.write(r, this.turn, this.chat.options.handoffMessage);
      return { content: JSON.stringify({ transferred: false, handoff: 'the visitor was shown how to reach a person; do not repeat it' }), stop: true };
    }
    if (!r.generated.trim()) this.chat.write(r, this.turn, this.chat.options.goodbyeMessage);
    this.ending = true;
    return { content: JSON.stringify({ ended: true }), stop: true };
  }
}
