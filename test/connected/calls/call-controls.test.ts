/**
 * Invariant, over the Twilio stand-in placing real calls: `send_dtmf` plays keypad tones that an IVR
 * recognises (Goertzel) and answers; a warm transfer rings the target with the model's summary and, when
 * the target presses 1, bridges the caller into a conference with them (the call is `transferred`, the
 * record shows the transfer accepted); when the target declines or does not answer, the caller stays with
 * the agent, who is told why, and the record shows that outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptReply, ScriptRequest } from '../../../lib/local/standins/llm-script.js';
import type { CalleeBehaviour } from '../../../lib/local/standins/twilio/callee.js';
import { twilioSignature } from '../../../lib/vendors/telephony/twilio-webhook.js';
import { placeOutboundCall, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
beforeAll(async () => {
  p = await startCallsPlatform();
});
afterAll(async () => p?.stop());

const TARGET = '+14155550460';

/** Calls `to` from a fresh workspace whose agent has `agentPatch` (and the tools given); waits for the record. */
const placeCall = (to: string, behaviour: CalleeBehaviour, agentPatch: Record<string, unknown> = {}, tools: unknown[] = []) =>
  placeOutboundCall(p, to, behaviour, { agentPatch, tools });

describe('send_dtmf', () => {
  it('plays tones an IVR recognises, and the IVR answers the menu entry', async () => {
    p.platform.voice.stt.control.deepgram!.setScript({ transcripts: () => 'For sales press 1, for appointments press 2.', finalDelayMs: 50 });
    p.platform.voice.llm.control.set({
      reply: (req) => {
        const { system, toolResults } = req.messages;
        if (/summar/i.test(system)) return { text: 'Summary: reached the appointments line.' };
        if (toolResults.length > 0) return { text: 'Goodbye.', toolCalls: [{ name: 'end_call', arguments: {} }] };
        return { text: 'Appointments, please.', toolCalls: [{ name: 'send_dtmf', arguments: { digits: '2' } }] };
      },
    });
    const { result, record } = await placeCall('+14155550450', { kind: 'ivr', prompt: 'For sales press 1, for appointments press 2.', menu: { '1': 'Sales.', '2': 'Appointments desk, how can I help?' } });
    expect(result.error).toBeUndefined();
    expect(result.detectedDigits).toBe('2');
    // The tones are audio, not words: the transcript keeps only what was said.
    expect(record.callTranscript).toContain('agent: Appointments, please.');
    expect(record.callTranscript).not.toMatch(/agent:\s*$/m);
  });
});

describe('warm transfer', () => {
  const frontDesk = { name: 'Front desk', type: 'transfer', description: 'Transfer the caller to the front desk', config: { url: `tel:${TARGET}` } };

  /** What the model answered, in order (what the agent began to say: the caller may talk over it). */
  let replies: string[] = [];
  const scriptTransfer = () => {
    replies = [];
    p.platform.voice.stt.control.deepgram!.setScript({ transcripts: () => 'I need to talk to someone about my bill.', finalDelayMs: 50 });
    p.platform.voice.llm.control.set({
      reply: (req) => {
        const answer = reply(req);
        if (answer.text) replies.push(answer.text);
        return answer;
      },
    });
  };
  const reply = (req: ScriptRequest): ScriptReply => {
    const { system, toolResults, turns } = req.messages;
    if (/summar/i.test(system)) return { text: 'Summary: billing question.' };
    // Like a real model: a failed transfer's result is passed on once, on the next reply (the caller
    // may have spoken meanwhile), then the conversation goes on.
    const failed = toolResults.map((r) => JSON.parse(r.content) as { error?: string }).find((r) => r.error);
    const told = turns.some((t) => t.role === 'assistant' && t.text.startsWith('Sorry'));
    if (failed && !told) return { text: `Sorry, ${failed.error}.` };
    if (toolResults.length > 0) return { text: 'Anything else?' };
    return { text: 'Let me get the front desk.', toolCalls: [{ name: 'front_desk', arguments: { summary: 'Ada has a question about her bill.' } }] };
  };

  it('rings the target with the summary and, when they press 1, bridges the caller: transferred, accepted', async () => {
    scriptTransfer();
    p.platform.callSimulator!.setRule(TARGET, { kind: 'transfer-target', press: '1' });
    const { callId, result, record } = await placeCall('+14155550451', { kind: 'answer', lines: ['Hello?', 'Still there?'] }, { transfer_mode: 'warm' }, [frontDesk]);
    const room = `conference:transfer-${callId}`;
    expect(result.dialed).toBe(room);
    const leg = [...p.platform.callSimulator!.calls.values()];
    const target = (await Promise.all(leg)).find((r) => r.dialed === room && r.callSid !== result.callSid)!;
    expect(target.said).toEqual(['Ada has a question about her bill.', 'Press 1 to take the call, or 2 to decline.']);
    expect(record).toMatchObject({ callEndReason: 'transferred', transfer: { destination: TARGET, mode: 'warm', outcome: 'accepted' } });
  });

  it('tells the caller and carries on when the target declines, and when nobody answers', async () => {
    for (const [behaviour, outcome] of [
      [{ kind: 'transfer-target', press: '2' }, 'declined'],
      [{ kind: 'no-answer' }, 'no-answer'],
    ] as const) {
      scriptTransfer();
      p.platform.callSimulator!.setRule(TARGET, behaviour);
      const to = outcome === 'declined' ? '+14155550452' : '+14155550453';
      // The caller waits on hold through the ringing for what the agent says next, then answers it: a line
      // spoken into the ringing would race the failed transfer's reply (it interrupted it on a busy machine).
      const { result, record } = await placeCall(to, { kind: 'answer', lines: ['Hello?', { listen: true }, 'Okay, thanks. Bye.'] }, { transfer_mode: 'warm' }, [frontDesk]);
      expect(result.dialed).toBeUndefined();
      expect(record.callEndReason).toBe('customer_hangup');
      expect(record.transfer).toEqual({ destination: TARGET, mode: 'warm', outcome });
      // The agent told the caller why, from the tool result. The caller may talk over the end of it (its
      // lines follow the agent's pauses, and the transfer's ringing is one), so the record may hold only
      // the start of that line; and when the caller stayed quiet through the ringing it follows "Let me get
      // the front desk." on the same agent line (the record joins a speaker's consecutive lines).
      expect(replies).toContainEqual(expect.stringMatching(/^Sorry, the transfer did not happen: ./));
      expect(record.callTranscript).toMatch(/^agent: (?:.*[.?!] )?Sorry,/m);
    }
  });

  it('records a caller who hangs up while the target is being asked as a hang-up, and cancels the second call', async () => {
    scriptTransfer();
    // The target takes a while to pick up; the caller says one line and leaves after the agent's reply.
    p.platform.callSimulator!.setRule(TARGET, { kind: 'transfer-target', press: '1', ringMs: 6_000 });
    const { result, record } = await placeCall('+14155550454', { kind: 'answer', lines: ['Hello?'] }, { transfer_mode: 'warm' }, [frontDesk]);
    expect(result.dialed).toBeUndefined();
    expect(record.callEndReason).toBe('customer_hangup');
    expect(record.transfer).toEqual({ destination: TARGET, mode: 'warm', outcome: 'failed' });
    // The second call was ended while it rang: the target was never asked, nor joined to anyone.
    const legs = await Promise.all([...p.platform.callSimulator!.calls.values()]);
    const leg = legs.filter((r) => p.platform.twilio!.call(r.callSid)?.to === TARGET).at(-1)!;
    expect(leg.status).toBe('completed');
    expect(leg.said).toEqual([]);
    expect(leg.dialed).toBeUndefined();
  });

  it("refuses a transfer answer that is not signed, and declines one that names another workspace's call", async () => {
    const s = await p.callerSetup(100);
    const other = await p.callerSetup(100);
    const account = (await p.deps.telephony.platformAccount())!;
    const form = { AccountSid: account.accountSid, CallSid: `CA${'c'.repeat(32)}`, CallStatus: 'in-progress', From: s.number, To: TARGET, Digits: '1' };
    const url = `${p.baseUrl}/twilio/transfer?callId=call_01JWRF9YVRV07ZX0MV7YH6S11D&workspaceId=${other.workspaceId}`;
    const unsigned = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
    expect(unsigned.status).toBe(403);
    p.platform.twilio!.clearRequests();
    const signed = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(account.authToken, url, form) },
      body: new URLSearchParams(form).toString(),
    });
    expect(signed.status).toBe(200);
    expect(await signed.text()).toContain('<Hangup/>');
    // Nothing was redirected at Twilio.
    expect(p.platform.twilio!.requests.filter((r) => r.method === 'POST' && /\/Calls\/CA/.test(r.path))).toEqual([]);
  });
});
