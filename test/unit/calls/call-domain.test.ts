/**
 * Invariant: a call only ever moves forward (every state's allowed predecessors have a lower rank and a
 * terminal state has no successor); provider statuses map onto our states, with unconnected endings
 * carrying their typed end reason; the reservation is the price of the longest call, and no call costs
 * more than its reservation, billed per started second.
 */
import { describe, expect, it } from 'vitest';
import {
  CALL_STATES,
  CALL_STATE_RANK,
  END_REASON_OF_STATE,
  TERMINAL_CALL_STATES,
  billedSecondsFor,
  costFor,
  reservationFor,
  stateOfProviderStatus,
  statesBefore,
} from '../../../lib/domain/call.js';
import { CALL_END_REASONS } from '../../../lib/domain/history.js';
import { parseStreamTwiml } from '../../../lib/local/standins/twilio/twiml.js';
import { callIdOf } from '../../../lib/services/outbound-voice.js';
import { connectStreamTwiml } from '../../../lib/vendors/telephony/twilio-webhook.js';

describe('call state machine', () => {
  it('allows a move only from a state of lower rank', () => {
    expect(statesBefore('initiated')).toEqual([]);
    expect(statesBefore('dialing')).toEqual(['initiated']);
    expect(statesBefore('ringing')).toEqual(['initiated', 'dialing']);
    expect(statesBefore('in-progress')).toEqual(['initiated', 'dialing', 'ringing']);
    for (const terminal of TERMINAL_CALL_STATES) {
      expect(statesBefore(terminal)).toEqual(['initiated', 'dialing', 'ringing', 'in-progress']);
      // Nothing follows a terminal state: no state lists it as a predecessor.
      for (const next of CALL_STATES) expect(statesBefore(next)).not.toContain(terminal);
    }
    for (const s of CALL_STATES) for (const from of statesBefore(s)) expect(CALL_STATE_RANK[from]).toBeLessThan(CALL_STATE_RANK[s]);
  });

  it('maps Twilio statuses; queued and initiated say nothing new', () => {
    expect(stateOfProviderStatus('queued')).toBeUndefined();
    expect(stateOfProviderStatus('initiated')).toBeUndefined();
    expect(stateOfProviderStatus('ringing')).toBe('ringing');
    expect(stateOfProviderStatus('in-progress')).toBe('in-progress');
    expect(stateOfProviderStatus('no-answer')).toBe('no-answer');
    expect(stateOfProviderStatus('bogus')).toBeUndefined();
  });

  it('gives every unconnected ending a documented end reason', () => {
    expect(END_REASON_OF_STATE).toEqual({ busy: 'busy', 'no-answer': 'no_answer', failed: 'failed', canceled: 'canceled' });
    for (const reason of Object.values(END_REASON_OF_STATE)) expect(CALL_END_REASONS).toContain(reason);
  });
});

describe('pricing', () => {
  const pricing = { creditsPerMinute: 1.5, maxDurationSeconds: 600 };
  it('reserves the price of the longest call', () => {
    expect(reservationFor(pricing)).toBe(15);
  });
  it('bills per started second, never beyond the reservation, never below zero', () => {
    expect(costFor(pricing, 0)).toBe(0);
    expect(costFor(pricing, 0.2)).toBe(0.025);
    expect(costFor(pricing, 60)).toBe(1.5);
    expect(costFor(pricing, 61)).toBe(1.525);
    expect(costFor(pricing, 10_000)).toBe(reservationFor(pricing));
    expect(costFor(pricing, -5)).toBe(0);
  });
  it('the seconds billed (history callDuration) price to exactly the cost charged', () => {
    expect(billedSecondsFor(pricing, 20.3)).toBe(21);
    expect(billedSecondsFor(pricing, 20)).toBe(20);
    expect(billedSecondsFor(pricing, 10_000)).toBe(pricing.maxDurationSeconds);
    for (const measured of [0, 0.4, 19.999, 20.3, 61, 599.5, 10_000]) {
      const seconds = billedSecondsFor(pricing, measured);
      expect(costFor(pricing, seconds)).toBe(costFor(pricing, measured));
    }
  });
});

describe('webhook plumbing', () => {
  it('reads only a well-formed call id from a webhook query', () => {
    expect(callIdOf('callId=call_01J0000000000000000000000A')).toBe('call_01J0000000000000000000000A');
    expect(callIdOf('callId=agt_01J0000000000000000000000A')).toBeUndefined();
    expect(callIdOf('')).toBeUndefined();
    expect(callIdOf(undefined)).toBeUndefined();
  });

  it('the simulator reads back the stream URL and parameters our TwiML carries', () => {
    const twiml = connectStreamTwiml('wss://example.test/media-stream', { token: 'a.b&c"d', other: 'x' });
    expect(parseStreamTwiml(twiml)).toEqual({ url: 'wss://example.test/media-stream', parameters: { token: 'a.b&c"d', other: 'x' } });
    expect(parseStreamTwiml('<Response><Say>Bye</Say><Hangup/></Response>')).toBeUndefined();
  });
});
