/**
 * Invariant: any key a user can type is data, never a lookup into Object.prototype. Every name that
 * Object.prototype owns round-trips as an external field name (create, get, merge-patch, import from CSV
 * and .xlsx) and as a tool header name (create, get masked, update, keep-by-mask), while `__proto__` alone
 * is refused with a clear 400 wherever a key can be sent, and nothing is stored by the refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASK } from '../../lib/domain/tool.js';
import { getTool } from '../../lib/store/tools.js';
import { csv, textCell, xlsxFromSheetXml } from '../support/contact-files.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t?.stop());

/** Every own name of Object.prototype but `__proto__`, which is refused (its own tests below). */
const ORDINARY = Object.getOwnPropertyNames(Object.prototype).filter((n) => n !== '__proto__');
/** A JSON object text with these keys, written by hand so `__proto__` is sent as an ordinary key. */
const jsonObject = (entries: [string, unknown][]) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;

async function upload(apiKey: string, workspaceId: string, file: Uint8Array) {
  const form = new FormData();
  form.append('workspaceId', workspaceId);
  form.append('file', new Blob([new Uint8Array(file)]), 'contacts');
  const res = await fetch(`${t.baseUrl}/api/contacts/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form });
  return { status: res.status, body: await res.json() };
}

const httpTool = (workspaceId: string, headers: Record<string, string>) => ({
  name: 'Lookup',
  type: 'http',
  description: 'Looks an order up',
  workspaceId,
  config: { method: 'GET', url: 'https://api.example.com/orders', headers },
});

describe('Object.prototype names as external field names', () => {
  it.each(ORDINARY)('"%s" round-trips through create, get, patch and delete', async (name) => {
    const ws = await t.workspace();
    const created = await t.api(ws.apiKey, 'POST', '/api/contacts', {
      contactName: 'Ada',
      phoneNumber: '+14155552671',
      workspaceId: ws.workspaceId,
      externalFields: { [name]: 'first', plain: 1 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.externalFields).toEqual({ [name]: 'first', plain: 1 });
    const id = created.body._id as string;
    expect((await t.api(ws.apiKey, 'GET', `/api/contacts/${id}`)).body.externalFields).toEqual({ [name]: 'first', plain: 1 });

    const changed = await t.api(ws.apiKey, 'PATCH', `/api/contacts/${id}`, { externalFields: { [name]: false } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.externalFields).toEqual({ [name]: false, plain: 1 });
    // Removing a name the contact does not hold is a no-op, whatever Object.prototype has under it.
    const other = ORDINARY.find((n) => n !== name)!;
    const removed = await t.api(ws.apiKey, 'PATCH', `/api/contacts/${id}`, { externalFields: { [name]: null, [other]: null } });
    expect(removed.status).toBe(200);
    expect(removed.body.externalFields).toEqual({ plain: 1 });
    expect((await t.api(ws.apiKey, 'GET', `/api/contacts/${id}`)).body.externalFields).toEqual({ plain: 1 });

    const listed = await t.api(ws.apiKey, 'GET', `/api/contacts?search=ada`);
    expect(listed.body).toMatchObject({ total: 1, data: [{ _id: id, contactName: 'Ada' }] });
    expect((await t.api(ws.apiKey, 'DELETE', `/api/contacts/${id}`)).status).toBe(204);
  });

  it('all of them at once, as a patch of a contact that holds them all', async () => {
    const ws = await t.workspace();
    const fields = Object.fromEntries(ORDINARY.map((n, i) => [n, i]));
    const created = await t.api(ws.apiKey, 'POST', '/api/contacts', {
      contactName: 'Ada',
      phoneNumber: '+14155552671',
      workspaceId: ws.workspaceId,
      externalFields: fields,
    });
    expect(created.status).toBe(201);
    const patch = Object.fromEntries(ORDINARY.map((n, i) => [n, i % 2 === 0 ? null : `v${i}`]));
    const patched = await t.api(ws.apiKey, 'PATCH', `/api/contacts/${created.body._id}`, { externalFields: patch });
    expect(patched.status).toBe(200);
    expect(patched.body.externalFields).toEqual(Object.fromEntries(ORDINARY.flatMap((n, i) => (i % 2 === 0 ? [] : [[n, `v${i}`]]))));
  });

  it('imports them as CSV and .xlsx columns, every row', async () => {
    const ws = await t.workspace();
    const header = ['contactName', 'phoneNumber', ...ORDINARY];
    const row = (i: number) => [`P${i}`, `+1415555${String(1000 + i)}`, ...ORDINARY.map((n) => `${n}-${i}`)];
    const fromCsv = await upload(ws.apiKey, ws.workspaceId, csv([header.join(','), row(1).join(','), row(2).join(',')]));
    expect(fromCsv).toEqual({ status: 200, body: { imported: 2, skipped: 0, errors: [], importId: expect.stringMatching(/^imp_/) } });
    // Written by hand: write-excel-file itself indexes its shared strings with a plain object, so it writes
    // "function Object() {...}" for a cell "constructor". Headers as shared strings, data inline.
    const ref = (col: number, r: number) => `${String.fromCharCode(65 + col)}${r}`;
    const sheet = [
      `<row r="1">${header.map((_, c) => `<c r="${ref(c, 1)}" t="s"><v>${c}</v></c>`).join('')}</row>`,
      ...[3, 4].map((i, k) => `<row r="${k + 2}">${row(i).map((v, c) => textCell(ref(c, k + 2), v)).join('')}</row>`),
    ].join('');
    const book = xlsxFromSheetXml(sheet, header);
    const fromXlsx = await upload(ws.apiKey, ws.workspaceId, book);
    expect(fromXlsx).toEqual({ status: 200, body: { imported: 2, skipped: 0, errors: [], importId: expect.stringMatching(/^imp_/) } });

    const listed = await t.api(ws.apiKey, 'GET', '/api/contacts?limit=10');
    expect(listed.body.total).toBe(4);
    for (const { _id, contactName } of listed.body.data as { _id: string; contactName: string }[]) {
      const i = Number(contactName.slice(1));
      const got = await t.api(ws.apiKey, 'GET', `/api/contacts/${_id}`);
      expect(got.body.externalFields).toEqual(Object.fromEntries(ORDINARY.map((n) => [n, `${n}-${i}`])));
    }
  });

  it('__proto__ is refused with a 400 in a create, a patch and an import, and nothing changes', async () => {
    const ws = await t.workspace();
    const base = { contactName: 'Ada', phoneNumber: '+14155552671', workspaceId: ws.workspaceId };
    const create = await t.api(ws.apiKey, 'POST', '/api/contacts', `${JSON.stringify(base).slice(0, -1)},"externalFields":${jsonObject([['__proto__', 'x']])}}`);
    expect(create.status).toBe(400);
    expect(create.body.error.code).toBe('forbidden_key');
    const ok = await t.api(ws.apiKey, 'POST', '/api/contacts', { ...base, externalFields: { keep: 'me' } });
    const patch = await t.api(ws.apiKey, 'PATCH', `/api/contacts/${ok.body._id}`, `{"externalFields":${jsonObject([['__proto__', null]])}}`);
    expect(patch.status).toBe(400);
    expect(patch.body.error.code).toBe('forbidden_key');
    const imported = await upload(ws.apiKey, ws.workspaceId, csv(['contactName,phoneNumber,__proto__', 'Bo,+14155552672,x']));
    expect(imported.status).toBe(400);
    expect(imported.body.error.code).toBe('forbidden_column');
    const listed = await t.api(ws.apiKey, 'GET', '/api/contacts');
    expect(listed.body.total).toBe(1);
    expect((await t.api(ws.apiKey, 'GET', `/api/contacts/${ok.body._id}`)).body.externalFields).toEqual({ keep: 'me' });
  });
});

describe('Object.prototype names as tool header names', () => {
  it('every one of them is stored, masked on read, updated, and kept by sending the mask back', async () => {
    const ws = await t.workspace();
    const headers = Object.fromEntries(ORDINARY.map((n) => [n, `secret-${n}`]));
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId, headers));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body._id as string;
    const masked = Object.fromEntries(ORDINARY.map((n) => [n, MASK]));
    expect((await t.api(ws.apiKey, 'GET', `/api/tools/${id}`)).body.config.headers).toEqual(masked);

    // Half are kept by their mask, half get new values.
    const update = Object.fromEntries(ORDINARY.map((n, i) => [n, i % 2 === 0 ? MASK : `new-${n}`]));
    const updated = await t.api(ws.apiKey, 'PUT', `/api/tools/${id}`, { config: { headers: update } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.config.headers).toEqual(masked);
    // The values themselves are never returned: read them back through the store, as a call would.
    const clear = await getTool(t.deps.db, t.deps.secrets, ws.workspaceId, id);
    expect(clear.config?.headers).toEqual(Object.fromEntries(ORDINARY.map((n, i) => [n, i % 2 === 0 ? `secret-${n}` : `new-${n}`])));
    expect((await t.api(ws.apiKey, 'GET', '/api/tools')).body.data.map((x: { _id: string }) => x._id)).toEqual([id]);
  });

  it.each(ORDINARY)('the mask for a header "%s" the tool does not hold is a 400, not a secret from the prototype', async (name) => {
    const ws = await t.workspace();
    const created = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId, { 'x-api-key': 'k' }));
    expect(created.status).toBe(201);
    const res = await t.api(ws.apiKey, 'PUT', `/api/tools/${created.body._id}`, { config: { headers: { [name]: MASK } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: `config.headers.${name}`, message: 'masked value for an unknown header' }]);
    expect((await t.api(ws.apiKey, 'GET', `/api/tools/${created.body._id}`)).body.config.headers).toEqual({ 'x-api-key': MASK });
  });

  it('__proto__ as a header name is a 400 on create and update, and nothing is stored', async () => {
    const ws = await t.workspace();
    const body = JSON.stringify(httpTool(ws.workspaceId, {})).replace('"headers":{}', `"headers":${jsonObject([['__proto__', 'v']])}`);
    const create = await t.api(ws.apiKey, 'POST', '/api/tools', body);
    expect(create.status).toBe(400);
    expect(create.body.error.code).toBe('forbidden_key');
    expect((await t.api(ws.apiKey, 'GET', '/api/tools')).body.data).toEqual([]);
    const ok = await t.api(ws.apiKey, 'POST', '/api/tools', httpTool(ws.workspaceId, { a: 'b' }));
    const update = await t.api(ws.apiKey, 'PUT', `/api/tools/${ok.body._id}`, `{"config":{"headers":${jsonObject([['__proto__', MASK]])}}}`);
    expect(update.status).toBe(400);
    expect(update.body.error.code).toBe('forbidden_key');
    expect((await t.api(ws.apiKey, 'GET', `/api/tools/${ok.body._id}`)).body.config.headers).toEqual({ a: MASK });
  });
});
