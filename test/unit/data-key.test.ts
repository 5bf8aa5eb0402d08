/**
 * Invariant: the data key read from Secrets Manager decodes to the same 32 bytes whether it is stored as the
 * 64 hex characters the CDK stack generates or as base64, and any other value is refused without being echoed.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeDataKey } from '../../lib/deps.js';
import { createSecretBox } from '../../lib/store/secret-box.js';

describe('decodeDataKey', () => {
  const key = randomBytes(32);

  it('decodes 64 hex characters, either case, to the 32 bytes', () => {
    expect(decodeDataKey(key.toString('hex')).equals(key)).toBe(true);
    expect(decodeDataKey(key.toString('hex').toUpperCase()).equals(key)).toBe(true);
  });

  it('still decodes base64, padded or not, with surrounding whitespace', () => {
    const b64 = key.toString('base64');
    expect(decodeDataKey(b64).equals(key)).toBe(true);
    expect(decodeDataKey(`${b64.replace(/=$/, '')}\n`).equals(key)).toBe(true);
  });

  it('gives a key that opens what the same key sealed, whichever encoding was stored', () => {
    const sealed = createSecretBox(decodeDataKey(key.toString('hex'))).seal('token', 'ws_1');
    expect(createSecretBox(decodeDataKey(key.toString('base64'))).open(sealed, 'ws_1')).toBe('token');
  });

  it('refuses values that are not 32 bytes in either form, without echoing them', () => {
    const wrong = [
      'f'.repeat(63), // one hex digit short
      'a'.repeat(44), // a generated 44-character password: base64-shaped but not of 32 bytes
      randomBytes(16).toString('base64'),
      `${key.toString('hex').slice(0, 62)}zz`,
      '',
    ];
    for (const value of wrong) {
      expect(() => decodeDataKey(value)).toThrow(/32 bytes/);
      if (value) {
        try {
          decodeDataKey(value);
        } catch (error) {
          expect((error as Error).message).not.toContain(value);
        }
      }
    }
  });
});
