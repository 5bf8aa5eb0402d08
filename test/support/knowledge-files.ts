import { deflateRawSync, deflateSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';

/** Test documents for knowledge bases: Word files built by hand (the parts a .docx needs), and hostile ones. */

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One paragraph: `style` is a Word style id such as `Heading1`. */
export interface DocxParagraph {
  readonly text: string;
  readonly style?: string;
}

export const documentXml = (paragraphs: readonly DocxParagraph[]): string =>
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
  paragraphs
    .map((p) => `<w:p>${p.style ? `<w:pPr><w:pStyle w:val="${p.style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${escapeXml(p.text)}</w:t></w:r></w:p>`)
    .join('') +
  '</w:body></w:document>';

/** A .docx holding these paragraphs. */
export const docx = (paragraphs: readonly DocxParagraph[]): Buffer =>
  Buffer.from(zipSync({ '[Content_Types].xml': strToU8(CONTENT_TYPES), '_rels/.rels': strToU8(RELS), 'word/document.xml': strToU8(documentXml(paragraphs)) }));

/** A .docx whose document.xml inflates to `expandedBytes` while its directory declares 1 KiB (a lying zip bomb). */
export function docxBomb(expandedBytes: number): Buffer {
  const body = Buffer.alloc(expandedBytes, 0x20);
  body.write(documentXml([{ text: 'boom' }]).slice(0, 200), 0);
  const zip = Buffer.from(zipSync({ '[Content_Types].xml': strToU8(CONTENT_TYPES), '_rels/.rels': strToU8(RELS), 'word/document.xml': [deflateRawSync(body), { level: 0 }] }));
  const name = Buffer.from('word/document.xml');
  for (let at = zip.indexOf(name); at >= 0; at = zip.indexOf(name, at + 1)) {
    if (zip.readUInt32LE(at - 46) === 0x02014b50) {
      zip.writeUInt16LE(8, at - 46 + 10);
      zip.writeUInt32LE(1024, at - 46 + 24);
    }
    if (zip.readUInt32LE(at - 30) === 0x04034b50) {
      zip.writeUInt16LE(8, at - 30 + 8);
      zip.writeUInt32LE(1024, at - 30 + 22);
    }
  }
  return zip;
}

/** A .docx whose document.xml declares a DTD with an entity (billion laughs' first step). */
export const docxWithDtd = (): Buffer =>
  Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(CONTENT_TYPES),
      'word/document.xml': strToU8('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">]><w:document xmlns:w="x"><w:body><w:p><w:r><w:t>&a;</w:t></w:r></w:p></w:body></w:document>'),
    }),
  );

/** The first bytes of a PDF and nothing a reader can use. */
export const pdfHeader = (): Buffer => Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n', 'latin1');

/**
 * A real PDF (1.4, Helvetica, one text line per entry, a page per array), its cross-reference table at the
 * byte offsets PDF.js checks: what a word processor's "Save as PDF" gives for plain text.
 */
export function pdf(pages: readonly (readonly string[])[]): Buffer {
  const objects: (string | undefined)[] = [];
  const add = (o?: string) => objects.push(o);
  const catalog = add();
  const pagesObj = add();
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const lines of pages) {
    const ops = ['BT', `/F1 12 Tf`, '72 720 Td', '14 TL', ...lines.map((l) => `(${l.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj T*`), 'ET'].join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A PDF whose one stream is 64 MiB of zeros deflated (about 64 KiB): a deflate bomb. */
export const pdfBomb = (): Buffer =>
  Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj << /Length 65536 /Filter /FlateDecode >>\nstream\n'), deflateSync(Buffer.alloc(64 * 1024 * 1024)), Buffer.from('\nendstream\nendobj\n')]);
