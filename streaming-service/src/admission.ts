import type { Contact } from '../../lib/domain/contact.js';
import { normalizePhone } from '../../lib/domain/phone.js';
import { verifyStreamToken, type StreamTokenClaims } from '../../lib/domain/stream-token.js';
import type { Tool } from '../../lib/domain/tool.js';
import { toolsOfAgent, type Agent } from '../../lib/domain/agent.js';
import type { InboundEvent } from './codec/twilio.js';
import type { CallSetup } from './session/call-session.js';

/**
 * Admission: a Media Stream becomes a call only with a valid signed stream token in
 * `start.customParameters.token` whose call sid matches the stream's, and only if it is the first stream
 * to claim the token's call (the server's `claim`, a conditional write: one stream per call, ever).
 * Everything else is refused before a single vendor byte is spent.
 */
export type Admission =
  | { readonly ok: true; readonly claims: StreamTokenClaims }
  | { readonly ok: false; readonly reason: 'missing_token' | 'malformed' | 'bad_signature' | 'expired' | 'call_mismatch' };

export function admit(start: Extract<InboundEvent, { kind: 'start' }>, tokenKey: Buffer | readonly Buffer[], nowMs: number = Date.now()): Admission {
  const token = start.customParameters.token;
  if (!token) return { ok: false, reason: 'missing_token' };
  const verified = verifyStreamToken(token, tokenKey, nowMs);
  if (!verified.ok) return verified;
  // A token is bound to the call it was issued for: replaying it on another call's stream is refused.
  if (verified.claims.callSid !== start.callSid) return { ok: false, reason: 'call_mismatch' };
  return { ok: true, claims: verified.claims };
}

/** How the session's inputs are read from the platform's stores. */
export interface CallLoader {
  agent(workspaceId: string, agentId: string): Promise<Agent>;
  /** The contact with this number in the workspace, if any. */
  contactByPhone(workspaceId: string, e164: string): Promise<Contact | undefined>;
  /** The contact with this id, if any (outbound calls name the contact they were started for). */
  contactById?(workspaceId: string, contactId: string): Promise<Contact | undefined>;
  /** Every tool of the workspace; {@link loadCallSetup} keeps those the agent is given. */
  tools(workspaceId: string): Promise<Tool[]>;
}

/** The call a session runs: a claimed phone call as the store holds it, or a browser's web session credential. */
export interface CallRef {
  readonly callId: string;
  readonly workspaceId: string;
  readonly agentId: string;
  /** The contact the call was started for, when one was found. */
  readonly contactId?: string;
  /** The other party's number (the contact is looked up by it when the call names none). */
  readonly from?: string;
}

/** The call's setup from verified claims; the history record's id is the claims' `callId`. */
export async function loadCallSetup(
  claims: CallRef,
  start: { readonly callSid: string; readonly streamSid: string },
  loader: CallLoader,
): Promise<CallSetup> {
  const startedAt = Date.now();
  const from = claims.from ? (normalizePhone(claims.from)?.e164 ?? claims.from) : '';
  const [agent, contact, tools] = await Promise.all([
    loader.agent(claims.workspaceId, claims.agentId),
    // An outbound call names its contact (found by number or by name when it was started); else the number.
    claims.contactId && loader.contactById
      ? loader.contactById(claims.workspaceId, claims.contactId).catch(() => undefined)
      : from
        ? loader.contactByPhone(claims.workspaceId, from).catch(() => undefined)
        : Promise.resolve(undefined),
    loader.tools(claims.workspaceId),
  ]);
  return {
    callId: claims.callId,
    workspaceId: claims.workspaceId,
    agent,
    contact,
    callerNumber: from,
    // The one place a call, meeting, chat or widget chat learns its tools: only those the agent names.
    tools: toolsOfAgent(agent, tools),
    callSid: start.callSid,
    streamSid: start.streamSid,
    startedAt,
  };
}
