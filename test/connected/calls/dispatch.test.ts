/**
 * Invariant: the dispatcher claims a call (initiated -> dialing) before it asks the provider, so a message
 * can never place a second call; a refusal the provider is sure of is retried by SQS until the last
 * allowed receive, which ends the call `failed` with its credits released before the message moves to the
 * dead letters; an outcome we cannot know (network error) is never retried. The Lambda handler reports
 * only retryable records in `batchItemFailures` and drops malformed ones.
 */
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/queue/dispatch.js';
import type { Deps } from '../../../lib/deps.js';
import { findCall } from '../../../lib/store/calls.js';
import { listLedger, readBalance } from '../../../lib/store/credits.js';
import { getHistoryRecord } from '../../../lib/store/history.js';
import { dispatchCall } from '../../../lib/services/dispatch.js';
import { TelephonyError, type CreateCallRequest, type TelephonyPort } from '../../../lib/vendors/telephony/port.js';
import { startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
beforeAll(async () => {
  p = await startCallsPlatform({ dispatchPoller: false });
});
afterAll(async () => p?.stop());

/** The real dependencies with a telephony port whose createCall does what the test says. */
function withPort(createCall: (request: CreateCallRequest) => Promise<{ sid: string }>): Deps & { placed: CreateCallRequest[] } {
  const placed: CreateCallRequest[] = [];
  const port = {
    ...p.deps.telephony.port,
    async createCall(_account: unknown, request: CreateCallRequest) {
      placed.push(request);
      const { sid } = await createCall(request);
      return { sid, accountSid: 'AC', to: request.to, from: request.from, status: 'queued', direction: 'outbound-api', durationSeconds: null };
    },
  } as TelephonyPort;
  return { ...p.deps, telephony: { ...p.deps.telephony, port }, placed };
}

async function newCall() {
  const s = await p.callerSetup(100);
  const res = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, phoneNumber: '+14155550401', phoneNumberId: s.numberId, workspaceId: s.workspaceId });
  expect(res.status).toBe(202);
  return { ...s, callId: res.body.call_id as string, message: { callId: res.body.call_id as string, workspaceId: s.workspaceId } };
}

const providerError = () => new TelephonyError('Twilio answered 503', { vendor: 'twilio', kind: 'provider_error', status: 503 });

describe('dispatchCall', () => {
  it('claims before dialing: concurrent and repeated deliveries place one call', async () => {
    const c = await newCall();
    const deps = withPort(async () => ({ sid: `CA${'1'.repeat(32)}` }));
    const results = await Promise.all([1, 1, 2, 3].map((n) => dispatchCall(deps, c.message, n)));
    expect(results).toEqual(['done', 'done', 'done', 'done']);
    expect(deps.placed).toHaveLength(1);
    expect(await findCall(p.deps.db, c.workspaceId, c.callId)).toMatchObject({ status: 'dialing', providerCallSid: `CA${'1'.repeat(32)}` });
  });

  it('a provider refusal is retried; the last receive ends the call telephony_failed with credits released', async () => {
    const c = await newCall();
    const deps = withPort(async () => {
      throw providerError();
    });
    expect(await dispatchCall(deps, c.message, 1)).toBe('retry');
    expect((await findCall(p.deps.db, c.workspaceId, c.callId))!.status).toBe('initiated');
    expect(await dispatchCall(deps, c.message, 2)).toBe('retry');
    expect(await dispatchCall(deps, c.message, p.deps.config.DISPATCH_MAX_RECEIVE_COUNT)).toBe('retry');
    expect(deps.placed).toHaveLength(3);
    expect(await findCall(p.deps.db, c.workspaceId, c.callId)).toMatchObject({ status: 'failed', endReason: 'telephony_failed', cost: 0 });
    expect(await readBalance(p.deps.db, c.workspaceId)).toBe(100);
    // The record says who refused: the provider, its code, its sentence, at second 0 (never connected).
    const record = await getHistoryRecord(p.deps.db, c.workspaceId, c.callId);
    expect(record).toMatchObject({ callEndReason: 'telephony_failed', callCost: 0, callError: { stage: 'telephony', vendor: 'twilio', atSecond: 0 } });
    expect(record.callError!.message.length).toBeGreaterThan(0);
    // A redrive from the dead letters later finds the call ended and does nothing.
    expect(await dispatchCall(deps, c.message, 1)).toBe('done');
    expect(deps.placed).toHaveLength(3);
  });

  it('a network error (the call may exist) is not retried: the call ends failed at once', async () => {
    const c = await newCall();
    const deps = withPort(async () => {
      throw new TelephonyError('socket hang up', { vendor: 'twilio', kind: 'network' });
    });
    expect(await dispatchCall(deps, c.message, 1)).toBe('done');
    expect((await findCall(p.deps.db, c.workspaceId, c.callId))!.status).toBe('failed');
    expect(await readBalance(p.deps.db, c.workspaceId)).toBe(100);
    const ledger = await listLedger(p.deps.db, c.workspaceId);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBe(100);
  });

  it('an invalid request (provider says no, for good) ends the call failed without a retry', async () => {
    const c = await newCall();
    const deps = withPort(async () => {
      throw new TelephonyError('invalid To', { vendor: 'twilio', kind: 'invalid', status: 400, vendorCode: 21211 });
    });
    expect(await dispatchCall(deps, c.message, 1)).toBe('done');
    expect((await findCall(p.deps.db, c.workspaceId, c.callId))!.status).toBe('failed');
  });
});

describe('the dispatch Lambda handler', () => {
  const record = (id: string, body: string, receiveCount = 1) => ({
    messageId: id,
    receiptHandle: id,
    body,
    attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:q',
    awsRegion: 'us-east-1',
  });

  it('drops malformed and unknown-call messages, places a real one, and reports no failures', async () => {
    const c = await newCall();
    const event: SQSEvent = {
      Records: [
        record('bad-json', '{not json'),
        record('bad-shape', JSON.stringify({ callId: 1 })),
        record('unknown', JSON.stringify({ callId: 'call_01J00000000000000000000000', workspaceId: c.workspaceId })),
        record('real', JSON.stringify(c.message)),
        record('dup', JSON.stringify(c.message), 2),
      ],
    };
    const out = await handler(event);
    expect(out.batchItemFailures).toEqual([]);
    const creates = p.platform.twilio!.requests.filter((r) => r.path.endsWith('/Calls.json') && r.form.Url?.includes(c.callId));
    expect(creates).toHaveLength(1);
  });
});
