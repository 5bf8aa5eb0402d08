/**
 * Invariant: calling windows are read in the callee's zones (every zone of a multi-zone country must be
 * inside the window), across DST and weekdays, and the next opening is found to the minute; a call's
 * outcome and the retry policy decide whether and when a contact is called again; every `{{variable}}` of
 * the prompt and first message is checked; `opt_out` is offered only on phone calls.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW, isOpen, nextOpen, zonesOfRegion } from '../../lib/domain/calling-window.js';
import { DEFAULT_RETRY, missingVariables, outcomeOfCall, retryAfter, variablesIn } from '../../lib/domain/campaign.js';
import { buildCallTools, OPT_OUT_TOOL } from '../../streaming-service/src/tools/registry.js';

const at = (iso: string) => Date.parse(iso);

describe('calling windows', () => {
  it('is open 9:00-20:00 on weekdays in the zone, and closed on weekends', () => {
    const ny = ['America/New_York'];
    expect(isOpen(DEFAULT_WINDOW, ny, at('2026-11-30T14:00:00Z'))).toBe(true); // Monday 09:00 EST
    expect(isOpen(DEFAULT_WINDOW, ny, at('2026-11-30T13:59:00Z'))).toBe(false);
    expect(isOpen(DEFAULT_WINDOW, ny, at('2026-12-01T00:59:00Z'))).toBe(true); // Monday 19:59
    expect(isOpen(DEFAULT_WINDOW, ny, at('2026-12-01T01:00:00Z'))).toBe(false); // Monday 20:00
    expect(isOpen(DEFAULT_WINDOW, ny, at('2026-12-05T16:00:00Z'))).toBe(false); // Saturday
    // Summer time: 09:00 EDT is 13:00 UTC.
    expect(isOpen(DEFAULT_WINDOW, ny, at('2026-07-06T13:00:00Z'))).toBe(true);
  });

  it('finds the next opening to the minute, over a weekend and across zones', () => {
    expect(nextOpen(DEFAULT_WINDOW, ['America/New_York'], at('2026-12-05T16:00:00Z'))).toBe(at('2026-12-07T14:00:00Z'));
    expect(nextOpen(DEFAULT_WINDOW, ['Europe/London'], at('2026-12-07T08:59:30Z'))).toBe(at('2026-12-07T09:00:00Z'));
    // Open now: now.
    expect(nextOpen(DEFAULT_WINDOW, ['Europe/London'], at('2026-12-07T10:17:00Z'))).toBe(at('2026-12-07T10:17:00Z'));
  });

  it('opens a multi-zone country only while every one of its zones is inside the window', () => {
    const us = zonesOfRegion('US');
    expect(us).toEqual(expect.arrayContaining(['America/New_York', 'America/Los_Angeles', 'Pacific/Honolulu']));
    // 15:00 UTC is 10:00 in New York but 05:00 in Hawaii: closed for the country.
    expect(isOpen(DEFAULT_WINDOW, us, at('2026-11-30T15:00:00Z'))).toBe(false);
    const opening = nextOpen(DEFAULT_WINDOW, us, at('2026-11-30T15:00:00Z'))!;
    for (const zone of us) expect(isOpen(DEFAULT_WINDOW, [zone], opening), zone).toBe(true);
    expect(isOpen(DEFAULT_WINDOW, us, opening - 60_000)).toBe(false);
    expect(zonesOfRegion('GB')).toEqual(['Europe/London']);
    // Zones too far apart for a window to overlap never open.
    expect(nextOpen({ ...DEFAULT_WINDOW, start: '09:00', end: '10:00' }, ['Pacific/Kiritimati', 'Pacific/Pago_Pago'], at('2026-11-30T00:00:00Z'))).toBeUndefined();
  });
});

describe('outcomes and retries', () => {
  it('reads the outcome from the settled call', () => {
    expect(outcomeOfCall({ status: 'completed', endReason: 'customer_hangup', streamStartedAt: 'x' })).toBe('answered');
    expect(outcomeOfCall({ status: 'completed', endReason: 'voicemail' })).toBe('voicemail');
    expect(outcomeOfCall({ status: 'busy', endReason: 'busy' })).toBe('busy');
    expect(outcomeOfCall({ status: 'no-answer', endReason: 'no_answer' })).toBe('no_answer');
    expect(outcomeOfCall({ status: 'failed', endReason: 'error' })).toBe('failed');
    expect(outcomeOfCall({ status: 'completed', endReason: 'error', streamStartedAt: 'x' })).toBe('answered');
  });

  it('retries an outcome as many times as its rule says, after its delay', () => {
    const now = at('2026-11-30T15:00:00Z');
    expect(retryAfter(DEFAULT_RETRY, 'busy', 1, now)).toBe(now + 15 * 60_000);
    expect(retryAfter(DEFAULT_RETRY, 'busy', 2, now)).toBe(now + 15 * 60_000);
    expect(retryAfter(DEFAULT_RETRY, 'busy', 3, now)).toBeUndefined();
    expect(retryAfter(DEFAULT_RETRY, 'answered', 1, now)).toBeUndefined();
    expect(retryAfter({ ...DEFAULT_RETRY, failed: { retries: 0, delayMinutes: 1 } }, 'failed', 1, now)).toBeUndefined();
  });

  it('names every variable once and finds the missing or blank ones', () => {
    expect(variablesIn('Hi {{contactName}}, about {{ appointment }}', 'Bye {{contactName}}', undefined)).toEqual(['contactName', 'appointment']);
    expect(missingVariables(['contactName', 'appointment', 'plan'], { contactName: 'Ada', appointment: '  ' })).toEqual(['appointment', 'plan']);
  });
});

describe('opt_out', () => {
  it('is offered on phone calls only', () => {
    expect(buildCallTools([], { optOut: true }).specs.map((s) => s.name)).toContain(OPT_OUT_TOOL);
    expect(buildCallTools([], { optOut: true }).byName.get(OPT_OUT_TOOL)).toEqual({ kind: 'opt_out' });
    expect(buildCallTools([]).specs.map((s) => s.name)).not.toContain(OPT_OUT_TOOL);
  });
});
