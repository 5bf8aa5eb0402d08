/**
 * Invariant: a quiet line is re-prompted after the agent's re-prompt delay, up to its maximum count, then
 * ended; the caller speaking starts the count over; the session's overall silence timeout always ends it;
 * with no re-prompts configured only that timeout applies.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SILENCE, SilenceWatch, silenceSettings } from '../../streaming-service/src/session/silence.js';

describe('silence re-prompts', () => {
  it('re-prompts up to the maximum, then ends', () => {
    const w = new SilenceWatch(DEFAULT_SILENCE, 60_000);
    expect(w.check(9_000)).toBeUndefined();
    expect(w.check(10_000)).toBe('reprompt');
    expect(w.check(10_000)).toBe('reprompt');
    expect(w.check(10_000)).toBe('end');
  });

  it('starts over when the caller speaks', () => {
    const w = new SilenceWatch(DEFAULT_SILENCE, 60_000);
    w.check(10_000);
    w.check(10_000);
    w.onCallerSpoke();
    expect(w.count).toBe(0);
    expect(w.check(10_000)).toBe('reprompt');
  });

  it('ends at the overall timeout, and only then when re-prompts are off', () => {
    expect(new SilenceWatch(DEFAULT_SILENCE, 5_000).check(5_000)).toBe('end');
    const off = new SilenceWatch(silenceSettings({ max_reprompts: 0 }), 60_000);
    expect(off.check(30_000)).toBeUndefined();
    expect(off.check(60_000)).toBe('end');
  });

  it('maps the agent object over the defaults', () => {
    expect(silenceSettings(undefined)).toEqual(DEFAULT_SILENCE);
    expect(silenceSettings({ reprompt_after_ms: 4_000, max_reprompts: 1, reprompt_message: '¿Sigue ahí?' })).toEqual({
      repromptAfterMs: 4_000,
      maxReprompts: 1,
      repromptMessage: '¿Sigue ahí?',
    });
  });
});
