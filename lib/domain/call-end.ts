export const AGENT_TYPES = ['voice', 'chat', 'video'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

/**
 * Why a call ended. The full set is ours to define (API_SPEC.md leaves it open); docs/api.md explains each.
 */
export const CALL_END_REASONS = [
  'customer_hangup',
  'agent_hangup',
  'transferred',
  'max_duration',
  'silence_timeout',
  'voicemail',
  'busy',
  'no_answer',
  'failed',
  'canceled',
  'link_expired',
  'not_joined',
  'do_not_call',
  'ended_by_api',
  'error',
] as const;
export type CallEndReason = (typeof CALL_END_REASONS)[number];
