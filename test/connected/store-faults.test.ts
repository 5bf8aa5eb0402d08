/**
 * Invariant: when DynamoDB, S3 or SQS fails under a request (the failure injected at the SDK client, as the
 * SDK would throw it), the answer is the clean error body of DESIGN.md and names nothing of the failure: a
 * store that is busy, throttling or failing on its side is a 503 `service_unavailable` with Retry-After,
 * never a 500; a failure that is ours (a request the store calls invalid) is a 500 with its request id; and
 * no half-made record stays behind: a write that failed is not there, and a
 * call whose dispatch message could not be sent is ended as failed with its credits given back and its
 * Idempotency-Key free for the retry.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/domain/ids.js';
import { putNewHistoryRecord } from '../../lib/store/history.js';
import { listLedger, readBalance } from '../../lib/store/credits.js';
import { findCall } from '../../lib/store/calls.js';
import { recordingKey } from '../../lib/store/recordings.js';
import { drainQueue, startCallsPlatform, type CallsPlatform } from '../support/calls.js';
import { failCommands, named, serviceError } from '../support/faults.js';
import { tableSnapshot } from '../support/invariants.js';

let p: CallsPlatform;
let restore: (() => void) | undefined;
beforeAll(async () => {
  p = await startCallsPlatform({ dispatchPoller: false });
});
afterEach(() => {
  restore?.();
  restore = undefined;
});
afterAll(async () => p?.stop());

/** Starts failing the matched commands of `Client` until the test ends. */
function inject(...args: Parameters<typeof failCommands>) {
  const fault = failCommands(...args);
  restore = fault.restore;
  return fault;
}

/** The 500 of DESIGN.md: the generic message and the request id, nothing of what failed. */
function expectCleanServerError(res: { status: number; body: any; headers: Headers }) {
  expect(res.status).toBe(500);
  expect(res.body).toEqual({
    error: { code: 'internal_error', message: expect.stringMatching(/^Something went wrong on our side/), details: [{ requestId: res.headers.get('x-request-id') }] },
  });
  expect(JSON.stringify(res.body)).not.toMatch(/injected|Dynamo|S3|SQS|Exception/i);
}

/** A busy or failing store: 503 with when to retry, nothing of what failed. */
function expectUnavailable(res: { status: number; body: any; headers: Headers }) {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  expect(res.body).toEqual({ error: { code: 'service_unavailable', message: expect.stringMatching(/Retry after \d+ seconds/), details: [] } });
  expect(JSON.stringify(res.body)).not.toMatch(/injected|Dynamo|S3|SQS|Exception/i);
}

const agentBody = (workspaceId: string) => ({ name: 'A', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram', workspaceId });

/** Every message on the dispatch queue now, taken off it. */
const drain = () => drainQueue(p.sqs, p.queueUrl);

describe('DynamoDB fails', () => {
  it('a create whose transaction fails on the store\'s side is a clean 503 and stores nothing', async () => {
    const ws = await p.workspace();
    const before = await tableSnapshot(p.deps.db);
    const fault = inject(DynamoDBDocumentClient, named('TransactWriteCommand'), serviceError('InternalServerError'));
    expectUnavailable(await p.api(ws.apiKey, 'POST', '/api/agents', agentBody(ws.workspaceId)));
    expectUnavailable(await p.api(ws.apiKey, 'POST', '/api/contacts', { contactName: 'C', phoneNumber: '+14155552671', workspaceId: ws.workspaceId }));
    expect(fault.failed).toEqual(['TransactWriteCommand', 'TransactWriteCommand']);
    fault.restore();
    expect(await tableSnapshot(p.deps.db)).toEqual(before);
    // The same requests succeed once DynamoDB is back: nothing half-made stands in their way.
    expect((await p.api(ws.apiKey, 'POST', '/api/agents', agentBody(ws.workspaceId))).status).toBe(201);
    expect((await p.api(ws.apiKey, 'POST', '/api/contacts', { contactName: 'C', phoneNumber: '+14155552671', workspaceId: ws.workspaceId })).status).toBe(201);
  });

  it('a read that is throttled or times out is a clean 503, not an empty page', async () => {
    const ws = await p.workspace();
    await p.api(ws.apiKey, 'POST', '/api/agents', agentBody(ws.workspaceId));
    const throttled = inject(DynamoDBDocumentClient, named('QueryCommand'), serviceError('ProvisionedThroughputExceededException', 400));
    expectUnavailable(await p.api(ws.apiKey, 'GET', '/api/agents'));
    throttled.restore();
    inject(DynamoDBDocumentClient, named('QueryCommand'), Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    expectUnavailable(await p.api(ws.apiKey, 'GET', '/api/agents'));
  });

  it('a request the store calls invalid is our bug: a clean 500 that changes nothing', async () => {
    const ws = await p.workspace();
    const before = await tableSnapshot(p.deps.db);
    inject(DynamoDBDocumentClient, named('TransactWriteCommand'), serviceError('ValidationException', 400));
    expectCleanServerError(await p.api(ws.apiKey, 'POST', '/api/agents', agentBody(ws.workspaceId)));
    expect(await tableSnapshot(p.deps.db)).toEqual(before);
  });

  it('a call whose reservation cannot be written is a clean 503: no call, no debit, no message', async () => {
    const s = await p.callerSetup(100);
    await drain();
    const before = await tableSnapshot(p.deps.db);
    inject(DynamoDBDocumentClient, named('TransactWriteCommand'), serviceError('InternalServerError'));
    const res = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, phoneNumber: '+14155550199', phoneNumberId: s.numberId, workspaceId: s.workspaceId });
    expectUnavailable(res);
    restore?.();
    expect(await tableSnapshot(p.deps.db)).toEqual(before);
    expect(await drain()).toEqual([]);
  });
});

describe('SQS fails', () => {
  it('a call whose dispatch message cannot be sent ends as failed, gives its credits back and frees its Idempotency-Key', async () => {
    const s = await p.callerSetup(100);
    await drain();
    const body = { assistantId: s.agentId, phoneNumber: '+14155550199', phoneNumberId: s.numberId, workspaceId: s.workspaceId };
    const key = { 'idempotency-key': 'order-7-call' };
    const fault = inject(SQSClient, named('SendMessageCommand'), serviceError('ServiceUnavailable', 503));
    expectUnavailable(await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body, key));
    expect(fault.failed).toEqual(['SendMessageCommand']);
    fault.restore();

    // The call that was written is ended, and its reservation is back in full.
    const ledger = await listLedger(p.deps.db, s.workspaceId);
    const callIds = [...new Set(ledger.filter((e) => e.callId).map((e) => e.callId!))];
    expect(callIds).toHaveLength(1);
    expect(await findCall(p.deps.db, s.workspaceId, callIds[0]!)).toMatchObject({ status: 'failed' });
    expect(ledger.filter((e) => e.callId).map((e) => [e.reason, e.amount])).toEqual([['call_reservation', -10], ['call_settlement', 10]]);
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(100);
    expect(await drain()).toEqual([]);

    // The retry with the same key starts a fresh call, dispatched once.
    const retry = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', body, key);
    expect(retry.status).toBe(202);
    expect(retry.body.call_id).not.toBe(callIds[0]);
    expect((await drain()).map((m) => JSON.parse(m).callId)).toEqual([retry.body.call_id]);
    expect(await readBalance(p.deps.db, s.workspaceId)).toBe(90);
  });
});

describe('S3 fails', () => {
  it('a recording that cannot be checked is a clean 503, not a 404 that says it is gone', async () => {
    const ws = await p.workspace();
    const id = newId('call');
    const address = await p.deps.recordings.put(recordingKey(ws.workspaceId, id), Buffer.from('RIFF fake'), 'audio/wav');
    await putNewHistoryRecord(p.deps.db, {
      _id: id, agentType: 'voice', fullName: 'R', mobileNumber: '+14155550100', callDuration: 3, callEndReason: 'customer_hangup',
      callTranscript: '', callSummary: '', callCost: 0.05, callRecordingUrl: address, workspace_id: ws.workspaceId, createdAt: new Date().toISOString(),
    });
    const before = await tableSnapshot(p.deps.db);
    inject(S3Client, named('HeadObjectCommand'), serviceError('ServiceUnavailable', 503));
    expectUnavailable(await p.api(ws.apiKey, 'GET', `/api/history/${id}/recording-url`));
    restore?.();
    expect(await tableSnapshot(p.deps.db)).toEqual(before);
    expect((await p.api(ws.apiKey, 'GET', `/api/history/${id}/recording-url`)).status).toBe(200);
  });
});
