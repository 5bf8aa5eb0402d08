import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * AES-256-GCM sealing of secrets at rest (tool header values, telephony auth tokens). The associated data
 * binds a ciphertext to its owner (the workspace id), so a sealed value copied into another workspace's
 * record does not open.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /**
   * A 32-byte key for another purpose (HKDF-SHA256 of the data key, `purpose` as the info label), so one
   * secret yields independent keys, e.g. for signing stream tokens, without ever exposing the data key.
   */
  deriveKey(purpose: string): Buffer;
}

const VERSION = 'v1';

export function createSecretBox(dataKey: Buffer): SecretBox {
  if (dataKey.length !== 32) throw new Error('The data key must be 32 bytes');
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', dataKey, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    },
    open(sealed, context) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', dataKey, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
    deriveKey(purpose) {
      return Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), Buffer.from(purpose, 'utf8'), 32));
    },
  };
}

/** Reads the local data key, creating it (readable by the owner only) on first use. */
export async function loadOrCreateKeyFile(path: string): Promise<Buffer> {
  try {
    const text = (await readFile(path, 'utf8')).trim();
    return Buffer.from(text, 'base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(path), { recursive: true });
    const fresh = randomBytes(32);
    try {
      await writeFile(path, fresh.toString('base64'), { mode: 0o600, flag: 'wx' });
      return fresh;
    } catch (raceError) {
      // Another process created it first: use theirs.
      if ((raceError as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateKeyFile(path);
      throw raceError;
    }
  }
}
