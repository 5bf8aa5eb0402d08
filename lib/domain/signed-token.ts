import { createHmac, timingSafeEqual } from 'node:crypto';
import type * as z from 'zod';

/**
 * The platform's signed tokens (the stream token, the web session credential): `<version>.<payload>.<sig>`,
 * where payload is base64url(JSON claims) and sig is base64url(HMAC-SHA256(key, "<version>." + payload)).
 * Each kind has its own version prefix and its own derived key, so one can never stand in for another.
 */

export type SignedTokenResult<T> =
  | { readonly ok: true; readonly claims: T }
  | { readonly ok: false; readonly reason: 'malformed' | 'bad_signature' | 'expired' };

/** Longer than any token we issue: anything bigger is not worth an HMAC. */
const MAX_TOKEN_LENGTH = 4096;

const mac = (key: Buffer, signed: string) => createHmac('sha256', key).update(signed, 'utf8').digest();

/** Signs claims already checked against their schema. */
export function signToken<S extends z.ZodType<{ exp: number }>>(version: string, schema: S, claims: z.input<S>, key: Buffer): string {
  const payload = Buffer.from(JSON.stringify(schema.parse(claims)), 'utf8').toString('base64url');
  const signed = `${version}.${payload}`;
  return `${signed}.${mac(key, signed).toString('base64url')}`;
}

/**
 * Checks the version, the signature (constant time), the claims' shape, then the expiry (`exp`, Unix s).
 * `key` may be several keys (one per data-key version while a rotation rolls out): any one may have signed.
 */
export function verifyToken<S extends z.ZodType<{ exp: number }>>(
  version: string,
  schema: S,
  token: string,
  key: Buffer | readonly Buffer[],
  nowMs: number,
): SignedTokenResult<z.output<S>> {
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== version) return { ok: false, reason: 'malformed' };
  const [, payload, signature] = parts as [string, string, string];
  const given = Buffer.from(signature, 'base64url');
  const signedBy = (k: Buffer) => {
    const expected = mac(k, `${version}.${payload}`);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  if (!(Buffer.isBuffer(key) ? [key] : key).some(signedBy)) return { ok: false, reason: 'bad_signature' };
  let parsed;
  try {
    parsed = schema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!parsed.success) return { ok: false, reason: 'malformed' };
  if (parsed.data.exp * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, claims: parsed.data };
}
