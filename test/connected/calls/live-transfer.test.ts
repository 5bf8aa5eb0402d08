/**
 * Invariant: `POST /api/calls/{id}/transfer` with `mode: "warm"` on a live phone call placed through the
 * Twilio stand-in does what the warm transfer tool does: the target is rung and hears the summary given,
 * and when they press 1 the caller is bridged to them; the call ends `transferred` and its record shows the
 * transfer accepted. A second transfer while the first runs is a 409.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCall } from '../../../lib/store/calls.js';
import { eventually, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
beforeAll(async () => {
  p = await startCallsPlatform();
});
afterAll(async () => p?.stop());

const TARGET = '+14155550470';

describe('a warm transfer through the API', () => {
  it('rings the target with the summary and, when they press 1, bridges the caller: transferred, accepted', async () => {
    const s = await p.callerSetup(100);
    const to = '+14155550471';
    p.platform.callSimulator!.setRule(TARGET, { kind: 'transfer-target', press: '1', ringMs: 1_000 });
    // A menu that waits for keys nobody presses: the caller stays on the line until the transfer moves them.
    p.platform.callSimulator!.setRule(to, { kind: 'ivr', prompt: 'Please hold.', menu: {} });
    const started = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, phoneNumber: to, phoneNumberId: s.numberId });
    expect(started.status).toBe(202);
    const callId: string = started.body.call_id;
    await eventually(async () => (await findCall(p.deps.db, s.workspaceId, callId))?.streamSid, 90_000, 'the call connected');
    const summary = 'Ada wants to move her appointment.';
    const moved = await p.api(s.apiKey, 'POST', `/api/calls/${callId}/transfer`, { to: TARGET, mode: 'warm', summary });
    expect(moved).toMatchObject({ status: 202, body: { id: callId, status: 'transferring' } });
    const again = await p.api(s.apiKey, 'POST', `/api/calls/${callId}/transfer`, { to: TARGET, mode: 'warm' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('transfer_in_progress');

    const record = await eventually(async () => {
      const res = await p.api(s.apiKey, 'GET', `/api/history/${callId}`);
      return res.status === 200 ? res.body : undefined;
    }, 90_000, 'the history record');
    expect(record).toMatchObject({ callEndReason: 'transferred', transfer: { destination: TARGET, mode: 'warm', outcome: 'accepted' } });
    const legs = await Promise.all([...p.platform.callSimulator!.calls.values()]);
    const target = legs.find((r) => p.platform.twilio!.call(r.callSid)?.to === TARGET)!;
    expect(target.said[0]).toBe(summary);
    expect(target.dialed).toBe(`conference:transfer-${callId}`);
  });
});
