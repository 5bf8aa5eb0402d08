import { streamUrl } from '../config.js';
import type { Deps } from '../deps.js';
import type { PhoneNumber } from '../domain/phone-number.js';
import { signStreamToken, STREAM_TOKEN_KEY_PURPOSE } from '../domain/stream-token.js';
import { log } from '../observability/log.js';
import { agentOfCall } from './agent-runtime.js';
import { findCall } from '../store/calls.js';
import { findPhoneNumberByE164 } from '../store/phone-numbers.js';
import { connectStreamTwiml, sayAndHangUpTwiml } from '../vendors/telephony/twilio-webhook.js';
import { applyProviderStatus, type ProviderStatus } from './call-status.js';
import { isLive } from './calls.js';

/**
 * The webhook side of calls we place (the dispatcher puts `?callId=` on the voice and status URLs it gives
 * the provider; Twilio signs the full URL, query included, so the id cannot be swapped). The Twilio
 * webhook service (lib/services/twilio-webhooks.ts) verifies the signature and hands over here.
 */

type OutboundDeps = Pick<Deps, 'config' | 'db' | 'secrets' | 'webhooks'>;

/** Spoken when the callee answers a call we can no longer connect (it was ended or is not ours). */
export const CALL_UNAVAILABLE_MESSAGE = 'Sorry, this call can no longer be connected. Goodbye.';

/** The call id a webhook URL carries, if any. */
export function callIdOf(rawQuery: string | undefined): string | undefined {
  const id = new URLSearchParams(rawQuery ?? '').get('callId');
  return id && /^call_[0-9A-Z]{26}$/.test(id) ? id : undefined;
}

/**
 * TwiML for an answered outbound call: the Media Stream with a signed token naming the call id, agent,
 * workspace, number and contact, so the streaming service runs the right agent, fills the contact's
 * variables and writes history under the call id. A call that ended, or whose number, provider call or
 * agent does not match, hears a short message and is hung up.
 */
export async function answerOutboundCall(
  deps: OutboundDeps,
  verifiedBy: PhoneNumber | undefined,
  callId: string,
  callSid: string,
  from?: string,
): Promise<string> {
  const owned = await callingNumber(deps, verifiedBy, from);
  const call = owned ? await findCall(deps.db, owned.workspaceId, callId) : undefined;
  const agent = call ? await agentOfCall(deps.db, call.workspaceId, call.agentId, call.agentVersion) : undefined;
  const matches =
    call !== undefined &&
    owned !== undefined &&
    call.from === owned.number &&
    isLive(call) &&
    (call.providerCallSid === undefined || call.providerCallSid === callSid);
  log('info', 'outbound call answered', { callId, callSid, connected: Boolean(matches && agent) });
  if (!call || !matches || !agent) return sayAndHangUpTwiml(CALL_UNAVAILABLE_MESSAGE);
  const token = signStreamToken(
    { callSid, workspaceId: call.workspaceId, callId: call._id },
    deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE),
  );
  return connectStreamTwiml(streamUrl(deps.config), { token });
}

/**
 * Our number a call was placed from. The webhook check resolves the number by `To` first (right for
 * inbound calls); when we dial another number held on the platform, `To` is that one, so the caller's
 * `From` is looked up instead, accepted only in the same provider account (whose token verified the
 * request).
 */
async function callingNumber(deps: OutboundDeps, verifiedBy: PhoneNumber | undefined, from: string | undefined): Promise<PhoneNumber | undefined> {
  if (!verifiedBy || !from || verifiedBy.number === from) return verifiedBy;
  const found = await findPhoneNumberByE164(deps.db, deps.secrets, from);
  return found && found.number.telephonyAccountSid === verifiedBy.telephonyAccountSid ? found.number : undefined;
}

/** Applies a verified status callback to the call its URL names (a no-op for calls that are not ours). */
export async function trackOutboundStatus(
  deps: OutboundDeps,
  verifiedBy: PhoneNumber | undefined,
  callId: string,
  status: ProviderStatus & { from?: string },
): Promise<void> {
  const owned = await callingNumber(deps, verifiedBy, status.from);
  if (!owned) return;
  await applyProviderStatus(deps, owned.workspaceId, callId, status);
}
