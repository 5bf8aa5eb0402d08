import type { Deps } from '../deps.js';
import { CALL_CONTROL_DEFAULTS } from '../domain/agent.js';
import type { PhoneNumber } from '../domain/phone-number.js';
import { callVariables, contactTimeZone, fillTemplate } from '../domain/template.js';
import { withOverrides } from '../domain/agent-overrides.js';
import { isMachine, isMessageEnd } from '../domain/voicemail.js';
import { log } from '../observability/log.js';
import { findAgent } from '../store/agents.js';
import { findCall, recordAnsweredBy } from '../store/calls.js';
import { getContact } from '../store/contacts.js';
import { isTelephonyError } from '../vendors/telephony/port.js';
import { sayAndHangUpTwiml } from '../vendors/telephony/twilio-webhook.js';
import { accountFor } from './dispatch.js';
import { isLive } from './calls.js';

/**
 * The answering-machine verdict of a call we placed (Twilio's asynchronous AMD callback, docs/telephony.md
 * "Voicemail"). The agent has been talking since the call was answered; a machine verdict now acts on the
 * call through the provider: hang up, or (at the end of the greeting) replace the stream with the agent's
 * voicemail message and hang up. Either ends the stream, and the call's end (connected-call-end.ts)
 * records `voicemail` from the verdict stored here first.
 */

type AmdDeps = Pick<Deps, 'config' | 'db' | 'secrets' | 'telephony' | 'webhooks'>;

export interface AmdVerdict {
  readonly callSid: string;
  readonly answeredBy: string;
}

export async function applyAmdVerdict(deps: AmdDeps, owned: PhoneNumber, callId: string, verdict: AmdVerdict): Promise<void> {
  const call = await findCall(deps.db, owned.workspaceId, callId);
  // Only the number the call was placed from, for the provider call it was placed as, may speak for it.
  if (!call || call.from !== owned.number || (call.providerCallSid !== undefined && call.providerCallSid !== verdict.callSid)) {
    log('warn', 'AMD verdict for a call that is not this one', { callId, callSid: verdict.callSid });
    return;
  }
  const stored = await recordAnsweredBy(deps.db, call.workspaceId, call._id, verdict.answeredBy, new Date().toISOString());
  log('info', 'answering machine verdict', { callId, callSid: verdict.callSid, answeredBy: verdict.answeredBy });
  if (!stored || !isLive(stored) || !isMachine(verdict.answeredBy)) return;
  const found = await findAgent(deps.db, call.workspaceId, call.agentId);
  const agent = found && withOverrides(found, call.agentOverrides);
  const action = agent?.voicemail_action ?? CALL_CONTROL_DEFAULTS.voicemail_action;
  const message = agent?.voicemail_message?.trim() ?? '';
  // `machine_start` asks us to wait: with a message to leave, the end-of-greeting verdict follows.
  const leaveMessage = action === 'leave_message' && message !== '' && verdict.answeredBy !== 'fax';
  if (leaveMessage && !isMessageEnd(verdict.answeredBy)) return;
  const { account } = await accountFor(deps, call.workspaceId, call.phoneNumberId ?? '');
  if (!account) return;
  try {
    if (leaveMessage) {
      const contact = call.contactId ? await getContact(deps.db, call.workspaceId, call.contactId).catch(() => undefined) : undefined;
      // The same variables the call's conversation has (docs/calls.md, "Variables"); the date read now.
      const tz = contactTimeZone(contact);
      const facts = { callId: call._id, direction: 'outbound', callerNumber: call.from ?? '', calledNumber: call.to, nowMs: Date.now(), ...(tz ? { timeZone: tz } : {}) } as const;
      const named = contact ?? (call.contactName ? { contactName: call.contactName, phoneNumber: call.to, externalFields: {} } : undefined);
      const twiml = sayAndHangUpTwiml(fillTemplate(message, callVariables(named, call.variables, facts)));
      await deps.telephony.port.updateCall(account, verdict.callSid, { twiml });
    } else {
      await deps.telephony.port.updateCall(account, verdict.callSid, { status: 'completed' });
    }
  } catch (error) {
    // The callee hung up first: nothing left to do, the stream's end records the call. What Twilio answers
    // then is not documented (twilio-oai lists only 200 for this update): a 404 or a 400 such as 21220
    // (Invalid call state for update) both mean the call is over, and neither is the webhook's failure.
    if (!isTelephonyError(error, 'not_found') && !isTelephonyError(error, 'invalid')) throw error;
    log('info', 'answering machine verdict for a call that already ended', { callId, callSid: verdict.callSid });
  }
}
