/**
 * Invariant: POST /api/contacts/upload, through HTTP against DynamoDB Local, accounts for every data row
 * exactly once (imported + skipped + errors = rows), never stores a phone number twice in a workspace
 * (within a file, against existing contacts, across repeated and concurrent uploads), keeps the contact
 * counter equal to the contacts stored, acts only on the key's own workspace, and refuses hostile or
 * unsupported files with a 4xx before storing anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importUploadedContacts } from '../../lib/services/contact-import.js';
import { csv, junk, legacyXls, usNumber, xlsx, zipBomb } from '../support/contact-files.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t?.stop());

interface UploadOptions {
  workspaceId?: string;
  defaultCountry?: string;
  filename?: string;
  /** Leave the file part out. */
  noFile?: boolean;
  extra?: Record<string, string>;
}

async function upload(apiKey: string, file: Uint8Array, options: UploadOptions = {}) {
  const form = new FormData();
  if (options.workspaceId !== undefined) form.append('workspaceId', options.workspaceId);
  if (options.defaultCountry !== undefined) form.append('defaultCountry', options.defaultCountry);
  for (const [k, v] of Object.entries(options.extra ?? {})) form.append(k, v);
  if (!options.noFile) form.append('file', new Blob([new Uint8Array(file)]), options.filename ?? 'contacts.csv');
  const res = await fetch(`${t.baseUrl}/api/contacts/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The contact count the API reports (the counter) and the contacts actually listed, page by page. */
async function counts(apiKey: string): Promise<{ total: number; listed: number; numbers: string[] }> {
  const numbers: string[] = [];
  let total = 0;
  for (let page = 1; ; page += 1) {
    const res = await t.api(apiKey, 'GET', `/api/contacts?limit=100&page=${page}`);
    expect(res.status).toBe(200);
    total = res.body.total;
    numbers.push(...res.body.data.map((c: { phoneNumber: string }) => c.phoneNumber));
    if (res.body.data.length < 100) break;
  }
  return { total, listed: numbers.length, numbers };
}

const accounted = (body: { imported: number; skipped: number; errors: unknown[] }) => body.imported + body.skipped + body.errors.length;

describe('contact upload', () => {
  it('imports a CSV, reporting each row once, and stores the contacts with their fields', async () => {
    const ws = await t.workspace();
    const res = await upload(
      ws.apiKey,
      csv([
        'contactName,phoneNumber,region,Company,notes',
        'Ann,+14155552671,,Acme,"likes ""tea"", mornings"',
        'Bob,+447700900123,,Beta,',
        'Ann twice,+1 415-555-2671,,Acme,',
        'Cy,12345,,,',
        ',+14155552672,,,',
      ]),
      { workspaceId: ws.workspaceId },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      imported: 2,
      skipped: 1,
      errors: [
        { row: 5, column: 'phoneNumber', value: '12345', message: expect.stringContaining('defaultCountry') },
        { row: 6, column: 'contactName', value: '', message: 'contactName is required' },
      ],
      importId: expect.stringMatching(/^imp_/),
    });
    expect(accounted(res.body)).toBe(5);
    const listed = await t.api(ws.apiKey, 'GET', '/api/contacts?search=ann');
    expect(listed.body.total).toBe(1);
    const ann = await t.api(ws.apiKey, 'GET', `/api/contacts/${listed.body.data[0]._id}`);
    expect(ann.body).toMatchObject({
      contactName: 'Ann',
      phoneNumber: '+14155552671',
      region: 'US',
      workspaceId: ws.workspaceId,
      externalFields: { Company: 'Acme', notes: 'likes "tea", mornings' },
    });
    expect(await counts(ws.apiKey)).toMatchObject({ total: 2, listed: 2 });
  });

  it('imports every row whatever its region says: place names as written, blank derived from the number', async () => {
    const ws = await t.workspace();
    const res = await upload(
      ws.apiKey,
      csv(['contactName,phoneNumber,region', 'Ann,+447700900123,London', 'Bob,+14155552671,Virginia', 'Cy,+14155552672,', 'Dee,+14155552673,gb']),
      { workspaceId: ws.workspaceId },
    );
    expect(res.body).toEqual({ imported: 4, skipped: 0, errors: [], importId: expect.stringMatching(/^imp_/) });
    const listed = await t.api(ws.apiKey, 'GET', '/api/contacts?limit=10');
    const regions = Object.fromEntries(listed.body.data.map((c: { contactName: string; region: string }) => [c.contactName, c.region]));
    expect(regions).toEqual({ Ann: 'London', Bob: 'Virginia', Cy: 'US', Dee: 'GB' });
  });

  it('imports an .xlsx with numeric phone cells using defaultCountry', async () => {
    const ws = await t.workspace();
    const book = await xlsx([
      ['Who', 'PHONENUMBER', 'score'],
      ['Ann', 4155552671, 7],
      ['Bob', 14155552672, null],
    ]);
    const bad = await upload(ws.apiKey, book, { workspaceId: ws.workspaceId, filename: 'c.xlsx' });
    // "Who" is no spelling of contactName: the required column is missing.
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('missing_columns');

    const good = await xlsx([
      ['contactName', 'PHONENUMBER', 'score'],
      ['Ann', 4155552671, 7],
      ['Bob', 14155552672, null],
    ]);
    const res = await upload(ws.apiKey, good, { workspaceId: ws.workspaceId, defaultCountry: 'us', filename: 'whatever.bin' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 2, skipped: 0, errors: [], importId: expect.stringMatching(/^imp_/) });
    const found = await counts(ws.apiKey);
    expect(found.numbers.sort()).toEqual(['+14155552671', '+14155552672']);
    expect(found.total).toBe(2);
  });

  it('reads "Name" and "Phone Number"-style headers, and refuses two phone columns naming both', async () => {
    const ws = await t.workspace();
    const res = await upload(ws.apiKey, csv(['Full Name,phone_number,Plan', 'Ann,+14155552671,gold']), { workspaceId: ws.workspaceId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 1, skipped: 0, errors: [] });
    const listed = await t.api(ws.apiKey, 'GET', '/api/contacts');
    expect(listed.body.data).toEqual([expect.objectContaining({ contactName: 'Ann', phoneNumber: '+14155552671' })]);

    const book = await xlsx([['Name', 'Phone', 'Mobile'], ['Bob', '+14155552672', '+14155552673']]);
    const bad = await upload(ws.apiKey, book, { workspaceId: ws.workspaceId, filename: 'c.xlsx' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'ambiguous_columns', message: expect.stringContaining('"Phone" and "Mobile"') });
    expect((await counts(ws.apiKey)).total).toBe(1);
  });

  it('skips numbers the workspace already has, and a second upload of the same file imports 0', async () => {
    const ws = await t.workspace();
    // 150 rows span four transactions; pre-existing numbers sit in different ones.
    const existing = [3, 70, 149];
    for (const i of existing) {
      const made = await t.api(ws.apiKey, 'POST', '/api/contacts', { contactName: `Old ${i}`, phoneNumber: usNumber(i), workspaceId: ws.workspaceId });
      expect(made.status).toBe(201);
    }
    const file = csv(['contactName,phoneNumber', ...Array.from({ length: 150 }, (_, i) => `Person ${i},${usNumber(i)}`)]);
    const first = await upload(ws.apiKey, file, { workspaceId: ws.workspaceId });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ imported: 147, skipped: 3, errors: [], importId: expect.stringMatching(/^imp_/) });
    const second = await upload(ws.apiKey, file, { workspaceId: ws.workspaceId });
    expect(second.body).toEqual({ imported: 0, skipped: 150, errors: [], importId: expect.stringMatching(/^imp_/) });
    const after = await counts(ws.apiKey);
    expect(after).toMatchObject({ total: 150, listed: 150 });
    expect(new Set(after.numbers).size).toBe(150);
  });

  it('concurrent overlapping uploads store each number once and keep the counter exact', async () => {
    const ws = await t.workspace();
    const rows = (from: number, to: number) =>
      csv(['contactName,phoneNumber', ...Array.from({ length: to - from }, (_, k) => `P${from + k},${usNumber(1_000 + from + k)}`)]);
    const results = await Promise.all([
      upload(ws.apiKey, rows(0, 120), { workspaceId: ws.workspaceId }),
      upload(ws.apiKey, rows(60, 180), { workspaceId: ws.workspaceId }),
      upload(ws.apiKey, rows(30, 90), { workspaceId: ws.workspaceId }),
    ]);
    for (const r of results) expect(r.status).toBe(200);
    expect(results.map((r) => accounted(r.body))).toEqual([120, 120, 60]);
    expect(results.reduce((s, r) => s + r.body.imported, 0)).toBe(180);
    const after = await counts(ws.apiKey);
    expect(after).toMatchObject({ total: 180, listed: 180 });
    expect(new Set(after.numbers).size).toBe(180);
  });

  it('a header-only file imports nothing; an empty file is a 400', async () => {
    const ws = await t.workspace();
    const headerOnly = await upload(ws.apiKey, csv(['contactName,phoneNumber']), { workspaceId: ws.workspaceId });
    expect(headerOnly).toEqual({ status: 200, body: { imported: 0, skipped: 0, errors: [], importId: expect.stringMatching(/^imp_/) } });
    const empty = await upload(ws.apiKey, Buffer.alloc(0), { workspaceId: ws.workspaceId });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('empty_file');
  });

  it('refuses junk bytes and legacy .xls with a 415 naming the supported formats', async () => {
    const ws = await t.workspace();
    for (const [bytes, name] of [[junk(), 'contacts.csv'], [legacyXls(), 'contacts.xls'], [legacyXls(), 'contacts.xlsx']] as const) {
      const res = await upload(ws.apiKey, bytes, { workspaceId: ws.workspaceId, filename: name });
      expect(res.status, name).toBe(415);
      expect(res.body.error.code).toBe('unsupported_file_type');
      expect(res.body.error.message).toMatch(/CSV.*\.xlsx/);
    }
    expect((await counts(ws.apiKey)).total).toBe(0);
  });

  it('refuses a zip bomb with a 413 before expanding it', async () => {
    const ws = await t.workspace();
    for (const bomb of [zipBomb(60 * 1024 * 1024), zipBomb(8 * 1024 * 1024, { lie: true })]) {
      const res = await upload(ws.apiKey, bomb, { workspaceId: ws.workspaceId, filename: 'book.xlsx' });
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe('workbook_too_large');
    }
  });

  it('refuses a file over 4 MiB with a 413 while it streams', async () => {
    const ws = await t.workspace();
    const line = 'Somebody With A Long Name,+14155552671,padding padding padding padding padding padding padding';
    const big = Buffer.from(`contactName,phoneNumber,pad\n${`${line}\n`.repeat(Math.ceil((5 * 1024 * 1024) / line.length))}`);
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const res = await upload(ws.apiKey, big, { workspaceId: ws.workspaceId });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('file_too_large');
    expect((await counts(ws.apiKey)).total).toBe(0);
  });

  it('acts only on the key\'s workspace: a foreign workspaceId is a 403 and stores nothing', async () => {
    const mine = await t.workspace();
    const theirs = await t.workspace();
    const file = csv(['contactName,phoneNumber', 'Ann,+14155552671']);
    const res = await upload(mine.apiKey, file, { workspaceId: theirs.workspaceId });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect((await counts(mine.apiKey)).total).toBe(0);
    expect((await counts(theirs.apiKey)).total).toBe(0);
  });

  it('validates the form: file and workspaceId required, unknown fields and bad countries refused', async () => {
    const ws = await t.workspace();
    const file = csv(['contactName,phoneNumber', 'Ann,+14155552671']);
    const noFile = await upload(ws.apiKey, file, { workspaceId: ws.workspaceId, noFile: true });
    expect(noFile.status).toBe(400);
    expect(noFile.body.error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'file' })] });
    // API_SPEC.md marks the form's workspaceId required: without it, the 400 of any missing field.
    const noWorkspace = await upload(ws.apiKey, file);
    expect(noWorkspace.status).toBe(400);
    expect(noWorkspace.body.error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'workspaceId' })] });
    const neither = await upload(ws.apiKey, file, { noFile: true });
    expect(neither.status).toBe(400);
    expect(neither.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['file', 'workspaceId']);
    const withIt = await upload(ws.apiKey, file, { workspaceId: ws.workspaceId });
    expect(withIt.status).toBe(200);
    expect(withIt.body).toMatchObject({ imported: 1, skipped: 0 });
    const unknown = await upload(ws.apiKey, file, { workspaceId: ws.workspaceId, extra: { colour: 'blue' } });
    expect(unknown.status).toBe(400);
    const country = await upload(ws.apiKey, file, { workspaceId: ws.workspaceId, defaultCountry: 'XX' });
    expect(country.status).toBe(400);
    expect(country.body.error.details).toEqual([expect.objectContaining({ field: 'defaultCountry' })]);
    const json = await t.api(ws.apiKey, 'POST', '/api/contacts/upload', { workspaceId: ws.workspaceId });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('unsupported_media_type');
    const noKey = await fetch(`${t.baseUrl}/api/contacts/upload`, { method: 'POST', body: new FormData() });
    expect(noKey.status).toBe(401);
    // Only the complete upload imported; every refusal left the contacts as they were.
    expect((await counts(ws.apiKey)).total).toBe(1);
  });

  it('refuses a __proto__ column with a 400 and stores nothing', async () => {
    const ws = await t.workspace();
    const res = await upload(ws.apiKey, csv(['contactName,phoneNumber,__proto__', 'Ann,+14155552671,x']), { workspaceId: ws.workspaceId });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('forbidden_column');
    expect((await counts(ws.apiKey)).total).toBe(0);
  });

  it('rows an upload had no time left to write are reported per row, and a re-upload imports them', async () => {
    const ws = await t.workspace();
    const file = csv(['contactName,phoneNumber', ...Array.from({ length: 60 }, (_, i) => `P${i},${usNumber(2_000 + i)}`), 'Bad,nope']);
    const form = { fields: new Map([['workspaceId', ws.workspaceId]]), file: { bytes: file } };
    const late = await importUploadedContacts(t.deps.db, ws.workspaceId, form, { writeBudgetMs: 0 });
    expect(late.imported).toBe(0);
    expect(late.errors).toHaveLength(61);
    expect(late.errors.map((e) => e.row)).toEqual(Array.from({ length: 61 }, (_, i) => i + 2));
    expect(late.errors[0]).toMatchObject({ row: 2, column: 'phoneNumber', value: usNumber(2_000), message: expect.stringContaining('upload the same file again') });
    expect((await counts(ws.apiKey)).total).toBe(0);
    const again = await upload(ws.apiKey, file, { workspaceId: ws.workspaceId });
    expect(again.body).toMatchObject({ imported: 60, skipped: 0 });
    expect((await counts(ws.apiKey)).total).toBe(60);
  });
});
