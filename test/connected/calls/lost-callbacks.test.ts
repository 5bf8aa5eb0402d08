/**
 * Invariant: a dialed call whose final status callback was lost (we answered it 5xx or 429, and Twilio never
 * retries one) is still ended and settled: the reconciliation finds it through the sparse dialed-call index
 * once it has been quiet longer than a call could still ring, asks Twilio (the stand-in, over its REST API,
 * with the account the call was placed from) for its real status and applies it as the callback would have
 * (state, end reason, credits, history record). Once only, however often it runs; a call still live at
 * Twilio is left alone, and a call whose stream started is the abandoned-stream sweep's. Clocks are
 * injected: no test waits out the quiet period on the wall clock.
 */
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOST_CALLBACK_AFTER_MS, STUCK_AFTER_FAILED_ASKS, type Call } from '../../../lib/domain/call.js';
import type { CalleeBehaviour } from '../../../lib/local/standins/twilio/callee.js';
import { assertNoStuckCalls, reconcileLostCallbacks } from '../../../lib/services/lost-callbacks.js';
import { findCall } from '../../../lib/store/calls.js';
import { findQuietDialedCalls } from '../../../lib/store/call-indexes.js';
import { listLedger, readBalance } from '../../../lib/store/credits.js';
import { withTelephony } from '../../../lib/deps.js';
import { createTwilioCalls } from '../../../lib/vendors/telephony/twilio-calls.js';
import { CALL_RESERVATION, eventually, expectedCallCost, importOwnNumber, startCallsPlatform, type CallerSetup, type CallsPlatform } from '../../support/calls.js';
import { failCommands, serviceError } from '../../support/faults.js';
import { WAIT_MS } from '../../support/progress.js';

const CREDITS = 100;
let p: CallsPlatform;

// The platform's own timers are off: every run here uses a clock the test chooses.
beforeAll(async () => {
  p = await startCallsPlatform({ streamSweep: false, lostCallbacks: false });
});
afterAll(async () => p?.stop());

const deps = () => withTelephony(p.deps, createTwilioCalls);
const later = () => Date.now() + LOST_CALLBACK_AFTER_MS + 1;
const call = async (c: { workspaceId: string; callId: string }): Promise<Call> => (await findCall(p.deps.db, c.workspaceId, c.callId))!;
const history = async (apiKey: string, callId: string) => {
  const res = await p.api(apiKey, 'GET', `/api/history/${callId}`);
  return res.status === 200 ? res.body : undefined;
};
const ledgerOf = async (workspaceId: string, callId: string) => (await listLedger(p.deps.db, workspaceId)).filter((e) => e.callId === callId).map((e) => e.reason);

/**
 * Places a call to a callee behaving as `behaviour` while the store refuses every status move of the
 * workspace's calls (the status handler answers 5xx, as when the table throttles, and Twilio drops the
 * callback): the call is dialed, its callbacks all lost.
 */
async function callWithLostCallbacks(behaviour: CalleeBehaviour, to: string, setup?: CallerSetup) {
  const s = setup ?? (await p.callerSetup(CREDITS));
  const refused = failCommands(
    DynamoDBDocumentClient,
    (command) => {
      const { Key, ExpressionAttributeValues } = command.input ?? {};
      const movesOurCall = Key?.pk === `WS#${s.workspaceId}` && String(Key?.sk).startsWith('LIVECALL#');
      const states = ['ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'];
      return command.constructor.name === 'UpdateCommand' && movesOurCall && Object.values(ExpressionAttributeValues ?? {}).some((v) => states.includes(v as string));
    },
    serviceError('InternalServerError'),
  );
  try {
    p.platform.callSimulator!.setRule(to, behaviour);
    const started = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, phoneNumber: to, phoneNumberId: s.numberId, workspaceId: s.workspaceId });
    expect(started.status).toBe(202);
    const callId: string = started.body.call_id;
    const sid = await eventually(async () => (await findCall(p.deps.db, s.workspaceId, callId))?.providerCallSid, WAIT_MS, 'the call to be placed');
    const result = await p.platform.callSimulator!.finished(sid);
    // Every callback after `initiated` was answered with a server error, the final one included.
    const final = result.callbacks.at(-1)!;
    expect(final.httpStatus).toBeGreaterThanOrEqual(500);
    return { ...s, callId, sid, result };
  } finally {
    refused.restore();
  }
}

// Each test places a call in real time and waits for the reconciliation (up to 15 s on an idle machine):
// 90 s rather than the default 30 s for a busy one.
describe('the reconciliation of lost status callbacks', { timeout: 90_000 }, () => {
  it.each([
    ['busy', { kind: 'busy' }, 'busy', '+14155550301'],
    ['no-answer', { kind: 'no-answer' }, 'no_answer', '+14155550302'],
  ] as const)('ends a %s call whose final callback was lost, releases its reservation, writes its record, once', async (status, behaviour, endReason, to) => {
    const c = await callWithLostCallbacks(behaviour, to);
    const stuck = await call(c);
    expect(stuck.settledAt).toBeUndefined();
    expect(['dialing', 'ringing']).toContain(stuck.status);
    expect(await readBalance(p.deps.db, c.workspaceId)).toBeCloseTo(CREDITS - CALL_RESERVATION, 6);

    // Not yet quiet long enough: a final callback may still be on its way.
    expect((await reconcileLostCallbacks(deps(), { nowMs: Date.now() })).ended.map((x) => x.callId)).not.toContain(c.callId);

    const run = await reconcileLostCallbacks(deps(), { nowMs: later() });
    expect(run.ended).toContainEqual({ callId: c.callId, workspaceId: c.workspaceId, status });
    expect(await call(c)).toMatchObject({ status, endReason, cost: 0 });
    expect((await call(c)).settledAt).toBeDefined();
    expect(await readBalance(p.deps.db, c.workspaceId)).toBeCloseTo(CREDITS, 6);
    expect(await history(c.apiKey, c.callId)).toMatchObject({ _id: c.callId, callEndReason: endReason, callDuration: 0, callCost: 0 });

    // Asked with the account the call was placed from (the platform's, for a bought number).
    const asked = p.platform.twilio!.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/Calls/${c.sid}.json`));
    expect(asked).toHaveLength(1);
    const placed = p.platform.twilio!.requests.find((r) => r.method === 'POST' && r.path.endsWith('/Calls.json') && r.form.To === to)!;
    expect(asked[0]!.authAccountSid).toBe(placed.authAccountSid);
    expect(asked[0]!.status).toBe(200);

    // Settled calls leave the index: a second run neither asks nor settles again.
    expect((await findQuietDialedCalls(p.deps.db, new Date(later() + 3_600_000).toISOString(), 1_000)).map((x) => x._id)).not.toContain(c.callId);
    expect((await reconcileLostCallbacks(deps(), { nowMs: later() + 3_600_000 })).ended.map((x) => x.callId)).not.toContain(c.callId);
    expect(await ledgerOf(c.workspaceId, c.callId)).toEqual(['call_reservation', 'call_settlement']);
    expect(await readBalance(p.deps.db, c.workspaceId)).toBeCloseTo(CREDITS, 6);
  });

  it('leaves a call still live at Twilio alone, then settles it as completed with the duration Twilio reports', async () => {
    const c = await callWithLostCallbacks({ kind: 'no-answer' }, '+14155550303');
    // Twilio says the call is in progress (the stand-in's own record of it, as its REST API answers).
    const twilio = p.platform.twilio!;
    twilio.setCallStatus(c.sid, 'in-progress');
    const nowMs = later();
    const first = await reconcileLostCallbacks(deps(), { nowMs });
    expect(first.ended.map((x) => x.callId)).not.toContain(c.callId);
    const untouched = await call(c);
    expect(untouched.settledAt).toBeUndefined();
    expect(['dialing', 'ringing']).toContain(untouched.status);

    // Found live, it is asked about again only after another quiet period (its entry moved to that run's time).
    expect((await findQuietDialedCalls(p.deps.db, new Date(nowMs).toISOString(), 1_000)).map((x) => x._id)).not.toContain(c.callId);

    // It ends at Twilio after 42 s; the next run (a quiet period on) applies that as the lost callback would.
    Object.assign(twilio.call(c.sid)!, { status: 'completed', duration: 42 });
    const second = await reconcileLostCallbacks(deps(), { nowMs: nowMs + LOST_CALLBACK_AFTER_MS + 1 });
    expect(second.ended).toContainEqual({ callId: c.callId, workspaceId: c.workspaceId, status: 'completed' });
    const cost = expectedCallCost(42);
    expect(await call(c)).toMatchObject({ status: 'completed', endReason: 'customer_hangup', billedSeconds: 42, cost });
    expect(await readBalance(p.deps.db, c.workspaceId)).toBeCloseTo(CREDITS - cost, 6);
    expect(await history(c.apiKey, c.callId)).toMatchObject({ _id: c.callId, callEndReason: 'customer_hangup', callDuration: 42, callCost: cost });
  });

  it('puts a call it cannot ask about behind the others, counts the failed runs, and reports it stuck at the third', async () => {
    // Two calls lost their final callbacks. A run takes the first `limit` calls in line; Twilio no longer
    // knows the sid of the one first in line (it answers 404).
    const calls = [await callWithLostCallbacks({ kind: 'busy' }, '+14155550306'), await callWithLostCallbacks({ kind: 'busy' }, '+14155550307')];
    const t0 = later();
    const [inLine] = await findQuietDialedCalls(p.deps.db, new Date(t0 - LOST_CALLBACK_AFTER_MS).toISOString(), 1);
    const gone = calls.find((c) => c.callId === inLine?._id)!;
    const next = calls.find((c) => c !== gone)!;
    // Only these two are waiting: the other tests' calls are settled.
    expect(gone).toBeDefined();
    const unknownSid = `CA${'0'.repeat(32)}`;
    await p.deps.db.doc.send(
      new UpdateCommand({
        TableName: p.deps.db.table,
        Key: { pk: `WS#${gone.workspaceId}`, sk: `LIVECALL#${gone.callId}` },
        UpdateExpression: 'SET providerCallSid = :sid',
        ExpressionAttributeValues: { ':sid': unknownSid },
      }),
    );
    const askedAboutGone = () => p.platform.twilio!.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/Calls/${unknownSid}.json`));

    // A run with room for one call asks about it, in vain: nothing ends, and it is not stuck yet.
    const first = await reconcileLostCallbacks(deps(), { nowMs: t0, limit: 1 });
    expect(first).toEqual({ ended: [], skipped: 1, stuck: [] });
    // Asked with the account that placed the call, as always.
    expect(askedAboutGone().map((r) => [r.authAccountSid, r.status])).toEqual([[p.platform.twilio!.call(gone.sid)!.accountSid, 404]]);
    expect(await call(gone)).toMatchObject({ reconcileFailures: 1 });
    expect((await call(gone)).settledAt).toBeUndefined();
    // It went to the back of the line: the next run of one reaches the other call, which ends as it should.
    const second = await reconcileLostCallbacks(deps(), { nowMs: t0, limit: 1 });
    expect(second.ended).toEqual([{ callId: next.callId, workspaceId: next.workspaceId, status: 'busy' }]);
    expect(await readBalance(p.deps.db, next.workspaceId)).toBeCloseTo(CREDITS, 6);

    // Asked again a quiet period later, and again: the third failure in a row makes it stuck, and the
    // scheduled run that found it ends in an error naming it (the alarm), its reservation still held.
    const third = await reconcileLostCallbacks(deps(), { nowMs: t0 + LOST_CALLBACK_AFTER_MS + 1 });
    expect(third.stuck).toEqual([]);
    expect(() => assertNoStuckCalls(third)).not.toThrow();
    const fourth = await reconcileLostCallbacks(deps(), { nowMs: t0 + 2 * (LOST_CALLBACK_AFTER_MS + 1) });
    expect(fourth.stuck).toEqual([{ callId: gone.callId, workspaceId: gone.workspaceId, failures: STUCK_AFTER_FAILED_ASKS }]);
    expect(() => assertNoStuckCalls(fourth)).toThrow(new RegExp(`1 call\\(s\\) could not be asked about 3 or more runs in a row.*${gone.callId} \\(3 runs\\)`));
    expect(await readBalance(p.deps.db, gone.workspaceId)).toBeCloseTo(CREDITS - CALL_RESERVATION, 6);
    // Not asked again before another quiet period: a stuck call costs one Twilio request a period, no more.
    expect((await reconcileLostCallbacks(deps(), { nowMs: t0 + 2 * (LOST_CALLBACK_AFTER_MS + 1) })).stuck).toEqual([]);
    expect(askedAboutGone()).toHaveLength(3);
  });

  it("asks about a call from a workspace's own (BYOT) number with that workspace's account, never the platform's", async () => {
    const s = await p.callerSetup(CREDITS);
    const number = '+13125550401';
    const { customer, numberId } = await importOwnNumber(p, s, number);
    const c = await callWithLostCallbacks({ kind: 'busy' }, '+14155550305', { ...s, numberId, number });
    const run = await reconcileLostCallbacks(deps(), { nowMs: later() });
    expect(run.ended).toContainEqual({ callId: c.callId, workspaceId: c.workspaceId, status: 'busy' });
    const asked = p.platform.twilio!.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/Calls/${c.sid}.json`));
    expect(asked.map((r) => [r.authAccountSid, r.status])).toEqual([[customer.sid, 200]]);
    expect(asked[0]!.path).toContain(`/Accounts/${customer.sid}/`);
    expect(await readBalance(p.deps.db, c.workspaceId)).toBeCloseTo(CREDITS, 6);
  });

  it('leaves a call whose stream started to the abandoned-stream sweep, and never asks about another account\'s call', async () => {
    // A call answered by the agent: its stream was claimed, so its dialed-call entry moved to the live streams.
    const s = await p.callerSetup(CREDITS);
    const to = '+14155550304';
    p.platform.callSimulator!.setRule(to, { kind: 'answer', lines: ['Bye.'] });
    const started = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, phoneNumber: to, phoneNumberId: s.numberId, workspaceId: s.workspaceId });
    const callId: string = started.body.call_id;
    const streamed = await eventually(async () => {
      const now = await findCall(p.deps.db, s.workspaceId, callId);
      return now?.streamStartedAt ? now : undefined;
    }, WAIT_MS, 'the stream to start');
    expect((await findQuietDialedCalls(p.deps.db, new Date(later()).toISOString(), 1_000)).map((x) => x._id)).not.toContain(callId);
    const run = await reconcileLostCallbacks(deps(), { nowMs: later() });
    expect(run.ended.map((x) => x.callId)).not.toContain(callId);
    expect(p.platform.twilio!.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/Calls/${streamed.providerCallSid}.json`))).toBe(false);
    await p.platform.callSimulator!.finished(streamed.providerCallSid!);

    // Every call sid fetched so far was fetched with the account that placed it.
    const twilio = p.platform.twilio!;
    for (const fetched of twilio.requests.filter((r) => r.method === 'GET' && /\/Calls\/CA[0-9a-f]{32}\.json$/.test(r.path))) {
      const sid = /\/Calls\/(CA[0-9a-f]{32})\.json$/.exec(fetched.path)![1]!;
      // A sid Twilio does not know (the stuck call above) was answered 404, with no account to compare.
      if (!twilio.call(sid)) {
        expect(fetched.status).toBe(404);
        continue;
      }
      expect(fetched.authAccountSid).toBe(twilio.call(sid)!.accountSid);
    }
  });
});
