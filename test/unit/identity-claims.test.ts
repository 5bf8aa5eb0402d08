/**
 * Invariant: only an ID token that says its email is verified (Cognito's boolean true, or the string "true"
 * some issuers send) lets the platform trust the address; false, "false", a missing claim or anything else
 * is unverified.
 */
import { describe, expect, it } from 'vitest';
import { emailVerifiedClaim } from '../../lib/vendors/identity/cognito.js';

describe('email_verified', () => {
  it('is true for true and "true" only', () => {
    expect([true, 'true'].map(emailVerifiedClaim)).toEqual([true, true]);
    expect([false, 'false', undefined, null, 1, 'TRUE', 'yes', {}].map(emailVerifiedClaim)).toEqual(Array(8).fill(false));
  });
});
