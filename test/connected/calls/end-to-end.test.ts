/**
 * Invariant: an outbound call started through the API runs on npm start's own parts end to end — the
 * dispatch message, the queue consumer, the Twilio stand-in placing the call (signed callbacks, TwiML
 * from our voice webhook), the streaming service talking with the simulated callee — and leaves one
 * history record under the call id with transcript, summary, the credits actually charged (no more than
 * reserved, the rest released) and a recording that downloads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyStreamToken, STREAM_TOKEN_KEY_PURPOSE } from '../../../lib/domain/stream-token.js';
import { findCall } from '../../../lib/store/calls.js';
import { listLedger, readBalance } from '../../../lib/store/credits.js';
import { CALL_RESERVATION, eventually, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';
import { WAIT_MS } from '../../support/progress.js';

let p: CallsPlatform;
beforeAll(async () => {
  p = await startCallsPlatform();
});
afterAll(async () => p?.stop());

describe('phone-call end to end', () => {
  it('phone-call -> SQS -> dispatch -> stand-in call -> TwiML -> streaming service -> history with transcript, summary, cost and recording', async () => {
    const s = await p.callerSetup(100);
    const patched = await p.api(s.apiKey, 'PATCH', `/api/agents/${s.agentId}`, { recording_enabled: true });
    expect(patched.status).toBe(200);
    const to = '+14155550301';
    await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: 'Ada Lovelace', phoneNumber: to, workspaceId: s.workspaceId });
    p.platform.callSimulator!.setRule(to, { kind: 'answer', lines: ['Hello, this is Ada.', 'Yes, Tuesday is fine. Goodbye.'] });

    const started = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, phoneNumber: to, phoneNumberId: s.numberId, workspaceId: s.workspaceId });
    expect(started.status).toBe(202);
    const callId: string = started.body.call_id;

    const sid = await eventually(async () => (await findCall(p.deps.db, s.workspaceId, callId))?.providerCallSid, WAIT_MS, 'the call to be placed');
    const result = await p.platform.callSimulator!.finished(sid);
    expect(result.error).toBeUndefined();
    // The TwiML bridged the call to our stream with a token bound to this call and workspace; the call it
    // names holds the agent the stream runs.
    expect(result.twiml).toContain('<Connect><Stream');
    const verified = verifyStreamToken(result.streamParameters!.token!, p.deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE), Date.now() - 60_000);
    expect(verified.ok && verified.claims).toMatchObject({ callId, workspaceId: s.workspaceId, callSid: sid });
    expect(await findCall(p.deps.db, s.workspaceId, callId)).toMatchObject({ agentId: s.agentId });
    expect(result.receivedEvents).toContain('media');
    expect(result.callbacks.map((c) => c.status)).toEqual(['initiated', 'ringing', 'in-progress', 'completed']);
    expect(result.callbacks.every((c) => c.httpStatus === 204)).toBe(true);

    const record = await eventually(async () => {
      const res = await p.api(s.apiKey, 'GET', `/api/history/${callId}`);
      return res.status === 200 ? res.body : undefined;
    }, WAIT_MS, 'the history record');
    expect(record).toMatchObject({ _id: callId, agentType: 'voice', fullName: 'Ada Lovelace', mobileNumber: to, workspace_id: s.workspaceId });
    expect(record.callTranscript.length).toBeGreaterThan(0);
    // The agent's first message had its {{contactName}} filled from the contact the call was started for.
    expect(record.callTranscript).toContain('Hello Ada Lovelace');
    expect(record.callSummary.length).toBeGreaterThan(0);
    expect(record.callDuration).toBeGreaterThan(0);

    const reserved = CALL_RESERVATION;
    const call = (await findCall(p.deps.db, s.workspaceId, callId))!;
    expect(call.status).toBe('completed');
    expect(call.settledAt).toBeDefined();
    expect(record.callCost).toBe(call.cost);
    expect(record.callCost).toBeGreaterThan(0);
    expect(record.callCost).toBeLessThan(reserved);
    const balance = await readBalance(p.deps.db, s.workspaceId);
    expect(balance).toBeCloseTo(100 - record.callCost, 6);
    const ledger = await listLedger(p.deps.db, s.workspaceId);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBeCloseTo(balance, 6);

    const link = await p.api(s.apiKey, 'GET', `/api/history/${callId}/recording-url`);
    expect(link.status).toBe(200);
    const wav = Buffer.from(await (await fetch(link.body.url)).arrayBuffer());
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.length).toBeGreaterThan(8_000);
  });
});
