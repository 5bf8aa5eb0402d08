import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * AWS Signature Version 4 verification for the local recordings bucket. s3rver accepts unsigned requests
 * and does not check V4 signatures at all (its middleware says so), so without this any process that can
 * reach its port could list and read every workspace's recordings. This checks what S3 checks: the
 * signature over the canonical request (header or presigned query form), the credential scope, and expiry.
 * The payload hash is taken as the client declared it (x-amz-content-sha256), as S3 does for the signature.
 */

export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface SignedRequest {
  readonly method: string;
  /** The path exactly as sent (already percent-encoded; S3 does not encode it again). */
  readonly rawPath: string;
  /** The query string exactly as sent, without `?`. */
  readonly rawQuery: string;
  readonly headers: IncomingHttpHeaders;
}

export type Verdict = { readonly ok: true } | { readonly ok: false; readonly code: string; readonly message: string };

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** S3 refuses header-signed requests whose X-Amz-Date is more than 15 minutes off. */
const MAX_SKEW_MS = 15 * 60 * 1000;
/** S3's longest presigned validity: 7 days. */
const MAX_EXPIRES_SECONDS = 7 * 24 * 3600;

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding, as SigV4 canonicalises query names and values. */
const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, '%20'));
  } catch {
    return s;
  }
}

function parseQuery(raw: string): [string, string][] {
  if (!raw) return [];
  return raw.split('&').filter(Boolean).map((pair) => {
    const i = pair.indexOf('=');
    return i < 0 ? [decode(pair), ''] : [decode(pair.slice(0, i)), decode(pair.slice(i + 1))];
  });
}

/** `20260101T000000Z` as epoch ms; NaN when malformed. */
function amzDateMs(value: string | undefined): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!m) return Number.NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

const headerValue = (headers: IncomingHttpHeaders, name: string): string => {
  const v = headers[name];
  return (Array.isArray(v) ? v.join(',') : (v ?? '')).trim().replace(/\s+/g, ' ');
};

const deny = (code: string, message: string): Verdict => ({ ok: false, code, message });

/** Verifies a request signed with SigV4 for S3, in the Authorization header or as a presigned URL. */
export function verifySigV4(req: SignedRequest, creds: S3Credentials, nowMs: number = Date.now()): Verdict {
  const query = parseQuery(req.rawQuery);
  const q = new Map(query);
  const auth = headerValue(req.headers, 'authorization');
  let credential: string;
  let signedHeaders: string;
  let signature: string;
  let amzDate: string;
  let payloadHash: string;
  let canonicalQuery: [string, string][];
  if (auth) {
    const m = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(auth);
    if (!m) return deny('AccessDenied', 'Only AWS Signature Version 4 is accepted.');
    [, credential, signedHeaders, signature] = m as unknown as [string, string, string, string];
    amzDate = headerValue(req.headers, 'x-amz-date');
    payloadHash = headerValue(req.headers, 'x-amz-content-sha256');
    if (!payloadHash) return deny('AccessDenied', 'x-amz-content-sha256 is required.');
    const at = amzDateMs(amzDate);
    if (!(Math.abs(nowMs - at) <= MAX_SKEW_MS)) return deny('RequestTimeTooSkewed', 'The request time is too far from the server time.');
    canonicalQuery = query;
  } else if (q.get('X-Amz-Algorithm') !== undefined) {
    if (q.get('X-Amz-Algorithm') !== ALGORITHM) return deny('AccessDenied', 'Only AWS Signature Version 4 is accepted.');
    credential = q.get('X-Amz-Credential') ?? '';
    signedHeaders = q.get('X-Amz-SignedHeaders') ?? '';
    signature = q.get('X-Amz-Signature') ?? '';
    amzDate = q.get('X-Amz-Date') ?? '';
    payloadHash = q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    const expires = Number(q.get('X-Amz-Expires'));
    const at = amzDateMs(amzDate);
    if (!Number.isInteger(expires) || expires < 1 || expires > MAX_EXPIRES_SECONDS || Number.isNaN(at)) {
      return deny('AuthorizationQueryParametersError', 'X-Amz-Date and X-Amz-Expires must be valid.');
    }
    if (nowMs > at + expires * 1000) return deny('AccessDenied', 'Request has expired');
    canonicalQuery = query.filter(([k]) => k !== 'X-Amz-Signature');
  } else {
    return deny('AccessDenied', 'This bucket accepts only signed requests (a presigned URL or SigV4 credentials).');
  }

  const [accessKeyId, date, region, service, terminal, ...rest] = credential.split('/');
  if (rest.length > 0 || !date || !region || service !== 's3' || terminal !== 'aws4_request' || !amzDate.startsWith(date)) {
    return deny('AuthorizationHeaderMalformed', 'The credential scope is malformed.');
  }
  if (accessKeyId !== creds.accessKeyId) return deny('InvalidAccessKeyId', 'The access key id is not known.');
  const names = signedHeaders.split(';');
  if (!names.includes('host')) return deny('AccessDenied', 'The host header must be signed.');

  const canonicalRequest = [
    req.method.toUpperCase(),
    req.rawPath || '/',
    canonicalQuery
      .map(([k, v]) => [encode(k), encode(v)] as const)
      .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`)
      .join('&'),
    names.map((n) => `${n}:${headerValue(req.headers, n)}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, date), region), 's3'), 'aws4_request');
  const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return deny('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  }
  return { ok: true };
}
