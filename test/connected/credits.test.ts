/**
 * Invariant: credits move only as docs/calls.md says, with amounts written out here rather than computed
 * by the code under test. At the default price (1 credit a minute, 600 s at most) one call needs 10
 * credits; a workspace with less is refused with the exact shortfall (never a negative `available`); a
 * settled call is charged its started seconds at 1/60 credit each, never more than its reservation (an
 * overrun is charged the whole reservation, not nothing), and settling twice charges once. The `credits.low`
 * alert fires once when the balance falls under the threshold and again only after a top-up re-armed it.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../lib/deps.js';
import { InsufficientCreditsError } from '../../lib/domain/errors.js';
import { openInboundCall } from '../../lib/services/inbound-calls.js';
import { assertCanAffordCall, callAffordability, checkLowCredits, creditsOverview, insufficientCredits, settleCall } from '../../lib/services/credits.js';
import { findCall } from '../../lib/store/calls.js';
import { claimLowCreditsAlert, debitChatMessage, ledgerItem, listCallLedgerSince, listLedger, readBalance, readCreditsState, rearmLowCreditsAlert, setLowCreditsThreshold } from '../../lib/store/credits.js';
import { transact } from '../../lib/store/dynamo.js';
import { findEvent } from '../../lib/store/webhooks.js';
import { newId } from '../../lib/domain/ids.js';
import { key } from '../../lib/store/model.js';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { conflictingTransactions, failCommands, named, serviceError } from '../support/faults.js';
import { StoreBusyError } from '../../lib/store/dynamo.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t?.stop());

/** Sets a workspace's balance outright (an operator's correction can leave any value, negative too). */
const setBalance = (workspaceId: string, balance: number) =>
  t.deps.db.doc.send(new UpdateCommand({ TableName: t.deps.db.table, Key: key.credits(workspaceId), UpdateExpression: 'SET balance = :b', ExpressionAttributeValues: { ':b': balance } }));

let sid = 0;
/** An answered inbound call of a fresh workspace holding `credits`, for an agent limited to `maxSeconds`. */
async function inboundCall(credits: number, maxSeconds?: number, deps: Deps = t.deps) {
  const ws = await t.workspace(credits);
  const answer = await openInboundCall(deps, {
    workspaceId: ws.workspaceId,
    agentId: 'agt_01J00000000000000000000000',
    phoneNumberId: 'num_01J00000000000000000000000',
    ourNumber: '+14155550100',
    caller: '+14155550101',
    callSid: `CA${String((sid += 1)).padStart(32, '0')}`,
    agent: maxSeconds ? { max_duration_seconds: maxSeconds } : {},
  });
  return { ...ws, answer };
}

describe('the price of a call', () => {
  it('needs 10 credits to start; 9.9999 is refused with required 10 and available 9.9999', async () => {
    const rich = await t.workspace(10);
    expect(await callAffordability(t.deps, rich.workspaceId)).toEqual({ required: 10, available: 10 });
    expect(await assertCanAffordCall(t.deps, rich.workspaceId)).toBe(10);
    const short = await t.workspace(9.9999);
    const refusal = await assertCanAffordCall(t.deps, short.workspaceId).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(InsufficientCreditsError);
    expect(refusal).toMatchObject({ status: 402, code: 'insufficient_credits', details: { required: 10, available: 9.9999 } });
  });

  it('a negative balance is reported as 0 available', async () => {
    const ws = await t.workspace(0);
    await setBalance(ws.workspaceId, -3);
    expect(await readBalance(t.deps.db, ws.workspaceId)).toBe(-3);
    expect(await insufficientCredits(t.deps, ws.workspaceId, 10)).toMatchObject({ details: { required: 10, available: 0 } });
    const refusal = await assertCanAffordCall(t.deps, ws.workspaceId).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ details: { required: 10, available: 0 } });
  });

  it('exactly one reservation is enough: the balance may reach 0, not below', async () => {
    const { workspaceId, answer } = await inboundCall(10);
    expect(answer.kind).toBe('connect');
    expect(await readBalance(t.deps.db, workspaceId)).toBe(0);
    const ledger = (await listLedger(t.deps.db, workspaceId)).filter((e) => e.callId);
    expect(ledger).toEqual([{ id: `${answer.kind === 'connect' ? answer.call._id : ''}#reserve`, amount: -10, reason: 'call_reservation', callId: expect.any(String), createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
    expect((await inboundCall(0.0001)).answer).toEqual({ kind: 'insufficient' });
  });

  it('a workspace without a balance item reads as 0', async () => {
    expect(await readBalance(t.deps.db, 'ws_01J00000000000000000000000')).toBe(0);
    expect(await readCreditsState(t.deps.db, 'ws_01J00000000000000000000000')).toStrictEqual({ balance: 0 });
  });

  it('an inbound call on a short balance is not answered and takes nothing', async () => {
    const { workspaceId, answer } = await inboundCall(9.5);
    expect(answer).toEqual({ kind: 'insufficient' });
    expect(await readBalance(t.deps.db, workspaceId)).toBe(9.5);
    expect((await listLedger(t.deps.db, workspaceId)).filter((e) => e.callId)).toEqual([]);
  });

  it('an inbound call that keeps colliding with other writers is told "insufficient" once the balance cannot cover it', async () => {
    const { workspaceId, answer } = await inboundCall(9.5, undefined, conflictingTransactions(t.deps));
    expect(answer).toEqual({ kind: 'insufficient' });
    expect(await readBalance(t.deps.db, workspaceId)).toBe(9.5);
  });
});

describe('settlement', () => {
  it('charges every started second at 1/60 credit and releases the rest, once', async () => {
    const { workspaceId, answer } = await inboundCall(100);
    if (answer.kind !== 'connect') throw new Error(`not answered: ${answer.kind}`);
    expect(await readBalance(t.deps.db, workspaceId)).toBe(90);
    const first = await settleCall(t.deps, { workspaceId, callId: answer.call._id, durationSeconds: 2.1, endReason: 'customer_hangup' });
    expect(first.kind).toBe('settled');
    const call = await findCall(t.deps.db, workspaceId, answer.call._id);
    expect(call).toMatchObject({ reserved: 10, cost: 0.05, billedSeconds: 3 });
    expect(await readBalance(t.deps.db, workspaceId)).toBe(99.95);
    // A second settlement (a late callback) changes nothing and reports the first.
    const again = await settleCall(t.deps, { workspaceId, callId: answer.call._id, durationSeconds: 500 });
    expect(again.kind).not.toBe('missing');
    expect(await readBalance(t.deps.db, workspaceId)).toBe(99.95);
    const ledger = (await listLedger(t.deps.db, workspaceId)).filter((e) => e.callId === answer.call._id);
    expect(ledger.map((e) => [e.reason, e.amount])).toEqual([['call_reservation', -10], ['call_settlement', 9.95]]);
  });

  it('a call that never connected costs nothing', async () => {
    const { workspaceId, answer } = await inboundCall(100);
    if (answer.kind !== 'connect') throw new Error(`not answered: ${answer.kind}`);
    await settleCall(t.deps, { workspaceId, callId: answer.call._id, durationSeconds: 0 });
    expect(await findCall(t.deps.db, workspaceId, answer.call._id)).toMatchObject({ cost: 0, billedSeconds: 0 });
    expect(await readBalance(t.deps.db, workspaceId)).toBe(100);
  });

  it('a call that ran past its reservation is charged the whole reservation, not nothing', async () => {
    // An agent limited to 60 s reserves 1 credit; the stream measured 90 s (it ended late).
    const { workspaceId, answer } = await inboundCall(5, 60);
    if (answer.kind !== 'connect') throw new Error(`not answered: ${answer.kind}`);
    expect(answer.call.reserved).toBe(1);
    await settleCall(t.deps, { workspaceId, callId: answer.call._id, durationSeconds: 90 });
    expect(await findCall(t.deps.db, workspaceId, answer.call._id)).toMatchObject({ reserved: 1, cost: 1 });
    expect(await readBalance(t.deps.db, workspaceId)).toBe(4);
  });

  it('an unknown call settles nothing', async () => {
    const ws = await t.workspace(100);
    expect((await settleCall(t.deps, { workspaceId: ws.workspaceId, callId: 'call_01J00000000000000000000000', durationSeconds: 30 })).kind).toBe('missing');
    expect(await readBalance(t.deps.db, ws.workspaceId)).toBe(100);
  });
});

describe('the credits.low alert', () => {
  it('fires once under the threshold, not again until a top-up brought the balance back', async () => {
    const ws = await t.workspace(100);
    const hook = await t.api(ws.apiKey, 'POST', '/api/webhooks', { url: 'https://hooks.example.com/in', eventTypes: ['credits.low'], workspaceId: ws.workspaceId });
    expect(hook.status).toBe(201);
    const queued: unknown[] = [];
    const deps: Deps = { ...t.deps, webhooks: { send: async (m: unknown) => void queued.push(m) } as Deps['webhooks'] };

    await checkLowCredits(deps, ws.workspaceId);
    expect(queued).toHaveLength(0); // no threshold: no alert
    await setLowCreditsThreshold(t.deps.db, ws.workspaceId, 50);
    await checkLowCredits(deps, ws.workspaceId);
    expect(queued).toHaveLength(0); // 100 is not under 50

    await setBalance(ws.workspaceId, 49);
    await checkLowCredits(deps, ws.workspaceId);
    await checkLowCredits(deps, ws.workspaceId);
    expect(queued).toHaveLength(1);
    // The event names the balance and the threshold it fell under.
    const event = await findEvent(t.deps.db, ws.workspaceId, (queued[0] as { eventId: string }).eventId);
    expect(event).toMatchObject({ type: 'credits.low', data: { balance: 49, threshold: 50 } });
    expect((await readCreditsState(t.deps.db, ws.workspaceId)).lowNotifiedAt).toBeTypeOf('string');

    // Back exactly at the threshold re-arms it; the next fall alerts again.
    await setBalance(ws.workspaceId, 50);
    await checkLowCredits(deps, ws.workspaceId);
    expect(await readCreditsState(t.deps.db, ws.workspaceId)).toStrictEqual({ balance: 50, lowThreshold: 50 });
    await setBalance(ws.workspaceId, 49.9999);
    await checkLowCredits(deps, ws.workspaceId);
    expect(queued).toHaveLength(2);

    await setLowCreditsThreshold(t.deps.db, ws.workspaceId, null);
    expect(await readCreditsState(t.deps.db, ws.workspaceId)).toEqual({ balance: 49.9999 });
  });

  it('claims the alert once while under the threshold; re-arms only at or over it', async () => {
    const ws = await t.workspace(40);
    expect(await claimLowCreditsAlert(t.deps.db, ws.workspaceId, '2026-01-01T00:00:00.000Z')).toBe(false); // no threshold
    await setLowCreditsThreshold(t.deps.db, ws.workspaceId, 50);
    expect(await claimLowCreditsAlert(t.deps.db, ws.workspaceId, '2026-01-01T00:00:00.000Z')).toBe(true);
    expect(await claimLowCreditsAlert(t.deps.db, ws.workspaceId, '2026-01-02T00:00:00.000Z')).toBe(false);
    expect(await readCreditsState(t.deps.db, ws.workspaceId)).toEqual({ balance: 40, lowThreshold: 50, lowNotifiedAt: '2026-01-01T00:00:00.000Z' });
    expect(await rearmLowCreditsAlert(t.deps.db, ws.workspaceId)).toBe(false);
    await setBalance(ws.workspaceId, 50);
    expect(await rearmLowCreditsAlert(t.deps.db, ws.workspaceId)).toBe(true);
    expect(await rearmLowCreditsAlert(t.deps.db, ws.workspaceId)).toBe(false);
    // A new threshold re-arms the alert whatever it was.
    await setBalance(ws.workspaceId, 10);
    expect(await claimLowCreditsAlert(t.deps.db, ws.workspaceId, '2026-01-03T00:00:00.000Z')).toBe(true);
    await setLowCreditsThreshold(t.deps.db, ws.workspaceId, 20);
    expect(await readCreditsState(t.deps.db, ws.workspaceId)).toEqual({ balance: 10, lowThreshold: 20 });
  });

  it('a failing check never fails the call that took the credits', async () => {
    const ws = await t.workspace(10);
    await setLowCreditsThreshold(t.deps.db, ws.workspaceId, 50);
    const fault = failCommands(DynamoDBDocumentClient, named('GetCommand'), serviceError('InternalServerError'));
    try {
      await expect(checkLowCredits(t.deps, ws.workspaceId)).resolves.toBeUndefined();
      expect(fault.failed).toEqual(['GetCommand']);
    } finally {
      fault.restore();
    }
    expect((await readCreditsState(t.deps.db, ws.workspaceId)).lowNotifiedAt).toBeUndefined();
  });
});

describe('settlement of a long agent', () => {
  it('an agent allowed 30 min is charged all 20 min it ran, not capped at the platform default of 10', async () => {
    const { workspaceId, answer } = await inboundCall(100, 1800);
    if (answer.kind !== 'connect') throw new Error(`not answered: ${answer.kind}`);
    expect(answer.call.reserved).toBe(30);
    await settleCall(t.deps, { workspaceId, callId: answer.call._id, durationSeconds: 1200 });
    expect(await findCall(t.deps.db, workspaceId, answer.call._id)).toMatchObject({ reserved: 30, cost: 20, billedSeconds: 1200 });
    expect(await readBalance(t.deps.db, workspaceId)).toBe(80);
  });
});

describe('the store', () => {
  it('a workspace ledger starts with its grant, listed whole', async () => {
    const ws = await t.workspace(25);
    expect(await listLedger(t.deps.db, ws.workspaceId)).toStrictEqual([
      { id: expect.stringMatching(/^led_[0-9A-HJKMNP-TV-Z]{26}$/), amount: 25, reason: 'initial_grant', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    ]);
  });

  it('an alert write that fails for another reason than its condition is an error, not "not claimed"', async () => {
    const ws = await t.workspace(10);
    await setLowCreditsThreshold(t.deps.db, ws.workspaceId, 50);
    const fault = failCommands(DynamoDBDocumentClient, named('UpdateCommand'), serviceError('InternalServerError'));
    try {
      await expect(claimLowCreditsAlert(t.deps.db, ws.workspaceId, '2026-01-01T00:00:00.000Z')).rejects.toThrow();
      await expect(rearmLowCreditsAlert(t.deps.db, ws.workspaceId)).rejects.toThrow();
    } finally {
      fault.restore();
    }
  });

  it('a chat message is charged once per number; a balance short of the price takes nothing', async () => {
    const ws = await t.workspace(1);
    const at = '2026-11-23T10:00:00.000Z';
    expect(await debitChatMessage(t.deps.db, ws.workspaceId, 'chat_01J00000000000000000000001', 1, 0.25, at)).toBe('charged');
    expect(await debitChatMessage(t.deps.db, ws.workspaceId, 'chat_01J00000000000000000000001', 1, 0.25, at)).toBe('already');
    expect(await readBalance(t.deps.db, ws.workspaceId)).toBe(0.75);
    expect(await debitChatMessage(t.deps.db, ws.workspaceId, 'chat_01J00000000000000000000001', 2, 0.8, at)).toBe('insufficient');
    expect(await readBalance(t.deps.db, ws.workspaceId)).toBe(0.75);
    const chat = (await listLedger(t.deps.db, ws.workspaceId)).filter((e) => e.reason !== 'initial_grant');
    expect(chat).toStrictEqual([{ id: 'chat_01J00000000000000000000001#msg1', amount: -0.25, reason: 'chat_message', callId: 'chat_01J00000000000000000000001', createdAt: at }]);
  });

  it('a chat message that keeps colliding with other writers is "insufficient" once the balance cannot cover it', async () => {
    const ws = await t.workspace(0.5);
    const db = conflictingTransactions(t.deps).db;
    expect(await debitChatMessage(db, ws.workspaceId, 'chat_01J00000000000000000000002', 1, 0.8, '2026-11-23T10:00:00.000Z')).toBe('insufficient');
    // While the balance still covers it (exactly, here: the whole balance), a collision nobody gets through is
    // an error the caller may retry (503 at the API), not a refusal.
    await expect(debitChatMessage(db, ws.workspaceId, 'chat_01J00000000000000000000002', 1, 0.5, '2026-11-23T10:00:00.000Z')).rejects.toBeInstanceOf(StoreBusyError);
    expect(await readBalance(t.deps.db, ws.workspaceId)).toBe(0.5);
  });
});

describe('creditsOverview (the credits page)', () => {
  /** 2026-11-23T12:00:00Z: the window is 2026-10-25 to 2026-11-23, thirty UTC days. */
  const NOW = Date.parse('2026-11-23T12:00:00.000Z');

  /** A call's ledger entries, written as the calls code writes them: reserved at `startedAt`, settled (released) later. */
  async function callEntries(ws: string, startedAt: string, reserved: number, released?: { amount: number; at: string }) {
    const callId = newId('call', Date.parse(startedAt));
    const items = [ledgerItem(t.deps.db, ws, { id: `${callId}#reserve`, amount: -reserved, reason: 'call_reservation', callId, createdAt: startedAt })];
    if (released) items.push(ledgerItem(t.deps.db, ws, { id: `${callId}#settle`, amount: released.amount, reason: 'call_settlement', callId, createdAt: released.at }));
    await transact(t.deps.db, items);
  }

  it('credits spent and calls per day on the day each call started; running calls as reserved; older calls left out', async () => {
    const ws = await t.workspace(100);
    const id = ws.workspaceId;
    await callEntries(id, '2026-10-24T23:59:59.000Z', 10, { amount: 5, at: '2026-10-25T00:05:00.000Z' }); // before the window
    await callEntries(id, '2026-10-25T00:00:00.000Z', 1, { amount: 0.5, at: '2026-10-25T00:01:00.000Z' }); // its first instant
    await callEntries(id, '2026-11-20T10:00:00.000Z', 10, { amount: 9.95, at: '2026-11-20T10:00:03.000Z' });
    await callEntries(id, '2026-11-20T23:59:00.000Z', 10, { amount: 9.9, at: '2026-11-21T00:00:06.000Z' }); // settled the next day
    await callEntries(id, '2026-11-23T11:00:00.000Z', 10); // running
    await callEntries(id, '2026-11-23T11:30:00.000Z', 2.5); // running
    // An entry in the call range without a call id is no call.
    await transact(t.deps.db, [ledgerItem(t.deps.db, id, { id: `${newId('call', Date.parse('2026-11-22T09:00:00.000Z'))}#adjust`, amount: -3, reason: 'adjustment', createdAt: '2026-11-22T09:00:00.000Z' })]);
    // A call whose id falls in the window but whose reservation is stamped the day before (clocks apart):
    // it has no day on the page and is left out, not a crash.
    const skewed = newId('call', Date.parse('2026-10-25T00:00:01.000Z'));
    await transact(t.deps.db, [
      ledgerItem(t.deps.db, id, { id: `${skewed}#reserve`, amount: -4, reason: 'call_reservation', callId: skewed, createdAt: '2026-10-24T23:59:59.000Z' }),
      ledgerItem(t.deps.db, id, { id: `${skewed}#settle`, amount: 1, reason: 'call_settlement', callId: skewed, createdAt: '2026-10-25T00:00:05.000Z' }),
    ]);
    await setBalance(id, 42);
    // The store reads the call entries from the window's first instant on, nothing else.
    const entries = await listCallLedgerSince(t.deps.db, id, Date.parse('2026-10-25T00:00:00.000Z'));
    expect(entries.map((e) => e.reason)).toEqual(['call_reservation', 'call_settlement', 'call_reservation', 'call_settlement', 'call_reservation', 'call_settlement', 'call_reservation', 'call_settlement', 'adjustment', 'call_reservation', 'call_reservation']);

    const view = await creditsOverview(t.deps, id, NOW);
    expect(view.balance).toBe(42);
    expect(view.reserved).toBe(12.5);
    expect(view.usage).toHaveLength(30);
    expect(view.usage[0]).toEqual({ day: '2026-10-25', credits: 0.5, calls: 1 });
    expect(view.usage[1]).toEqual({ day: '2026-10-26', credits: 0, calls: 0 });
    expect(view.usage[29]).toEqual({ day: '2026-11-23', credits: 0, calls: 0 });
    // 0.05 + 0.1 without the floating-point tail (0.15000000000000036).
    expect(view.usage.find((d) => d.day === '2026-11-20')).toEqual({ day: '2026-11-20', credits: 0.15, calls: 2 });
    expect(view.usage.filter((d) => d.calls > 0).map((d) => d.day)).toEqual(['2026-10-25', '2026-11-20']);
    expect(view.usage.find((d) => d.day === '2026-11-22')).toEqual({ day: '2026-11-22', credits: 0, calls: 0 });
  });

  it('adds up to the ledger: a chat counts every message it was charged, beside settled and running calls', async () => {
    const ws = await t.workspace(100);
    const id = ws.workspaceId;
    await callEntries(id, '2026-11-21T09:00:00.000Z', 10, { amount: 8.5, at: '2026-11-21T09:01:30.000Z' }); // 1.5 spent
    await callEntries(id, '2026-11-22T15:00:00.000Z', 10, { amount: 9.75, at: '2026-11-22T15:00:15.000Z' }); // 0.25 spent
    await callEntries(id, '2026-11-23T11:00:00.000Z', 10); // running
    // A chat of 20 answered messages at 0.02 each, as the chat service charges them: 0.40 in all.
    const chatId = newId('call', Date.parse('2026-11-22T10:00:00.000Z'));
    for (let n = 1; n <= 20; n += 1) {
      expect(await debitChatMessage(t.deps.db, id, chatId, n, 0.02, new Date(Date.parse('2026-11-22T10:00:00.000Z') + n * 10_000).toISOString())).toBe('charged');
    }
    const view = await creditsOverview(t.deps, id, NOW);
    expect(view.usage.find((d) => d.day === '2026-11-22')).toEqual({ day: '2026-11-22', credits: 0.65, calls: 2 });
    expect(view.usage.find((d) => d.day === '2026-11-21')).toEqual({ day: '2026-11-21', credits: 1.5, calls: 1 });
    expect(view.reserved).toBe(10);

    // The view's totals are the ledger's: what calls and chats took, less what settlements gave back.
    const ledger = (await listLedger(t.deps.db, id)).filter((e) => e.callId);
    const taken = -ledger.reduce((sum, e) => sum + e.amount, 0);
    const spent = view.usage.reduce((sum, d) => sum + d.credits, 0);
    expect(Math.round((spent + view.reserved) * 1e6) / 1e6).toBe(Math.round(taken * 1e6) / 1e6);
    expect(Math.round(spent * 1e6) / 1e6).toBe(2.15);
    expect(view.usage.reduce((sum, d) => sum + d.calls, 0)).toBe(3);
  });

  it('a workspace without calls: its balance, nothing reserved, thirty zero days', async () => {
    const ws = await t.workspace(7);
    const view = await creditsOverview(t.deps, ws.workspaceId, NOW);
    expect(view).toStrictEqual({ balance: 7, reserved: 0, usage: expect.any(Array) });
    expect(view.usage.every((d) => d.credits === 0 && d.calls === 0)).toBe(true);
    expect(view.usage.map((d) => d.day).slice(0, 2)).toEqual(['2026-10-25', '2026-10-26']);
  });
});
