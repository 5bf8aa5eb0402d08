/**
 * Invariant: a call whose stream was claimed is always settled, even when the streaming service's container
 * dies mid-call. While a stream runs it beats (the live call's `streamSeenAt`); the sweep settles a stream
 * unseen for longer than the grace with the duration we measured (claim → last heartbeat, rounded up),
 * marks it completed with end reason `error` and writes its honest history record (no transcript). It never
 * settles a stream whose heartbeat is newer than the grace, and it never double-settles with the stream's
 * own end, whichever comes first (first writer wins). A stream swept while actually alive ends itself. The
 * sweep finds its candidates through the sparse live-stream index, which holds only unsettled streams.
 * Clocks are injected: no test waits out the grace on the wall clock. A streaming service that dies or closes
 * mid-call is ./abandoned-streams-service.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costFor, STREAM_ABANDONED_AFTER_MS } from '../../../lib/domain/call.js';
import { ABANDONED_STREAM_SUMMARY, settleAbandonedStreams } from '../../../lib/services/abandoned-streams.js';
import { claimCallStream, heartbeatCallStream } from '../../../lib/services/call-streams.js';
import { endConnectedCall } from '../../../lib/services/connected-call-end.js';
import { settleCall } from '../../../lib/services/credits.js';
import { findStaleStreams } from '../../../lib/store/call-indexes.js';
import { readBalance } from '../../../lib/store/credits.js';
import { startCallsPlatform, type CallsPlatform } from '../../support/calls.js';
import { loseAnswers } from '../../support/faults.js';
import { CREDITS, streamRig } from './abandoned-streams-support.js';

const GRACE = STREAM_ABANDONED_AFTER_MS;
let p: CallsPlatform;

// The platform's own sweep timer is off: every sweep here runs on a clock the test chooses.
beforeAll(async () => {
  p = await startCallsPlatform({ streamSweep: false });
});
afterAll(async () => p?.stop());

const { pricing, iso, call, answeredCall, historyOf, ledgerOf, streamEnd } = streamRig(() => p);

describe('the sweep, driven through the store with an injected clock', () => {
  it('settles a stream that stopped beating at claim → last heartbeat, completed/error, with an honest record', async () => {
    const c = await answeredCall();
    const t0 = Date.now() - 10 * 60_000;
    const streamSid = `MZ${randomBytes(16).toString('hex')}`;
    expect(await claimCallStream(p.deps, c.claims, streamSid, t0)).toBeDefined();
    // Two beats, the second 61.2 s after the claim; then the container dies.
    expect(await heartbeatCallStream(p.deps, c.claims, streamSid, t0 + 30_000)).toBe(true);
    expect(await heartbeatCallStream(p.deps, c.claims, streamSid, t0 + 61_200)).toBe(true);
    const lastSeen = t0 + 61_200;

    // Exactly the grace after the last beat: still live.
    const early = await settleAbandonedStreams(p.deps, { nowMs: lastSeen + GRACE });
    expect(early.settled.map((x) => x.callId)).not.toContain(c.callId);
    expect((await call(c)).settledAt).toBeUndefined();
    expect(await historyOf(c.apiKey, c.callId)).toBeUndefined();

    const swept = await settleAbandonedStreams(p.deps, { nowMs: lastSeen + GRACE + 1 });
    const billed = 62; // ceil(61.2)
    const cost = costFor(pricing(), billed);
    expect(swept.settled).toContainEqual({ callId: c.callId, workspaceId: c.workspaceId, billedSeconds: billed, cost });
    expect(await call(c)).toMatchObject({ status: 'completed', endReason: 'error', billedSeconds: billed, cost });
    expect(await historyOf(c.apiKey, c.callId)).toMatchObject({
      _id: c.callId,
      agentType: 'voice',
      callEndReason: 'error',
      callDuration: billed,
      callCost: cost,
      callTranscript: '',
      callSummary: ABANDONED_STREAM_SUMMARY,
      mobileNumber: '+14155550190',
    });
    expect(await readBalance(p.deps.db, c.workspaceId)).toBeCloseTo(CREDITS - cost, 6);
    expect((await ledgerOf(c.workspaceId, c.callId)).map((e) => e.reason)).toEqual(['call_reservation', 'call_settlement']);

    // Settled calls leave the live-stream index; a later sweep finds nothing of it, and its heartbeat is refused.
    expect((await findStaleStreams(p.deps.db, iso(Date.now() + 3_600_000), 1_000)).map((x) => x._id)).not.toContain(c.callId);
    expect((await settleAbandonedStreams(p.deps, { nowMs: Date.now() + 3_600_000 })).settled.map((x) => x.callId)).not.toContain(c.callId);
    expect(await heartbeatCallStream(p.deps, c.claims, streamSid, Date.now())).toBe(false);

    // The stream's own end arriving after the sweep (a container that was only cut off) changes nothing.
    await endConnectedCall(p.deps, streamEnd(c, 300));
    expect(await readBalance(p.deps.db, c.workspaceId)).toBeCloseTo(CREDITS - cost, 6);
    expect(await historyOf(c.apiKey, c.callId)).toMatchObject({ callEndReason: 'error', callDuration: billed, callCost: cost });
    expect((await ledgerOf(c.workspaceId, c.callId)).map((e) => e.reason)).toEqual(['call_reservation', 'call_settlement']);
  });

  it('never touches a live stream (a heartbeat within the grace); its own end settles it once, and a later sweep does nothing', async () => {
    const c = await answeredCall();
    const now = Date.now();
    const streamSid = `MZ${randomBytes(16).toString('hex')}`;
    expect(await claimCallStream(p.deps, c.claims, streamSid, now - 5 * 60_000)).toBeDefined();
    expect(await heartbeatCallStream(p.deps, c.claims, streamSid, now - 10_000)).toBe(true);

    const result = await settleAbandonedStreams(p.deps, { nowMs: now });
    expect(result.settled.map((x) => x.callId)).not.toContain(c.callId);
    const during = await call(c);
    expect(during.settledAt).toBeUndefined();
    expect(during.status).toBe('in-progress');
    expect(await readBalance(p.deps.db, c.workspaceId)).toBeCloseTo(CREDITS - during.reserved, 6);

    // The stream ends normally, first: settled with what it measured.
    const written = await endConnectedCall(p.deps, streamEnd(c, 300));
    const cost = costFor(pricing(), 300);
    expect(written).toMatchObject({ callDuration: 300, callCost: cost, callEndReason: 'customer_hangup' });
    // A sweep long after (on any clock) neither finds nor settles it again.
    expect((await findStaleStreams(p.deps.db, iso(now + 3_600_000), 1_000)).map((x) => x._id)).not.toContain(c.callId);
    expect((await settleAbandonedStreams(p.deps, { nowMs: now + 3_600_000 })).settled.map((x) => x.callId)).not.toContain(c.callId);
    expect(await readBalance(p.deps.db, c.workspaceId)).toBeCloseTo(CREDITS - cost, 6);
    expect(await historyOf(c.apiKey, c.callId)).toMatchObject({ callEndReason: 'customer_hangup', callDuration: 300, callCost: cost });
    expect((await ledgerOf(c.workspaceId, c.callId)).map((e) => e.reason)).toEqual(['call_reservation', 'call_settlement']);
  });

  it('a heartbeat landing between the sweep\'s read and its write wins: the settlement is refused', async () => {
    const c = await answeredCall();
    const t0 = Date.now() - 10 * 60_000;
    const streamSid = `MZ${randomBytes(16).toString('hex')}`;
    await claimCallStream(p.deps, c.claims, streamSid, t0);
    await heartbeatCallStream(p.deps, c.claims, streamSid, t0 + 30_000);
    const stale = await findStaleStreams(p.deps.db, iso(Date.now() - GRACE), 1_000);
    const seen = stale.find((x) => x._id === c.callId)?.streamSeenAt;
    expect(seen).toBe(iso(t0 + 30_000));
    // The stream was alive after all: it beats now, after the sweep read it.
    expect(await heartbeatCallStream(p.deps, c.claims, streamSid)).toBe(true);
    const out = await settleCall(p.deps, { workspaceId: c.workspaceId, callId: c.callId, durationSeconds: 30, endReason: 'error', ifStreamSeenAt: seen! });
    expect(out.kind).toBe('streaming');
    expect((await call(c)).settledAt).toBeUndefined();
    // Leave nothing live behind for the other tests' sweeps.
    await endConnectedCall(p.deps, streamEnd(c, 1));
  });

  it('concurrent sweeps settle a dead stream once', async () => {
    const c = await answeredCall();
    const t0 = Date.now() - 10 * 60_000;
    const streamSid = `MZ${randomBytes(16).toString('hex')}`;
    await claimCallStream(p.deps, c.claims, streamSid, t0);
    await heartbeatCallStream(p.deps, c.claims, streamSid, t0 + 45_000);
    const runs = await Promise.all(Array.from({ length: 5 }, () => settleAbandonedStreams(p.deps)));
    expect(runs.flatMap((r) => r.settled).filter((x) => x.callId === c.callId)).toHaveLength(1);
    const cost = costFor(pricing(), 45);
    expect(await readBalance(p.deps.db, c.workspaceId)).toBeCloseTo(CREDITS - cost, 6);
    expect((await ledgerOf(c.workspaceId, c.callId)).map((e) => e.reason)).toEqual(['call_reservation', 'call_settlement']);
    expect(await historyOf(c.apiKey, c.callId)).toMatchObject({ callDuration: 45, callCost: cost, callEndReason: 'error' });
  });
});

describe('the scheduled handler', () => {
  it('the module the EventBridge rule and npm start run settles a dead stream on the real clock', async () => {
    const { handler } = await import('../../../functions/schedule/abandoned-streams.js');
    const c = await answeredCall();
    const t0 = Date.now() - 10 * 60_000;
    const streamSid = `MZ${randomBytes(16).toString('hex')}`;
    await claimCallStream(p.deps, c.claims, streamSid, t0);
    await heartbeatCallStream(p.deps, c.claims, streamSid, t0 + 20_500);
    const result = await handler();
    const cost = costFor(pricing(), 21);
    expect(result.settled).toContainEqual({ callId: c.callId, workspaceId: c.workspaceId, billedSeconds: 21, cost });
    expect(await historyOf(c.apiKey, c.callId)).toMatchObject({ callEndReason: 'error', callDuration: 21, callCost: cost });
  });
});

describe('a stream claim resent by the SDK', () => {
  it('is still the stream that made it when its answer was lost after the write, and admits no other', async () => {
    const c = await answeredCall();
    const streamSid = `MZ${randomBytes(16).toString('hex')}`;
    const wire = (v: any) => v?.S ?? v;
    // The claim (the update naming the provider call as `:sid`) is carried out and its answer lost, once.
    const fault = loseAnswers(
      p.deps.db,
      (command, input) => command === 'UpdateItemCommand' && wire(input.Key?.pk) === `WS#${c.workspaceId}` && input.ExpressionAttributeValues?.[':sid'] !== undefined,
    );
    try {
      // Refused, the stream would hang up on a call it holds, and the call would wait for the sweep.
      expect(await claimCallStream(p.deps, c.claims, streamSid)).toMatchObject({ _id: c.callId, streamSid });
      expect(fault.lost).toEqual(['UpdateItemCommand']);
    } finally {
      fault.restore();
    }
    expect(await claimCallStream(p.deps, c.claims, `MZ${randomBytes(16).toString('hex')}`)).toBeUndefined();
    await endConnectedCall(p.deps, streamEnd(c, 1));
    expect(await call(c)).toMatchObject({ streamSid, billedSeconds: 1 });
  });
});
