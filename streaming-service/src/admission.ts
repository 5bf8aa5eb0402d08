import type { IncomingMessage } from 'node:http';
import type { Contact } from '../../lib/domain/contact.js';
import { normalizePhone } from '../../lib/domain/phone.js';
import { LocalWindows, type RatePolicy } from '../../lib/domain/rate-window.js';
import type { StreamTokenClaims } from '../../lib/domain/stream-token.js';
import type { Tool } from '../../lib/domain/tool.js';
import { toolsOfAgent, type Agent } from '../../lib/domain/agent.js';
import type { Call } from '../../lib/domain/call.js';
import { callSetupOf } from './call/variables.js';
import { handoffOffers, handoffResolver } from './call/handoff-setup.js';
import type { CallSetup, SessionServices } from './call/types.js';

/**
 * Admission, the one path every socket kind (a Twilio media stream, a browser call, a chat) takes to become a
 * session: capacity on the HTTP upgrade ({@link upgradeGate}), then on the socket ({@link admitSocket}) its
 * credential, its setup, and the claim (a conditional write: one socket per call, ever). Everything refused
 * is refused before a single vendor byte is spent. A kind supplies only what differs: its credential and its
 * claim, in a {@link Ticket}.
 */

/** Why a socket was refused: its close code, the reason (the `refused` event), and what a page may show. */
export class Refusal {
  constructor(
    readonly code: number,
    readonly reason: string,
    readonly message = '',
  ) {}
}

/** The limit on upgrades per client (see {@link upgradeGate}). */
export interface UpgradeLimit {
  readonly policy: RatePolicy;
  /** Behind the ALB the client is the last X-Forwarded-For entry, the one the ALB appended. */
  readonly behindProxy?: boolean;
}

/** The client address of an upgrade request (see {@link UpgradeLimit}); otherwise the socket's address. */
function clientIp(req: IncomingMessage, behindProxy: boolean): string {
  const forwarded = behindProxy ? String(req.headers['x-forwarded-for'] ?? '').split(',').pop()?.trim() : undefined;
  return (forwarded || req.socket.remoteAddress || 'unknown').replace(/^::ffff:(?=\d+\.)/, '');
}

/**
 * Capacity, for every socket kind alike: the HTTP response that refuses an upgrade (503 while the server
 * drains, 429 over the client's rate), or undefined to let it through. The rate is counted in this
 * process's memory: a task lives long, unlike a Lambda instance.
 */
export function upgradeGate(limit: UpgradeLimit | undefined): (req: IncomingMessage, draining: boolean) => string | undefined {
  const upgrades = new LocalWindows();
  return (req, draining) => {
    if (draining) return 'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';
    if (!limit) return undefined;
    const d = upgrades.take(limit.policy, clientIp(req, limit.behindProxy ?? false), Date.now());
    if (d.allowed) return undefined;
    const p = d.policy;
    return (
      `HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${d.resetSeconds}\r\nRateLimit-Policy: "${p.name}";q=${p.limit};w=${p.windowSeconds}\r\n` +
      `RateLimit: "${p.name}";r=0;t=${d.resetSeconds}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`
    );
  };
}

/** What admission needs of the platform's environment: how a call's setup is read and its vendors built. */
export interface AdmissionEnvironment {
  readonly loader: CallLoader;
  services(setup: CallSetup, numberId?: string): SessionServices | Promise<SessionServices>;
}

/** The call and stream sids a session is set up with. */
export interface SocketIds {
  readonly callSid: string;
  readonly streamSid: string;
}

/** What one socket kind supplies to {@link admitSocket}. */
export interface Ticket<E, C extends CallRef, Claimed> {
  /** The refusal when the environment could not be built. */
  readonly unavailable: Refusal;
  /**
   * The socket's credential checked against the environment's keys, and the call it names: its claims, or
   * why not. A read that fails is the service's unavailability.
   */
  verify(e: E): C | Refusal | Promise<C | Refusal>;
  /** Serves a socket that comes back to a call this process runs (no new claim): true when it did. */
  rejoin?(claims: C): boolean | Refusal;
  ids(claims: C): SocketIds;
  /** The refusal when the setup could not be read or the claim failed (the kind logs as it sees fit). */
  failed(stage: 'setup' | 'claim', error: unknown, claims: C): Refusal;
  /** Whether the socket went away while the setup was read: then nothing is claimed. */
  gone(): boolean;
  /** Claims the call for this socket: what the claim grants (the call's longest duration), or why not. */
  claim(e: E, claims: C, ids: SocketIds): Promise<Claimed | Refusal>;
}

/** A socket admitted to its call: the session may start (its bill runs from now). */
export interface Admitted<E, C, Claimed> {
  readonly e: E;
  readonly claims: C;
  readonly setup: CallSetup;
  readonly services: SessionServices;
  readonly claimed: Claimed;
}

/**
 * Admits one socket, in the order every kind shares: environment, credential, a rejoin, setup and vendors,
 * then the claim. The claim is last, after the reads, so a socket that fails to set up does not use up its
 * call; and before the session starts, so no vendor is touched for a socket that is not the call's one.
 * Undefined when there is nothing more to do (the socket went away, or rejoined its call).
 */
export async function admitSocket<E extends AdmissionEnvironment, C extends CallRef & { readonly numberId?: string }, Claimed>(
  env: () => Promise<E>,
  ticket: Ticket<E, C, Claimed>,
): Promise<Admitted<E, C, Claimed> | Refusal | undefined> {
  let e: E;
  try {
    e = await env();
  } catch {
    return ticket.unavailable;
  }
  let claims: C | Refusal;
  try {
    claims = await ticket.verify(e);
  } catch {
    return ticket.unavailable;
  }
  if (claims instanceof Refusal) return claims;
  const rejoined = ticket.rejoin?.(claims);
  if (rejoined) return rejoined === true ? undefined : rejoined;
  const ids = ticket.ids(claims);
  let setup: CallSetup;
  let services: SessionServices;
  try {
    setup = await loadCallSetup(claims, ids, e.loader);
    services = await e.services(setup, claims.numberId);
    // The agent's handoffs switch to destinations built the same way (call/handoff-setup.ts).
    if (setup.handoffs) services = { ...services, handOff: handoffResolver(e, setup, claims.numberId) };
  } catch (error) {
    return ticket.failed('setup', error, claims);
  }
  if (ticket.gone()) return undefined;
  let claimed: Claimed | Refusal;
  try {
    claimed = await ticket.claim(e, claims, ids);
  } catch (error) {
    return ticket.failed('claim', error, claims);
  }
  if (claimed instanceof Refusal) return claimed;
  return { e, claims, setup, services, claimed };
}

/** How the session's inputs are read from the platform's stores. */
export interface CallLoader {
  /** The agent record, or its published `version` when the call recorded one (docs/agent-versions.md). */
  agent(workspaceId: string, agentId: string, version?: number): Promise<Agent>;
  /** The contact with this number in the workspace, if any. */
  contactByPhone(workspaceId: string, e164: string): Promise<Contact | undefined>;
  /** The contact with this id, if any (outbound calls name the contact they were started for). */
  contactById?(workspaceId: string, contactId: string): Promise<Contact | undefined>;
  /**
   * The agent a handoff to `agentId` runs: its latest published version, else its record; undefined when it
   * is not an agent of the workspace (docs/handoffs.md).
   */
  destination?(workspaceId: string, agentId: string): Promise<{ agent: Agent; version?: number } | undefined>;
  /** Every tool of the workspace; {@link loadCallSetup} keeps those the agent is given. */
  tools(workspaceId: string): Promise<Tool[]>;
  /** The live call record, for what the call was started with (its `{{variables}}`); absent in tests that build calls by hand. */
  call?(workspaceId: string, callId: string): Promise<Call | undefined>;
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
  let [agent, contact, tools, call] = await Promise.all([
    loader.agent(claims.workspaceId, claims.agentId),
    // An outbound call names its contact (found by number or by name when it was started); else the number.
    claims.contactId && loader.contactById
      ? loader.contactById(claims.workspaceId, claims.contactId).catch(() => undefined)
      : from
        ? loader.contactByPhone(claims.workspaceId, from).catch(() => undefined)
        : Promise.resolve(undefined),
    loader.tools(claims.workspaceId),
    loader.call ? loader.call(claims.workspaceId, claims.callId) : Promise.resolve(undefined),
  ]);
  // A call of a published agent runs the version it was started with, whatever the draft says now.
  if (call?.agentVersion !== undefined) agent = await loader.agent(claims.workspaceId, claims.agentId, call.agentVersion);
  // The agent as this call runs it: its texts filled from the call's variables (call/variables.ts).
  const { agent: filled, variables } = callSetupOf(agent, contact, call, claims.callId, from, startedAt);
  const handoffs = await handoffOffers(loader, claims.workspaceId, filled.handoffs);
  return {
    callId: claims.callId,
    workspaceId: claims.workspaceId,
    agent: filled,
    contact,
    variables,
    ...(call?.metadata ? { metadata: call.metadata } : {}),
    ...(call?.agentTest ? { agentTest: call.agentTest } : {}),
    callerNumber: from,
    // The one place a call, meeting, chat or widget chat learns its tools: only those the agent names.
    tools: toolsOfAgent(filled, tools),
    ...(handoffs ? { handoffs } : {}),
    ...(call?.agentVersion !== undefined ? { agentVersion: call.agentVersion } : {}),
    callSid: start.callSid,
    streamSid: start.streamSid,
    startedAt,
  };
}
