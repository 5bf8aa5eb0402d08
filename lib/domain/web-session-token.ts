import * as z from 'zod';
import { signToken, verifyToken, type SignedTokenResult } from './signed-token.js';

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

export const signWebSession = (claims: WebSessionClaims, key: Buffer): string => signToken(VERSION, WebSessionClaims, claims, key);

export type WebSessionResult = SignedTokenResult<WebSessionClaims>;

/** Checks the signature (constant time), the claims' shape and the expiry. */
export const verifyWebSession = (credential: string, key: Buffer | readonly Buffer[], nowMs: number = Date.now()): WebSessionResult =>
  verifyToken(VERSION, WebSessionClaims, credential, key, nowMs);
