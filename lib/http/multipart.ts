import busboy from 'busboy';
import { AppError, BadRequestError } from '../domain/errors.js';

/** The parts of an API Gateway event this reader needs. */
export interface MultipartEvent {
  readonly body?: string;
  readonly isBase64Encoded?: boolean;
  readonly headers?: Record<string, string | undefined>;
}

/** A form read from a multipart body: its text fields and its one file. */
export interface MultipartForm {
  readonly fields: ReadonlyMap<string, string>;
  readonly file?: { readonly filename: string; readonly mimeType: string; readonly bytes: Buffer };
}

export interface MultipartOptions {
  /** The name of the one file part. */
  readonly fileField: string;
  /** Largest file accepted; exceeding it aborts the read with `tooLarge()`. */
  readonly maxFileBytes: number;
  readonly tooLarge: () => Error;
}

/**
 * Base64 characters decoded per write: a multiple of 4, so every slice decodes on its own. The body is
 * never decoded whole; only the file part is collected, so one decoded copy of the file exists.
 */
const SLICE_CHARS = 256 * 1024;

const malformed = (why: string) =>
  new BadRequestError(`The multipart body cannot be read: ${why}.`, [{ field: 'body', message: why }], 'invalid_multipart');

class UnsupportedMediaTypeError extends AppError {
  constructor() {
    super(415, 'unsupported_media_type', 'Send the upload as multipart/form-data with the fields file and workspaceId.', [
      { field: 'content-type', message: 'expected multipart/form-data' },
    ]);
  }
}

function* bodySlices(event: MultipartEvent): Generator<Buffer> {
  const body = event.body ?? '';
  if (!event.isBase64Encoded) {
    // API Gateway sends multipart bodies base64-encoded; a text body can only be a client that sent a
    // text content type, and is read as it arrived.
    yield Buffer.from(body, 'utf8');
    return;
  }
  for (let i = 0; i < body.length; i += SLICE_CHARS) yield Buffer.from(body.slice(i, i + SLICE_CHARS), 'base64');
}

/**
 * Streams a multipart/form-data body through busboy, from the event's base64 body, slice by slice. The
 * file size limit is enforced as the bytes arrive (the gateway admits 10 MiB bodies); small limits on the
 * text fields and part counts keep a hostile form from costing anything.
 */
export async function readMultipartForm(event: MultipartEvent, options: MultipartOptions): Promise<MultipartForm> {
  const contentType = Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) throw new UnsupportedMediaTypeError();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      // busboy reports 'limit' on reaching fileSize, even when the file ends exactly there: one byte more
      // lets a file of exactly maxFileBytes through and stops any larger one.
      limits: { fileSize: options.maxFileBytes + 1, files: 1, fields: 10, parts: 12, fieldSize: 1024, fieldNameSize: 100, headerPairs: 20 },
    });
  } catch (error) {
    throw malformed((error as Error).message);
  }

  const fields = new Map<string, string>();
  let file: MultipartForm['file'];
  let failure: Error | undefined;
  const fileDone: Promise<void>[] = [];
  const fail = (error: Error) => {
    failure ??= error;
  };

  // busboy reports a part with an empty or missing name (`name=""`) as `undefined`, whatever its typings say.
  parser.on('field', (rawName: string | undefined, value, info) => {
    const name = rawName ?? '';
    if (info.nameTruncated || info.valueTruncated) return fail(malformed(`the field "${name.slice(0, 100)}" is too long`));
    if (fields.has(name)) return fail(malformed(`the field "${name}" is sent twice`));
    fields.set(name, value);
  });
  parser.on('file', (rawName: string | undefined, stream, info) => {
    const name = rawName ?? '';
    // Copied into one buffer as they arrive: busboy's chunks are views of the decoded body slices, and
    // keeping them for a final concat would hold the file twice. The file is no larger than the body.
    const body = event.body ?? '';
    const room = Math.min(options.maxFileBytes, event.isBase64Encoded ? Math.ceil((body.length * 3) / 4) : Buffer.byteLength(body));
    const into = Buffer.allocUnsafe(room);
    let size = 0;
    if (name !== options.fileField) fail(malformed(`a file was sent in the field "${name}"; send it in "${options.fileField}"`));
    stream.on('data', (chunk: Buffer) => {
      if (failure) return;
      const n = chunk.copy(into, size);
      size += n;
      if (n < chunk.length) fail(options.tooLarge());
    });
    stream.on('limit', () => fail(options.tooLarge()));
    // Destroying the parser after a failure errors the open file stream ("Unexpected end of file"); without
    // a listener that would be an uncaught exception that takes the whole Lambda runtime down.
    stream.on('error', (error: Error) => fail(malformed(error.message)));
    fileDone.push(
      new Promise<void>((resolve) => {
        stream.on('close', resolve);
        stream.on('end', () => {
          if (!failure) file = { filename: info.filename ?? '', mimeType: info.mimeType, bytes: into.subarray(0, size) };
          resolve();
        });
      }),
    );
  });
  parser.on('filesLimit', () => fail(malformed('send exactly one file')));
  parser.on('fieldsLimit', () => fail(malformed('too many fields')));
  parser.on('partsLimit', () => fail(malformed('too many parts')));

  const finished = new Promise<void>((resolve) => {
    parser.on('close', resolve);
    parser.on('error', (error: Error) => {
      fail(malformed(error.message));
      resolve();
    });
  });

  for (const slice of bodySlices(event)) {
    if (failure) break;
    await new Promise<void>((resolve) => parser.write(slice, () => resolve()));
  }
  if (failure) {
    parser.destroy();
    throw failure;
  }
  parser.end();
  await finished;
  await Promise.all(fileDone);
  if (failure) throw failure;
  return { fields, file };
}
