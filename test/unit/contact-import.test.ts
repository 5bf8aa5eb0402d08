/**
 * Invariant: an uploaded contact file is read by its bytes into exactly one outcome per data row (a
 * contact draft, an in-file duplicate or a row error), CSV per RFC 4180 and .xlsx by cell value, with
 * every whole-file problem (format, header, limits, zip bomb) refused before anything would be written,
 * and no cell ever evaluated, converted into a number, or able to reach an object prototype.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { csvRows, sniffDelimiter } from '../../lib/domain/contact-import/csv.js';
import { knownColumn } from '../../lib/domain/contact-import/headers.js';
import { HTTP_IMPORT_LIMITS, planContactFile, type ImportLimits, type ImportPlan } from '../../lib/domain/contact-import/index.js';
import { numberText } from '../../lib/domain/contact-import/xlsx.js';
import { readZipDirectory } from '../../lib/domain/contact-import/zip.js';
import { csv, junk, legacyXls, textCell, usNumber, xlsx, xlsxFromSheetXml, zipBomb } from '../support/contact-files.js';

const plan = (bytes: Uint8Array, options: { defaultCountry?: string; limits?: Partial<ImportLimits> } = {}) =>
  planContactFile(bytes, { defaultCountry: options.defaultCountry, limits: { ...HTTP_IMPORT_LIMITS, ...options.limits } });

/** The error a promise rejects with, for assertions on status, code and message. */
async function failure(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string; details: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as { status: number; code: string; message: string; details: unknown };
  }
  throw new Error('expected a rejection');
}

const zipOf = (files: Record<string, string>) =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)]))));

const accounted = (p: ImportPlan) => p.drafts.length + p.duplicates + p.errors.length;

describe('CSV (RFC 4180)', () => {
  it('reads quoted fields holding delimiters, doubled quotes and line breaks, with CRLF', async () => {
    const p = await plan(
      csv([
        'contactName,phoneNumber,note',
        '"Smith, Ann",+14155552671,"She said ""hi"""',
        '"Bob',
        'Jones",+14155552672,"line one',
        'line two"',
        'Cy,+14155552673,plain',
      ]),
    );
    expect(p.rows).toBe(3);
    expect(p.errors).toEqual([]);
    expect(p.drafts.map((d) => [d.row, d.contactName, d.externalFields.note])).toEqual([
      [2, 'Smith, Ann', 'She said "hi"'],
      [3, 'Bob\r\nJones', 'line one\r\nline two'],
      // The record after a multi-line one reports the line it starts on.
      [6, 'Cy', 'plain'],
    ]);
  });

  it('reads LF line endings, a missing final line break and a UTF-8 BOM', async () => {
    const text = '\ufeffcontactName,phoneNumber\n Ann ,+14155552671\nBob,+14155552672';
    const p = await plan(Buffer.from(text, 'utf8'));
    expect(p.drafts.map((d) => [d.row, d.contactName, d.phoneNumber])).toEqual([
      [2, 'Ann', '+14155552671'],
      [3, 'Bob', '+14155552672'],
    ]);
  });

  it('keeps multi-byte characters whole when they straddle the chunks fed to the parser', async () => {
    const name = 'Zoë 😀 Ünal';
    const rows = [];
    for await (const r of csvRows(csv(['contactName,phoneNumber', `${name},+14155552671`]), HTTP_IMPORT_LIMITS, 1)) rows.push(r);
    expect(rows[1]!.cells).toEqual([name, '+14155552671']);
  });

  it('reads semicolon-separated files, as Excel writes them in comma-decimal locales', async () => {
    expect(sniffDelimiter(csv(['contactName;phoneNumber']))).toBe(';');
    expect(sniffDelimiter(csv(['contactName,phoneNumber;x']))).toBe(',');
    const p = await plan(csv(['contactName;phoneNumber;city', 'Ann;+14155552671;Köln, Altstadt']));
    expect(p.drafts[0]).toMatchObject({ contactName: 'Ann', externalFields: { city: 'Köln, Altstadt' } });
  });

  it('refuses an unclosed quote and a stray quote with the line, as a 400', async () => {
    const unclosed = await failure(plan(csv(['contactName,phoneNumber', 'Ann,+14155552671', '"Bob,+14155552672'])));
    expect(unclosed).toMatchObject({ status: 400, code: 'invalid_csv' });
    expect(unclosed.message).toContain('never closed');
    const stray = await failure(plan(csv(['contactName,phoneNumber,height', 'Ann,+14155552671,5" 4'])));
    expect(stray).toMatchObject({ status: 400, code: 'invalid_csv' });
    expect(stray.message).toContain('line 2');
  });
});

describe('header', () => {
  it('matches the known columns trimmed and case-insensitively; others become external fields as written', async () => {
    const p = await plan(csv(['  CONTACTNAME , PhoneNumber,REGION , Favourite Colour ', 'Ann,+14155552671,,blue']));
    expect(p.drafts[0]).toMatchObject({
      contactName: 'Ann',
      phoneNumber: '+14155552671',
      region: 'US',
      externalFields: { 'Favourite Colour': 'blue' },
    });
  });

  it('names every missing required column in a 400', async () => {
    const both = await failure(plan(csv(['who,digits', 'Ann,+14155552671'])));
    expect(both).toMatchObject({ status: 400, code: 'missing_columns' });
    expect(both.message).toContain('contactName');
    expect(both.message).toContain('phoneNumber');
    expect(both.details).toEqual([
      { field: 'contactName', message: 'required column is missing' },
      { field: 'phoneNumber', message: 'required column is missing' },
    ]);
    const one = await failure(plan(csv(['contactName,digits'])));
    expect(one.message).toContain('phoneNumber');
    expect(one.message).not.toContain('contactName');
  });

  it('reads the documented aliases of the known columns, ignoring case, spaces and punctuation', async () => {
    const cases: [string, string][] = [
      ['Name,Phone', 'name/phone'],
      ['Full Name,Phone Number', 'spaced'],
      ['contact_name,phone_number', 'snake case'],
      ['CONTACT-NAME,Mobile Number', 'hyphen and capitals'],
      ['Contact,Tel.', 'trailing dot'],
      ['display name,mobile', 'other aliases'],
      ['name,number', 'bare number'],
      ['name,telephone', 'telephone'],
    ];
    for (const [header, label] of cases) {
      const p = await plan(csv([`${header},note`, 'Ann,+14155552671,hi']));
      expect(p.drafts, label).toEqual([{ row: 2, contactName: 'Ann', phoneNumber: '+14155552671', region: 'US', externalFields: { note: 'hi' } }]);
    }
    for (const header of ['Name', 'full name', 'contactName']) expect(knownColumn(header)).toBe('contactName');
    for (const header of ['phone_number', 'Mobile', 'TEL', 'cell phone']) expect(knownColumn(header)).toBe('phoneNumber');
    // Near misses stay external fields rather than being guessed at.
    for (const header of ['first name', 'last name', 'work phone', 'account number', 'phones']) expect(knownColumn(header)).toBeUndefined();
    const near = await plan(csv(['name,phone,first name,work phone', 'Ann,+14155552671,A,+14155552672']));
    expect(near.drafts[0]!.externalFields).toEqual({ 'first name': 'A', 'work phone': '+14155552672' });
  });

  it('refuses two columns naming the same field with a 400 that names both', async () => {
    const phones = await failure(plan(csv(['name,Phone,Mobile', 'Ann,+14155552671,+14155552672'])));
    expect(phones).toMatchObject({ status: 400, code: 'ambiguous_columns' });
    expect(phones.message).toBe('The columns "Phone" and "Mobile" both name phoneNumber; rename or remove one of them.');
    expect(phones.details).toEqual([
      { field: 'Phone', message: 'column 2 is read as phoneNumber' },
      { field: 'Mobile', message: 'column 3 is also read as phoneNumber' },
    ]);
    const names = await failure(plan(csv(['contactName,Full Name,phone'])));
    expect(names).toMatchObject({ status: 400, code: 'ambiguous_columns' });
    expect(names.message).toContain('"contactName" and "Full Name"');
    expect(await failure(plan(csv(['name,phone number,phone_number'])))).toMatchObject({ status: 400, code: 'ambiguous_columns' });
  });

  it('refuses a __proto__ header, and no header reaches a prototype', async () => {
    const refused = await failure(plan(csv(['contactName,phoneNumber,__proto__', 'Ann,+14155552671,"{""polluted"":true}"'])));
    expect(refused).toMatchObject({ status: 400, code: 'forbidden_column' });
    expect(refused.message).toContain('__proto__');
    // Every other name Object.prototype has is an ordinary column.
    const names = Object.getOwnPropertyNames(Object.prototype).filter((n) => n !== '__proto__');
    const p = await plan(csv([`contactName,phoneNumber,${names.join(',')}`, `Ann,+14155552671,${names.map((n) => `v-${n}`).join(',')}`]));
    expect(p.errors).toEqual([]);
    const fields = p.drafts[0]!.externalFields;
    expect(Object.keys(fields)).toEqual(names);
    for (const n of names) expect(Object.getOwnPropertyDescriptor(fields, n)?.value).toBe(`v-${n}`);
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof ({}).toString).toBe('function');
  });

  it('refuses duplicate headers (ignoring case) and over-long ones', async () => {
    expect(await failure(plan(csv(['contactName,phoneNumber,Email,email'])))).toMatchObject({ status: 400, code: 'duplicate_column' });
    expect(await failure(plan(csv([`contactName,phoneNumber,${'x'.repeat(65)}`])))).toMatchObject({ status: 400, code: 'invalid_header' });
  });

  it('a header-only file is zero rows, and a file of blank lines has no header', async () => {
    const p = await plan(csv(['contactName,phoneNumber']));
    expect(p).toEqual({ rows: 0, drafts: [], duplicates: 0, errors: [] });
    expect(await failure(plan(csv(['', ' , ', ''])))).toMatchObject({ status: 400, code: 'missing_header' });
  });
});

describe('rows', () => {
  it('stores values that look like formulas verbatim as text, and reads +numbers as phone numbers', async () => {
    const p = await plan(
      csv([
        'contactName,phoneNumber,a,b,c,d',
        '"=HYPERLINK(""http://x.test"")",+1 (415) 555-2671,=1+2,+SUM(A1),-5,@cmd',
      ]),
    );
    expect(p.errors).toEqual([]);
    expect(p.drafts[0]).toMatchObject({
      contactName: '=HYPERLINK("http://x.test")',
      phoneNumber: '+14155552671',
      externalFields: { a: '=1+2', b: '+SUM(A1)', c: '-5', d: '@cmd' },
    });
  });

  it('counts every data row exactly once: draft, in-file duplicate or error; blank rows are not rows', async () => {
    const p = await plan(
      csv([
        'contactName,phoneNumber,region',
        'Ann,+14155552671,',
        '',
        'Ann again,+1 415 555 2671,',
        ',+14155552672,',
        'Cy,not a number,',
        `Dee,+14155552673,${'r'.repeat(101)}`,
        'Eve,+447700900123,gb',
        ',,',
      ]),
    );
    expect(p.rows).toBe(6);
    expect(accounted(p)).toBe(p.rows);
    expect(p.duplicates).toBe(1);
    expect(p.drafts.map((d) => [d.contactName, d.phoneNumber, d.region])).toEqual([
      ['Ann', '+14155552671', 'US'],
      ['Eve', '+447700900123', 'GB'],
    ]);
    expect(p.errors).toEqual([
      { row: 5, column: 'contactName', value: '', message: 'contactName is required' },
      { row: 6, column: 'phoneNumber', value: 'not a number', message: 'is not a valid phone number' },
      { row: 7, column: 'region', value: `${'r'.repeat(99)}…`, message: 'region is longer than 100 characters' },
    ]);
  });

  it('takes any sensible region text, derives the country only from a blank cell, and loses no row over it', async () => {
    const p = await plan(
      csv([
        'contactName,phoneNumber,Region',
        'Ann,+14155552671,London',
        'Bob,+14155552672,  Virginia ',
        'Cy,+14155552673,',
        'Dee,+14155552674,"New\nYork"',
        'Eve,+14155552675,Île-de-France',
        'Fay,+14155552676,ca',
        'Gus,+14155552677,United States of America',
        'Hal,+14155552678,"bad\u0001region"',
      ]),
    );
    expect(p.rows).toBe(8);
    expect(p.drafts.map((d) => d.region)).toEqual(['London', 'Virginia', 'US', 'New York', 'Île-de-France', 'CA', 'United States of America']);
    expect(p.errors).toEqual([{ row: 10, column: 'Region', value: 'bad\u0001region', message: 'region cannot contain control characters' }]);
  });

  it('numbers without + need defaultCountry, and the error says so', async () => {
    const file = csv(['contactName,phoneNumber', 'Ann,(415) 555-2671']);
    const without = await plan(file);
    expect(without.errors[0]!.message).toContain('defaultCountry');
    const withCountry = await plan(file, { defaultCountry: 'US' });
    expect(withCountry.drafts[0]!.phoneNumber).toBe('+14155552671');
  });

  it('rejects a row with an over-long cell or a value under no header, echoing at most 100 characters', async () => {
    const long = 'y'.repeat(1_001);
    const p = await plan(csv(['contactName,phoneNumber,,note', `Ann,+14155552671,,${long}`, 'Bob,+14155552672,stray,', 'Cy,+14155552673,,ok,extra']));
    expect(p.drafts).toEqual([]);
    expect(p.errors.map((e) => [e.row, e.column, e.value.length, e.message])).toEqual([
      [2, 'note', 100, 'is longer than 1000 characters'],
      [3, 'column 3', 5, 'has a value but its column has no header'],
      [4, 'column 5', 5, 'has a value but its column has no header'],
    ]);
    const exact = await plan(csv(['contactName,phoneNumber,note', `Ann,+14155552671,${'y'.repeat(1_000)}`]));
    expect(exact.drafts[0]!.externalFields.note).toHaveLength(1_000);
  });
});

describe('limits', () => {
  it('refuses more data rows than the limit with a 413, and accepts exactly the limit', async () => {
    const lines = (n: number) => ['contactName,phoneNumber', ...Array.from({ length: n }, (_, i) => `P${i},${usNumber(i)}`)];
    expect((await plan(csv(lines(5)), { limits: { maxRows: 5 } })).drafts).toHaveLength(5);
    expect(await failure(plan(csv(lines(6)), { limits: { maxRows: 5 } }))).toMatchObject({ status: 413, code: 'too_many_rows' });
  });

  it('refuses more than 50 header columns with a 413', async () => {
    const header = ['contactName', 'phoneNumber', ...Array.from({ length: 48 }, (_, i) => `f${i}`)];
    expect((await plan(csv([header.join(',')]))).rows).toBe(0);
    expect(await failure(plan(csv([[...header, 'f48'].join(',')])))).toMatchObject({ status: 413, code: 'too_many_columns' });
  });

  it('refuses a file over the size limit with a 413', async () => {
    const big = Buffer.alloc(HTTP_IMPORT_LIMITS.maxFileBytes + 1, 0x61);
    expect(await failure(plan(big))).toMatchObject({ status: 413, code: 'file_too_large' });
  });

  it('refuses a CSV cell far beyond the cell limit as a whole-file 413, before holding it', async () => {
    const huge = `contactName,phoneNumber,note\nAnn,+14155552671,"${'z'.repeat(70_000)}"\n`;
    expect(await failure(plan(Buffer.from(huge)))).toMatchObject({ status: 413, code: 'cell_too_large' });
  });
});

describe('format detection', () => {
  it('empty is a 400; junk, legacy .xls, UTF-16, PDF and non-workbook ZIPs are 415s naming the formats', async () => {
    expect(await failure(plan(Buffer.alloc(0)))).toMatchObject({ status: 400, code: 'empty_file' });
    for (const bytes of [
      junk(),
      legacyXls(),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('contactName,phoneNumber', 'utf16le')]),
      Buffer.from('%PDF-1.7\n'),
      Buffer.from('contactName,phoneNumber\nAnn,+1\0'),
      zipOf({ mimetype: 'application/vnd.oasis.opendocument.spreadsheet', 'content.xml': '<x/>' }),
      zipOf({ 'word/document.xml': '<x/>', '[Content_Types].xml': '<x/>' }),
    ]) {
      const error = await failure(plan(bytes));
      expect(error).toMatchObject({ status: 415, code: 'unsupported_file_type' });
      expect(error.message).toContain('CSV');
      expect(error.message).toContain('.xlsx');
    }
    expect((await failure(plan(legacyXls()))).message).toContain('.xls');
  });

  it('judges by content: a CSV is a CSV whatever it is called, an .xlsx an .xlsx', async () => {
    const fromXlsx = await plan(await xlsx([['contactName', 'phoneNumber'], ['Ann', '+14155552671']]));
    expect(fromXlsx.drafts[0]).toMatchObject({ row: 2, contactName: 'Ann', phoneNumber: '+14155552671' });
  });
});

describe('.xlsx', () => {
  it('reads numeric phone cells as digits, numbers as typed, and skips empty cells', async () => {
    const book = await xlsx([
      ['contactName', 'phoneNumber', 'age', 'score', 'nickname', 'vip', 'since'],
      ['Ann', 14155552671, 42, 3.5, null, true, { value: new Date('2024-01-02T00:00:00Z'), format: 'yyyy-mm-dd' }],
      [null, null, null, null, null, null, null],
      ['Bob', '+14155552672', null, null, 'B', false, null],
    ]);
    const p = await plan(book, { defaultCountry: 'US' });
    expect(p.errors).toEqual([]);
    expect(p.drafts).toEqual([
      { row: 2, contactName: 'Ann', phoneNumber: '+14155552671', region: 'US', externalFields: { age: '42', score: '3.5', vip: 'TRUE', since: '2024-01-02' } },
      { row: 4, contactName: 'Bob', phoneNumber: '+14155552672', region: 'US', externalFields: { nickname: 'B', vip: 'FALSE' } },
    ]);
  });

  it('uses the cached value of formula cells and never the formula; no cached value is an empty cell', async () => {
    const book = xlsxFromSheetXml(
      `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row>` +
        `<row r="2">${textCell('A2', 'Ann')}<c r="B2"><v>1.4155552671E10</v></c><c r="C2" t="str"><f>A2&amp;"-x"</f><v>Ann-x</v></c><c r="D2"><f>1+1</f><v>2</v></c><c r="E2" t="str"><f>NOW()</f></c></row>` +
        `<row r="5"><c r="A5" t="str"><f>"Bo"&amp;"b"</f><v>Bob</v></c><c r="B5" t="str"><f>"+1415555"&amp;"2672"</f><v>+14155552672</v></c></row>`,
      ['contactName', 'phoneNumber', 'label', 'sum', 'stamp'],
    );
    const p = await plan(book, { defaultCountry: 'US' });
    expect(p.errors).toEqual([]);
    expect(p.drafts).toEqual([
      { row: 2, contactName: 'Ann', phoneNumber: '+14155552671', region: 'US', externalFields: { label: 'Ann-x', sum: '2' } },
      { row: 5, contactName: 'Bob', phoneNumber: '+14155552672', region: 'US', externalFields: {} },
    ]);
  });

  it('writes numeric text without exponent or decimal artifacts', () => {
    expect(numberText('1.4155552671E10')).toBe('14155552671');
    expect(numberText('14155552671.0')).toBe('14155552671');
    expect(numberText('1e+21')).toBe('1000000000000000000000');
    expect(numberText('0.1')).toBe('0.1');
    expect(numberText('-7')).toBe('-7');
  });

  it('refuses a zip bomb from its declared sizes, before expanding anything', async () => {
    const bomb = zipBomb(60 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(HTTP_IMPORT_LIMITS.maxFileBytes);
    const declared = readZipDirectory(bomb).reduce((s, e) => s + e.uncompressedSize, 0);
    expect(declared).toBeGreaterThan(HTTP_IMPORT_LIMITS.maxWorkbookBytes);
    const error = await failure(plan(bomb));
    expect(error).toMatchObject({ status: 413, code: 'workbook_too_large' });
  });

  it('refuses a zip bomb that lies about its sizes, by counting what it inflates', async () => {
    const liar = zipBomb(8 * 1024 * 1024, { lie: true });
    expect(readZipDirectory(liar).reduce((s, e) => s + e.uncompressedSize, 0)).toBeLessThan(HTTP_IMPORT_LIMITS.maxWorkbookBytes);
    const error = await failure(plan(liar));
    expect(error).toMatchObject({ status: 413, code: 'workbook_too_large' });
    expect(error.message).toContain('beyond');
  });

  it('does not expand XML entities declared in the workbook (billion laughs)', async () => {
    const entities = ['<!ENTITY lol0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`)];
    const book = xlsxFromSheetXml(
      `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2">${textCell('A2', 'NAME')}${textCell('B2', '+14155552671')}</row>`.replace('NAME', '&lol9;'),
      ['contactName', 'phoneNumber'],
      {},
      `<!DOCTYPE worksheet [${entities.join('')}]>`,
    );
    const p = await plan(book);
    expect(p.drafts).toHaveLength(1);
    expect(p.drafts[0]!.contactName.length).toBeLessThan(100);
  });

  it('refuses a damaged workbook with a 400, not a crash', async () => {
    const book = await xlsx([['contactName', 'phoneNumber'], ['Ann', '+14155552671']]);
    expect(await failure(plan(book.subarray(0, book.length - 30)))).toMatchObject({ status: 400, code: 'invalid_xlsx' });
    const broken = xlsxFromSheetXml('<row r="1"><c r="A1" t="s"><v>7</v></c></row>', ['contactName']);
    expect(await failure(plan(broken))).toMatchObject({ status: 400, code: 'invalid_xlsx' });
  });
});
