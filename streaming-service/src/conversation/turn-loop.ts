import type { LlmMessage, LlmToolCall } from '../../../lib/vendors/llm/port.js';
import type { HttpToolOptions } from '../tools/http.js';
import { ToolCallCache } from '../tools/idempotency.js';
import { runMcpAction } from '../tools/mcp.js';
import { END_CALL_TOOL, runHttpAction, type BuiltInAction, type CallTools } from '../tools/registry.js';
import type { Tool } from '../../../lib/domain/tool.js';
import type { AgentRound } from './conversation.js';
import type { LlmChain } from './llm-chain.js';

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
  /** The messages for the next LLM request (the conversation so far, this turn's rounds included). */
  messages(): LlmMessage[];
  /** Told as each tool call starts and finishes (`ok`: its result is not an error), for live listeners. */
  readonly onTool?: (name: string, phase: 'started' | 'finished', ok?: boolean) => void;
}

/** A conversation's host as it starts: its model chain and tools, no tokens used, no tool run yet. */
export function newTurnHost(parts: Pick<TurnHost, 'llm' | 'tools' | 'services' | 'options' | 'messages' | 'onTool'>): TurnHost {
  return { ...parts, llmUsage: { inputTokens: 0, outputTokens: 0 }, executedToolCalls: new Set(), toolCache: new ToolCallCache() };
}

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
  /** A built-in tool (transfer, keypad, end): its result for the model, and whether the turn stops. */
  builtIn(action: BuiltInAction, call: LlmToolCall, r: AgentRound, round: number): Promise<{ content: string; stop?: boolean }>;
}

/**
 * Runs one turn into `rounds` (the agent entry's rounds, so the conversation sees them as they grow).
 * Tool calls the model completed are executed exactly once and their results kept even when the turn is
 * interrupted, so nothing is lost or repeated when the other side speaks again.
 */
export async function runTurn(host: TurnHost, channel: TurnChannel, rounds: AgentRound[]): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS && !channel.interrupted; round += 1) {
    const r: AgentRound = { generated: '', toolCalls: [], results: new Map() };
    const messages = host.messages();
    rounds.push(r);
    // The agent's model, retried once, then its fallback models (llm-chain.ts).
    for await (const event of host.llm.stream({ messages, tools: host.tools.specs }, channel.signal)) {
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
async function runTools(host: TurnHost, channel: TurnChannel, r: AgentRound, round: number): Promise<'continue' | 'stop'> {
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
        let content: string;
        if (!action) {
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
              (outcome) => outcome.content,
              () => JSON.stringify({ error: 'the tool failed; the request may not have been sent' }),
            );
        } else {
          const out = await channel.builtIn(action, call, r, round);
          content = out.content;
          if (out.stop) stop = true;
        }
        r.results.set(call.id, { name: call.name === END_CALL_TOOL ? END_CALL_TOOL : call.name, content });
        host.onTool?.(call.name, 'finished', !/^\{"error"/.test(content));
      }),
    );
  } finally {
    done();
  }
  return stop ? 'stop' : 'continue';
}
