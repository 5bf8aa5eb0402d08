/**
 * Invariant: a record filled to every input limit at once is stored and read back whole (each stays inside
 * DynamoDB's 400 KB item and its number range), and one step past a limit is a 400 that stores nothing,
 * never a 500 from the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASK, MAX_TOOL_HEADER_BYTES, MAX_TOOL_HEADERS } from '../../lib/domain/tool.js';
import { expectRefusedUnchanged } from '../support/invariants.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t?.stop());

/** The widest character per UTF-16 unit in UTF-8: three bytes for one unit (a BMP CJK character). */
const WIDE = '語';

describe('contacts at their limits', () => {
  it('50 external fields of 64-unit names and 1,000-unit values of 3-byte characters round-trip', async () => {
    const ws = await t.workspace();
    const externalFields = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`${String(i).padStart(2, '0')}${WIDE.repeat(62)}`, WIDE.repeat(1_000)]),
    );
    const body = { contactName: WIDE.repeat(200), phoneNumber: '+14155552671', region: WIDE.repeat(100), workspaceId: ws.workspaceId, externalFields };
    const created = await t.api(ws.apiKey, 'POST', '/api/contacts', body);
    expect(created.status).toBe(201);
    const got = await t.api(ws.apiKey, 'GET', `/api/contacts/${created.body._id}`);
    expect(got.body).toMatchObject({ contactName: body.contactName, region: body.region, externalFields });
  });

  it('numbers in external fields: the safe-integer range and down to 1e-130 round-trip; beyond is a 400', async () => {
    const ws = await t.workspace();
    const kept = { max: Number.MAX_SAFE_INTEGER, min: -Number.MAX_SAFE_INTEGER, tiny: 1e-130, frac: 0.30000000000000004, zero: 0 };
    const created = await t.api(ws.apiKey, 'POST', '/api/contacts', { contactName: 'N', phoneNumber: '+14155552671', workspaceId: ws.workspaceId, externalFields: kept });
    expect(created.status).toBe(201);
    expect((await t.api(ws.apiKey, 'GET', `/api/contacts/${created.body._id}`)).body.externalFields).toEqual(kept);
    for (const n of ['9007199254740992', '-1e300', '1e-131', '5e-324', '1e999']) {
      const res = await t.api(ws.apiKey, 'PATCH', `/api/contacts/${created.body._id}`, `{"externalFields":{"n":${n}}}`);
      expect(res.status, n).toBe(400);
      expect(res.body.error.details[0].field).toBe('externalFields.n');
    }
    expect((await t.api(ws.apiKey, 'GET', `/api/contacts/${created.body._id}`)).body.externalFields).toEqual(kept);
  });
});

describe('stored numbers outside the store\'s range elsewhere', () => {
  // Found by the fuzz test (seed 419686531): a denormal threshold reached the store and came back a 500.
  it('a credits.low threshold or a tool parameter\'s enum value under 1e-130 is a 400 that stores nothing', async () => {
    const ws = await t.workspace();
    for (const n of ['1e-320', '5e-324', '1e-131']) {
      const threshold = await expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'PUT', '/api/webhooks/settings', `{"creditsLowThreshold":${n}}`), 'validation_failed');
      expect(threshold.body.error.details[0].field, n).toBe('creditsLowThreshold');
      const tool = `{"name":"Lookup","type":"http","description":"Looks up","config":{"method":"GET","url":"https://api.example.com/x"},"parameters":[{"name":"size","description":"d","required":false,"type":"number","enum":[${n}]}]}`;
      const enumRes = await expectRefusedUnchanged(t.deps.db, 400, () => t.api(ws.apiKey, 'POST', '/api/tools', tool), 'validation_failed');
      expect(enumRes.body.error.details[0].field, n).toBe('parameters.0.enum.0');
    }
    const kept = await t.api(ws.apiKey, 'PUT', '/api/webhooks/settings', { creditsLowThreshold: 1e-130 });
    expect(kept.body).toEqual({ creditsLowThreshold: 1e-130 });
  });
});

describe('tool headers at their limits', () => {
  const tool = (workspaceId: string, headers: Record<string, string>) => ({
    name: 'Limits',
    type: 'http',
    description: WIDE.repeat(2_000),
    workspaceId,
    config: { method: 'POST', url: 'https://api.example.com/x', headers, body: WIDE.repeat(20_000) },
    parameters: Array.from({ length: 30 }, (_, i) => ({ name: `p${i}`, description: WIDE.repeat(1_000), required: false })),
  });
  /** `count` headers whose names and values sum to exactly `bytes`, values in Latin-1. */
  const headersOf = (count: number, bytes: number) => {
    const names = Array.from({ length: count }, (_, i) => `x-h${String(i).padStart(2, '0')}`);
    const room = bytes - names.reduce((n, k) => n + k.length, 0);
    return Object.fromEntries(names.map((k, i) => [k, 'é'.repeat(Math.floor(room / count) + (i < room % count ? 1 : 0))]));
  };

  it(`${MAX_TOOL_HEADERS} headers of ${MAX_TOOL_HEADER_BYTES} bytes in all, beside every other field at its limit, are stored and kept`, async () => {
    const ws = await t.workspace();
    const headers = headersOf(MAX_TOOL_HEADERS, MAX_TOOL_HEADER_BYTES);
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', tool(ws.workspaceId, headers));
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    const masked = Object.fromEntries(Object.keys(headers).map((k) => [k, MASK]));
    const updated = await t.api(ws.apiKey, 'PUT', `/api/tools/${created.body._id}`, { name: 'Limits 2', config: { headers: masked } });
    expect(updated.status).toBe(200);
    expect(updated.body.config.headers).toEqual(masked);
  });

  it('one header too many, one byte too many, or a value beyond Latin-1 is a 400 and stores nothing', async () => {
    const ws = await t.workspace();
    for (const [headers, message] of [
      [headersOf(MAX_TOOL_HEADERS + 1, 1_000), `at most ${MAX_TOOL_HEADERS} headers`],
      [headersOf(5, MAX_TOOL_HEADER_BYTES + 1), `header names and values total at most ${MAX_TOOL_HEADER_BYTES} bytes`],
      [{ Authorization: `Bearer ${'😀'.repeat(10)}` }, 'header values are printable ASCII or Latin-1'],
      [{ Authorization: 'a\u0001b' }, 'header values are printable ASCII or Latin-1'],
    ] as const) {
      const res = await t.api(ws.apiKey, 'POST', '/api/tools', tool(ws.workspaceId, headers));
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].message).toContain(message);
    }
    expect((await t.api(ws.apiKey, 'GET', '/api/tools')).body.data).toEqual([]);
  });
});
