/**
 * Invariant: the Twilio stand-in's test numbers (docs/telephony.md, "Test numbers") give their documented
 * outcome through the real call path with no code hook (no simulator rule): busy, no answer and failed end
 * the call so; the voicemail box is detected as a machine after its beep and gets the agent's message; the
 * phone menu hears the agent's `send_dtmf` tones and answers; the transfer targets accept and decline a warm
 * transfer. A person's lines come from the script file in DATA_DIR and are what the recognizer stand-in
 * hears: they appear, word for word, as the caller's lines of the call's transcript (as do the voicemail
 * greeting and the menu's prompt, which the agent hears too). The calls run at once, as a developer's would.
 * The test numbers are not among the numbers the stand-in sells.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptReply, ScriptRequest } from '../../../lib/local/standins/llm-script.js';
import { DEFAULT_GREETING } from '../../../lib/local/standins/twilio/callee.js';
import { TEST_MENU, TEST_NUMBERS } from '../../../lib/local/standins/twilio/test-numbers.js';
import { placeOutboundCall, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
beforeAll(async () => {
  p = await startCallsPlatform();
});
afterAll(async () => p?.stop());

/** Two people of the fictional block with no behaviour of their own: the default callee, scripted. */
const ADA = '+12025550150';
const BOB = '+12025550151';
const CARL = '+12025550152';
const SCRIPTS = {
  [TEST_NUMBERS.person]: ['Hello, Grace Hopper speaking.', { pauseMs: 300 }, { press: '42#' }, { say: 'Tuesday at nine suits me. Goodbye.' }],
  [ADA]: ['Hi. I have a question about my bill.', { listen: true }, 'Great, thank you.'],
  [BOB]: ['Hi. I have a question about my bill.', { listen: true }, 'Okay, thanks. Bye.'],
  [CARL]: ['Hello?', { listen: true }],
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The last thing the caller said, as the model sees it. */
const lastUser = (req: ScriptRequest) => [...req.messages.turns].reverse().find((t) => t.role === 'user')?.text ?? '';

/** One model for every call at once, answering from what it heard (its tools differ per workspace). */
function reply(req: ScriptRequest): ScriptReply {
  const { system, toolResults, turns } = req.messages;
  if (/summar/i.test(system)) return { text: 'Summary: a test call.' };
  const heard = lastUser(req);
  const failed = toolResults.map((r) => JSON.parse(r.content) as { error?: string }).find((r) => r.error);
  const told = turns.some((t) => t.role === 'assistant' && t.text.startsWith('Sorry'));
  if (failed && !told) return { text: `Sorry, ${failed.error}.` };
  if (req.tools.includes('send_dtmf') && /press 2/.test(heard) && toolResults.length === 0) {
    return { text: 'Appointments, please.', toolCalls: [{ name: 'send_dtmf', arguments: { digits: '2' } }] };
  }
  if (/Appointments desk/.test(heard)) return { text: 'Goodbye.', toolCalls: [{ name: 'end_call', arguments: {} }] };
  if (req.tools.includes('front_desk') && /bill/.test(heard) && toolResults.length === 0) {
    return { text: 'Let me get the front desk.', toolCalls: [{ name: 'front_desk', arguments: { summary: 'A question about a bill.' } }] };
  }
  if (toolResults.length > 0) return { text: 'Anything else?' };
  return { text: 'Thank you.' };
}

const frontDesk = (target: string) => ({ name: 'Front desk', type: 'transfer', description: 'Transfer the caller to the front desk', config: { url: `tel:${target}` } });

describe('test numbers', () => {
  it('each number gives its documented outcome, and scripted lines are what the agent heard', async () => {
    await writeFile(join(p.dataDir, 'callee-scripts.json'), JSON.stringify(SCRIPTS));
    p.platform.voice.llm.control.set({ reply });
    const call = (to: string, options: Parameters<typeof placeOutboundCall>[3] = {}) => placeOutboundCall(p, to, undefined, options);
    const warm = { transfer_mode: 'warm' };
    const [person, busy, noAnswer, failed, voicemail, menu, accepted, declined, plain] = await Promise.all([
      call(TEST_NUMBERS.person),
      call(TEST_NUMBERS.busy),
      call(TEST_NUMBERS.noAnswer),
      call(TEST_NUMBERS.failed),
      call(TEST_NUMBERS.voicemail, {
        agentPatch: { voicemail_detection: 'detect_message_end', voicemail_action: 'leave_message', voicemail_message: 'Hi, this is the clinic. Please call us back.' },
      }),
      call(TEST_NUMBERS.phoneMenu),
      call(ADA, { agentPatch: warm, tools: [frontDesk(TEST_NUMBERS.transferAccepts)] }),
      call(BOB, { agentPatch: warm, tools: [frontDesk(TEST_NUMBERS.transferDeclines)] }),
      call(CARL),
    ]);

    expect(person.result.error).toBeUndefined();
    expect(person.record.callEndReason).toBe('customer_hangup');
    expect(person.record.callTranscript).toContain('user: Hello, Grace Hopper speaking.');
    expect(person.record.callTranscript).toContain('[The caller pressed 4 2 # on the keypad]');
    expect(person.record.callTranscript).toContain('user: Tuesday at nine suits me. Goodbye.');

    expect(busy.record).toMatchObject({ callEndReason: 'busy', callCost: 0 });
    expect(busy.result.twiml).toBeUndefined();
    expect(noAnswer.record).toMatchObject({ callEndReason: 'no_answer', callCost: 0 });
    expect(failed.record).toMatchObject({ callEndReason: 'failed', callCost: 0 });

    expect(voicemail.result.amdCallbacks).toEqual([{ answeredBy: 'machine_end_beep', httpStatus: 204 }]);
    expect(voicemail.result.said).toEqual(['Hi, this is the clinic. Please call us back.']);
    expect(voicemail.record).toMatchObject({ callEndReason: 'voicemail', answeredBy: 'machine_end_beep' });
    // The box's greeting is what the agent heard, and its beep no words at all.
    expect(voicemail.record.callTranscript).toMatch(new RegExp(`^user: ${escape(DEFAULT_GREETING)}$`, 'm'));

    expect(menu.result.detectedDigits).toBe('2');
    expect(menu.record.callTranscript).toContain(`user: ${TEST_MENU.prompt}`);
    expect(menu.record.callTranscript).toContain(`user: ${TEST_MENU.menu['2']}`);

    expect(accepted.record).toMatchObject({ callEndReason: 'transferred', transfer: { destination: TEST_NUMBERS.transferAccepts, mode: 'warm', outcome: 'accepted' } });
    expect(accepted.record.callTranscript).toContain('user: Hi. I have a question about my bill.');
    expect(declined.record).toMatchObject({ callEndReason: 'customer_hangup', transfer: { destination: TEST_NUMBERS.transferDeclines, mode: 'warm', outcome: 'declined' } });
    expect(declined.record.callTranscript).toContain('user: Okay, thanks. Bye.');

    // A number with a script but no behaviour of its own is the default person saying the script.
    expect(plain.record.callTranscript).toContain('user: Hello?');
  }, 300_000);

  it('are not for sale: the stand-in sells the rest of the fictional block', async () => {
    const ws = await p.workspace();
    const res = await p.api(ws.apiKey, 'GET', '/api/phone-numbers/available?country=us&areaCode=202&contains=555010*&limit=10');
    expect(res.status).toBe(200);
    expect(res.body.data.map((n: { number: string }) => n.number)).toEqual(['+12025550108', '+12025550109']);
  });
});
