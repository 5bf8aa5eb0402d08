/**
 * Invariant, over the Twilio stand-in placing real calls, for the two ways a call leaves the agent:
 * - a cold transfer: the call is updated with `<Dial>`, Twilio ends the media stream (`stop`) and bridges the
 *   caller to the target; when that conversation is over the call completes (status callback `completed`,
 *   with Twilio's whole duration). The record says `transferred`, keeps the transcript up to the transfer,
 *   and the call is billed to the end of the stream only: the later `completed` changes neither the bill
 *   nor the end reason;
 * - the caller hanging up while the agent is mid-sentence: Twilio ends the call (`stop`, then `completed`);
 *   the record says `customer_hangup`, keeps the part of the sentence the caller heard with the interrupted
 *   marker, and no vendor work goes on: the STT and TTS sockets are closed and the model is asked nothing
 *   more than the summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOutboundCall, startCallsPlatform, expectedCallCost, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
beforeAll(async () => {
  p = await startCallsPlatform();
});
afterAll(async () => p?.stop());

const TARGET = '+14155550470';
const GREETING = 'Hello there, this is the clinic calling.';
const LONG_REPLY =
  'Your last bill was forty two dollars. It covered the visit in March and the follow up call in April. The late fee was taken off after your second reminder. Is there anything else?';

describe('a cold transfer', () => {
  it('ends the stream at the <Dial>, records transferred with the transcript, and bills to the end of the stream only', async () => {
    p.platform.voice.stt.control.deepgram!.setScript({ transcripts: () => 'Can I talk to the front desk?', finalDelayMs: 50 });
    p.platform.voice.llm.control.set({
      reply: (req) => {
        if (/summar/i.test(req.messages.system)) return { text: 'Summary: transferred to the front desk.' };
        return { text: 'Let me put you through.', toolCalls: [{ name: 'front_desk', arguments: {} }] };
      },
    });
    const frontDesk = { name: 'Front desk', type: 'transfer', description: 'Transfer the caller to the front desk', config: { url: `tel:${TARGET}` } };
    const { sid, result, record } = await placeOutboundCall(p, '+14155550471', { kind: 'answer', lines: ['Can I talk to the front desk?', 'Thanks.'] }, { tools: [frontDesk] });

    expect(result.error).toBeUndefined();
    expect(result.redirects).toEqual([`<Response><Dial>${TARGET}</Dial></Response>`]);
    expect(result.dialed).toBe(TARGET);
    // Twilio's side: the stream got its `stop`, and the call completed only after the bridged conversation.
    expect(result.callbacks.map((c) => c.status).at(-1)).toBe('completed');
    const twilioSeconds = p.platform.twilio!.call(sid)!.duration!;

    expect(record).toMatchObject({ callEndReason: 'transferred', transfer: { destination: TARGET, mode: 'cold', outcome: 'transferred' } });
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${GREETING}`, 'user: Can I talk to the front desk?', 'agent: Let me put you through.']);
    // Billed to the end of the stream: the bridged time after the <Dial> (2 s here) is not ours to charge.
    expect(record.callDuration).toBeGreaterThan(0);
    expect(record.callDuration).toBeLessThan(twilioSeconds);
    expect(record.callCost).toBe(expectedCallCost(record.callDuration));
  });
});

describe('a caller who hangs up while the agent is talking', () => {
  it('ends the call as customer_hangup, keeps what was heard with the marker, and stops every vendor', async () => {
    const stt = p.platform.voice.stt.control.deepgram!;
    const llm = p.platform.voice.llm.control;
    stt.setScript({ transcripts: () => 'I have a question about my bill.', finalDelayMs: 50 });
    llm.set({ reply: (req) => (/summar/i.test(req.messages.system) ? { text: 'Summary: a billing question.' } : { text: LONG_REPLY }) });
    const llmBefore = llm.requests.length;
    const { sid, result, record } = await placeOutboundCall(p, '+14155550472', {
      kind: 'answer',
      lines: ['I have a question about my bill.', { hangUpAfterAgentMs: 2_500 }],
    });

    expect(result.error).toBeUndefined();
    expect(result.dialed).toBeUndefined();
    expect(result.callbacks.map((c) => c.status).at(-1)).toBe('completed');
    expect(p.platform.twilio!.call(sid)!.status).toBe('completed');
    expect(record.callEndReason).toBe('customer_hangup');

    const lines = String(record.callTranscript).split('\n');
    expect(lines.slice(0, 2)).toEqual([`agent: ${GREETING}`, 'user: I have a question about my bill.']);
    const heard = lines[2]!;
    // Part of the reply, cut where the caller left, and marked as interrupted.
    expect(heard).toMatch(/^agent: .+—$/);
    const words = heard.slice('agent: '.length, -1).trim();
    expect(LONG_REPLY.startsWith(words)).toBe(true);
    expect(words.length).toBeLessThan(LONG_REPLY.length);
    expect(lines).toHaveLength(3);

    // Nothing goes on after the caller left: one reply request and the summary, vendor sockets closed.
    const asked = llm.requests.slice(llmBefore).map((r) => (/summar/i.test(JSON.stringify(r.body)) ? 'summary' : 'reply'));
    expect(asked).toEqual(['reply', 'summary']);
    expect(stt.sessions.at(-1)!.closed).toBeDefined();
    const tts = p.platform.voice.tts.control.deepgram!;
    expect(tts.connections.at(-1)!.closedAtMs).toBeDefined();
  });
});
