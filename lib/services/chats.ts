import type { KnowledgeUse } from '../domain/knowledge/schema.js';
import type { AgentSegment } from '../domain/handoff.js';
import { webChatUrl } from '../config.js';
import type { Deps } from '../deps.js';
import type { ChatStarted } from '../domain/chat.js';
import { InsufficientCreditsError } from '../domain/errors.js';
import type { CallEndReason, HistoryRecord } from '../domain/history.js';
import type { WebSessionClaims } from '../domain/web-session-token.js';
import type { Agent } from '../domain/agent.js';
import { claimChatCall, endChatCall } from '../store/web-calls.js';
import { debitChatMessage, readBalance } from '../store/credits.js';
import { writeHistoryRecord, type HistoryDeps } from './call-events.js';
import { historyOf } from '../domain/call-record.js';
import { checkLowCredits } from './credits.js';
import { analyzeAndRecord } from './call-analysis.js';
import type { EndAnalysis } from './connected-call-end.js';
import { issueSession, newWebCall, putNewWebCall } from './meetings.js';
import { roundCredits } from '../domain/call.js';
import { confirmWidgetSession, leased, type WidgetLeaseHolder } from './widget-leases.js';
import { standInsOf } from '../vendors/stand-ins.js';
import { assertVariablesSupplied } from './call-variables.js';
import type { VariableValue } from '../domain/template.js';
import type { AgentOverrides } from '../domain/agent-overrides.js';

/**
 * Text chats (docs/chat.md). A chat is a call record of type `chat`: created with its `not_joined`
 * history record like a meeting, claimed by its first `/web-chat` socket, ended with its transcript,
 * summary and cost. Billing is per visitor message answered, charged as each arrives, so a chat holds no
 * reservation and costs nothing while the visitor reads or types.
 */

/** The price of one visitor message. */
export const chatMessagePrice = (config: Pick<Deps['config'], 'CHAT_CREDITS_PER_MESSAGE'>): number => config.CHAT_CREDITS_PER_MESSAGE;

/** 402 unless the workspace can pay for at least one message. */
export async function assertCanAffordChat(deps: Pick<Deps, 'db' | 'config'>, workspaceId: string): Promise<void> {
  const required = chatMessagePrice(deps.config);
  const available = await readBalance(deps.db, workspaceId);
  if (available < required) throw new InsufficientCreditsError(required, Math.max(0, available));
}

/** Who the chat is with, as history shows it. */
export interface ChatParty {
  readonly workspaceId: string;
  /** A widget chat's key and visitor: the chat holds one of the key's concurrent-session leases. */
  readonly widget?: WidgetLeaseHolder;
  readonly agent: Agent;
  readonly contactName: string;
  /**
   * The chat's `{{variables}}`. An API chat must supply every one its agent names (400 otherwise); a widget
   * chat cannot, so its gaps take their defaults or stay empty.
   */
  readonly variables?: Readonly<Record<string, VariableValue>>;
  /** The chat's `metadata` (docs/calls.md, "Metadata"). */
  readonly metadata?: Record<string, unknown>;
  /** Agent fields for this chat only; `agent` already has them applied. */
  readonly agentOverrides?: AgentOverrides;
  /** The published version `agent` is (docs/agent-versions.md). */
  readonly agentVersion?: number | undefined;
  /** The agent-test run and scenario the chat plays (docs/agent-tests.md): its replies then name their tool calls. */
  readonly agentTest?: { readonly runId: string; readonly scenarioId: string };
}

/** Creates a chat: the credit check (402), the `chat` call with its `not_joined` record, the tab's credential, and the notice when its model is simulated. */
export async function startChat(deps: Pick<Deps, 'db' | 'config' | 'secrets'>, party: ChatParty, nowMs: number = Date.now()): Promise<ChatStarted> {
  await assertCanAffordChat(deps, party.workspaceId);
  if (!party.widget) await assertVariablesSupplied(deps, party.workspaceId, party.agent, undefined, party.variables);
  const vars = { ...(party.variables ? { variables: { ...party.variables } } : {}), ...(party.metadata ? { metadata: party.metadata } : {}), ...(party.agentOverrides ? { agentOverrides: party.agentOverrides } : {}), ...(party.agentVersion !== undefined ? { agentVersion: party.agentVersion } : {}), ...(party.agentTest ? { agentTest: { ...party.agentTest } } : {}) };
  const created = {
    ...newWebCall(deps, { workspaceId: party.workspaceId, agentId: party.agent._id, agentType: 'chat', to: '', contactName: party.contactName, ...vars }, nowMs),
    maxDurationSeconds: deps.config.CHAT_MAX_DURATION_SECONDS,
  };
  const call = party.widget ? await leased(deps, party.widget, created, nowMs) : created;
  await putNewWebCall(deps, call);
  const session = issueSession(deps, call, party.agent.name || 'your agent', nowMs);
  // A chat runs on the agent's model alone: only that can be simulated (docs/provider-keys.md, "Simulated vendors").
  const standIns = standInsOf(deps.config, party.agent, { channel: 'chat' });
  return { chatId: call._id, agentName: session.agentName, chatUrl: webChatUrl(deps.config), credential: session.credential, expiresAt: session.expiresAt, ...(standIns && { standIns }) };
}

/**
 * The chat's first socket claims it, once: its longest duration, or undefined when it was claimed or ended
 * (or, for a widget chat, its pending lease ran out first). A widget chat's lease then holds for its length.
 */
export async function claimChat(deps: Pick<Deps, 'db'>, claims: Pick<WebSessionClaims, 'workspaceId' | 'callId'>, nowMs: number = Date.now()): Promise<number | undefined> {
  const call = await claimChatCall(deps.db, claims.workspaceId, claims.callId, new Date(nowMs).toISOString());
  if (call) await confirmWidgetSession(deps, call, nowMs);
  return call?.maxDurationSeconds;
}

/** Charges the chat's `n`th message; false when the workspace cannot pay (the visitor is told the agent is unavailable). */
export async function chargeChatMessage(
  deps: Pick<Deps, 'db' | 'config' | 'secrets' | 'webhooks'>,
  chat: { workspaceId: string; callId: string },
  n: number,
  nowMs: number = Date.now(),
): Promise<boolean> {
  const out = await debitChatMessage(deps.db, chat.workspaceId, chat.callId, n, chatMessagePrice(deps.config), new Date(nowMs).toISOString());
  if (out === 'charged') void checkLowCredits(deps, chat.workspaceId);
  return out !== 'insufficient';
}

/** What a finished chat leaves. */
export interface ChatEnd {
  readonly workspaceId: string;
  readonly chatId: string;
  readonly reason: CallEndReason;
  readonly durationSeconds: number;
  readonly messagesCharged: number;
  readonly transcript: string;
  readonly summary: string;
  /** The knowledge-base chunks the answers were given (docs/knowledge.md). */
  readonly knowledge?: readonly KnowledgeUse[];
  /** The agents that ran the chat, when it handed off (docs/handoffs.md). */
  readonly segments?: readonly AgentSegment[];
}

/**
 * Ends the chat's call with its cost, writes its history record (announcing `call.ended`) and, when the
 * agent asks for one, runs the post-call analysis (returned on the record).
 */
export async function recordChat(
  deps: Pick<Deps, 'db' | 'config'> & HistoryDeps,
  end: ChatEnd,
  analysis?: EndAnalysis,
  nowMs: number = Date.now(),
): Promise<HistoryRecord> {
  const cost = roundCredits(end.messagesCharged * chatMessagePrice(deps.config));
  const call = await endChatCall(deps.db, end.workspaceId, end.chatId, { endReason: end.reason, cost, now: new Date(nowMs).toISOString() });
  if (!call) throw new Error(`Chat ${end.chatId} has ended already`);
  const record = historyOf(call, { endReason: end.reason, durationSeconds: end.durationSeconds, cost: call.cost ?? cost, transcript: end.transcript, summary: end.summary, knowledge: end.knowledge, segments: end.segments });
  await writeHistoryRecord(deps, record);
  if (!analysis) return record;
  // After the record and call.ended: the analysis is a second LLM request and must not delay either.
  const result = await analyzeAndRecord(deps, analysis.llm, analysis.agent, { workspaceId: end.workspaceId, callId: call._id, agentId: call.agentId, transcript: end.transcript, ...(call.metadata ? { metadata: call.metadata } : {}) });
  return result ? { ...record, analysis: result } : record;
}
