/**
 * Invariant: a multipart upload is read from the API Gateway event's base64 body into its text fields and
 * its one file, byte for byte; the file size limit stops the read while the body streams (before the rest
 * of the body is even looked at); and every malformed or over-limit form is a 4xx, never a crash.
 */
import { describe, expect, it } from 'vitest';
import { readMultipartForm, type MultipartEvent } from '../../lib/http/multipart.js';

const BOUNDARY = 'x-boundary-7MA4YWxkTrZu0gW';

function part(name: string, value: string | Buffer, filename?: string): Buffer {
  const disposition = `form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}`;
  const type = filename ? 'Content-Type: application/octet-stream\r\n' : '';
  return Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(value), Buffer.from('\r\n')]);
}

const event = (body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`): MultipartEvent => ({
  body: body.toString('base64'),
  isBase64Encoded: true,
  headers: { 'content-type': contentType },
});

const close = Buffer.from(`--${BOUNDARY}--\r\n`);
const LIMIT = 1024 * 1024;
const read = (e: MultipartEvent) =>
  readMultipartForm(e, { fileField: 'file', maxFileBytes: LIMIT, tooLarge: () => Object.assign(new Error('too large'), { status: 413 }) });

async function failure(promise: Promise<unknown>): Promise<{ status: number; code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { status: number; code?: string; message: string };
  }
  throw new Error('expected a rejection');
}

describe('readMultipartForm', () => {
  it('reads the fields and the file exactly, across base64 slices', async () => {
    const file = Buffer.alloc(700 * 1024);
    for (let i = 0; i < file.length; i += 1) file[i] = (i * 31) & 0xff;
    const form = await read(event(Buffer.concat([part('workspaceId', 'ws_1'), part('file', file, 'a.bin'), part('defaultCountry', 'US'), close])));
    expect(Object.fromEntries(form.fields)).toEqual({ workspaceId: 'ws_1', defaultCountry: 'US' });
    expect(form.file?.filename).toBe('a.bin');
    expect(form.file?.bytes.equals(file)).toBe(true);
  });

  it('stops at the size limit while streaming: a broken end after the limit is never reached', async () => {
    const big = Buffer.alloc(LIMIT + 300 * 1024, 0x61);
    // No closing boundary: read to the end, this would be "Unexpected end of form" (a 400).
    const error = await failure(read(event(Buffer.concat([part('workspaceId', 'ws_1'), part('file', big, 'a.csv').subarray(0, -2)]))));
    expect(error.status).toBe(413);
    const exact = await read(event(Buffer.concat([part('file', Buffer.alloc(LIMIT, 0x61), 'a.csv'), close])));
    expect(exact.file?.bytes.length).toBe(LIMIT);
  });

  it('refuses two files, a file in another field, repeated or over-long fields, and a truncated body with 400s', async () => {
    const one = part('file', 'a,b', 'a.csv');
    const cases = [
      Buffer.concat([one, part('file', 'c,d', 'b.csv'), close]),
      Buffer.concat([part('upload', 'a,b', 'a.csv'), close]),
      Buffer.concat([part('workspaceId', 'a'), part('workspaceId', 'b'), one, close]),
      Buffer.concat([part('workspaceId', 'w'.repeat(2_000)), one, close]),
      Buffer.concat([part('workspaceId', 'ws_1'), one]),
    ];
    for (const body of cases) {
      const error = await failure(read(event(body)));
      expect(error).toMatchObject({ status: 400, code: 'invalid_multipart' });
    }
  });

  it('reads parts with an empty name (busboy reports them as undefined) as the field "", never a crash', async () => {
    const one = part('file', 'a,b', 'a.csv');
    const named = await read(event(Buffer.concat([part('', 'value'), one, close])));
    expect([...named.fields]).toEqual([['', 'value']]);
    expect(await failure(read(event(Buffer.concat([part('', 'x'.repeat(2_000)), one, close]))))).toMatchObject({ status: 400, code: 'invalid_multipart' });
    expect(await failure(read(event(Buffer.concat([part('', 'a,b', 'a.csv'), close]))))).toMatchObject({ status: 400, code: 'invalid_multipart' });
  });

  it('refuses a body that is not multipart/form-data with a 415', async () => {
    for (const type of ['application/json', 'text/csv', '']) {
      expect(await failure(read(event(Buffer.from('{}'), type)))).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    }
    expect(await failure(read(event(Buffer.from('x'), 'multipart/form-data')))).toMatchObject({ status: 400, code: 'invalid_multipart' });
  });
});
