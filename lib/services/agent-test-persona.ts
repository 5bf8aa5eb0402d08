import type { Deps } from '../deps.js';
import type { Agent } from '../domain/agent.js';
import type { ModelPersona, PersonaUsage } from '../domain/agent-test.js';
import { personaPrompt, personaTurns, readPersonaTurn, type ShownLine } from '../domain/agent-test-persona.js';
import { roundCredits } from '../domain/call.js';
import { AppError } from '../domain/errors.js';
import { describeError, log } from '../observability/log.js';
import { debitPersonaLine } from '../store/credits.js';
import { workspaceProviderKeys } from '../store/provider-keys.js';
import type { LlmProvider, VendorLlmProviderId } from '../vendors/llm/index.js';
import { configWithWorkspaceKeys } from '../vendors/workspace-keys.js';
import type { Caller } from './agent-test-chat.js';
import { loadAgentTestLibs } from './agent-test-libs-load.js';
import { chatMessagePrice } from './chats.js';
import { checkLowCredits } from './credits.js';

/**
 * A model persona's caller (docs/agent-tests.md, "Model personas"): each line is one request to the
 * persona's model (the agent's own vendor and model unless the scenario names one, on the workspace's key
 * when it has one) over the instructions and the conversation so far, charged like a chat message before
 * the request. The caller hangs up when the model says the stop token, after `maxTurns` lines, or when a
 * line cannot be had (the model failed, the workspace cannot pay): then `error` says why.
 */

export interface PersonaOptions {
  /** One line's request, first token to last: a caller's turn is short, but a busy model may queue it. */
  readonly requestTimeoutMs: number;
  /** A spoken turn is a sentence or two; this leaves room and bounds what a runaway model costs. */
  readonly maxTokens: number;
}

export const DEFAULT_PERSONA_OPTIONS = { requestTimeoutMs: 30_000, maxTokens: 300 } as const satisfies PersonaOptions;

/** The caller a model persona plays, and what it used. */
export interface PersonaCaller extends Caller {
  usage(): PersonaUsage;
  /** Why the persona stopped before it chose to: its model failed, or the workspace could not pay for a line. */
  readonly error: string | undefined;
}

export type PersonaDeps = Pick<Deps, 'db' | 'config' | 'secrets' | 'webhooks'>;

/**
 * The vendor and model that play the persona: the scenario's `model`, else the agent's own. An agent on its
 * own endpoint (`custom`) is not asked to play its callers: such a scenario must name a model (a 400, which
 * the run shows as the scenario's `error`).
 */
export function personaModelOf(persona: ModelPersona, agent: Pick<Agent, 'llm_provider' | 'llm_model'>): { provider: VendorLlmProviderId; model: string } {
  if (persona.model) return persona.model;
  if (agent.llm_provider === 'custom') {
    throw new AppError(400, 'validation_failed', 'The agent runs on its own model (llm_provider custom): a model persona against it must name persona.model ({provider, model}).');
  }
  return { provider: agent.llm_provider, model: agent.llm_model };
}

/** The caller for one scenario's chat `chatId` in workspace `ws`. */
export async function modelCaller(
  deps: PersonaDeps,
  ws: string,
  chatId: string,
  persona: ModelPersona,
  played: { provider: VendorLlmProviderId; model: string },
  maxTurns: number,
  options: Partial<PersonaOptions> = {},
): Promise<PersonaCaller> {
  const opts = { ...DEFAULT_PERSONA_OPTIONS, ...options };
  const keys = await workspaceProviderKeys(deps.db, deps.secrets, ws).catch((error: unknown) => {
    log('warn', 'workspace provider keys unreadable; the persona uses the platform keys', { workspaceId: ws, ...describeError(error) });
    return {};
  });
  const { createLlmProvider } = await loadAgentTestLibs();
  const llm = createLlmProvider(played.provider, configWithWorkspaceKeys(deps.config, keys));
  const price = chatMessagePrice(deps.config);
  const system = personaPrompt(persona.instructions);
  let said = 0;
  let written = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let hangUp = false;
  let error: string | undefined;

  const write = async (shown: readonly ShownLine[]): Promise<string | undefined> => {
    const charged = await debitPersonaLine(deps.db, ws, chatId, written + 1, price, new Date().toISOString());
    if (charged === 'insufficient') {
      error = 'insufficient_credits';
      return undefined;
    }
    written += 1;
    void checkLowCredits(deps, ws);
    const answer = await ask(llm, played.model, system, shown, opts);
    if ('error' in answer) {
      error = `the persona model failed: ${answer.error}`;
      return undefined;
    }
    inputTokens += answer.inputTokens;
    outputTokens += answer.outputTokens;
    return answer.text;
  };

  return {
    get error() {
      return error;
    },
    usage: () => ({ ...played, lines: written, inputTokens, outputTokens, cost: roundCredits(written * price) }),
    async next(shown) {
      if (hangUp || said >= maxTurns) return undefined;
      const text = said === 0 && persona.firstLine ? persona.firstLine : await write(shown);
      if (text === undefined) return undefined;
      const turn = readPersonaTurn(text);
      hangUp = turn.hangUp;
      if (!turn.text) return undefined;
      said += 1;
      return { text: turn.text, delayMs: 0 };
    },
  };
}

type Answer = { text: string; inputTokens: number; outputTokens: number } | { error: string };

/** One persona line from the model: its whole text and token counts, or why there is none. */
async function ask(llm: LlmProvider, model: string, system: string, shown: readonly ShownLine[], opts: PersonaOptions): Promise<Answer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.requestTimeoutMs);
  let text = '';
  let usage: { inputTokens: number; outputTokens: number } | undefined;
  let done = false;
  try {
    const messages = [{ role: 'system' as const, content: system }, ...personaTurns(shown)];
    for await (const event of llm.stream({ model, messages, maxTokens: opts.maxTokens, temperature: 0 }, controller.signal)) {
      if (event.type === 'text') text += event.delta;
      if (event.type === 'done') {
        done = true;
        usage = event.usage;
      }
    }
  } catch (e) {
    return { error: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
  if (!done) return { error: controller.signal.aborted ? `no answer within ${opts.requestTimeoutMs} ms` : 'the model stopped before finishing its answer' };
  return { text, inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0 };
}
