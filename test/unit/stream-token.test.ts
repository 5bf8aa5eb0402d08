/**
 * Invariant: a stream token verifies only with the key it was signed with, only before it expires, and
 * only unaltered; the signing key is derived from the data key per purpose, so the streaming service gets
 * the same key without ever seeing the data key, and no other purpose's key signs a valid token.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signStreamToken, STREAM_TOKEN_KEY_PURPOSE, STREAM_TOKEN_TTL_SECONDS, verifyStreamToken } from '../../lib/domain/stream-token.js';
import { createSecretBox } from '../../lib/store/secret-box.js';

const claims = { callSid: `CA${'1'.repeat(32)}`, workspaceId: 'ws_1', callId: 'call_1' };
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const dataKey = randomBytes(32);
const key = createSecretBox(dataKey).deriveKey(STREAM_TOKEN_KEY_PURPOSE);

describe('stream token', () => {
  it('round-trips its claims with an expiry TTL seconds ahead', () => {
    const token = signStreamToken(claims, key, NOW);
    expect(token).toMatch(/^vst1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const result = verifyStreamToken(token, key, NOW);
    expect(result).toEqual({ ok: true, claims: { ...claims, exp: NOW / 1000 + STREAM_TOKEN_TTL_SECONDS } });
  });

  it('expires at exp', () => {
    const token = signStreamToken(claims, key, NOW);
    expect(verifyStreamToken(token, key, NOW + (STREAM_TOKEN_TTL_SECONDS - 1) * 1000).ok).toBe(true);
    expect(verifyStreamToken(token, key, NOW + STREAM_TOKEN_TTL_SECONDS * 1000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token signed with another key, or another purpose of the same data key', () => {
    const token = signStreamToken(claims, key, NOW);
    expect(verifyStreamToken(token, randomBytes(32), NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    const otherPurpose = createSecretBox(dataKey).deriveKey('something-else');
    expect(otherPurpose.equals(key)).toBe(false);
    expect(verifyStreamToken(token, otherPurpose, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(createSecretBox(dataKey).deriveKey(STREAM_TOKEN_KEY_PURPOSE).equals(key)).toBe(true);
  });

  it('refuses altered claims (another call, a later expiry)', () => {
    const token = signStreamToken(claims, key, NOW);
    const [v, payload, sig] = token.split('.') as [string, string, string];
    for (const change of [{ callId: 'call_2' }, { exp: NOW / 1000 + 86_400 }]) {
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), ...change })).toString('base64url');
      expect(verifyStreamToken(`${v}.${forged}.${sig}`, key, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    }
  });

  it('refuses malformed tokens', () => {
    for (const bad of ['', 'vst1', 'vst1.a', 'vst2.a.b', 'a.b.c.d']) {
      expect(verifyStreamToken(bad, key, NOW)).toEqual({ ok: false, reason: 'malformed' });
    }
    // Correctly signed, but not the claims shape.
    const payload = Buffer.from(JSON.stringify({ callSid: 'x' })).toString('base64url');
    const sig = createHmac('sha256', key).update(`vst1.${payload}`).digest('base64url');
    expect(verifyStreamToken(`vst1.${payload}.${sig}`, key, NOW)).toEqual({ ok: false, reason: 'malformed' });
    // The token names only the call: one that also carries the agent or number (the call's own fields) is not ours.
    const extra = Buffer.from(JSON.stringify({ ...claims, agentId: 'agt_1', exp: NOW / 1000 + 60 })).toString('base64url');
    const extraSig = createHmac('sha256', key).update(`vst1.${extra}`).digest('base64url');
    expect(verifyStreamToken(`vst1.${extra}.${extraSig}`, key, NOW)).toEqual({ ok: false, reason: 'malformed' });
  });
});
