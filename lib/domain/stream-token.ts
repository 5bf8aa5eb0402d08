import * as z from 'zod';
import { signToken, verifyToken, type SignedTokenResult } from './signed-token.js';

/**
 * The stream token: what the voice webhook hands Twilio in `<Parameter name="token">` and the streaming
 * service checks in the Media Stream's `start.customParameters` before it spends anything on a call. It
 * names only the call: our call id, its workspace and the provider call it was issued for, so a stream
 * opened for any other call is refused. Everything else (agent, number, contact, the other party) the
 * streaming service reads from the live call it claims, never from the token. The signature alone does not
 * make it single use (whoever holds a BYOT number's auth token can sign the voice webhook and read the
 * token): the streaming service also claims the token's call once (`claimStream` in lib/store/calls.ts),
 * so it admits one stream per call, ever.
 *
 * Format: `vst1.<payload>.<signature>`, where payload is base64url(JSON claims) and signature is
 * base64url(HMAC-SHA256(key, "vst1." + payload)). The key is derived from the platform's data key
 * (see {@link STREAM_TOKEN_KEY_PURPOSE}); both sides derive the same one.
 */

const VERSION = 'vst1';

/** The HKDF `info` label the signing key is derived with; the streaming service must use the same. */
export const STREAM_TOKEN_KEY_PURPOSE = 'stream-token/v1';

/**
 * Twilio opens the stream within a second or two of receiving the TwiML; two minutes covers a slow carrier
 * and clock skew between the Lambda and the container while keeping a leaked token nearly worthless.
 */
export const STREAM_TOKEN_TTL_SECONDS = 120;

export const StreamTokenClaims = z.strictObject({
  /** The provider call (Twilio `CA…`) the token was issued for; the stream's `start.callSid` must match. */
  callSid: z.string().min(1).max(64),
  workspaceId: z.string().min(1).max(64),
  /**
   * Our call id: the live call (outbound, or inbound reserved at the voice webhook) whose single stream
   * claim the token is good for, and whose end settles its credits; also the history record's `_id`.
   */
  callId: z.string().min(1).max(64),
  /** Expiry, Unix seconds. */
  exp: z.number().int().positive(),
});
export type StreamTokenClaims = z.infer<typeof StreamTokenClaims>;

/** Signs claims; `exp` defaults to now plus {@link STREAM_TOKEN_TTL_SECONDS}. */
export function signStreamToken(
  claims: Omit<StreamTokenClaims, 'exp'> & { exp?: number },
  key: Buffer,
  nowMs: number = Date.now(),
): string {
  return signToken(VERSION, StreamTokenClaims, { ...claims, exp: claims.exp ?? Math.floor(nowMs / 1000) + STREAM_TOKEN_TTL_SECONDS }, key);
}

export type StreamTokenResult = SignedTokenResult<StreamTokenClaims>;

/** Checks the signature (constant time), the claims' shape and the expiry. */
export const verifyStreamToken = (token: string, key: Buffer | readonly Buffer[], nowMs: number = Date.now()): StreamTokenResult =>
  verifyToken(VERSION, StreamTokenClaims, token, key, nowMs);
