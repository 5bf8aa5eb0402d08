import { createHash, randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { publicUrl } from '../config.js';
import type { Deps } from '../deps.js';
import type { Call, MeetingLinkRequest, MeetingLinkResult } from '../domain/call.js';
import { newId } from '../domain/ids.js';
import { getAgent } from '../store/agents.js';
import { putNewCall } from '../store/calls.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from '../store/model.js';
import { newHistoryRecordItems } from '../store/history.js';
import { destination, findCallContact, historyOf } from './calls.js';
import { assertCanAffordCall, callPricing } from './credits.js';

/**
 * One-time video meeting links. The token is 32 random bytes (base64url) handed out once in `room_url`;
 * only its SHA-256 is stored (`MEETING#<callId>/TOKEN`), so a table read never yields a working link.
 * Redeeming is ONE conditional write (right token, unused, unexpired → used): of any number of concurrent
 * opens exactly one is admitted. docs/calls.md.
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
  const agent = await getAgent(deps.db, workspaceId, request.assistantId);
  await assertCanAffordCall(deps, workspaceId);
  const contact = await findCallContact(deps, workspaceId, phone, request.contactName);
  const createdAt = new Date(nowMs).toISOString();
  const call: Call = {
    _id: newId('call', nowMs),
    workspaceId,
    agentId: agent._id,
    agentType: 'video',
    status: 'initiated',
    to: contact?.phoneNumber ?? phone ?? '',
    ...(contact ? { contactId: contact._id } : {}),
    contactName: contact?.contactName ?? request.contactName ?? '',
    // The session itself reserves when it starts (the meeting page's issue); the link only checks.
    reserved: 0,
    maxDurationSeconds: callPricing(deps.config).maxDurationSeconds,
    createdAt,
    updatedAt: createdAt,
  };
  const token = randomBytes(32).toString('base64url');
  const expiresAtMs = nowMs + MEETING_LINK_TTL_SECONDS * 1000;
  // The record exists from the start (history shows every call id handed out): nobody has joined yet, so
  // `not_joined` with no duration or cost; the meeting session, when it runs, records what happened.
  const record = historyOf(call, { endReason: 'not_joined', durationSeconds: 0, cost: 0 });
  await putNewCall(deps.db, call, [
    ...newHistoryRecordItems(deps.db, record),
    {
      Put: {
        TableName: deps.db.table,
        Item: {
          ...key.meetingToken(call._id),
          entity: ENTITY.meetingToken,
          v: TABLE_SCHEMA_VERSION,
          workspaceId,
          tokenHash: hashToken(token),
          expiresAtMs,
          // DynamoDB may delete it a while after expiry; the redeem condition checks expiresAtMs itself.
          ttl: Math.floor(expiresAtMs / 1000) + 7 * 24 * 60 * 60,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  return { call_id: call._id, room_url: publicUrl(deps.config, `/meeting/${call._id}?token=${token}`) };
}

export type RedeemOutcome =
  | { readonly kind: 'admitted'; readonly callId: string; readonly workspaceId: string }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'used' }
  | { readonly kind: 'expired' };

/**
 * Redeems a link: one conditional update marks the token used if it matches, is unused and has not
 * expired. When the write is refused, a read says why (for the page shown, never for the decision).
 */
export async function redeemMeetingLink(
  deps: Pick<Deps, 'db'>,
  callId: string,
  token: string | undefined,
  nowMs: number = Date.now(),
): Promise<RedeemOutcome> {
  if (!token || token.length > 128) return { kind: 'unknown' };
  const tokenHash = hashToken(token);
  try {
    const out = await deps.db.doc.send(
      new UpdateCommand({
        TableName: deps.db.table,
        Key: key.meetingToken(callId),
        UpdateExpression: 'SET usedAt = :now',
        ConditionExpression: 'tokenHash = :h AND attribute_not_exists(usedAt) AND expiresAtMs > :nowMs',
        ExpressionAttributeValues: { ':h': tokenHash, ':now': new Date(nowMs).toISOString(), ':nowMs': nowMs },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { kind: 'admitted', callId, workspaceId: String(out.Attributes?.workspaceId) };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  const out = await deps.db.doc.send(new GetCommand({ TableName: deps.db.table, Key: key.meetingToken(callId), ConsistentRead: true }));
  const item = out.Item;
  // A wrong token learns nothing about the link, not even that it exists.
  if (!item || item.tokenHash !== tokenHash) return { kind: 'unknown' };
  if (item.usedAt !== undefined) return { kind: 'used' };
  return { kind: 'expired' };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The minimal pages of a meeting link (the real meeting page is a later issue). */
export function meetingPage(outcome: RedeemOutcome): { status: number; html: string } {
  const page = (title: string, text: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`;
  switch (outcome.kind) {
    case 'admitted':
      return { status: 200, html: page('Session admitted', `You are admitted to session ${outcome.callId}. The agent will join you here.`) };
    case 'used':
      return { status: 410, html: page('Link already used', 'This meeting link has already been opened. Ask for a new link.') };
    case 'expired':
      return { status: 410, html: page('Link expired', 'This meeting link has expired. Ask for a new link.') };
    default:
      return { status: 404, html: page('Link not found', 'This meeting link is not valid.') };
  }
}
