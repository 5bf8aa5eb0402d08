import type { LlmMessage, LlmToolCall } from '../../../lib/vendors/llm/port.js';
import type { HttpToolOptions } from '../tools/http.js';
import { ToolCallCache } from '../tools/idempotency.js';
import { runMcpAction } from '../tools/mcp.js';
import { END_CALL_TOOL, runHttpAction, type BuiltInAction, type CallTools } from '../tools/registry.js';
import type { Tool } from '../../../lib/domain/tool.js';
import type { AgentRound } from './conversation.js';
import type { LlmChain } from './llm-chain.js';
import { Prefetch } from './prefetch.js';
import { GREETING_INSTRUCTION } from './prompt.js';
import type { KnowledgeUse } from '../../../lib/domain/knowledge/schema.js';
import { describeError, log } from '../../../lib/observability/log.js';
import {
  AUTO_CHUNKS,
  RETRIEVAL_TIMEOUT_MS,
  SEARCH_KNOWLEDGE_SPEC,
  SEARCH_KNOWLEDGE_TOOL,
  TOOL_CHUNKS,
  contextMessage,
  knowledgeUse,
  searchWithin,
  toolResult,
  withContext,
  type KnowledgeAccess,
} from './knowledge.js';

/**
 * One agent turn as every channel runs it (a phone or browser call, a text chat): LLM rounds, the model's
 * tool calls run between rounds, at most {@link MAX_ROUNDS} rounds. What differs per channel is where the
 * text goes (speech, or deltas on a chat socket) and what the built-in tools mean (hanging up a line or
 * closing a chat; a transfer or a hand-off message): the {@link TurnChannel} decides those.
 */

/**
 * Tool rounds per reply: a model that keeps calling tools is cut off after four, so one confused reply
 * cannot keep the caller waiting indefinitely.
 */
export const MAX_ROUNDS = 4;

/** What a conversation keeps across its turns: the model chain, the tools, and their bookkeeping. */
export interface TurnHost {
  readonly llm: LlmChain;
  readonly tools: CallTools;
  readonly llmUsage: { inputTokens: number; outputTokens: number };
  /** Tool call ids already run: a call is executed once, whatever interrupts its reply. */
  readonly executedToolCalls: Set<string>;
  /** Tool results by tool and arguments: the model asking the same thing again gets the first answer. */
  readonly toolCache: ToolCallCache;
  readonly services: { loadTool(id: string): Promise<Tool>; readonly httpTools: Partial<HttpToolOptions> };
  readonly options: { readonly toolTimeoutMs?: number };
  /** Told of each tool call run: its name, whether it answered or failed, how long it took (the call's timeline), its arguments (JSON text). */
  readonly onToolCall?: (name: string, status: 'ok' | 'error', durationMs: number, argumentsJson: string) => void;
  /** The messages for the next LLM request (the conversation so far, this turn's rounds included). */
  messages(): LlmMessage[];
  /** The agent's knowledge bases, when it names any (./knowledge.ts). */
  readonly knowledge?: KnowledgeAccess;
  /** Every retrieval an answer used, for the history record. */
  readonly knowledgeUsed: KnowledgeUse[];
  /** Agent turns run so far (the `turn` of a retrieval). */
  agentTurns: number;
  /** Told as each tool call starts and finishes (`ok`: its result is not an error), for live listeners. */
  readonly onTool?: (name: string, phase: 'started' | 'finished', ok?: boolean) => void;
  /** A first request started before the turn was confirmed (a call's preemptive generation, ./prefetch.ts). */
  readonly prefetch?: Prefetch;
}

/** A conversation's host as it starts: its model chain and tools, no tokens used, no tool run yet. */
export function newTurnHost(parts: Pick<TurnHost, 'llm' | 'tools' | 'services' | 'options' | 'messages' | 'onToolCall' | 'onTool' | 'knowledge'>): TurnHost {
  // `tool` mode offers search_knowledge beside the agent's tools (the registry keeps the name free).
  const tools = parts.knowledge?.mode === 'tool' ? { ...parts.tools, specs: [...parts.tools.specs, SEARCH_KNOWLEDGE_SPEC] } : parts.tools;
  return { ...parts, tools, llmUsage: { inputTokens: 0, outputTokens: 0 }, executedToolCalls: new Set(), toolCache: new ToolCallCache(), knowledgeUsed: [], agentTurns: 0, prefetch: new Prefetch() };
}

/** A handoff (docs/handoffs.md): the destination's model chain, tools, services and knowledge from the next round on; the bookkeeping stays the call's. */
export function switchTurnHost(host: TurnHost, parts: Pick<TurnHost, 'llm' | 'tools' | 'services' | 'knowledge'>): void {
  const tools = parts.knowledge?.mode === 'tool' ? { ...parts.tools, specs: [...parts.tools.specs, SEARCH_KNOWLEDGE_SPEC] } : parts.tools;
  Object.assign(host, { ...parts, tools });
}

const lastUserText = (messages: readonly LlmMessage[]): string => [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';

const retrievalFailed = (error: unknown) => log('warn', 'knowledge retrieval failed; the turn is answered without it', describeError(error));

/** One turn's channel: where its words go and what its built-in tools do. */
export interface TurnChannel {
  readonly signal: AbortSignal;
  /** The turn was cut short (a barge-in): later text is not delivered, no new round starts. */
  readonly interrupted: boolean;
  /** A piece of the model's text, in order. */
  text(delta: string, round: number, atMs: number): void;
  /** The round's text is complete (a speaker flushes its last phrase). */
  roundEnd(round: number): void;
  /** The round's tool calls start (a voice channel starts its filler timers); returns their end. */
  toolsStart(round: number): () => void;
  /**
   * The round's model has said nothing within the first-token budget (llm-chain.ts): a voice channel speaks a
   * filler. Returns what ends the wait (called once output starts or the request ends). A chat has none.
   */
  modelSilent?(round: number): () => void;
  /** A built-in tool (transfer, keypad, end): its result for the model, and whether the turn stops. */
  builtIn(action: BuiltInAction, call: LlmToolCall, r: AgentRound, round: number): Promise<{ content: string; stop?: boolean }>;
  /** The turn's first request was the one started ahead of it, at `startedAtMs` (./prefetch.ts). */
  preempted?(startedAtMs: number): void;
}

/**
 * Runs one turn into `rounds` (the agent entry's rounds, so the conversation sees them as they grow).
 * Tool calls the model completed are executed exactly once and their results kept even when the turn is
 * interrupted, so nothing is lost or repeated when the other side speaks again.
 */
export async function runTurn(host: TurnHost, channel: TurnChannel, rounds: AgentRound[]): Promise<void> {
  const turn = host.agentTurns;
  host.agentTurns += 1;
  // `auto`: the caller's words are searched before the first round; the excerpts go with every round of the turn.
  let context: LlmMessage | undefined;
  if (host.knowledge?.mode === 'auto') {
    const query = lastUserText(host.messages()).trim();
    // A greeting the model writes answers no caller words: nothing to look up.
    const hits = query && query !== GREETING_INSTRUCTION ? await searchWithin(host.knowledge, query, AUTO_CHUNKS, RETRIEVAL_TIMEOUT_MS, retrievalFailed) : [];
    if (hits.length > 0 && !channel.interrupted) {
      context = contextMessage(hits);
      host.knowledgeUsed.push(knowledgeUse(turn, 'auto', query, hits));
    }
  }
  for (let round = 0; round < MAX_ROUNDS && !channel.interrupted; round += 1) {
    const r: AgentRound = { generated: '', toolCalls: [], results: new Map() };
    const messages = context ? withContext(host.messages(), context) : host.messages();
    rounds.push(r);
    // The agent's model, retried once, then its fallback models; a silent one races the next (llm-chain.ts).
    // The first round's request may have started before the turn was confirmed (./prefetch.ts).
    const request = { messages, tools: host.tools.specs };
    const hooks = channel.modelSilent ? { onSlow: () => channel.modelSilent!(round) } : {};
    const ahead = round === 0 ? host.prefetch?.take(request, channel.signal, hooks) : undefined;
    if (ahead) channel.preempted?.(ahead.startedAtMs);
    for await (const event of ahead?.events ?? host.llm.stream(request, channel.signal, hooks)) {
      if (event.type === 'text') {
        r.generated += event.delta;
        if (!channel.interrupted) channel.text(event.delta, round, event.atMs);
      } else if (event.type === 'tool_call') {
        r.toolCalls.push(event.call);
      } else if (event.usage) {
        host.llmUsage.inputTokens += event.usage.inputTokens;
        host.llmUsage.outputTokens += event.usage.outputTokens;
      }
    }
    if (!channel.interrupted) channel.roundEnd(round);
    if (r.toolCalls.length === 0) break;
    if ((await runTools(host, channel, r, round)) === 'stop') break;
  }
}

/** Runs one round's tool calls (in parallel); `stop` when a built-in tool ended the turn. */
export async function runTools(host: TurnHost, channel: TurnChannel, r: AgentRound, round: number): Promise<'continue' | 'stop'> {
  let stop = false;
  const done = channel.toolsStart(round);
  const { toolTimeoutMs } = host.options;
  const httpOptions = { ...host.services.httpTools, ...(toolTimeoutMs ? { timeoutMs: toolTimeoutMs } : {}) };
  try {
    await Promise.all(
      r.toolCalls.map(async (call) => {
        if (host.executedToolCalls.has(call.id)) return;
        host.executedToolCalls.add(call.id);
        host.onTool?.(call.name, 'started');
        const action = host.tools.byName.get(call.name);
        const startedAt = performance.now();
        let failed = !action;
        let content: string;
        if (call.name === SEARCH_KNOWLEDGE_TOOL && host.knowledge?.mode === 'tool') {
          content = await searchKnowledge(host, call.arguments);
        } else if (!action) {
          content = JSON.stringify({ error: `no tool named ${call.name}` });
        } else if (action.kind === 'http' || action.kind === 'mcp') {
          // Idempotent within the conversation (tools/idempotency.ts); an unexpected failure is still an
          // answer the model can talk about, never a silent reply. An MCP server's tool has an HTTP tool's budgets.
          const loadTool = (id: string) => host.services.loadTool(id);
          const execute = () =>
            action.kind === 'http' ? runHttpAction(action, call.arguments, loadTool, httpOptions) : runMcpAction(action, call.arguments, loadTool, httpOptions);
          content = await host.toolCache
            .run(call.name, call.arguments, execute)
            .then(
              (outcome) => {
                if (!outcome.ok) failed = true;
                return outcome.content;
              },
              () => {
                failed = true;
                return JSON.stringify({ error: 'the tool failed; the request may not have been sent' });
              },
            );
        } else {
          const out = await channel.builtIn(action, call, r, round);
          content = out.content;
          if (out.stop) stop = true;
        }
        r.results.set(call.id, { name: call.name === END_CALL_TOOL ? END_CALL_TOOL : call.name, content });
        host.onToolCall?.(call.name, failed ? 'error' : 'ok', Math.round(performance.now() - startedAt), call.arguments);
        host.onTool?.(call.name, 'finished', !/^\{"error"/.test(content));
      }),
    );
  } finally {
    done();
  }
  return stop ? 'stop' : 'continue';
}

/** The built-in search_knowledge: the model's query searched, the excerpts returned, the use recorded. */
async function searchKnowledge(host: TurnHost, argumentsJson: string): Promise<string> {
  let query = '';
  try {
    const parsed = JSON.parse(argumentsJson) as { query?: unknown };
    query = typeof parsed.query === 'string' ? parsed.query.trim().slice(0, 2_000) : '';
  } catch {
    // Treated as no query below.
  }
  if (!query) return JSON.stringify({ error: 'give a query: what to look up' });
  let failed = false;
  const hits = await searchWithin(host.knowledge!, query, TOOL_CHUNKS, RETRIEVAL_TIMEOUT_MS * 2, (error) => {
    failed = true;
    retrievalFailed(error);
  });
  if (failed) return JSON.stringify({ error: 'the knowledge base could not be searched just now' });
  host.knowledgeUsed.push(knowledgeUse(host.agentTurns - 1, 'tool', query, hits));
  return toolResult(hits);
}
