/**
 * Invariant: an outbound call of an agent with voicemail detection asks Twilio for asynchronous AMD
 * (`MachineDetection`, `AsyncAmd=true`, `AsyncAmdStatusCallback` on our signed /twilio/amd URL) and a
 * `TimeLimit` of the agent's limit plus the grace; the agent speaks at once. On a machine verdict the call
 * is hung up (`hang_up`) or, after the beep, the agent's voicemail message (contact variables filled) is
 * left with `<Say>` and the call hung up; either way the history record says `voicemail` with the verdict
 * and Twilio's status. A human verdict changes nothing but the record's `answeredBy`. An AMD callback
 * that is not signed by the call's account is refused and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIME_LIMIT_GRACE_SECONDS } from '../../../lib/domain/agent.js';
import type { CalleeBehaviour } from '../../../lib/local/standins/twilio/callee.js';
import { eventually, placeOutboundCall, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
/** A short box greeting (the simulator's default is six seconds of speech, played in real time). */
const SHORT_GREETING = 'Leave a message.';
beforeAll(async () => {
  p = await startCallsPlatform();
});
afterAll(async () => p?.stop());

/** Starts a call from a fresh workspace whose agent has `agentPatch`, to `to`; returns its result and record. */
const callWith = (to: string, agentPatch: Record<string, unknown>, behaviour: CalleeBehaviour) =>
  placeOutboundCall(p, to, behaviour, { agentPatch, contactName: 'Ada Lovelace' });

describe('answering machines (asynchronous AMD)', () => {
  it('waits for the beep, leaves the voicemail message with the contact filled in, and records voicemail', async () => {
    const to = '+14155550401';
    const { callId, result, record, placed } = await callWith(
      to,
      { voicemail_detection: 'detect_message_end', voicemail_action: 'leave_message', voicemail_message: 'Hi {{contactName}}, this is the clinic. Please call us back.', max_duration_seconds: 120 },
      { kind: 'machine', greeting: SHORT_GREETING },
    );
    expect(placed.form).toMatchObject({ MachineDetection: 'DetectMessageEnd', AsyncAmd: 'true', AsyncAmdStatusCallbackMethod: 'POST', TimeLimit: String(120 + TIME_LIMIT_GRACE_SECONDS) });
    expect(placed.form.AsyncAmdStatusCallback).toContain(`/twilio/amd?callId=${callId}&workspaceId=`);
    expect(result.error).toBeUndefined();
    // The call was bridged to the agent at once (no synchronous wait); the verdict came after the beep.
    expect(result.twiml).toContain('<Connect><Stream');
    expect(result.amdCallbacks).toEqual([{ answeredBy: 'machine_end_beep', httpStatus: 204 }]);
    expect(result.redirects).toHaveLength(1);
    expect(result.said).toEqual(['Hi Ada Lovelace, this is the clinic. Please call us back.']);
    expect(record).toMatchObject({ callEndReason: 'voicemail', answeredBy: 'machine_end_beep', callStatus: 'completed' });
  });

  it('hangs up on a machine when the agent says hang_up, and records voicemail', async () => {
    const to = '+14155550402';
    const { sid, result, record, placed } = await callWith(to, { voicemail_detection: 'detect', voicemail_action: 'hang_up' }, { kind: 'machine', greeting: SHORT_GREETING });
    expect(placed.form).toMatchObject({ MachineDetection: 'Enable', AsyncAmd: 'true' });
    expect(result.amdCallbacks).toEqual([{ answeredBy: 'machine_start', httpStatus: 204 }]);
    const hangUp = p.platform.twilio!.requests.find((r) => r.method === 'POST' && r.path.endsWith(`/Calls/${sid}.json`));
    expect(hangUp?.form.Status).toBe('completed');
    expect(result.said).toEqual([]);
    expect(record).toMatchObject({ callEndReason: 'voicemail', answeredBy: 'machine_start' });
  });

  it('talks on with a human, recording the verdict; without detection no AMD is asked for', async () => {
    const human = await callWith('+14155550403', { voicemail_detection: 'detect' }, { kind: 'answer', lines: ['Hello, this is Ada.', 'Thanks, goodbye.'] });
    expect(human.result.amdCallbacks).toEqual([{ answeredBy: 'human', httpStatus: 204 }]);
    expect(human.record).toMatchObject({ callEndReason: 'customer_hangup', answeredBy: 'human', callStatus: 'completed' });

    const off = await callWith('+14155550404', { recording_enabled: false }, { kind: 'answer', lines: ['Hi.'] });
    expect(off.placed.form.MachineDetection).toBeUndefined();
    expect(off.placed.form.AsyncAmd).toBeUndefined();
    expect(off.result.amdCallbacks).toEqual([]);
    expect(off.record.answeredBy).toBeUndefined();
  });

  it("refuses an AMD callback that is not signed by the call's account, and changes nothing", async () => {
    const s = await p.callerSetup(100);
    const body = new URLSearchParams({ AccountSid: `AC${'a'.repeat(32)}`, CallSid: `CA${'b'.repeat(32)}`, AnsweredBy: 'machine_start' }).toString();
    for (const signature of [undefined, 'bm90IGEgc2lnbmF0dXJl']) {
      const res = await fetch(`${p.baseUrl}/twilio/amd?callId=call_01JWRF9YVRV07ZX0MV7YH6S11D&workspaceId=${s.workspaceId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
        body,
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_signature');
    }
  });
});
