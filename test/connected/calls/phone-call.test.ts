/**
 * Invariant: starting a phone call reserves its credits and writes the call in one transaction, so the
 * balance never goes below zero however many calls start at once (exactly as many calls are admitted as
 * the balance covers, and the ledger always sums to the balance); a refused call writes nothing and
 * answers 402 with the required and available credits; each admitted call sends exactly one dispatch
 * message; a retried request with the same Idempotency-Key returns the first answer and starts nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createCallWithReservation } from '../../../lib/store/call-creation.js';
import { findCall } from '../../../lib/store/calls.js';
import { listLedger, readBalance } from '../../../lib/store/credits.js';
import { startPhoneCall } from '../../../lib/services/outbound-calls.js';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { StoreBusyError } from '../../../lib/store/dynamo.js';
import { isTransientServiceFailure } from '../../../lib/store/transient.js';
import { conflictingTransactions, failCommands, named, serviceError, slowContendedStore } from '../../support/faults.js';
import { expectRefusedUnchanged, tableSnapshot } from '../../support/invariants.js';
import { PROGRESS_BOUNDED_TEST_MS } from '../../support/progress.js';
import { CALL_RESERVATION, drainQueue, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
const perCall = CALL_RESERVATION;

beforeAll(async () => {
  // No poller: the messages stay on this file's queue to be counted.
  p = await startCallsPlatform({ dispatchPoller: false });
});
afterAll(async () => p?.stop());

const body = (s: { workspaceId: string; agentId: string; numberId: string }, extra: Record<string, unknown> = {}) => ({
  assistantId: s.agentId,
  phoneNumber: '+14155550199',
  phoneNumberId: s.numberId,
  workspaceId: s.workspaceId,
  ...extra,
});

/** Every message on the dispatch queue now, taken off it. */
const drain = () => drainQueue(p.sqs, p.queueUrl);


describe('POST /api/optimus/phone-call', () => {
  it('answers 202 {call_id, status: initiated}, reserves credits and sends one message', async () => {
    await drain();
    const s = await p.callerSetup(100);
    const res = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s, { contactName: 'Ada' }));
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(['call_id', 'status']);
    expect(res.body.status).toBe('initiated');
    expect(res.body.call_id).toMatch(/^call_[0-9A-Z]{26}$/);
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(100 - perCall);
    const call = await findCall(p.deps.db, s.workspaceId, res.body.call_id);
    expect(call).toMatchObject({ status: 'initiated', to: '+14155550199', reserved: perCall, contactName: 'Ada', agentType: 'voice' });
    const messages = await drain();
    expect(messages.map((m) => JSON.parse(m))).toEqual([{ callId: res.body.call_id, workspaceId: s.workspaceId }]);
  });

  it('serves the same handler at /api/optimus/call', async () => {
    const s = await p.callerSetup(100);
    const res = await p.api(s.apiKey, 'POST', '/api/optimus/call', body(s));
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('initiated');
    await drain();
  });

  it('402 with required and available when the balance cannot cover the reservation; nothing written', async () => {
    const s = await p.callerSetup(perCall - 0.5);
    await drain();
    const res = await expectRefusedUnchanged(p.deps.db, 402, () => p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s)));
    expect(res.body).toEqual({
      error: { code: 'insufficient_credits', message: expect.any(String), details: { required: 10, available: 9.5 } },
    });
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(perCall - 0.5);
    expect((await listLedger(p.deps.db, s.workspaceId)).map((e) => e.reason)).toEqual(['initial_grant']);
    expect(await drain()).toEqual([]);
  });

  it('of 100 concurrent calls against a balance covering 10, exactly 10 are admitted and the ledger sums to the balance', async () => {
    const s = await p.callerSetup(perCall * 10);
    await drain();
    const results = await Promise.all(
      Array.from({ length: 100 }, () => p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s))),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 202)).toHaveLength(10);
    // Every other answer, listed, so a failure says what the refused calls got instead (a 429 is a retry cut short).
    const refusals = results.filter((r) => r.status !== 202).map((r) => (r.status === 402 ? 402 : `${r.status} ${JSON.stringify(r.body)}`));
    expect(refusals).toEqual(Array(90).fill(402));
    const balance = await readBalance(p.deps.db, s.workspaceId);
    expect(balance).toBe(0);
    const ledger = await listLedger(p.deps.db, s.workspaceId);
    expect(ledger.filter((e) => e.reason === 'call_reservation')).toHaveLength(10);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBeCloseTo(balance, 6);
    const ids = new Set(results.filter((r) => r.status === 202).map((r) => r.body.call_id));
    expect(ids.size).toBe(10);
    const messages = (await drain()).map((m) => JSON.parse(m).callId);
    expect(new Set(messages)).toEqual(ids);
    expect(messages).toHaveLength(10);
    // However slow the table, each request ends by its own deadline (the route's 29 s): only that bounds it.
  }, PROGRESS_BOUNDED_TEST_MS);

  it('404 for an agent of another workspace, and for a phoneNumberId that is not the workspace\'s', async () => {
    const mine = await p.callerSetup(100);
    const theirs = await p.callerSetup(100);
    const foreignAgent = await p.api(mine.apiKey, 'POST', '/api/optimus/phone-call', body(mine, { assistantId: theirs.agentId }));
    expect(foreignAgent.status).toBe(404);
    const foreignNumber = await p.api(mine.apiKey, 'POST', '/api/optimus/phone-call', body(mine, { phoneNumberId: theirs.numberId }));
    expect(foreignNumber.status).toBe(404);
    expect(foreignNumber.body.error.code).toBe('not_found');
    expect(await readBalance(p.deps.db, mine.workspaceId)).toBe(100);
  });

  it('400 for a destination that is not E.164 and for a missing field', async () => {
    const s = await p.callerSetup(100);
    const bad = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s, { phoneNumber: '4155550199' }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('phoneNumber');
    const missing = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, workspaceId: s.workspaceId });
    expect(missing.status).toBe(400);
  });

  it('409 do_not_call for a number on the workspace\'s do-not-call list: no credits, no dispatch message, a do_not_call record in history', async () => {
    const s = await p.callerSetup(100);
    await drain();
    const listed = await p.api(s.apiKey, 'POST', '/api/do-not-call', { phoneNumber: '+14155550199', reason: 'asked not to be called' });
    expect(listed.status).toBe(201);
    const res = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s, { contactName: 'Ada' }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: {
        code: 'do_not_call',
        message: expect.stringContaining("do-not-call list"),
        details: [{ field: 'phoneNumber', phoneNumber: '+14155550199', callId: expect.stringMatching(/^call_[0-9A-Z]{26}$/), message: expect.stringContaining("+14155550199 is on the workspace's do-not-call list") }],
      },
    });
    const callId = res.body.error.details[0].callId;
    // Nothing reserved or charged, no live call, nothing for the dispatcher.
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(100);
    expect((await listLedger(p.deps.db, s.workspaceId)).map((e) => e.reason)).toEqual(['initial_grant']);
    expect(await findCall(p.deps.db, s.workspaceId, callId)).toBeUndefined();
    expect(await drain()).toEqual([]);
    // The refusal is in the call log, as a call that was never placed.
    const history = await p.api(s.apiKey, 'GET', '/api/history');
    expect(history.body.data).toEqual([
      expect.objectContaining({ _id: callId, agentType: 'voice', fullName: 'Ada', mobileNumber: '+14155550199', callEndReason: 'do_not_call', callDuration: 0, callCost: 0 }),
    ]);
    const record = await p.api(s.apiKey, 'GET', `/api/history/${callId}`);
    expect(record.body.callSummary).toMatch(/not placed.*do-not-call list/i);
    // The alias refuses alike.
    expect((await p.api(s.apiKey, 'POST', '/api/optimus/call', body(s))).status).toBe(409);
    expect(await drain()).toEqual([]);
  });

  it('consentedCall: true places a call to a listed number (the caller vouches for consent); false is refused', async () => {
    const s = await p.callerSetup(100);
    await drain();
    expect((await p.api(s.apiKey, 'POST', '/api/do-not-call', { phoneNumber: '+14155550199' })).status).toBe(201);
    const refused = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s, { consentedCall: false }));
    expect(refused.status).toBe(409);
    const res = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s, { consentedCall: true }));
    expect(res.status).toBe(202);
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(100 - perCall);
    expect((await drain()).map((m) => JSON.parse(m))).toEqual([{ callId: res.body.call_id, workspaceId: s.workspaceId }]);
    const bad = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s, { consentedCall: 'yes' }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('consentedCall');
    await drain();
  });

  it('looks the contact up by the destination number and names the call after it', async () => {
    const s = await p.callerSetup(100);
    const contact = await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: 'Grace Hopper', phoneNumber: '+14155550177', workspaceId: s.workspaceId, externalFields: { plan: 'gold' } });
    expect(contact.status).toBe(201);
    const res = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s, { phoneNumber: '+14155550177' }));
    const call = await findCall(p.deps.db, s.workspaceId, res.body.call_id);
    expect(call).toMatchObject({ contactId: contact.body._id, contactName: 'Grace Hopper' });
    await drain();
  });

  it('with an Idempotency-Key, a retry returns the first answer and starts no second call', async () => {
    const s = await p.callerSetup(100);
    await drain();
    const headers = { 'idempotency-key': `retry-${Date.now()}` };
    const [a, b] = await Promise.all([
      p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s), headers),
      p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s), headers),
    ]);
    const c = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s), headers);
    expect([a.status, b.status, c.status]).toEqual([202, 202, 202]);
    expect(b.body).toEqual(a.body);
    expect(c.body).toEqual(a.body);
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(100 - perCall);
    expect(await drain()).toHaveLength(1);
    const reused = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s, { phoneNumber: '+14155550188' }), headers);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    // Keys are per workspace: another workspace's same key is a new request.
    const other = await p.callerSetup(100);
    const fresh = await p.api(other.apiKey, 'POST', '/api/optimus/phone-call', body(other), headers);
    expect(fresh.status).toBe(202);
    expect(fresh.body.call_id).not.toBe(a.body.call_id);
    await drain();
  });

  it('a transaction that nobody gets through for the whole stall budget is StoreBusyError (503 at the API), and writes nothing', async () => {
    const s = await p.callerSetup(100);
    const error = await startPhoneCall(conflictingTransactions(p.deps), s.workspaceId, body(s)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreBusyError);
    expect(isTransientServiceFailure(error)).toBe(true);
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(100);
  });

  it('a throttled table is 503 service_unavailable with Retry-After, never 500, and writes nothing', async () => {
    const s = await p.callerSetup(100);
    await drain();
    const before = await tableSnapshot(p.deps.db);
    const fault = failCommands(DynamoDBDocumentClient, named('TransactWriteCommand'), serviceError('ProvisionedThroughputExceededException', 400));
    try {
      const res = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(res.body).toEqual({ error: { code: 'service_unavailable', message: expect.stringMatching(/nothing was changed/), details: [] } });
    } finally {
      fault.restore();
    }
    expect(await tableSnapshot(p.deps.db)).toEqual(before);
    expect(await drain()).toEqual([]);
  });

  it('of 100 concurrent calls for a balance covering 10 on a slow table where half the transactions conflict, exactly 10 are admitted and 90 told 402', async () => {
    const s = await p.callerSetup(perCall * 10);
    await drain();
    // Only this workspace's requests are slowed and contended: the rest of the file (and the key checks) run as usual.
    const store = slowContendedStore(DynamoDBDocumentClient, {
      matches: (c) => (c instanceof TransactWriteCommand || c instanceof GetCommand) && JSON.stringify(c.input).includes(`WS#${s.workspaceId}`),
      delayMs: 40,
      conflictRate: 0.5,
    });
    let results: { status: number; body: any }[];
    try {
      results = await Promise.all(Array.from({ length: 100 }, () => p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s))));
    } finally {
      store.restore();
    }
    expect(store.counts.conflicted).toBeGreaterThan(0);
    const refusals = results.filter((r) => r.status !== 202).map((r) => (r.status === 402 ? 402 : `${r.status} ${JSON.stringify(r.body)}`));
    expect(refusals).toEqual(Array(90).fill(402));
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(0);
    const ledger = await listLedger(p.deps.db, s.workspaceId);
    expect(ledger.filter((e) => e.reason === 'call_reservation')).toHaveLength(10);
    expect(new Set((await drain()).map((m) => JSON.parse(m).callId))).toEqual(new Set(results.filter((r) => r.status === 202).map((r) => r.body.call_id)));
  }, PROGRESS_BOUNDED_TEST_MS);

  it('a request that keeps colliding after the balance was spent is 402, not 429: the loser of a burst learns it is out of credits', async () => {
    const s = await p.callerSetup(perCall - 0.5);
    const error = await startPhoneCall(conflictingTransactions(p.deps), s.workspaceId, body(s)).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 402, code: 'insufficient_credits', details: { required: perCall, available: perCall - 0.5 } });
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(perCall - 0.5);
  });

  it('a retry that collides with its own first request gets the first answer, even once that request spent the balance', async () => {
    const s = await p.callerSetup(perCall);
    await drain();
    const headers = { 'idempotency-key': `race-${Date.now()}` };
    const first = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body(s), headers);
    expect(first.status).toBe(202);
    // The retry passed the early look for a stored answer before the first request stored it; its own
    // transaction then collides: the stored answer wins over the spent balance.
    const call = (await findCall(p.deps.db, s.workspaceId, first.body.call_id))!;
    const retry = { ...call, _id: 'call_01J00000000000000000000099' };
    const idempotency = { keyHash: sha256(headers['idempotency-key']), requestHash: 'x', answer: {}, expiresAt: Math.floor(Date.now() / 1000) + 60 };
    const outcome = await createCallWithReservation(conflictingTransactions(p.deps).db, retry, idempotency);
    expect(outcome).toMatchObject({ kind: 'duplicate', record: { answer: first.body } });
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(0);
    expect(await drain()).toHaveLength(1);
  });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
