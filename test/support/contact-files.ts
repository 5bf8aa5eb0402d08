/**
 * Builders of contact files for the import tests: CSV text, .xlsx workbooks made in the test (with
 * write-excel-file, or from raw sheet XML zipped with fflate where a case needs exact cell XML such as a
 * formula with a cached value), zip bombs, and multipart uploads.
 */
import { deflateRawSync } from 'node:zlib';
import { strToU8, zipSync, type Zippable } from 'fflate';
import writeXlsxFile, { type SheetData } from 'write-excel-file/node';

/** CSV text from lines, CRLF-terminated unless told otherwise. */
export const csv = (lines: readonly string[], eol = '\r\n') => Buffer.from(lines.map((l) => `${l}${eol}`).join(''), 'utf8');

/** A workbook from rows of values, written by write-excel-file. */
export async function xlsx(rows: SheetData): Promise<Buffer> {
  return writeXlsxFile(rows).toBuffer();
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Contacts" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An inline-string cell. */
export const textCell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`;

/**
 * A workbook whose first sheet has exactly this `<sheetData>` content, so a test controls every cell's
 * XML (formula cells with or without a cached value, numbers in exponent form, shared strings).
 */
export function xlsxFromSheetXml(sheetData: string, sharedStrings: readonly string[] = [], extra: Zippable = {}, doctype = ''): Buffer {
  const sst = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${sharedStrings.length}" uniqueCount="${sharedStrings.length}">${sharedStrings.map((s) => `<si><t>${escapeXml(s)}</t></si>`).join('')}</sst>`;
  const sheet = `<?xml version="1.0" encoding="UTF-8"?>${doctype}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetData}</sheetData></worksheet>`;
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(CONTENT_TYPES),
      '_rels/.rels': strToU8(ROOT_RELS),
      'xl/workbook.xml': strToU8(WORKBOOK),
      'xl/_rels/workbook.xml.rels': strToU8(WORKBOOK_RELS),
      'xl/worksheets/sheet1.xml': strToU8(sheet),
      'xl/sharedStrings.xml': strToU8(sst),
      ...extra,
    }),
  );
}

/**
 * A workbook whose sheet XML expands to `expandedBytes` (padding whitespace deflates about 1000:1, so the
 * file stays tiny). With `lie`, the central directory claims the sheet is 1 KB: a bomb that only an
 * inflater counting its output can catch. The sheet is deflated by zlib (fast) and stored by fflate, then
 * its method and declared size are patched in; its CRC is left unchecked, as the guard refuses it first.
 */
export function zipBomb(expandedBytes: number, options: { lie?: boolean } = {}): Buffer {
  const head = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">${textCell('A1', 'contactName')}${textCell('B1', 'phoneNumber')}</row>`;
  const tail = '</sheetData></worksheet>';
  const body = Buffer.alloc(expandedBytes, 0x20);
  body.write(head, 0);
  body.write(tail, expandedBytes - tail.length);
  const deflated = deflateRawSync(body);
  const zip = Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(CONTENT_TYPES),
      '_rels/.rels': strToU8(ROOT_RELS),
      'xl/workbook.xml': strToU8(WORKBOOK),
      'xl/_rels/workbook.xml.rels': strToU8(WORKBOOK_RELS),
      'xl/worksheets/sheet1.xml': [deflated, { level: 0 }],
    }),
  );
  const declared = options.lie ? 1024 : expandedBytes;
  const name = Buffer.from('xl/worksheets/sheet1.xml');
  for (let at = zip.indexOf(name); at >= 0; at = zip.indexOf(name, at + 1)) {
    if (zip.readUInt32LE(at - 46) === 0x02014b50) {
      zip.writeUInt16LE(8, at - 46 + 10);
      zip.writeUInt32LE(declared, at - 46 + 24);
    }
    if (zip.readUInt32LE(at - 30) === 0x04034b50) {
      zip.writeUInt16LE(8, at - 30 + 8);
      zip.writeUInt32LE(declared, at - 30 + 22);
    }
  }
  return zip;
}

/** The first bytes of an OLE2 compound document (legacy .xls), followed by filler. */
export const legacyXls = () =>
  Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(1024, 0)]);

/** Deterministic bytes that are neither UTF-8 text nor a known container. */
export function junk(length = 4096): Buffer {
  const out = Buffer.alloc(length);
  let x = 0x2545f491;
  for (let i = 0; i < length; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  out[0] = 0xc3; // an invalid UTF-8 sequence start, whatever follows
  out[1] = 0x28;
  return out;
}

/** A distinct valid US test number (+1 415 555 xxxx style ranges are "possible" numbers). */
export const usNumber = (i: number) => `+1415${String(5_550_000 + i).padStart(7, '0')}`;
