/**
 * Invariant: a meeting link is single use, and only joining uses it. Its token is stored only as a hash.
 * Opening the link (GET, what mail and chat link scanners do) shows a Join page and never consumes it, however
 * often; the page's POST redeems it with one conditional write, so of any number of concurrent joins exactly
 * one is admitted (200) and every other join or open, then or later, is refused with 410; an expired link is
 * 410 too; a wrong token is 404 and says nothing about the link. In Chromium, clicking Join admits, under a
 * CSP that the page does not violate. Creating a link needs the credits for one call (402 otherwise) and
 * writes a `video` call for the agent and contact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { reservationFor } from '../../../lib/domain/call.js';
import { findCall } from '../../../lib/store/calls.js';
import { key } from '../../../lib/store/model.js';
import { callPricing } from '../../../lib/services/credits.js';
import { startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
beforeAll(async () => {
  p = await startCallsPlatform({ dispatchPoller: false });
});
afterAll(async () => p?.stop());

async function link(s: { apiKey: string; workspaceId: string; agentId: string }, extra: Record<string, unknown> = {}) {
  return p.api(s.apiKey, 'POST', '/api/optimus/meeting-link', { assistantId: s.agentId, workspaceId: s.workspaceId, ...extra });
}

const open = (roomUrl: string) => fetch(roomUrl.replace(/^http:\/\/[^/]+/, p.baseUrl));
const join = (callId: string, body: string, contentType: string) =>
  fetch(`${p.baseUrl}/meeting/${callId}/join`, { method: 'POST', headers: { 'content-type': contentType }, body });

describe('POST /api/optimus/meeting-link', () => {
  it('answers 201 {call_id, room_url} of the shape {base}/meeting/<call_id>?token=<token> and writes a video call', async () => {
    const s = await p.callerSetup(100);
    const contact = await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: 'Alan Turing', phoneNumber: '+442079460000', workspaceId: s.workspaceId });
    const res = await link(s, { phoneNumber: '+442079460000' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['call_id', 'room_url']);
    const url = new URL(res.body.room_url);
    expect(`${url.origin}`).toBe(p.deps.config.PUBLIC_BASE_URL.replace(/\/$/, ''));
    expect(url.pathname).toBe(`/meeting/${res.body.call_id}`);
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const call = await findCall(p.deps.db, s.workspaceId, res.body.call_id);
    expect(call).toMatchObject({ agentType: 'video', status: 'initiated', contactId: contact.body._id, contactName: 'Alan Turing', agentId: s.agentId });
    // Only the hash is stored.
    const stored = await p.deps.db.doc.send(new GetCommand({ TableName: p.deps.db.table, Key: key.meetingToken(res.body.call_id) }));
    expect(JSON.stringify(stored.Item)).not.toContain(url.searchParams.get('token'));
  });

  it('402 with required and available when credits are short', async () => {
    const required = reservationFor(callPricing(p.deps.config));
    const s = await p.callerSetup(required - 1);
    const res = await link(s, { contactName: 'Nobody' });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'insufficient_credits', details: { required, available: required - 1 } });
  });

  it('404 for an unknown agent; 400 for a phoneNumber that is not E.164', async () => {
    const s = await p.callerSetup(100);
    expect((await link(s, { assistantId: 'agt_01J00000000000000000000000' })).status).toBe(404);
    expect((await link(s, { phoneNumber: 'call me' })).status).toBe(400);
  });
});

describe('GET /meeting/{callId}?token= and POST /meeting/{callId}/join', () => {
  it('50 opens never use the link; of 20 concurrent joins exactly one is admitted; then every open and join is 410', async () => {
    const s = await p.callerSetup(100);
    const res = await link(s);
    const token = new URL(res.body.room_url).searchParams.get('token')!;
    const opens = await Promise.all(Array.from({ length: 50 }, () => open(res.body.room_url)));
    expect(opens.map((a) => a.status)).toEqual(Array(50).fill(200));
    const page = await opens[0]!.text();
    expect(page).toContain('Call with Caller');
    expect(page).toContain('<html lang="en">');
    expect(page).toMatch(/<form method="post" action="[^"]+\/join">/);
    expect(opens[0]!.headers.get('cache-control')).toBe('no-store');
    expect(opens[0]!.headers.get('referrer-policy')).toBe('no-referrer');
    expect(opens[0]!.headers.get('content-security-policy')).toMatch(/default-src 'none'.*form-action 'self'/);
    const stored = await p.deps.db.doc.send(new GetCommand({ TableName: p.deps.db.table, Key: key.meetingToken(res.body.call_id), ConsistentRead: true }));
    expect(stored.Item?.usedAt).toBeUndefined();

    const joins = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? join(res.body.call_id, `token=${encodeURIComponent(token)}`, 'application/x-www-form-urlencoded') : join(res.body.call_id, JSON.stringify({ token }), 'application/json'),
      ),
    );
    const statuses = joins.map((a) => a.status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(1);
    expect(statuses.filter((x) => x === 410)).toHaveLength(19);
    const admitted = joins.find((a) => a.status === 200)!;
    expect(admitted.headers.get('content-type')).toContain('text/html');
    expect(admitted.headers.get('cache-control')).toBe('no-store');
    expect(await admitted.text()).toContain('Connecting you to Caller');
    const later = await open(res.body.room_url);
    expect(later.status).toBe(410);
    expect(await later.text()).toContain('already been used');
    expect((await join(res.body.call_id, `token=${encodeURIComponent(token)}`, 'application/x-www-form-urlencoded')).status).toBe(410);
  });

  it('a join with a wrong, missing or URL-borne token is 404 and leaves the link usable', async () => {
    const s = await p.callerSetup(100);
    const res = await link(s);
    const token = new URL(res.body.room_url).searchParams.get('token')!;
    expect((await join(res.body.call_id, `token=${'A'.repeat(43)}`, 'application/x-www-form-urlencoded')).status).toBe(404);
    expect((await join(res.body.call_id, '', 'application/x-www-form-urlencoded')).status).toBe(404);
    expect((await join(res.body.call_id, '{"token": 5}', 'application/json')).status).toBe(404);
    // The token belongs in the body: one in the query string of the POST is not read.
    const viaQuery = await fetch(`${p.baseUrl}/meeting/${res.body.call_id}/join?token=${token}`, { method: 'POST' });
    expect(viaQuery.status).toBe(404);
    expect((await open(res.body.room_url)).status).toBe(200);
  });

  it('410 with its own message for an expired link; 404 for a wrong or missing token', async () => {
    const s = await p.callerSetup(100);
    const res = await link(s);
    await p.deps.db.doc.send(
      new UpdateCommand({ TableName: p.deps.db.table, Key: key.meetingToken(res.body.call_id), UpdateExpression: 'SET expiresAtMs = :past', ExpressionAttributeValues: { ':past': Date.now() - 1000 } }),
    );
    const wrong = await fetch(`${p.baseUrl}/meeting/${res.body.call_id}?token=${'A'.repeat(43)}`);
    expect(wrong.status).toBe(404);
    const none = await fetch(`${p.baseUrl}/meeting/${res.body.call_id}`);
    expect(none.status).toBe(404);
    const expired = await open(res.body.room_url);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('expired');
    const token = new URL(res.body.room_url).searchParams.get('token')!;
    const expiredJoin = await join(res.body.call_id, `token=${encodeURIComponent(token)}`, 'application/x-www-form-urlencoded');
    expect(expiredJoin.status).toBe(410);
    const unknown = await fetch(`${p.baseUrl}/meeting/call_01J00000000000000000000000?token=x`);
    expect(unknown.status).toBe(404);
  });
});
