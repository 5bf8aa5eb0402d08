/**
 * Invariant: a meeting link is single use, and only joining uses it. Its token is stored only as a hash.
 * Opening the link (GET, what mail and chat link scanners do) shows a Join page and never consumes it, however
 * often; the page's POST redeems it with one conditional write, so of any number of concurrent joins exactly
 * one is admitted (200) and every other join or open, then or later, is refused with 410; an expired link is
 * 410 too; a wrong token is 404 and says nothing about the link. The page's JSON join (Accept:
 * application/json) answers the web session of docs/meeting.md, with a `wss1` credential bound to the call
 * and to that one join, or the JSON error body (404 `not_found`, 410 `link_used` / `link_expired`).
 * Creating a link needs the credits for one call (402 otherwise) and writes a `video` call for the agent
 * and contact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { findCall } from '../../../lib/store/calls.js';
import { key } from '../../../lib/store/model.js';
import { WEB_SESSION_SLACK_SECONDS } from '../../../lib/services/meetings.js';
import { WEB_SESSION_KEY_PURPOSE, verifyWebSession } from '../../../lib/domain/web-session-token.js';
import { STREAM_TOKEN_KEY_PURPOSE } from '../../../lib/domain/stream-token.js';
import { CALL_RESERVATION, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';
import { expectRefusedUnchanged } from '../../support/invariants.js';

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
    const s = await p.callerSetup(CALL_RESERVATION - 1);
    const res = await expectRefusedUnchanged(p.deps.db, 402, () => link(s, { contactName: 'Nobody' }));
    expect(res.body.error).toMatchObject({ code: 'insufficient_credits', details: { required: 10, available: 9 } });
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
    expect(page).toMatch(/<form id="join-form" method="post" action="[^"]+\/join">/);
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
    // The joined page carries its session for the page's script (docs/meeting.md: a form post joins too).
    expect(await admitted.text()).toMatch(/<main id="meeting" data-call-id="[^"]+" data-session="[^"]*wss1\./);
    const later = await open(res.body.room_url);
    expect(later.status).toBe(410);
    expect(await later.text()).toContain('already been used');
    expect((await join(res.body.call_id, `token=${encodeURIComponent(token)}`, 'application/x-www-form-urlencoded')).status).toBe(410);
    // A wrong token on the used link learns nothing, not even that the link exists or was used.
    const wrongToken = `token=${'B'.repeat(43)}`;
    const asText = async (r: Promise<Response>) => {
      const res = await r;
      return { status: res.status, body: await res.text() };
    };
    await expectRefusedUnchanged(p.deps.db, 404, () => asText(join(res.body.call_id, wrongToken, 'application/x-www-form-urlencoded')));
    await expectRefusedUnchanged(p.deps.db, 404, () => asText(open(`${p.baseUrl}/meeting/${res.body.call_id}?${wrongToken}`)));
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

  it('410 with its own message for an expired link; 404 for a wrong token; no token is the room page', async () => {
    const s = await p.callerSetup(100);
    const res = await link(s);
    await p.deps.db.doc.send(
      new UpdateCommand({ TableName: p.deps.db.table, Key: key.meetingToken(res.body.call_id), UpdateExpression: 'SET expiresAtMs = :past', ExpressionAttributeValues: { ':past': Date.now() - 1000 } }),
    );
    const wrong = await fetch(`${p.baseUrl}/meeting/${res.body.call_id}?token=${'A'.repeat(43)}`);
    expect(wrong.status).toBe(404);
    // Without a token the page is the room a reload lands on: it checks nothing (its script has the credential).
    const none = await fetch(`${p.baseUrl}/meeting/${res.body.call_id}`);
    expect(none.status).toBe(200);
    expect(await none.text()).not.toContain('join-form');
    const expired = await open(res.body.room_url);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('expired');
    const token = new URL(res.body.room_url).searchParams.get('token')!;
    const expiredJoin = await join(res.body.call_id, `token=${encodeURIComponent(token)}`, 'application/x-www-form-urlencoded');
    expect(expiredJoin.status).toBe(410);
    const unknown = await fetch(`${p.baseUrl}/meeting/call_01J00000000000000000000000?token=x`);
    expect(unknown.status).toBe(404);
  });

  it('the JSON join: of concurrent joins one gets the web session, the others 410 link_used; a credential per join', async () => {
    const s = await p.callerSetup(100);
    const res = await link(s, { contactName: 'Ann' });
    const token = new URL(res.body.room_url).searchParams.get('token')!;
    const jsonJoin = (body: unknown) =>
      fetch(`${p.baseUrl}/meeting/${res.body.call_id}/join`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    const wrong = await jsonJoin({ token: 'A'.repeat(43) });
    expect(wrong.status).toBe(404);
    expect((await wrong.json()).error.code).toBe('not_found');

    const before = Date.now();
    const joins = await Promise.all(Array.from({ length: 10 }, () => jsonJoin({ token })));
    expect(joins.map((j) => j.status).sort()).toEqual([200, ...Array(9).fill(410)]);
    const refused = await joins.find((j) => j.status === 410)!.json();
    expect(refused.error.code).toBe('link_used');
    const admitted = joins.find((j) => j.status === 200)!;
    expect(admitted.headers.get('content-type')).toContain('application/json');
    expect(admitted.headers.get('cache-control')).toBe('no-store');
    const session = await admitted.json();
    expect(Object.keys(session).sort()).toEqual(['agentName', 'callId', 'credential', 'expiresAt', 'standIns', 'streamUrl']);
    // The platform runs on its loopback stand-ins: the session says which of the agent's vendors are simulated.
    expect(session.standIns.parts.map((part: { capability: string }) => part.capability)).toEqual(['stt', 'llm', 'tts']);
    expect(session).toMatchObject({ callId: res.body.call_id, agentName: 'Caller', streamUrl: `${p.baseUrl.replace(/^http/, 'ws')}/web-stream` });

    const call = (await findCall(p.deps.db, s.workspaceId, res.body.call_id))!;
    const verified = verifyWebSession(session.credential, p.deps.secrets.deriveKey(WEB_SESSION_KEY_PURPOSE));
    if (!verified.ok) throw new Error(`credential: ${verified.reason}`);
    expect(verified.claims).toMatchObject({ callId: call._id, workspaceId: s.workspaceId, agentId: s.agentId });
    expect(verified.claims.contactId).toBe(call.contactId);
    expect(verified.claims.sessionId.length).toBeGreaterThanOrEqual(16);
    const expected = Math.floor(before / 1000) + call.maxDurationSeconds + WEB_SESSION_SLACK_SECONDS;
    expect(verified.claims.exp).toBeGreaterThanOrEqual(expected);
    expect(verified.claims.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + call.maxDurationSeconds + WEB_SESSION_SLACK_SECONDS);
    expect(session.expiresAt).toBe(new Date(verified.claims.exp * 1000).toISOString());
    // The stream credential's key does not verify it: neither credential stands in for the other.
    expect(verifyWebSession(session.credential, p.deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE)).ok).toBe(false);

    // An expired link says so in JSON too.
    const other = await link(s);
    await p.deps.db.doc.send(
      new UpdateCommand({ TableName: p.deps.db.table, Key: key.meetingToken(other.body.call_id), UpdateExpression: 'SET expiresAtMs = :past', ExpressionAttributeValues: { ':past': Date.now() - 1000 } }),
    );
    const expired = await fetch(`${p.baseUrl}/meeting/${other.body.call_id}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ token: new URL(other.body.room_url).searchParams.get('token') }),
    });
    expect(expired.status).toBe(410);
    expect((await expired.json()).error.code).toBe('link_expired');
  });

  it('two joins of two links get two different sessions (a credential names its own join)', async () => {
    const s = await p.callerSetup(100);
    const sessions = [];
    for (let i = 0; i < 2; i += 1) {
      const res = await link(s);
      const answer = await fetch(`${p.baseUrl}/meeting/${res.body.call_id}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ token: new URL(res.body.room_url).searchParams.get('token') }),
      });
      sessions.push(verifyWebSession((await answer.json()).credential, p.deps.secrets.deriveKey(WEB_SESSION_KEY_PURPOSE)));
    }
    const [a, b] = sessions.map((v) => (v.ok ? v.claims : undefined));
    expect(a!.sessionId).not.toBe(b!.sessionId);
    expect(a!.callId).not.toBe(b!.callId);
  });
});
