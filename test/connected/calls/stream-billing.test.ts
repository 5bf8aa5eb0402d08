/**
 * Invariant: every minute the streaming service runs vendors is paid for. A stream token admits exactly one
 * media stream, once (a second stream with it is closed with 1008 while the first is live and after it
 * ended; of concurrent opens exactly one is admitted, also across two streaming services on one table); a
 * status callback (which a BYOT customer can sign and forge) never settles a call whose stream is live, so
 * the cost comes from the stream's measured duration; inbound calls reserve credits at answer like outbound ones and settle at the end; history
 * records say what was billed (callDuration is the billed seconds, callCost their price), carry no
 * recording address when there is no recording, and a meeting link's call has a record from creation.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_TOKEN_KEY_PURPOSE, verifyStreamToken } from '../../../lib/domain/stream-token.js';
import { SimulatedCaller } from '../../../lib/local/callers/simulated-caller.js';
import { NO_CREDITS_MESSAGE } from '../../../lib/services/twilio-webhooks.js';
import { findCall } from '../../../lib/store/calls.js';
import { listLedger, readBalance } from '../../../lib/store/credits.js';
import { twilioSignature } from '../../../lib/vendors/telephony/twilio-webhook.js';
import { loadConfig } from '../../../lib/config.js';
import { platformEnvironment } from '../../../streaming-service/src/environment.js';
import { vendorProviders } from '../../../streaming-service/src/providers.js';
import { createStreamingServer } from '../../../streaming-service/src/server.js';
import { POLICY_VIOLATION, type CallEnded } from '../../../streaming-service/src/service.js';
import { CALL_RESERVATION, expectedCallCost, eventually, importOwnNumber, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';
import { WAIT_MS } from '../../support/progress.js';

let p: CallsPlatform;
const perCall = CALL_RESERVATION;
const ended: CallEnded[] = [];
beforeAll(async () => {
  p = await startCallsPlatform();
  p.platform.voice.streaming.onCallEnded((e) => ended.push(e));
});
afterAll(async () => p?.stop());

const newSid = () => `CA${randomBytes(16).toString('hex')}`;
const tokenIn = (twiml: string) => /<Parameter name="token" value="([^"]+)"\/>/.exec(twiml)?.[1];
const mediaUrl = () => `${p.baseUrl.replace(/^http/, 'ws')}/media-stream`;
const callIdOfToken = (token: string) => {
  const verified = verifyStreamToken(token, p.deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE));
  return verified.ok ? verified.claims.callId : undefined;
};

/** Admitted (the agent's greeting arrives) or the close code it was refused with. */
function fate(caller: SimulatedCaller): Promise<'admitted' | number> {
  return Promise.race([caller.closed.then((c) => c.code), caller.waitFor((m) => m.event === 'media', WAIT_MS).then(() => 'admitted' as const)]);
}

const callEnded = (callId: string) => eventually(async () => ended.find((e) => e.callId === callId), WAIT_MS, `end of ${callId}`);

let byotSeq = 0;
/** A workspace with an agent on a number imported from its own provider account (it holds the auth token). */
async function byotSetup(credits = 100) {
  const s = await p.callerSetup(credits);
  const number = `+1312555${String(200 + byotSeq++).padStart(4, '0')}`;
  const { customer, numberId } = await importOwnNumber(p, s, number);
  expect((await p.api(s.apiKey, 'PATCH', `/api/phone-numbers/${numberId}`, { agentId: s.agentId })).status).toBe(200);
  return { ...s, customer, byotId: numberId, byotNumber: number };
}

/** A webhook request signed with `authToken` exactly as Twilio signs it (what a BYOT customer can do). */
async function signedPost(path: string, authToken: string, form: Record<string, string>) {
  const url = `${p.deps.config.PUBLIC_BASE_URL}${path}`;
  const res = await fetch(`${p.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(authToken, url, form) },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: await res.text() };
}

/** The customer's own signed voice webhook for an inbound call to its number: the TwiML and the token in it. */
async function forgedInbound(s: Awaited<ReturnType<typeof byotSetup>>) {
  const callSid = newSid();
  const res = await signedPost('/twilio/voice', s.customer.authToken, {
    AccountSid: s.customer.sid,
    ApiVersion: '2010-04-01',
    CallSid: callSid,
    CallStatus: 'ringing',
    Direction: 'inbound',
    From: '+14155550177',
    To: s.byotNumber,
  });
  expect(res.status).toBe(200);
  const token = tokenIn(res.body);
  expect(token).toBeDefined();
  return { callSid, token: token! };
}

const open = (callSid: string, token: string) => SimulatedCaller.connect({ url: mediaUrl(), callSid, customParameters: { token }, playbackSpeed: 4 });

describe('a stream token admits one stream, once', () => {
  it('a second stream with the same token is refused (1008) while the first is live and after it ended', async () => {
    const s = await byotSetup();
    const { callSid, token } = await forgedInbound(s);
    const first = await open(callSid, token);
    expect(await fate(first)).toBe('admitted');

    const second = await open(callSid, token);
    expect(await fate(second)).toBe(POLICY_VIOLATION);
    expect(second.received.filter((m) => m.event === 'media')).toHaveLength(0);

    first.hangUp();
    const callId = callIdOfToken(token);
    expect(callId).toBeDefined();
    await callEnded(callId!);
    const third = await open(callSid, token);
    expect(await fate(third)).toBe(POLICY_VIOLATION);
    expect(ended.filter((e) => e.callId === callId)).toHaveLength(1);
  });

  it('of twenty concurrent opens with one token exactly one is admitted', async () => {
    const s = await byotSetup();
    const { callSid, token } = await forgedInbound(s);
    const callers = await Promise.all(Array.from({ length: 20 }, () => open(callSid, token)));
    const fates = await Promise.all(callers.map(fate));
    expect(fates.filter((f) => f === 'admitted')).toHaveLength(1);
    expect(fates.filter((f) => f === POLICY_VIOLATION)).toHaveLength(19);
    for (const c of callers) c.hangUp();
    await callEnded(callIdOfToken(token)!);
  });

  it('holds across containers: two streaming services on one table admit one stream between them', async () => {
    // A second container: its own server and process state, the same table (the claim lives there).
    const config = loadConfig();
    const other = createStreamingServer({ environment: async () => platformEnvironment({ ...p.deps, config }, vendorProviders(config)) });
    const { port } = await other.listen(0, '127.0.0.1');
    try {
      const s = await byotSetup();
      const { callSid, token } = await forgedInbound(s);
      const otherUrl = `ws://127.0.0.1:${port}/media-stream`;
      const callers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          SimulatedCaller.connect({ url: i % 2 ? otherUrl : mediaUrl(), callSid, customParameters: { token }, playbackSpeed: 4 }),
        ),
      );
      const fates = await Promise.all(callers.map(fate));
      expect(fates.filter((f) => f === 'admitted')).toHaveLength(1);
      expect(fates.filter((f) => f === POLICY_VIOLATION)).toHaveLength(9);
      for (const c of callers) c.hangUp();
    } finally {
      await other.close();
    }
  });
});

describe('a status callback cannot settle a call whose stream is live', () => {
  it('a forged completed/CallDuration=0 on a BYOT number does not settle; the cost is the stream\'s measured duration', async () => {
    const s = await byotSetup(100);
    const to = '+14155550611';
    p.platform.callSimulator!.setRule(to, {
      kind: 'answer',
      // Short lines: the call only has to stream for a while after the forged callback.
      lines: ['Hello?', 'Goodbye.'],
    });
    const started = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, phoneNumber: to, phoneNumberId: s.byotId, workspaceId: s.workspaceId });
    expect(started.status).toBe(202);
    const callId: string = started.body.call_id;
    const sid = await eventually(async () => (await findCall(p.deps.db, s.workspaceId, callId))?.providerCallSid, WAIT_MS, 'the call to be placed');
    await eventually(async () => ([...p.platform.voice.streaming.sessions].some((x) => x.setup.callSid === sid) ? true : undefined), WAIT_MS, 'the stream');

    const forged = await signedPost(`/twilio/status?callId=${callId}`, s.customer.authToken, {
      AccountSid: s.customer.sid,
      CallSid: sid,
      CallStatus: 'completed',
      CallDuration: '0',
      From: s.byotNumber,
      To: to,
      Direction: 'outbound-api',
    });
    expect(forged.status).toBe(204);
    const during = (await findCall(p.deps.db, s.workspaceId, callId))!;
    expect(during.settledAt).toBeUndefined();
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(100 - perCall);

    const result = await p.platform.callSimulator!.finished(sid);
    expect(result.error).toBeUndefined();
    const record = await eventually(async () => {
      const res = await p.api(s.apiKey, 'GET', `/api/history/${callId}`);
      return res.status === 200 ? res.body : undefined;
    }, WAIT_MS, 'the history record');
    // Billed for what the streaming service measured, from the stream's admission to its end.
    const { outcome } = await callEnded(callId);
    expect(record.callDuration).toBe(Math.ceil((outcome.endedAt - outcome.setup.startedAt) / 1000));
    expect(record.callDuration).toBeGreaterThan(0);
    expect(record.callCost).toBeGreaterThan(0);
    expect(record.callCost).toBe(expectedCallCost(record.callDuration));
    const call = (await findCall(p.deps.db, s.workspaceId, callId))!;
    expect(call.cost).toBe(record.callCost);
    expect(await readBalance(p.deps.db, s.workspaceId)).toBeCloseTo(100 - record.callCost, 6);
  });

  it('a forged canceled callback during the stream does not zero the call either', async () => {
    const s = await byotSetup();
    const { callSid, token } = await forgedInbound(s);
    const callId = callIdOfToken(token)!;
    const caller = await open(callSid, token);
    expect(await fate(caller)).toBe('admitted');
    const forged = await signedPost('/twilio/status', s.customer.authToken, {
      AccountSid: s.customer.sid,
      CallSid: callSid,
      CallStatus: 'canceled',
      CallDuration: '0',
      From: '+14155550177',
      To: s.byotNumber,
      Direction: 'inbound',
    });
    expect(forged.status).toBe(204);
    expect((await findCall(p.deps.db, s.workspaceId, callId))!.settledAt).toBeUndefined();
    await new Promise((r) => setTimeout(r, 1_100));
    caller.hangUp();
    await callEnded(callId);
    const call = (await findCall(p.deps.db, s.workspaceId, callId))!;
    expect(call.cost).toBeGreaterThan(0);
  });
});

describe('inbound calls reserve credits at answer', () => {
  it('a workspace holding one reservation cannot run two inbound calls at once; the reservation is settled at the end', async () => {
    const credits = perCall * 1.5;
    const s = await p.callerSetup(credits);
    expect((await p.api(s.apiKey, 'PATCH', `/api/phone-numbers/${s.numberId}`, { agentId: s.agentId })).status).toBe(200);
    const twilio = p.platform.twilio!;

    const first = await twilio.ringInbound(s.number, '+14155550178');
    const token = tokenIn(first.body);
    expect(token).toBeDefined();
    const callId = callIdOfToken(token!)!;
    expect(callId).toMatch(/^call_/);
    expect(await readBalance(p.deps.db, s.workspaceId)).toBeCloseTo(credits - perCall, 6);

    const second = await twilio.ringInbound(s.number, '+14155550179');
    expect(second.body).toContain(NO_CREDITS_MESSAGE);
    expect(tokenIn(second.body)).toBeUndefined();

    const caller = await open(first.callSid, token!);
    expect(await fate(caller)).toBe('admitted');
    await new Promise((r) => setTimeout(r, 1_100));
    caller.hangUp();
    const end = await callEnded(callId);
    expect(end.error).toBeUndefined();

    const record = await eventually(async () => {
      const res = await p.api(s.apiKey, 'GET', `/api/history/${callId}`);
      return res.status === 200 ? res.body : undefined;
    }, WAIT_MS, 'the history record');
    expect(record).toMatchObject({ _id: callId, agentType: 'voice', mobileNumber: '+14155550178' });
    expect(record.callCost).toBeGreaterThan(0);
    expect(record.callCost).toBe(expectedCallCost(record.callDuration));
    const ledger = (await listLedger(p.deps.db, s.workspaceId)).filter((e) => e.callId === callId);
    expect(ledger.map((e) => e.reason)).toEqual(['call_reservation', 'call_settlement']);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBeCloseTo(-record.callCost, 6);
    expect(await readBalance(p.deps.db, s.workspaceId)).toBeCloseTo(credits - record.callCost, 6);

    // The reservation is back: the next caller is answered.
    expect(tokenIn((await twilio.ringInbound(s.number, '+14155550180')).body)).toBeDefined();
  });

  it('an inbound call that never streams is settled by its final callback and releases its reservation', async () => {
    const s = await p.callerSetup(100);
    await p.api(s.apiKey, 'PATCH', `/api/phone-numbers/${s.numberId}`, { agentId: s.agentId });
    const rung = await p.platform.twilio!.ringInbound(s.number, '+14155550181');
    const callId = callIdOfToken(tokenIn(rung.body)!)!;
    const account = (await p.deps.telephony.platformAccount())!;
    const res = await signedPost('/twilio/status', account.authToken, {
      AccountSid: account.accountSid,
      CallSid: rung.callSid,
      CallStatus: 'completed',
      CallDuration: '3',
      From: '+14155550181',
      To: s.number,
      Direction: 'inbound',
    });
    expect(res.status).toBe(204);
    const call = (await findCall(p.deps.db, s.workspaceId, callId))!;
    expect(call).toMatchObject({ status: 'completed', cost: 0.05 });
    expect(await readBalance(p.deps.db, s.workspaceId)).toBeCloseTo(100 - 0.05, 6);
    // Its stream can no longer start.
    const late = await open(rung.callSid, tokenIn(rung.body)!);
    expect(await fate(late)).toBe(POLICY_VIOLATION);
  });
});

describe('history records say what was billed', () => {
  it('a call without a recording has no callRecordingUrl', async () => {
    const s = await p.callerSetup(100);
    await p.api(s.apiKey, 'PATCH', `/api/phone-numbers/${s.numberId}`, { agentId: s.agentId });
    const rung = await p.platform.twilio!.ringInbound(s.number, '+14155550182');
    const token = tokenIn(rung.body)!;
    const callId = callIdOfToken(token)!;
    const caller = await open(rung.callSid, token);
    expect(await fate(caller)).toBe('admitted');
    caller.hangUp();
    await callEnded(callId);
    const res = await p.api(s.apiKey, 'GET', `/api/history/${callId}`);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('callRecordingUrl');
    expect(res.body.callCost).toBe(expectedCallCost(res.body.callDuration));
  });

  it('a meeting link\'s call has a history record from creation: video, not_joined, zero duration and cost', async () => {
    const s = await p.callerSetup(100);
    const link = await p.api(s.apiKey, 'POST', '/api/optimus/meeting-link', { assistantId: s.agentId, contactName: 'Grace Hopper', workspaceId: s.workspaceId });
    expect(link.status).toBe(201);
    const callId: string = link.body.call_id;
    const got = await p.api(s.apiKey, 'GET', `/api/history/${callId}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ _id: callId, agentType: 'video', fullName: 'Grace Hopper', callEndReason: 'not_joined', callDuration: 0, callCost: 0 });
    expect(got.body).not.toHaveProperty('callRecordingUrl');
    const videos = await p.api(s.apiKey, 'GET', '/api/history?agentType=video');
    expect(videos.body.data.map((r: { _id: string }) => r._id)).toEqual([callId]);
    const voices = await p.api(s.apiKey, 'GET', '/api/history?agentType=voice');
    expect(voices.body.data).toHaveLength(0);
    const all = await p.api(s.apiKey, 'GET', '/api/history');
    expect(all.body.total).toBe(1);
  });
});
