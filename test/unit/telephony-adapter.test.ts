/**
 * Invariant: the vendor SDK reaches only the entry points that name a telephony adapter. Without one, every
 * telephony operation fails loudly (never a silent half-built port); withTelephony swaps in the adapter and
 * keeps the rest of the dependencies, the platform account's cache included.
 */
import { describe, expect, it } from 'vitest';
import { withTelephony, type Deps } from '../../lib/deps.js';
import { unavailableTelephonyPort, type TelephonyPort } from '../../lib/vendors/telephony/port.js';

describe('telephony adapter wiring', () => {
  it('a port without an adapter refuses every operation, naming the fix', async () => {
    const port = unavailableTelephonyPort();
    const account = { accountSid: `AC${'0'.repeat(32)}`, authToken: 'x' };
    for (const call of [
      () => port.searchAvailable(account, { country: 'US' } as never),
      () => port.createCall(account, { to: '+14155550100', from: '+14155550101', url: 'https://x.test/' } as never),
      () => port.releaseNumber(account, 'PN1'),
    ]) {
      await expect(call()).rejects.toThrow(/withTelephony/);
    }
  });

  it('withTelephony builds the port from the configured base URL and keeps everything else', async () => {
    const seen: (string | undefined)[] = [];
    const fake = { fetchCall: async () => ({ sid: 'CA1' }) } as unknown as TelephonyPort;
    const account = async () => ({ accountSid: 'AC1', authToken: 't' });
    const deps = {
      config: { TWILIO_API_BASE_URL: 'http://127.0.0.1:9/' },
      db: { table: 't' },
      telephony: { port: unavailableTelephonyPort(), platformAccount: account },
    } as unknown as Deps;
    const wired = withTelephony(deps, ({ baseUrl }) => {
      seen.push(baseUrl);
      return fake;
    });
    expect(seen).toEqual(['http://127.0.0.1:9/']);
    expect(wired.telephony.port).toBe(fake);
    expect(wired.telephony.platformAccount).toBe(account);
    expect(wired.db).toBe(deps.db);
    expect(deps.telephony.port).not.toBe(fake);
  });
});
