/**
 * Invariant: contacts hold E.164 numbers unique within a workspace, derive their region, answer each
 * operation with exactly the spec fields, and search matches name or phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedUnchanged } from '../support/invariants.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let ws: { workspaceId: string; apiKey: string };

beforeAll(async () => {
  t = await startTestPlatform();
  ws = await t.workspace();
});
afterAll(() => t?.stop());

const contact = (workspaceId: string, extra: Record<string, unknown> = {}) => ({
  contactName: 'Ada Lovelace',
  phoneNumber: '+14155552671',
  workspaceId,
  externalFields: { plan: 'gold', visits: 3 },
  ...extra,
});

describe('contacts', () => {
  it('creates with E.164 normalization and derived region; 201 with the get fields', async () => {
    const own = await t.workspace();
    const res = await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId, { phoneNumber: '+44 20 7183 8750' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ phoneNumber: '+442071838750', region: 'GB', contactName: 'Ada Lovelace' });
    expect(Object.keys(res.body).sort()).toEqual(['_id', 'contactName', 'createdAt', 'externalFields', 'phoneNumber', 'region', 'workspaceId']);
    const got = await t.api(own.apiKey, 'GET', `/api/contacts/${res.body._id}`);
    expect(got.body).toEqual(res.body);
  });

  it('keeps an explicit region and derives US for +1 test ranges', async () => {
    const own = await t.workspace();
    const a = await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId, { region: 'ca' }));
    expect(a.body.region).toBe('CA');
    const b = await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId, { phoneNumber: '+15551234567' }));
    expect(b.status).toBe(201);
    expect(b.body.region).toBe('US');
  });

  it('region is free text: kept as written (trimmed), derived only when omitted or blank', async () => {
    const own = await t.workspace();
    const cases: [unknown, string][] = [
      ['California', 'California'],
      ['  New   York\t', 'New York'],
      ['Île-de-France', 'Île-de-France'],
      ['USA', 'USA'],
      ['r'.repeat(100), 'r'.repeat(100)],
      ['', 'US'],
      ['   ', 'US'],
      [undefined, 'US'],
    ];
    for (const [i, [region, stored]] of cases.entries()) {
      const phoneNumber = `+1415555${String(3000 + i)}`;
      const res = await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId, { phoneNumber, region }));
      expect(res.status, JSON.stringify(region)).toBe(201);
      expect(res.body.region).toBe(stored);
      expect((await t.api(own.apiKey, 'GET', `/api/contacts/${res.body._id}`)).body.region).toBe(stored);
    }
    const listed = await t.api(own.apiKey, 'GET', '/api/contacts?limit=100');
    expect(listed.body.data.map((c: { region: string }) => c.region).sort()).toEqual(cases.map(([, r]) => r).sort());
  });

  it('refuses a region that is not text a person writes, with the reason', async () => {
    const own = await t.workspace();
    for (const [region, message] of [
      ['r'.repeat(101), 'region is longer than 100 characters'],
      ['Cali\u0000fornia', 'region cannot contain control characters'],
      ['Cali\u001bfornia', 'region cannot contain control characters'],
    ] as const) {
      const res = await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId, { region }));
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'region', message }]);
    }
    const notText = await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId, { region: 7 }));
    expect(notText.status).toBe(400);
    // A lone surrogate is refused for every field, by the body parser.
    const surrogate = await t.api(own.apiKey, 'POST', '/api/contacts', JSON.stringify(contact(own.workspaceId, { region: '\ud800' })));
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.error.code).toBe('invalid_text');
    expect((await t.api(own.apiKey, 'GET', '/api/contacts')).body.total).toBe(0);
  });

  it('PATCH sets a free-text region, and null or blank derives it from the number again', async () => {
    const own = await t.workspace();
    const a = await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId, { phoneNumber: '+442071838750' }));
    expect(a.body.region).toBe('GB');
    const named = await t.api(own.apiKey, 'PATCH', `/api/contacts/${a.body._id}`, { region: 'London' });
    expect(named.body.region).toBe('London');
    const kept = await t.api(own.apiKey, 'PATCH', `/api/contacts/${a.body._id}`, { contactName: 'Ada L.' });
    expect(kept.body.region).toBe('London');
    const derived = await t.api(own.apiKey, 'PATCH', `/api/contacts/${a.body._id}`, { region: null });
    expect(derived.body.region).toBe('GB');
    await t.api(own.apiKey, 'PATCH', `/api/contacts/${a.body._id}`, { region: 'Greater London' });
    const blank = await t.api(own.apiKey, 'PATCH', `/api/contacts/${a.body._id}`, { region: ' ' });
    expect(blank.body.region).toBe('GB');
    const moved = await t.api(own.apiKey, 'PATCH', `/api/contacts/${a.body._id}`, { phoneNumber: '+14155552671', region: 'Virginia' });
    expect(moved.body).toMatchObject({ phoneNumber: '+14155552671', region: 'Virginia' });
  });

  it('rejects numbers that are not E.164 and bad external fields', async () => {
    const own = await t.workspace();
    for (const body of [
      contact(own.workspaceId, { phoneNumber: '4155552671' }),
      contact(own.workspaceId, { phoneNumber: '+1 415' }),
      contact(own.workspaceId, { phoneNumber: 'call me' }),
      contact(own.workspaceId, { phoneNumber: 14155552671 }),
      contact(own.workspaceId, { region: 'x'.repeat(101) }),
      contact(own.workspaceId, { externalFields: { nested: { a: 1 } } }),
      contact(own.workspaceId, { externalFields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }),
    ]) {
      const res = await t.api(own.apiKey, 'POST', '/api/contacts', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.api(own.apiKey, 'GET', '/api/contacts')).body.total).toBe(0);
  });

  it('a phone number is unique within a workspace (409), not across workspaces', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    expect((await t.api(a.apiKey, 'POST', '/api/contacts', contact(a.workspaceId))).status).toBe(201);
    await expectRefusedUnchanged(
      t.deps.db,
      409,
      () => t.api(a.apiKey, 'POST', '/api/contacts', contact(a.workspaceId, { phoneNumber: '+1 (415) 555-2671', contactName: 'Other' })),
      'phone_number_taken',
    );
    expect((await t.api(b.apiKey, 'POST', '/api/contacts', contact(b.workspaceId))).status).toBe(201);
    expect((await t.api(a.apiKey, 'GET', '/api/contacts')).body.total).toBe(1);
  });

  it('concurrent creates of one number admit exactly one', async () => {
    const own = await t.workspace();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId, { contactName: `C${i}` })),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect((await t.api(own.apiKey, 'GET', '/api/contacts')).body.total).toBe(1);
  });

  it('lists list fields only and searches name or phone, case-insensitively', async () => {
    const own = await t.workspace();
    const people = [
      ['Grace Hopper', '+14155550101'],
      ['Alan Turing', '+442071838750'],
      ['Katherine Johnson', '+14155550102'],
    ];
    for (const [contactName, phoneNumber] of people) {
      await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId, { contactName, phoneNumber }));
    }
    const all = await t.api(own.apiKey, 'GET', '/api/contacts');
    expect(all.body.total).toBe(3);
    expect(Object.keys(all.body.data[0]).sort()).toEqual(['_id', 'contactName', 'phoneNumber', 'region', 'workspaceId']);
    const byName = await t.api(own.apiKey, 'GET', '/api/contacts?search=TURING');
    expect(byName.body.data.map((c: { contactName: string }) => c.contactName)).toEqual(['Alan Turing']);
    expect(byName.body.total).toBe(1);
    const byPhone = await t.api(own.apiKey, 'GET', `/api/contacts?search=${encodeURIComponent('415 555-01')}`);
    expect(byPhone.body.total).toBe(2);
    const paged = await t.api(own.apiKey, 'GET', '/api/contacts?search=%2B1415&limit=1&page=2');
    expect(paged.body).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(paged.body.data).toHaveLength(1);
    const none = await t.api(own.apiKey, 'GET', '/api/contacts?search=nobody');
    expect(none.body).toMatchObject({ data: [], total: 0 });
  });

  it('PATCH merges external fields, moves the number guard, and 409s on a taken number', async () => {
    const own = await t.workspace();
    const a = await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId));
    const b = await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId, { phoneNumber: '+14155550199' }));
    const patched = await t.api(own.apiKey, 'PATCH', `/api/contacts/${a.body._id}`, {
      phoneNumber: '+442071838750',
      externalFields: { plan: null, tier: 'vip' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ phoneNumber: '+442071838750', region: 'GB', externalFields: { visits: 3, tier: 'vip' } });
    expect(patched.body.externalFields.plan).toBeUndefined();
    // The old number is free again; the new one is taken.
    expect((await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId))).status).toBe(201);
    await expectRefusedUnchanged(t.deps.db, 409, () => t.api(own.apiKey, 'PATCH', `/api/contacts/${b.body._id}`, { phoneNumber: '+442071838750' }));
    expect((await t.api(own.apiKey, 'GET', `/api/contacts/${b.body._id}`)).body.phoneNumber).toBe('+14155550199');
  });

  it('DELETE frees the number and decrements the total', async () => {
    const own = await t.workspace();
    const a = await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId));
    expect((await t.api(own.apiKey, 'DELETE', `/api/contacts/${a.body._id}`)).status).toBe(204);
    expect((await t.api(own.apiKey, 'GET', '/api/contacts')).body.total).toBe(0);
    expect((await t.api(own.apiKey, 'POST', '/api/contacts', contact(own.workspaceId))).status).toBe(201);
  });
});
