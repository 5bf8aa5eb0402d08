/**
 * Invariant: a queued call is placed exactly once however often SQS delivers its message, with Twilio's
 * parameters (our voice webhook with the call id, the four status events, TimeLimit = the limit + grace, no
 * answering-machine detection unless the agent asks for it: calls/voicemail.test.ts);
 * status callbacks only move a call forward; a call that never connects (busy, no answer) ends with that
 * reason in history at zero cost and its whole reservation back on the balance; and the ledger always sums
 * to the balance.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIME_LIMIT_GRACE_SECONDS } from '../../../lib/domain/agent.js';
import type { HistoryRecord } from '../../../lib/domain/history.js';
import { findCall } from '../../../lib/store/calls.js';
import { listLedger, readBalance } from '../../../lib/store/credits.js';
import { CALL_RESERVATION, eventually, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';
import { loseAnswers } from '../../support/faults.js';
import { WAIT_MS } from '../../support/progress.js';

let p: CallsPlatform;
const perCall = CALL_RESERVATION;
beforeAll(async () => {
  p = await startCallsPlatform();
});
afterAll(async () => p?.stop());

const sim = () => p.platform.callSimulator!;

async function start(s: { apiKey: string; workspaceId: string; agentId: string; numberId: string }, to: string) {
  const res = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, phoneNumber: to, phoneNumberId: s.numberId, workspaceId: s.workspaceId });
  expect(res.status).toBe(202);
  return res.body.call_id as string;
}

const callCreates = (to: string) => p.platform.twilio!.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Calls.json') && r.form.To === to);

async function historyOf(s: { apiKey: string }, callId: string): Promise<HistoryRecord> {
  return eventually(async () => {
    const res = await p.api(s.apiKey, 'GET', `/api/history/${callId}`);
    return res.status === 200 ? (res.body as HistoryRecord) : undefined;
  }, WAIT_MS, `history of ${callId}`);
}

async function ledgerMatches(ws: string) {
  const [balance, ledger] = await Promise.all([readBalance(p.deps.db, ws), listLedger(p.deps.db, ws)]);
  expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBeCloseTo(balance, 6);
  return balance;
}

describe('dispatch and lifecycle', () => {
  it('busy: the call is placed with Twilio\'s parameters, ends busy, history at zero cost, credits released', async () => {
    const s = await p.callerSetup(100);
    const to = '+14155550201';
    sim().setRule(to, { kind: 'busy' });
    const callId = await start(s, to);
    const record = await historyOf(s, callId);
    expect(record).toMatchObject({ _id: callId, agentType: 'voice', callEndReason: 'busy', callCost: 0, callDuration: 0, mobileNumber: to });
    const [create] = callCreates(to);
    expect(create).toBeDefined();
    expect(create!.form.From).toBe(s.number);
    expect(create!.form.Url).toBe(`${p.baseUrl}/twilio/voice?callId=${callId}`);
    expect(create!.form.StatusCallback).toBe(`${p.baseUrl}/twilio/status?callId=${callId}`);
    expect(create!.form.StatusCallbackEvent).toEqual(['initiated', 'ringing', 'answered', 'completed']);
    expect(create!.form.TimeLimit).toBe(String(p.deps.config.CALL_MAX_DURATION_SECONDS + TIME_LIMIT_GRACE_SECONDS));
    expect(create!.form.MachineDetection).toBeUndefined();
    const result = await sim().finished((await findCall(p.deps.db, s.workspaceId, callId))!.providerCallSid!);
    // Every callback was accepted (signed correctly) and no TwiML was fetched for a busy line.
    expect(result.callbacks.map((c) => [c.status, c.httpStatus])).toEqual([['initiated', 204], ['ringing', 204], ['busy', 204]]);
    expect(result.twiml).toBeUndefined();
    const call = await findCall(p.deps.db, s.workspaceId, callId);
    expect(call).toMatchObject({ status: 'busy', endReason: 'busy', cost: 0 });
    expect(await ledgerMatches(s.workspaceId)).toBe(100);
  });

  it('no-answer: history with no_answer at zero cost, credits released', async () => {
    const s = await p.callerSetup(100);
    const to = '+14155550202';
    sim().setRule(to, { kind: 'no-answer' });
    const callId = await start(s, to);
    const record = await historyOf(s, callId);
    expect(record).toMatchObject({ callEndReason: 'no_answer', callCost: 0 });
    expect(await ledgerMatches(s.workspaceId)).toBe(100);
    expect((await findCall(p.deps.db, s.workspaceId, callId))!.status).toBe('no-answer');
  });

  it('the same dispatch message delivered three times places one call', async () => {
    const s = await p.callerSetup(100);
    const to = '+14155550203';
    sim().setRule(to, { kind: 'busy' });
    const callId = await start(s, to);
    const body = JSON.stringify({ callId, workspaceId: s.workspaceId });
    await Promise.all([
      p.sqs.send(new SendMessageCommand({ QueueUrl: p.queueUrl, MessageBody: body })),
      p.sqs.send(new SendMessageCommand({ QueueUrl: p.queueUrl, MessageBody: body })),
    ]);
    await historyOf(s, callId);
    // Let the poller take every copy (the queue drains), then count what reached the provider.
    await eventually(async () => ((await p.peek(p.queueUrl)) === 0 ? true : undefined), WAIT_MS, 'queue drained');
    expect(callCreates(to)).toHaveLength(1);
    expect(await ledgerMatches(s.workspaceId)).toBe(100);
  });

  it("a dispatch claim whose answer was lost (written, then resent by the SDK) still places the call, once", async () => {
    const s = await p.callerSetup(100);
    const to = '+14155550208';
    sim().setRule(to, { kind: 'busy' });
    // The update that moves this workspace's call to `dialing` is carried out and its answer lost, once.
    const wire = (v: any) => v?.S ?? v;
    const fault = loseAnswers(
      p.deps.db,
      (command, input) => command === 'UpdateItemCommand' && wire(input.Key?.pk) === `WS#${s.workspaceId}` && input.ExpressionAttributeValues?.[':initiated'] !== undefined,
    );
    try {
      const callId = await start(s, to);
      // Taken for someone else's claim, the call would stay `dialing`, dialed by nobody, with no record.
      expect(await historyOf(s, callId)).toMatchObject({ _id: callId, callEndReason: 'busy', callCost: 0 });
      expect(fault.lost).toEqual(['UpdateItemCommand']);
      expect(callCreates(to)).toHaveLength(1);
      expect(await ledgerMatches(s.workspaceId)).toBe(100);
    } finally {
      fault.restore();
    }
  });

  it('late and repeated status callbacks never move a call backwards', async () => {
    const s = await p.callerSetup(100);
    const to = '+14155550204';
    sim().setRule(to, { kind: 'no-answer' });
    const callId = await start(s, to);
    await historyOf(s, callId);
    const call = (await findCall(p.deps.db, s.workspaceId, callId))!;
    const result = await sim().finished(call.providerCallSid!);
    expect(result.status).toBe('no-answer');
    // Replay a stale `ringing` and the final callback again, signed like Twilio.
    const { twilioSignature } = await import('../../../lib/vendors/telephony/twilio-webhook.js');
    const account = await p.deps.telephony.platformAccount();
    for (const status of ['ringing', 'no-answer', 'in-progress']) {
      const url = `${p.deps.config.PUBLIC_BASE_URL}/twilio/status?callId=${callId}`;
      const form = { AccountSid: account!.accountSid, CallSid: call.providerCallSid!, CallStatus: status, From: s.number, To: to, Direction: 'outbound-api' };
      const res = await fetch(`${p.baseUrl}/twilio/status?callId=${callId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(account!.authToken, url, form) },
        body: new URLSearchParams(form).toString(),
      });
      expect(res.status).toBe(204);
    }
    expect((await findCall(p.deps.db, s.workspaceId, callId))!.status).toBe('no-answer');
    expect((await listLedger(p.deps.db, s.workspaceId)).filter((e) => e.callId === callId)).toHaveLength(2);
    expect(await ledgerMatches(s.workspaceId)).toBe(100);
    const list = await p.api(s.apiKey, 'GET', '/api/history');
    expect(list.body.data.filter((r: HistoryRecord) => r._id === callId)).toHaveLength(1);
  });

  it('a call to another number held on the platform is still tracked as the caller\'s call', async () => {
    const caller = await p.callerSetup(100);
    const callee = await p.callerSetup(100);
    sim().setRule(callee.number, { kind: 'busy' });
    const callId = await start(caller, callee.number);
    const record = await historyOf(caller, callId);
    expect(record).toMatchObject({ callEndReason: 'busy', callCost: 0, mobileNumber: callee.number });
    expect(await ledgerMatches(caller.workspaceId)).toBe(100);
    expect((await p.api(callee.apiKey, 'GET', `/api/history/${callId}`)).status).toBe(404);
  });

  it('a call leaves exactly two ledger entries: its reservation and its settlement', async () => {
    const s = await p.callerSetup(100);
    const to = '+14155550205';
    sim().setRule(to, { kind: 'busy' });
    const callId = await start(s, to);
    await historyOf(s, callId);
    const ledger = (await listLedger(p.deps.db, s.workspaceId)).filter((e) => e.callId === callId);
    expect(ledger.map((e) => [e.reason, e.amount])).toEqual([['call_reservation', -perCall], ['call_settlement', perCall]]);
  });
});
