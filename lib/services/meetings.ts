import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { publicUrl, webStreamUrl } from '../config.js';
import type { Deps } from '../deps.js';
import type { Call, MeetingLinkRequest, MeetingLinkResult } from '../domain/call.js';
import { AppError, NotFoundError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { WEB_SESSION_KEY_PURPOSE, signWebSession } from '../domain/web-session-token.js';
import { findAgent, getAgent } from '../store/agents.js';
import { claimWebStream } from '../store/web-calls.js';
import { findCall } from '../store/calls.js';
import { putNewCall } from '../store/call-creation.js';
import { getMeetingToken, meetingTokenItem, useMeetingToken, type MeetingTokenItem } from '../store/meeting-links.js';
import { newHistoryRecordItems } from '../store/history.js';
import { destination, findCallContact } from './outbound-calls.js';
import { historyOf } from '../domain/call-record.js';
import { assertCanAffordCall, callPricing } from './credits.js';
import { reservationFor } from '../domain/call.js';
import { confirmWidgetSession } from './widget-leases.js';
import { callStartedData } from './call-events.js';
import { announce } from './webhook-events.js';
import type { StandInNotice } from '../domain/stand-ins.js';
import { standInsOf } from '../vendors/stand-ins.js';
import { agentForCall, assertVariablesSupplied } from './call-variables.js';
import { agentToRunById } from './agent-runtime.js';

/**
 * One-time video meeting links. The token is 32 random bytes (base64url) handed out once in `room_url`;
 * only its SHA-256 is stored (`MEETING#<callId>/TOKEN`), so a table read never yields a working link.
 * Opening the link (GET) only looks at it; joining (the page's POST) redeems it with ONE conditional write
 * (right token, unused, unexpired → used): of any number of concurrent joins exactly one is admitted.
 * docs/calls.md.
 */

/** A link is good for a day: long enough to reach someone by email or SMS, short enough to be stale-safe. */
export const MEETING_LINK_TTL_SECONDS = 24 * 60 * 60;

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Creates a meeting link: a credit check (402 when the workspace cannot cover one call's reservation), the
 * agent, the contact (by `phoneNumber`, then `contactName`), a `video` call, its history record and the
 * hashed token, all written together.
 */
export async function createMeetingLink(
  deps: Pick<Deps, 'config' | 'db'>,
  workspaceId: string,
  request: MeetingLinkRequest,
  nowMs: number = Date.now(),
): Promise<MeetingLinkResult> {
  const phone = request.phoneNumber === undefined ? undefined : destination(request.phoneNumber);
  const run = await agentToRunById(deps.db, workspaceId, request.assistantId, request.agent_version);
  const agent = await agentForCall(deps, workspaceId, run.agent, request.agent_overrides);
  await assertCanAffordCall(deps, workspaceId);
  const contact = await findCallContact(deps, workspaceId, phone, request.contactName);
  await assertVariablesSupplied(deps, workspaceId, agent, contact, request.variables, request.contactName);
  const call = newWebCall(deps, {
    workspaceId,
    agentId: agent._id,
    agentType: 'video',
    to: contact?.phoneNumber ?? phone ?? '',
    ...(contact ? { contactId: contact._id } : {}),
    contactName: contact?.contactName ?? request.contactName ?? '',
    ...(request.variables ? { variables: request.variables } : {}),
    ...(request.metadata ? { metadata: request.metadata } : {}),
    ...(request.agent_overrides ? { agentOverrides: request.agent_overrides } : {}),
    ...(run.version !== undefined ? { agentVersion: run.version } : {}),
  }, nowMs);
  const token = randomBytes(32).toString('base64url');
  const expiresAtMs = nowMs + MEETING_LINK_TTL_SECONDS * 1000;
  await putNewWebCall(deps, call, [meetingTokenItem(deps.db, { callId: call._id, workspaceId, tokenHash: hashToken(token), expiresAtMs })]);
  return { call_id: call._id, room_url: publicUrl(deps.config, `/meeting/${call._id}?token=${token}`) };
}

/**
 * A call the browser transport will run (a meeting, a widget voice call): nothing reserved yet, because
 * the browser's first `/web-stream` socket reserves when it claims the call (claimMeetingCall).
 */
export function newWebCall(
  deps: Pick<Deps, 'config'>,
  who: Pick<Call, 'workspaceId' | 'agentId' | 'agentType' | 'to' | 'contactId' | 'contactName' | 'variables' | 'metadata' | 'agentOverrides' | 'agentVersion' | 'agentTest'>,
  nowMs: number,
): Call {
  const createdAt = new Date(nowMs).toISOString();
  return {
    _id: newId('call', nowMs),
    ...who,
    status: 'initiated',
    reserved: 0,
    maxDurationSeconds: callPricing(deps.config).maxDurationSeconds,
    createdAt,
    updatedAt: createdAt,
  };
}

/**
 * Writes a web call with its history record (and `extra` items) in one transaction. The record exists from
 * the start (history shows every call id handed out): nobody has joined yet, so `not_joined` with no
 * duration or cost; the session, when it runs, records what happened.
 */
export async function putNewWebCall(deps: Pick<Deps, 'db'>, call: Call, extra: Parameters<typeof putNewCall>[2] = []): Promise<void> {
  const record = historyOf(call, { endReason: 'not_joined', durationSeconds: 0, cost: 0 });
  await putNewCall(deps.db, call, [...newHistoryRecordItems(deps.db, record), ...extra]);
}

/**
 * What a joined page needs to start its call (docs/meeting.md, "Opening and joining a link"). `credential`
 * is a secret of the tab that joined: it goes in the answer's body only, never in a log or a URL.
 */
export interface MeetingSession {
  readonly callId: string;
  readonly agentName: string;
  /** The streaming service's browser transport (`/web-stream`). */
  readonly streamUrl: string;
  /** A `wss1` web session credential (lib/domain/web-session-token.ts). */
  readonly credential: string;
  readonly expiresAt: string;
  /** The agent's simulated vendors, when it has any (docs/provider-keys.md, "Simulated vendors"). */
  readonly standIns?: StandInNotice;
}

/** What a link is, for the page that shows it (the agent's name once the link is known to be good). */
export type LinkOutcome =
  | { readonly kind: 'valid'; readonly callId: string; readonly workspaceId: string; readonly agentName: string; readonly standIns?: StandInNotice }
  | { readonly kind: 'admitted'; readonly session: MeetingSession }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'used' }
  | { readonly kind: 'expired' };

/**
 * How long past the call's longest possible end a credential still works: a rejoin after a reload or a
 * blip near the end (the streaming service's grace is 30 s) plus clock skew between API and service.
 */
export const WEB_SESSION_SLACK_SECONDS = 10 * 60;

const tokenShapeOk = (token: string | undefined): token is string => Boolean(token) && token!.length <= 128;

/** Why a token does not work, from its stored item (for the page shown, never for the decision to admit). */
function refusal(item: MeetingTokenItem | undefined, tokenHash: string, nowMs: number): LinkOutcome | undefined {
  // A wrong token learns nothing about the link, not even that it exists.
  if (!item || !safeEqual(item.tokenHash, tokenHash)) return { kind: 'unknown' };
  if (item.usedAt !== undefined) return { kind: 'used' };
  if (item.expiresAtMs <= nowMs) return { kind: 'expired' };
  return undefined;
}

const safeEqual = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The call, its agent's name (a neutral phrase when the agent has since been deleted), and the agent's
 * simulated vendors, which the page says (a browser call has no telephony).
 */
async function callAndAgentName(deps: Pick<Deps, 'db' | 'config'>, workspaceId: string, callId: string): Promise<{ call?: Call; agentName: string; standIns?: StandInNotice }> {
  const call = await findCall(deps.db, workspaceId, callId);
  const agent = call ? await findAgent(deps.db, workspaceId, call.agentId) : undefined;
  const standIns = agent ? standInsOf(deps.config, agent, { channel: 'web' }) : undefined;
  return { call, agentName: agent?.name || 'your agent', ...(standIns && { standIns }) };
}

/**
 * The session a join hands the page: a credential bound to the call and to this one join (a random
 * `sessionId`), good until the call could no longer be running (its maximum duration from now, plus slack).
 */
export function issueSession(deps: Pick<Deps, 'config' | 'secrets'>, call: Call, agentName: string, nowMs: number, standIns?: StandInNotice): MeetingSession {
  const exp = Math.floor(nowMs / 1000) + call.maxDurationSeconds + WEB_SESSION_SLACK_SECONDS;
  const credential = signWebSession(
    {
      callId: call._id,
      workspaceId: call.workspaceId,
      agentId: call.agentId,
      ...(call.contactId ? { contactId: call.contactId } : {}),
      sessionId: randomBytes(16).toString('base64url'),
      exp,
    },
    deps.secrets.deriveKey(WEB_SESSION_KEY_PURPOSE),
  );
  return { callId: call._id, agentName, streamUrl: webStreamUrl(deps.config), credential, expiresAt: new Date(exp * 1000).toISOString(), ...(standIns && { standIns }) };
}

/**
 * Looks at a link WITHOUT using it: the page a GET shows (link scanners in mail and chat fetch URLs, and a
 * fetch must never burn the link). Only the page's own POST redeems it (see redeemMeetingLink).
 */
export async function inspectMeetingLink(
  deps: Pick<Deps, 'db' | 'config'>,
  callId: string,
  token: string | undefined,
  nowMs: number = Date.now(),
): Promise<LinkOutcome> {
  if (!tokenShapeOk(token)) return { kind: 'unknown' };
  const item = await getMeetingToken(deps.db, callId);
  const refused = refusal(item, hashToken(token), nowMs);
  if (refused) return refused;
  const { agentName, standIns } = await callAndAgentName(deps, item!.workspaceId, callId);
  return { kind: 'valid', callId, workspaceId: item!.workspaceId, agentName, ...(standIns && { standIns }) };
}

/**
 * Redeems a link: one conditional update marks the token used if it matches, is unused and has not
 * expired, so of any number of concurrent redeems exactly one is admitted, and gets the web session of
 * its call. When the write is refused, a read says why (for the page shown, never for the decision).
 */
export async function redeemMeetingLink(
  deps: Pick<Deps, 'db' | 'config' | 'secrets'>,
  callId: string,
  token: string | undefined,
  nowMs: number = Date.now(),
): Promise<LinkOutcome> {
  if (!tokenShapeOk(token)) return { kind: 'unknown' };
  const tokenHash = hashToken(token);
  const workspaceId = await useMeetingToken(deps.db, callId, tokenHash, nowMs);
  if (workspaceId) {
    const { call, agentName, standIns } = await callAndAgentName(deps, workspaceId, callId);
    // The call is written with its token in one transaction; a missing one is a broken table, not a link.
    if (!call) throw new Error(`Meeting ${callId} has a token but no call record`);
    return { kind: 'admitted', session: issueSession(deps, call, agentName, nowMs, standIns) };
  }
  return refusal(await getMeetingToken(deps.db, callId), tokenHash, nowMs) ?? { kind: 'used' };
}

/** How a browser call's first socket was claimed (docs/meeting.md). */
export type MeetingClaim =
  | { readonly kind: 'claimed'; readonly maxDurationSeconds: number; readonly call: Call }
  | { readonly kind: 'insufficient_credits' }
  /** A socket was claimed for the call before (in another container, or it has ended). */
  | { readonly kind: 'ended' };

/**
 * The first browser socket of a meeting: reserves one call's credits and claims the call for the socket,
 * in one write (docs/meeting.md). `ended` when a socket was claimed for it before or it is over;
 * `insufficient_credits` when the workspace can no longer cover the reservation.
 */
export async function claimMeetingCall(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'webhooks'>,
  call: { workspaceId: string; callId: string },
  streamSid: string,
  nowMs: number = Date.now(),
): Promise<MeetingClaim> {
  const reserved = reservationFor(callPricing(deps.config));
  const out = await claimWebStream(deps.db, call.workspaceId, call.callId, streamSid, reserved, new Date(nowMs).toISOString());
  if (out.kind === 'insufficient') return { kind: 'insufficient_credits' };
  if (out.kind === 'ended') return out;
  // A widget call's place on its key now holds for the call's length.
  await confirmWidgetSession(deps, out.call, nowMs);
  // Announced beside the call, not before it: the conversation must not wait on a webhook's queue.
  void announce(deps, out.call.workspaceId, 'call.started', callStartedData(out.call, new Date(nowMs).toISOString()));
  return { kind: 'claimed', maxDurationSeconds: out.call.maxDurationSeconds, call: out.call };
}

/**
 * The session of an admitted join, or the refusal as a typed error (the JSON join: 404 `not_found`, 410
 * `link_used` or `link_expired`; docs/meeting.md).
 */
export function admittedSession(outcome: LinkOutcome): MeetingSession {
  switch (outcome.kind) {
    case 'admitted':
      return outcome.session;
    case 'used':
      throw new AppError(410, 'link_used', 'This meeting link has already been used. Ask for a new link.');
    case 'expired':
      throw new AppError(410, 'link_expired', 'This meeting link has expired. Ask for a new link.');
    default:
      throw new NotFoundError('That meeting link');
  }
}
