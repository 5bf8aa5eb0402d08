import type { Agent } from '../domain/agent.js';
import { reservationFor, type Call } from '../domain/call.js';
import { newId } from '../domain/ids.js';
import { normalizePhone } from '../domain/phone.js';
import { createInboundCall, findCallByProviderSid } from '../store/call-creation.js';
import { findCall } from '../store/calls.js';
import type { HistoryDeps } from './call-events.js';
import { agentPricing, isLive } from './calls.js';
import { applyProviderStatus, type ProviderStatus } from './call-status.js';
import { checkLowCredits } from './credits.js';

/**
 * Inbound calls (docs/telephony.md): a caller on a number routed to an agent is answered with a reserved,
 * live call, and the provider's status callbacks, which name only its call sid, reach that call.
 */

export type InboundAnswer = { readonly kind: 'connect'; readonly call: Call } | { readonly kind: 'insufficient' } | { readonly kind: 'ended' };

/**
 * Answers an inbound call routed to an agent: reserves one call's credits and writes the live call (with
 * the provider's call sid, once per sid) so it is admitted, settled and recorded like an outbound call.
 * `insufficient` when the workspace cannot cover the reservation (so two callers cannot share one); a
 * repeated webhook for the same provider call answers for the same call while its stream can still start.
 */
export async function openInboundCall(
  deps: HistoryDeps,
  input: {
    workspaceId: string;
    agentId: string;
    phoneNumberId: string;
    ourNumber: string;
    caller?: string;
    callSid: string;
    agent?: Pick<Agent, 'max_duration_seconds'>;
    /** The id the number's inbound webhook was told (docs/telephony.md); a new one otherwise. */
    callId?: string;
    /** What the inbound webhook answered for this call (docs/call-data.md). */
    data?: Pick<Call, 'variables' | 'metadata' | 'agentOverrides'>;
    /** The published version `agent` is (docs/agent-versions.md). */
    agentVersion?: number;
  },
): Promise<InboundAnswer> {
  const pricing = agentPricing(deps.config, input.agent ?? {});
  const now = Date.now();
  const createdAt = new Date(now).toISOString();
  const call: Call = {
    _id: input.callId ?? newId('call', now),
    workspaceId: input.workspaceId,
    agentId: input.agentId,
    agentType: 'voice',
    direction: 'inbound',
    ...Object.fromEntries(Object.entries(input.data ?? {}).filter(([, v]) => v !== undefined)),
    // Answered: the stream follows at once.
    status: 'in-progress',
    answeredAt: createdAt,
    to: (input.caller && normalizePhone(input.caller)?.e164) ?? '',
    from: input.ourNumber,
    phoneNumberId: input.phoneNumberId,
    providerCallSid: input.callSid,
    contactName: '',
    ...(input.agentVersion !== undefined && { agentVersion: input.agentVersion }),
    reserved: reservationFor(pricing),
    maxDurationSeconds: pricing.maxDurationSeconds,
    createdAt,
    updatedAt: createdAt,
  };
  const out = await createInboundCall(deps.db, call, input.callSid, now);
  if (out.kind === 'created') {
    await checkLowCredits(deps, input.workspaceId);
    return { kind: 'connect', call };
  }
  if (out.kind === 'insufficient') return { kind: 'insufficient' };
  const known = await findCallByProviderSid(deps.db, input.callSid);
  const existing = known?.workspaceId === input.workspaceId ? await findCall(deps.db, known.workspaceId, known.callId) : undefined;
  return existing && isLive(existing) && existing.streamStartedAt === undefined ? { kind: 'connect', call: existing } : { kind: 'ended' };
}

/** Applies the status callback of an inbound call (it names only the provider's call sid) to its call. */
export async function applyInboundStatus(deps: HistoryDeps, workspaceId: string, update: ProviderStatus): Promise<void> {
  const known = await findCallByProviderSid(deps.db, update.callSid);
  if (known?.workspaceId === workspaceId) await applyProviderStatus(deps, workspaceId, known.callId, update);
}

