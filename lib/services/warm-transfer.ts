import type { Deps } from '../deps.js';
import type { PhoneNumber } from '../domain/phone-number.js';
import { log } from '../observability/log.js';
import { findCall } from '../store/calls.js';
import { isTelephonyError } from '../vendors/telephony/port.js';
import { conferenceTwiml, sayAndHangUpTwiml, transferConference } from '../vendors/telephony/twilio-webhook.js';
import { isLive } from './calls.js';
import { accountFor } from './dispatch.js';

/**
 * The target's answer to a warm transfer (the `<Gather>` action of the second call the streaming service
 * placed, docs/telephony.md "Transfer"). Key 1: the caller's call is redirected into a conference named
 * for the call, and the target joins it; the caller's stream ends there and the session records the
 * transfer as accepted. Anything else: the target hears goodbye, their call ends, and the session (which
 * watches that call) tells the caller and carries on.
 */

type TransferDeps = Pick<Deps, 'config' | 'db' | 'secrets' | 'telephony' | 'webhooks'>;

export const TRANSFER_DECLINED_MESSAGE = 'All right, I will let them know. Goodbye.';

export async function answerWarmTransfer(deps: TransferDeps, owned: PhoneNumber | undefined, callId: string, digits: string | undefined): Promise<string> {
  if (digits !== '1' || !owned) return sayAndHangUpTwiml(TRANSFER_DECLINED_MESSAGE);
  const call = await findCall(deps.db, owned.workspaceId, callId);
  // The second call is placed from the caller's call's number: only that number's account may bridge it.
  if (!call || call.from !== owned.number || !isLive(call) || !call.providerCallSid) {
    log('warn', 'warm transfer answer for a call that cannot be bridged', { callId });
    return sayAndHangUpTwiml('Sorry, the caller is no longer on the line. Goodbye.');
  }
  const { account } = await accountFor(deps, call.workspaceId, call.phoneNumberId ?? '');
  if (!account) return sayAndHangUpTwiml('Sorry, the call cannot be connected. Goodbye.');
  const room = transferConference(call._id);
  try {
    await deps.telephony.port.updateCall(account, call.providerCallSid, { twiml: conferenceTwiml(room) });
  } catch (error) {
    if (!isTelephonyError(error, 'not_found') && !isTelephonyError(error, 'invalid')) throw error;
    return sayAndHangUpTwiml('Sorry, the caller is no longer on the line. Goodbye.');
  }
  log('info', 'warm transfer accepted', { callId });
  return conferenceTwiml(room);
}
