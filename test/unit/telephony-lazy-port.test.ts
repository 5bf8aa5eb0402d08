/**
 * Invariant: the composition root's telephony port loads its adapter only when a telephony operation runs,
 * once, and tries again after a failed load (so a transient import failure does not poison a warm Lambda).
 */
import { describe, expect, it } from 'vitest';
import { lazyTelephonyPort, type TelephonyPort } from '../../lib/vendors/telephony/port.js';

const account = { accountSid: `AC${'1'.repeat(32)}`, authToken: 't' };

describe('lazyTelephonyPort', () => {
  it('loads on first use only, once, and forwards arguments and results', async () => {
    let loads = 0;
    const seen: unknown[] = [];
    const port = lazyTelephonyPort(async () => {
      loads += 1;
      return {
        findNumber: async (a: unknown, n: unknown) => {
          seen.push([a, n]);
          return undefined;
        },
        releaseNumber: async () => undefined,
      } as unknown as TelephonyPort;
    });
    expect(loads).toBe(0);
    expect(await port.findNumber(account, '+14155550100')).toBeUndefined();
    await port.releaseNumber(account, 'PN1');
    expect(loads).toBe(1);
    expect(seen).toEqual([[account, '+14155550100']]);
  });

  it('retries the load after a failure', async () => {
    let loads = 0;
    const port = lazyTelephonyPort(async () => {
      loads += 1;
      if (loads === 1) throw new Error('boom');
      return { fetchCall: async () => ({ sid: 'CA1' }) } as unknown as TelephonyPort;
    });
    await expect(port.fetchCall(account, 'CA1')).rejects.toThrow('boom');
    await expect(port.fetchCall(account, 'CA1')).resolves.toMatchObject({ sid: 'CA1' });
    expect(loads).toBe(2);
  });
});
