import { publicUrl } from '../config.js';
import type { Deps } from '../deps.js';
import { TERMINAL_CALL_STATES, type Call, type CallPricing } from '../domain/call.js';
import { callLimitSeconds, type Agent } from '../domain/agent.js';
import { callPricing } from './credits.js';

/**
 * What every call's use cases share (docs/calls.md): an agent's pricing, whether a call is still live, and
 * the webhook URLs the provider is handed. The use cases: outbound-calls.ts (starting one), inbound-calls.ts
 * (answering one), call-streams.ts (its stream's claim and heartbeat), call-status.ts (provider states and
 * unconnected ends), connected-call-end.ts (a streamed call's end), abandoned-streams.ts, lost-callbacks.ts.
 */

/**
 * The pricing of one agent's call: the platform's rate over the agent's duration limit, so the reservation
 * covers the longest call the agent can have (and no more).
 */
export function agentPricing(config: Deps['config'], agent: Pick<Agent, 'max_duration_seconds'>): CallPricing {
  const pricing = callPricing(config);
  return { ...pricing, maxDurationSeconds: callLimitSeconds(agent, pricing.maxDurationSeconds) };
}

/** Whether a call can still be connected (the voice webhook refuses ended calls). */
export const isLive = (call: Call): boolean => !TERMINAL_CALL_STATES.has(call.status);

/** The URL the provider fetches the call's TwiML from; the call id rides in the signed query. */
export const voiceWebhookUrl = (config: Deps['config'], callId: string) => publicUrl(config, `/twilio/voice?callId=${encodeURIComponent(callId)}`);

/** The URL the provider posts its answering-machine verdict to (asynchronous AMD). */
export const amdWebhookUrl = (config: Deps['config'], call: Pick<Call, '_id' | 'workspaceId'>) =>
  publicUrl(config, `/twilio/amd?callId=${encodeURIComponent(call._id)}&workspaceId=${encodeURIComponent(call.workspaceId)}`);

/** The URL a warm transfer's target posts its key to (the `<Gather>` action): it names the caller's call. */
export const transferWebhookUrl = (config: Deps['config'], call: Pick<Call, '_id' | 'workspaceId'>) =>
  publicUrl(config, `/twilio/transfer?callId=${encodeURIComponent(call._id)}&workspaceId=${encodeURIComponent(call.workspaceId)}`);

/** The URL the provider posts the call's status changes to. */
export const statusWebhookUrl = (config: Deps['config'], callId: string) => publicUrl(config, `/twilio/status?callId=${encodeURIComponent(callId)}`);

