import { handoffArguments, handoffNote, type HandoffValue } from '../../../lib/domain/handoff.js';
import type { LlmToolCall } from '../../../lib/vendors/llm/port.js';
import type { CallSetup, HandoffResolver, HandoffTarget } from '../call/types.js';
import type { ToolAction } from '../tools/registry.js';

/**
 * The switch a handoff makes (docs/handoffs.md), shared by calls and chats: the model's arguments checked,
 * the destination resolved to its published version with its own vendors, tools and knowledge, and what the
 * destination's model is told. The session applies the result (its prompt, voice, recognizer, tools).
 */


/** A handoff ready to apply: the destination, and what its model is told and what the record keeps. */
export interface PreparedHandoff {
  readonly target: HandoffTarget;
  readonly action: Extract<ToolAction, { kind: 'handoff' }>;
  readonly variables: Record<string, HandoffValue>;
  readonly summary?: string;
  /** The system message the destination's model reads at the handoff's place. */
  readonly note: string;
  /** `performance.now()` when the tool call was taken (the switch time runs from it). */
  readonly calledAt: number;
}

/**
 * Checks the model's handoff call and resolves its destination: the prepared switch, or the tool result the
 * model gets instead (missing variables, a destination gone), with nothing switched.
 */
export async function prepareHandoff(
  action: Extract<ToolAction, { kind: 'handoff' }>,
  call: LlmToolCall,
  from: CallSetup,
  resolve: HandoffResolver | undefined,
): Promise<PreparedHandoff | { readonly content: string }> {
  const calledAt = performance.now();
  const args = handoffArguments(action.handoff, call.arguments);
  if (!args.ok) return { content: JSON.stringify({ error: args.error }) };
  const target = await resolve?.(action.handoff.agent_id, args.variables).catch(() => undefined);
  if (!target) return { content: JSON.stringify({ error: `${action.destinationName} is unavailable; carry on with the caller yourself` }) };
  const note = handoffNote(from.agent.name, action.handoff, args.variables, args.summary);
  return { target, action, variables: args.variables, ...(args.summary ? { summary: args.summary } : {}), note, calledAt };
}

/** What the origin's model reads as the tool's result (in the destination's history too, with context `full`). */
export const handoffResult = (p: PreparedHandoff): string => JSON.stringify({ handed_off_to: p.action.destinationName });

/** The `call.handoff` webhook's data (docs/webhooks.md). */
export function handoffEvent(from: CallSetup, p: PreparedHandoff): Record<string, unknown> {
  return {
    callId: from.callId,
    fromAgentId: from.agent._id,
    toAgentId: p.target.setup.agent._id,
    ...(p.target.version !== undefined ? { toAgentVersion: p.target.version } : {}),
    reason: p.action.handoff.description,
    context: p.action.handoff.context,
    variables: p.variables,
    at: new Date().toISOString(),
    ...(from.metadata ? { metadata: from.metadata } : {}),
  };
}
