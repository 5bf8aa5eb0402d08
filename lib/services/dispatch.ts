import type { Deps } from '../deps.js';
import { withOverrides } from '../domain/agent-overrides.js';
import type { DispatchMessage } from '../domain/call.js';
import { log } from '../observability/log.js';
import { TIME_LIMIT_GRACE_SECONDS } from '../domain/agent.js';
import { MACHINE_DETECTION_TIMEOUT_SECONDS, machineDetectionFor } from '../domain/voicemail.js';
import { agentOfCall } from './agent-runtime.js';
import { claimForDispatch, findCall, releaseDispatchClaim, setProviderCallSid } from '../store/calls.js';
import { getPhoneNumberWithToken } from '../store/phone-numbers.js';
import { isTelephonyError, type TelephonyAccount, type TelephonyError } from '../vendors/telephony/port.js';
import { describeVendorFailure } from '../vendors/shared/errors.js';
import { shownMessage, type CallError } from '../domain/call-timeline.js';
import { amdWebhookUrl, statusWebhookUrl, voiceWebhookUrl } from './calls.js';
import { endUnconnectedCall } from './call-status.js';

/**
 * Places one queued call through the telephony port. SQS delivers at least once, so the call is claimed
 * with a conditional write (`initiated` → `dialing`) BEFORE the provider is asked: a duplicate or late
 * message finds the claim taken and does nothing. docs/calls.md has the retry and dead-letter rules.
 */

type DispatchDeps = Pick<Deps, 'config' | 'db' | 'secrets' | 'telephony' | 'webhooks'>;

/** `done`: delete the message. `retry`: leave it for SQS to deliver again (dead letters after the last). */
export type DispatchResult = 'done' | 'retry';

/** The provider's account the call's number lives in: the customer's (BYOT) or the platform's. */
export async function accountFor(deps: DispatchDeps, workspaceId: string, numberId: string): Promise<{ account?: TelephonyAccount; from?: string }> {
  const found = await getPhoneNumberWithToken(deps.db, deps.secrets, workspaceId, numberId).catch(() => undefined);
  if (!found) return {};
  if (found.number.type === 'byot') {
    return found.authToken
      ? { account: { accountSid: found.number.telephonyAccountSid, authToken: found.authToken }, from: found.number.number }
      : {};
  }
  return { account: await deps.telephony.platformAccount(), from: found.number.number };
}

/**
 * Dispatches one message. `receiveCount` is SQS's ApproximateReceiveCount: the last allowed receive that
 * still fails ends the call (`failed`, credits released) before the message moves to the dead letters.
 */
export async function dispatchCall(deps: DispatchDeps, message: DispatchMessage, receiveCount: number): Promise<DispatchResult> {
  const { callId, workspaceId } = message;
  const now = () => new Date().toISOString();
  // The claim answers the call as it now stands; the call is read only to say why there was none.
  const claimed = await claimForDispatch(deps.db, workspaceId, callId, receiveCount, now());
  if (!claimed) {
    const call = await findCall(deps.db, workspaceId, callId);
    if (!call) log('warn', 'dispatch: no such call', { callId, workspaceId });
    else log('info', 'dispatch: already claimed', { callId, status: call.status, receiveCount });
    return 'done';
  }
  const lastTry = receiveCount >= deps.config.DISPATCH_MAX_RECEIVE_COUNT;
  try {
    const { account, from } = await accountFor(deps, workspaceId, claimed.phoneNumberId ?? '');
    if (!account || !from) {
      // The number was released, or its account has no credentials: no retry can fix that.
      log('warn', 'dispatch: no account to call from', { callId, numberId: claimed.phoneNumberId });
      await endUnconnectedCall(deps, claimed, 'failed', 'failed');
      return 'done';
    }
    // A deleted agent's call still dials (the voice webhook then says it cannot connect), without detection.
    const found = await agentOfCall(deps.db, workspaceId, claimed.agentId, claimed.agentVersion);
    const agent = found && withOverrides(found, claimed.agentOverrides);
    const machineDetection = agent ? machineDetectionFor(agent) : undefined;
    const placed = await deps.telephony.port.createCall(account, {
      to: claimed.to,
      from,
      url: voiceWebhookUrl(deps.config, callId),
      statusCallback: statusWebhookUrl(deps.config, callId),
      statusCallbackEvents: ['initiated', 'ringing', 'answered', 'completed'],
      // The session ends the call at its limit; Twilio's cut a little later is only the backstop.
      timeLimitSeconds: claimed.maxDurationSeconds + TIME_LIMIT_GRACE_SECONDS,
      ...(machineDetection
        ? {
            machineDetection,
            asyncAmdStatusCallback: amdWebhookUrl(deps.config, claimed),
            machineDetectionTimeoutSeconds: MACHINE_DETECTION_TIMEOUT_SECONDS,
          }
        : {}),
    });
    await setProviderCallSid(deps.db, workspaceId, callId, placed.sid, now());
    log('info', 'call placed', { callId, callSid: placed.sid, receiveCount });
    return 'done';
  } catch (error) {
    // Only a refusal we are sure of (the provider answered with a retryable error, or our own store
    // failed before dialing) may be retried: after a network error the call may exist at the provider, and
    // dialing again could ring the person twice.
    const unsure = isTelephonyError(error, 'network');
    const retryable = !unsure && (!isTelephonyError(error) || error.retryable);
    log('warn', 'dispatch failed', { callId, receiveCount, retryable, error: String(error) });
    if (retryable && !lastTry) {
      const released = await releaseDispatchClaim(deps.db, workspaceId, callId, receiveCount, now());
      if (released) return 'retry';
    }
    // The provider refused or could not be reached: the record says which and what it answered.
    if (isTelephonyError(error)) await endUnconnectedCall(deps, claimed, 'failed', 'telephony_failed', telephonyCallError(error));
    else await endUnconnectedCall(deps, claimed, 'failed', 'failed');
    // The last failing receive still goes to the dead letters, for someone to look at.
    return retryable ? 'retry' : 'done';
  }
}

/** A provider's refusal to place a call, as the record shows it: at second 0, the call never connected. */
function telephonyCallError(error: TelephonyError): CallError {
  const d = describeVendorFailure(error);
  return { stage: 'telephony', vendor: d.vendor, code: error.vendorCode !== undefined ? String(error.vendorCode) : d.code, message: shownMessage(d.message), atSecond: 0 };
}
