import type { Agent } from '../../../lib/domain/agent.js';
import type { Call } from '../../../lib/domain/call.js';
import { fillAgent } from '../../../lib/domain/call-template.js';
import { withOverrides } from '../../../lib/domain/agent-overrides.js';
import type { Contact } from '../../../lib/domain/contact.js';
import { callVariables, contactTimeZone, type CallFacts } from '../../../lib/domain/template.js';

/** What a call is, for the built-in variables: from the stored call, or (no record) from the socket's side. */
function factsOf(call: Call | undefined, contact: Contact | undefined, callId: string, otherParty: string, nowMs: number): CallFacts {
  const timeZone = contactTimeZone(contact);
  const base = { callId, nowMs, ...(timeZone ? { timeZone } : {}) };
  if (call?.agentType === 'chat') return { ...base, direction: 'chat', callerNumber: '', calledNumber: '' };
  if (call?.agentType === 'video') return { ...base, direction: 'web', callerNumber: call.to, calledNumber: '' };
  if (call?.direction === 'inbound') return { ...base, direction: 'inbound', callerNumber: call.to, calledNumber: call.from ?? '' };
  if (call) return { ...base, direction: 'outbound', callerNumber: call.from ?? '', calledNumber: call.to };
  return { ...base, direction: 'inbound', callerNumber: otherParty, calledNumber: '' };
}

/**
 * The agent as this one call runs it (its `agent_overrides` applied), and the variables it was filled with: the contact's fields, the
 * call's own `variables`, the built-ins (read at the session's start), in that order (docs/calls.md).
 */
export function callSetupOf(agent: Agent, contact: Contact | undefined, call: Call | undefined, callId: string, otherParty: string, nowMs: number): { agent: Agent; variables: Record<string, string> } {
  // A phone call or meeting started with a `contactName` and no contact found: that name is `{{contactName}}`.
  const named = !contact && call?.contactName && call.agentType !== 'chat' ? { contactName: call.contactName, phoneNumber: call.to, externalFields: {} } : undefined;
  const variables = callVariables(contact ?? named, call?.variables, factsOf(call, contact, callId, otherParty, nowMs));
  return { agent: fillAgent(withOverrides(agent, call?.agentOverrides), variables), variables };
}
