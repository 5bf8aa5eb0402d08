/**
 * Invariant: the Twilio stand-in's simulated person takes turns as a person on a phone does. On a line with
 * an ambience bed as on one without, it hears the agent out (the bed never ends and the far end's buffer
 * never empties, so it goes by the voice's level over the bed's), says its line in the pause after, and
 * never talks over the agent; picking up to silence (an agent that waits for the caller), it speaks first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERRUPTED_MARKER } from '../../../streaming-service/src/session/speech-handle.js';
import { placeOutboundCall, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
beforeAll(async () => {
  p = await startCallsPlatform();
  p.platform.voice.llm.control.set({ reply: (req) => ({ text: /summar/i.test(req.messages.system) ? 'Summary.' : 'Lovely. We will see you on Tuesday at nine.' }) });
});
afterAll(async () => p?.stop());

const LINES = ['Hi, yes, speaking.', 'That works for me, thank you. Goodbye.'];

describe('a simulated person on a line with a bed', () => {
  it('talks in the pauses after the agent, over the default bed, a call center, a loud street, and no bed', async () => {
    const answer = { kind: 'answer', lines: LINES } as const;
    const greeting = 'Hello, this is the clinic calling about your appointment.';
    const calls = await Promise.all(
      [{ ambience_enabled: true }, { ambience_enabled: true, ambience: { sound: 'call_center', volume: 0.3 } }, { ambience_enabled: true, ambience: { sound: 'street', volume: 0.6 } }, { ambience_enabled: false }].map((patch, i) =>
        placeOutboundCall(p, `+1415555017${i}`, answer, { agentPatch: { ...patch, first_message: greeting } }),
      ),
    );
    for (const [i, { record }] of calls.entries()) {
      expect(record.callEndReason, `call ${i}`).toBe('customer_hangup');
      const lines = String(record.callTranscript).split('\n');
      expect(lines, `call ${i}`).toEqual([
        `agent: ${greeting}`,
        `user: ${LINES[0]}`,
        'agent: Lovely. We will see you on Tuesday at nine.',
        `user: ${LINES[1]}`,
        'agent: Lovely. We will see you on Tuesday at nine.',
      ]);
      expect(record.callTranscript).not.toContain(INTERRUPTED_MARKER);
    }
  }, 120_000);

  it('speaks first when the agent waits for the caller, and the agent answers with its first message', async () => {
    const { record } = await placeOutboundCall(p, '+14155550179', { kind: 'answer', lines: LINES }, { agentPatch: { first_message_mode: 'wait_for_caller', first_message: 'Hello, this is the clinic.' } });
    expect(record.callEndReason).toBe('customer_hangup');
    expect(String(record.callTranscript).split('\n')).toEqual([
      `user: ${LINES[0]}`,
      'agent: Hello, this is the clinic.',
      `user: ${LINES[1]}`,
      'agent: Lovely. We will see you on Tuesday at nine.',
    ]);
  }, 120_000);
});
