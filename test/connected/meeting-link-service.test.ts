/**
 * Invariant: lib/services/meetings.ts decides who gets into a meeting and what it costs, at the edges the
 * HTTP tests cannot reach with a real clock: a link lives exactly 24 h (at its expiry instant it is
 * expired), a token longer than 128 characters is never looked at, a wrong token says only "unknown", a
 * join's credential lasts exactly the call's maximum plus ten minutes, and a call's first browser socket
 * reserves one call's credits once. Times are fixed (`nowMs`) and every expected value is written out.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_SESSION_KEY_PURPOSE, verifyWebSession } from '../../lib/domain/web-session-token.js';
import type { Call } from '../../lib/domain/call.js';
import { admittedSession, claimMeetingCall, createMeetingLink, inspectMeetingLink, issueSession, redeemMeetingLink } from '../../lib/services/meetings.js';
import { findCall } from '../../lib/store/calls.js';
import { readBalance } from '../../lib/store/credits.js';
import { transact } from '../../lib/store/dynamo.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { meetingTokenItem } from '../../lib/store/meeting-links.js';
import { key } from '../../lib/store/model.js';
import { startCallsPlatform, type CallsPlatform } from '../support/calls.js';

let p: CallsPlatform;
beforeAll(async () => {
  p = await startCallsPlatform({ dispatchPoller: false });
});
afterAll(async () => p?.stop());

/** 2027-01-15T08:00:00.000Z: every link of this file is made at this instant. */
const NOW = 1_800_000_000_000;
/** Its expiry, 24 h later (2027-01-16T08:00:00.000Z). */
const EXPIRES = NOW + 86_400_000;

const tokenOf = (roomUrl: string) => new URL(roomUrl).searchParams.get('token')!;
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

async function newLink(extra: { phoneNumber?: string; contactName?: string } = {}, credits = 100) {
  const s = await p.callerSetup(credits);
  const out = await createMeetingLink(p.deps, s.workspaceId, { assistantId: s.agentId, ...extra }, NOW);
  return { ...s, callId: out.call_id, roomUrl: out.room_url, token: tokenOf(out.room_url) };
}

/** A token item written straight to the table (a token of a chosen shape, or one whose call is missing). */
async function storeToken(callId: string, workspaceId: string, tokenHash: string) {
  await transact(p.deps.db, [meetingTokenItem(p.deps.db, { callId, workspaceId, tokenHash, expiresAtMs: EXPIRES })]);
}

describe('createMeetingLink', () => {
  it('writes a video call made now with nothing reserved, its not_joined record and a token item that expires 24 h later', async () => {
    const s = await newLink({ phoneNumber: '+14155550123' });
    expect(s.roomUrl).toBe(`${p.deps.config.PUBLIC_BASE_URL.replace(/\/$/, '')}/meeting/${s.callId}?token=${s.token}`);
    expect(s.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.callId).toMatch(/^call_[0-9A-HJKMNP-TV-Z]{26}$/);
    const call = await findCall(p.deps.db, s.workspaceId, s.callId);
    expect(call).toMatchObject({
      agentType: 'video',
      agentId: s.agentId,
      status: 'initiated',
      reserved: 0,
      maxDurationSeconds: 600,
      to: '+14155550123',
      contactName: '',
      createdAt: '2027-01-15T08:00:00.000Z',
      updatedAt: '2027-01-15T08:00:00.000Z',
    });
    expect(call!.contactId).toBeUndefined();
    expect(await getHistoryRecord(p.deps.db, s.workspaceId, s.callId)).toMatchObject({
      callEndReason: 'not_joined',
      callDuration: 0,
      callCost: 0,
      mobileNumber: '+14155550123',
      createdAt: '2027-01-15T08:00:00.000Z',
    });
    const item = await p.deps.db.doc.send(new GetCommand({ TableName: p.deps.db.table, Key: key.meetingToken(s.callId) }));
    expect(item.Item).toMatchObject({ workspaceId: s.workspaceId, tokenHash: sha256(s.token), expiresAtMs: EXPIRES });
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(100);
  });

  it('a link for a name only has no number; a link for neither has an empty name', async () => {
    const named = await newLink({ contactName: 'Grace' });
    expect(await findCall(p.deps.db, named.workspaceId, named.callId)).toMatchObject({ to: '', contactName: 'Grace' });
    const nobody = await newLink();
    expect(await findCall(p.deps.db, nobody.workspaceId, nobody.callId)).toMatchObject({ to: '', contactName: '' });
  });

  it('a known contact gives the call its id, number and name', async () => {
    const s = await p.callerSetup(100);
    const contact = await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: 'Ada Lovelace', phoneNumber: '+442079460001', workspaceId: s.workspaceId });
    const out = await createMeetingLink(p.deps, s.workspaceId, { assistantId: s.agentId, contactName: 'Ada Lovelace' }, NOW);
    expect(await findCall(p.deps.db, s.workspaceId, out.call_id)).toMatchObject({ contactId: contact.body._id, to: '+442079460001', contactName: 'Ada Lovelace' });
  });
});

describe('inspectMeetingLink', () => {
  it('valid up to the last millisecond before its expiry, expired at it', async () => {
    const s = await newLink();
    expect(await inspectMeetingLink(p.deps, s.callId, s.token, EXPIRES - 1)).toEqual({ kind: 'valid', callId: s.callId, workspaceId: s.workspaceId, agentName: 'Caller', standIns: expect.objectContaining({ parts: expect.any(Array) }) });
    expect(await inspectMeetingLink(p.deps, s.callId, s.token, EXPIRES)).toEqual({ kind: 'expired' });
  });

  it('a missing, empty or wrong token, or an unknown call, is unknown; an agent since deleted is "your agent"', async () => {
    const s = await newLink();
    expect(await inspectMeetingLink(p.deps, s.callId, undefined, NOW)).toEqual({ kind: 'unknown' });
    expect(await inspectMeetingLink(p.deps, s.callId, '', NOW)).toEqual({ kind: 'unknown' });
    expect(await inspectMeetingLink(p.deps, s.callId, 'A'.repeat(43), NOW)).toEqual({ kind: 'unknown' });
    expect(await inspectMeetingLink(p.deps, 'call_01J00000000000000000000000', s.token, NOW)).toEqual({ kind: 'unknown' });
    await p.api(s.apiKey, 'DELETE', `/api/agents/${s.agentId}`);
    expect(await inspectMeetingLink(p.deps, s.callId, s.token, NOW)).toMatchObject({ kind: 'valid', agentName: 'your agent' });
  });

  it('a token of 128 characters is checked; one of 129 is unknown without a look', async () => {
    const s = await p.callerSetup(100);
    const long = 'x'.repeat(128);
    const callId = 'call_01J00000000000000000000128';
    await storeToken(callId, s.workspaceId, sha256(long));
    expect(await inspectMeetingLink(p.deps, callId, long, NOW)).toMatchObject({ kind: 'valid', callId, workspaceId: s.workspaceId, agentName: 'your agent' });
    const tooLong = 'x'.repeat(129);
    const tooLongId = 'call_01J00000000000000000000129';
    await storeToken(tooLongId, s.workspaceId, sha256(tooLong));
    expect(await inspectMeetingLink(p.deps, tooLongId, tooLong, NOW)).toEqual({ kind: 'unknown' });
    expect(await redeemMeetingLink(p.deps, tooLongId, tooLong, NOW)).toEqual({ kind: 'unknown' });
  });

  it('a stored hash of another length is unknown, not a crash of the comparison', async () => {
    const s = await p.callerSetup(100);
    const callId = 'call_01J0000000000000000000SHRT';
    await storeToken(callId, s.workspaceId, 'abc');
    expect(await inspectMeetingLink(p.deps, callId, 'any-token', NOW)).toEqual({ kind: 'unknown' });
  });
});

describe('redeemMeetingLink', () => {
  it('admits once with a credential good for 600 s plus 10 min from the join; then used; a wrong token stays unknown', async () => {
    const s = await newLink({ contactName: 'Grace' });
    const joinedAt = NOW + 5_000;
    const out = await redeemMeetingLink(p.deps, s.callId, s.token, joinedAt);
    if (out.kind !== 'admitted') throw new Error(`expected admitted, got ${out.kind}`);
    // 1_800_000_005 s + 600 s maximum + 600 s slack.
    expect(out.session).toMatchObject({ callId: s.callId, agentName: 'Caller', streamUrl: `${p.deps.config.PUBLIC_BASE_URL.replace(/^http/, 'ws').replace(/\/$/, '')}/web-stream`, expiresAt: '2027-01-15T08:20:05.000Z' });
    const verified = verifyWebSession(out.session.credential, p.deps.secrets.deriveKey(WEB_SESSION_KEY_PURPOSE), joinedAt);
    if (!verified.ok) throw new Error(verified.reason);
    expect(verified.claims).toMatchObject({ callId: s.callId, workspaceId: s.workspaceId, agentId: s.agentId, exp: 1_800_001_205 });
    expect(verified.claims.contactId).toBeUndefined();
    expect(verified.claims.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const item = await p.deps.db.doc.send(new GetCommand({ TableName: p.deps.db.table, Key: key.meetingToken(s.callId), ConsistentRead: true }));
    expect(item.Item?.usedAt).toBe('2027-01-15T08:00:05.000Z');

    expect(await redeemMeetingLink(p.deps, s.callId, s.token, joinedAt)).toEqual({ kind: 'used' });
    expect(await inspectMeetingLink(p.deps, s.callId, s.token, joinedAt)).toEqual({ kind: 'used' });
    expect(await redeemMeetingLink(p.deps, s.callId, 'A'.repeat(43), joinedAt)).toEqual({ kind: 'unknown' });
    expect(await redeemMeetingLink(p.deps, s.callId, undefined, joinedAt)).toEqual({ kind: 'unknown' });
  });

  it('at its expiry instant a link is expired and stays unused; a millisecond before, it admits', async () => {
    const s = await newLink();
    expect(await redeemMeetingLink(p.deps, s.callId, s.token, EXPIRES)).toEqual({ kind: 'expired' });
    expect(await redeemMeetingLink(p.deps, s.callId, s.token, EXPIRES - 1)).toMatchObject({ kind: 'admitted' });
  });

  it('a token whose call record is missing is a broken table: an error, not a session', async () => {
    const s = await newLink();
    await p.deps.db.doc.send(new DeleteCommand({ TableName: p.deps.db.table, Key: key.liveCall(s.workspaceId, s.callId) }));
    await expect(redeemMeetingLink(p.deps, s.callId, s.token, NOW)).rejects.toThrow(`Meeting ${s.callId} has a token but no call record`);
  });

  it('a call with a contact puts the contact id in the credential', async () => {
    const s = await p.callerSetup(100);
    const contact = await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: 'Alan', phoneNumber: '+442079460002', workspaceId: s.workspaceId });
    const link = await createMeetingLink(p.deps, s.workspaceId, { assistantId: s.agentId, phoneNumber: '+442079460002' }, NOW);
    const out = await redeemMeetingLink(p.deps, link.call_id, tokenOf(link.room_url), NOW);
    if (out.kind !== 'admitted') throw new Error(out.kind);
    const verified = verifyWebSession(out.session.credential, p.deps.secrets.deriveKey(WEB_SESSION_KEY_PURPOSE), NOW);
    expect(verified.ok && verified.claims.contactId).toBe(contact.body._id);
  });
});

describe('issueSession', () => {
  it('exp is the join second plus the call maximum plus 600 s (milliseconds dropped)', () => {
    const call = { _id: 'call_01J00000000000000000000001', workspaceId: 'ws_01J00000000000000000000001', agentId: 'agt_01J00000000000000000000001', maxDurationSeconds: 3600 } as Call;
    const session = issueSession(p.deps, call, 'Ann', 1_800_000_000_999);
    // 1_800_000_000 + 3600 + 600.
    expect(session.expiresAt).toBe('2027-01-15T09:10:00.000Z');
    expect(session.agentName).toBe('Ann');
  });
});

describe('claimMeetingCall', () => {
  it('the first socket reserves 10 credits and starts the call; a second claim is ended and takes nothing', async () => {
    const s = await newLink();
    const first = await claimMeetingCall(p.deps, { workspaceId: s.workspaceId, callId: s.callId }, 'MZfirst', NOW);
    expect(first).toMatchObject({ kind: 'claimed', maxDurationSeconds: 600, call: { _id: s.callId, status: 'in-progress', reserved: 10, streamSid: 'MZfirst' } });
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(90);
    expect(await claimMeetingCall(p.deps, { workspaceId: s.workspaceId, callId: s.callId }, 'MZsecond', NOW)).toEqual({ kind: 'ended' });
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(90);
  });

  it('a workspace that fell under one reservation since the link was made gets insufficient_credits', async () => {
    const s = await newLink({}, 10);
    const other = await createMeetingLink(p.deps, s.workspaceId, { assistantId: s.agentId }, NOW);
    expect(await claimMeetingCall(p.deps, { workspaceId: s.workspaceId, callId: s.callId }, 'MZa', NOW)).toMatchObject({ kind: 'claimed' });
    expect(await claimMeetingCall(p.deps, { workspaceId: s.workspaceId, callId: other.call_id }, 'MZb', NOW)).toEqual({ kind: 'insufficient_credits' });
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(0);
  });
});

describe('admittedSession', () => {
  it('an admitted outcome hands over its session', () => {
    const session = { callId: 'call_1', agentName: 'Ann', streamUrl: 'ws://127.0.0.1/web-stream', credential: 'wss1.x', expiresAt: '2027-01-15T08:20:00.000Z' };
    expect(admittedSession({ kind: 'admitted', session })).toBe(session);
  });

  it('410 link_used, 410 link_expired and 404 not_found, each with its message', () => {
    const thrown = (kind: 'used' | 'expired' | 'unknown') => {
      try {
        admittedSession({ kind });
      } catch (error) {
        return error;
      }
      throw new Error('no refusal');
    };
    expect(thrown('used')).toMatchObject({ status: 410, code: 'link_used', message: 'This meeting link has already been used. Ask for a new link.' });
    expect(thrown('expired')).toMatchObject({ status: 410, code: 'link_expired', message: 'This meeting link has expired. Ask for a new link.' });
    expect(thrown('unknown')).toMatchObject({ status: 404, code: 'not_found', message: 'That meeting link was not found.' });
  });
});
