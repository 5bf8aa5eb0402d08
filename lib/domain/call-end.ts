export const AGENT_TYPES = ['voice', 'chat', 'video'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

/** The end reasons that name a failed vendor: each comes with a `callError` on the record. */
export const VENDOR_FAILURE_REASONS = [
  'tts_voice_not_found',
  'tts_auth_failed',
  'tts_unavailable',
  'stt_auth_failed',
  'stt_unavailable',
  'llm_auth_failed',
  'llm_rate_limited',
  'llm_unavailable',
  'telephony_failed',
] as const;
export type VendorFailureReason = (typeof VENDOR_FAILURE_REASONS)[number];

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
  // A vendor failed the call after its retries and every fallback (docs/api.md, "Why a call failed"); the
  // record's `callError` says which vendor and what it answered.
  ...VENDOR_FAILURE_REASONS,
  /** The API ended the call (`POST /api/calls/{id}/end`). */
  'ended_by_api',
  /** Something in the platform itself failed (no vendor to blame). */
  'error',
] as const;
export type CallEndReason = (typeof CALL_END_REASONS)[number];


/** What kind of failure a vendor error was (lib/vendors/shared/errors.ts decides it from the vendor's answer). */
export type FailureKind = 'auth' | 'rate_limited' | 'not_found' | 'unavailable';

/**
 * The end reason of a call that a vendor failed after its retries and fallbacks. The telephony stage has
 * one reason; a speech-to-text or model vendor that named nothing we can fix (a 404 there is an endpoint or
 * model the vendor no longer serves) is unavailable.
 */
export function failureReason(stage: 'stt' | 'tts' | 'llm' | 'telephony', kind: FailureKind): VendorFailureReason {
  switch (stage) {
    case 'tts':
      return kind === 'not_found' ? 'tts_voice_not_found' : kind === 'auth' ? 'tts_auth_failed' : 'tts_unavailable';
    case 'stt':
      return kind === 'auth' ? 'stt_auth_failed' : 'stt_unavailable';
    case 'llm':
      return kind === 'auth' ? 'llm_auth_failed' : kind === 'rate_limited' ? 'llm_rate_limited' : 'llm_unavailable';
    case 'telephony':
      return 'telephony_failed';
  }
}
