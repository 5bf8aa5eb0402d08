import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';

/**
 * The web session credential: what joining a meeting (`POST /meeting/{callId}/join`) hands the page, and
 * what the page presents to the streaming service's browser transport (`/web-stream`) in its first message.
 * The link's token is used up by the join; this credential is what lets the same tab rejoin its call after
 * a reload or a network blip. It is bound to the call and to one join (`sessionId`, random per join), is
 * kept only in that tab's sessionStorage, and expires when the call could no longer be running (the call's
 * maximum duration after the join, plus the rejoin grace).
 *
 * Format: `wss1.<payload>.<signature>`, like the stream token (lib/domain/stream-token.ts) but with its own
 * key ({@link WEB_SESSION_KEY_PURPOSE}), so neither credential can stand in for the other.
 */

const VERSION = 'wss1';

/** The HKDF `info` label of the signing key; the API (join) and the streaming service derive the same key. */
export const WEB_SESSION_KEY_PURPOSE = 'web-session/v1';

export const WebSessionClaims = z.strictObject({
  callId: z.string().min(1).max(64),
  workspaceId: z.string().min(1).max(64),
  agentId: z.string().min(1).max(64),
  contactId: z.string().min(1).max(64).optional(),
  /** Random per join: the one browser tab that joined. A rejoin must present the same one. */
  sessionId: z.string().min(16).max(64),
  /** Expiry, Unix seconds. */
  exp: z.number().int().positive(),
});
export type WebSessionClaims = z.infer<typeof WebSessionClaims>;

const mac = (key: Buffer, signed: string) => createHmac('sha256', key).update(signed, 'utf8').digest();

export function signWebSession(claims: WebSessionClaims, key: Buffer): string {
  const payload = Buffer.from(JSON.stringify(WebSessionClaims.parse(claims)), 'utf8').toString('base64url');
  const signed = `${VERSION}.${payload}`;
  return `${signed}.${mac(key, signed).toString('base64url')}`;
}

export type WebSessionResult =
  | { readonly ok: true; readonly claims: WebSessionClaims }
  | { readonly ok: false; readonly reason: 'malformed' | 'bad_signature' | 'expired' };

/** Checks the signature (constant time) and expiry, then the claims' shape. */
export function verifyWebSession(credential: string, key: Buffer, nowMs: number = Date.now()): WebSessionResult {
  if (credential.length > 2048) return { ok: false, reason: 'malformed' };
  const parts = credential.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return { ok: false, reason: 'malformed' };
  const [, payload, signature] = parts as [string, string, string];
  const expected = mac(key, `${VERSION}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  let parsed;
  try {
    parsed = WebSessionClaims.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!parsed.success) return { ok: false, reason: 'malformed' };
  if (parsed.data.exp * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, claims: parsed.data };
}
