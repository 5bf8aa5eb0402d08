import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * AES-256-GCM sealing of secrets at rest (tool header values, telephony auth tokens, webhook signing secrets,
 * workspace provider keys). The associated data binds a ciphertext to its owner (the workspace id), so a
 * sealed value copied into another workspace's record does not open.
 *
 * Data-key versions (docs/data-key.md): a sealed value is `v<N>:<iv>:<tag>:<body>`,
 * where N is the version of the data key that sealed it. Values sealed before versions existed read `v1:`,
 * which is exactly version 1 (the single key they were sealed with), so they open unchanged. New values are
 * sealed with the current version; every version in the keyring still opens what it sealed.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /** The data-key version a sealed value names (undefined when it is not a sealed value). */
  versionOf(sealed: string): number | undefined;
  /** The version new values are sealed with. */
  readonly currentVersion: number;
  /**
   * A 32-byte key for another purpose (HKDF-SHA256 of the current data key, `purpose` as the info label), so
   * one secret yields independent keys, e.g. for signing stream tokens, without ever exposing the data key.
   */
  deriveKey(purpose: string): Buffer;
  /**
   * The same derivation from every version, the current first: what a verifier accepts while a rotation
   * rolls out (a token signed by a process that already seals with the new version still verifies).
   */
  deriveKeys(purpose: string): Buffer[];
}

/** Every data-key version the platform holds, and the one new values are sealed with. */
export interface DataKeyring {
  readonly current: number;
  readonly keys: ReadonlyMap<number, Buffer>;
}

const SEALED = /^v([1-9][0-9]{0,5}):([^:]*):([^:]*):([^:]*)$/;

/** A keyring of one version (1): the data key as it was before versions existed. */
export const singleKeyring = (key: Buffer): DataKeyring => ({ current: 1, keys: new Map([[1, key]]) });

function checkKeyring(ring: DataKeyring): void {
  if (!ring.keys.has(ring.current)) throw new Error(`The data keyring has no key of its current version ${ring.current}`);
  for (const [version, key] of ring.keys) {
    if (!Number.isInteger(version) || version < 1) throw new Error('Data-key versions are positive integers');
    if (key.length !== 32) throw new Error(`The data key of version ${version} must be 32 bytes`);
  }
}

const derive = (key: Buffer, purpose: string) =>
  Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), Buffer.from(purpose, 'utf8'), 32));

/** A box over a keyring, or over one key (version 1). */
export function createSecretBox(dataKey: Buffer | DataKeyring): SecretBox {
  const ring = Buffer.isBuffer(dataKey) ? singleKeyring(dataKey) : dataKey;
  checkKeyring(ring);
  const currentKey = ring.keys.get(ring.current)!;
  const others = [...ring.keys].filter(([v]) => v !== ring.current).sort(([a], [b]) => b - a).map(([, k]) => k);
  return {
    currentVersion: ring.current,
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', currentKey, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [`v${ring.current}`, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    },
    open(sealed, context) {
      const match = SEALED.exec(sealed);
      if (!match || !match[2] || !match[3]) throw new Error('Not a sealed secret');
      const key = ring.keys.get(Number(match[1]));
      // The message names the version, never the value.
      if (!key) throw new Error(`Sealed with data-key version ${match[1]}, which this keyring does not hold`);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(match[2], 'base64'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(match[3], 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(match[4]!, 'base64')), decipher.final()]).toString('utf8');
    },
    versionOf(sealed) {
      const match = SEALED.exec(sealed);
      return match ? Number(match[1]) : undefined;
    },
    deriveKey: (purpose) => derive(currentKey, purpose),
    deriveKeys: (purpose) => [currentKey, ...others].map((key) => derive(key, purpose)),
  };
}

/**
 * The keyring in a local key file or a secret's text. Two forms:
 * - one key (64 hex characters or base64 of 32 bytes): version 1, as every key was before versions;
 * - JSON `{"current": 2, "keys": {"1": "<key>", "2": "<key>"}}`, each key in either encoding; `current`
 *   defaults to the highest version.
 * Messages name the shape and the versions, never a key.
 */
export function parseKeyring(text: string): DataKeyring {
  const value = text.trim();
  if (!value.startsWith('{')) return singleKeyring(decodeKey(value));
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    json = undefined; // JSON.parse quotes the text in its message: never let a key reach a log.
  }
  const shape = json as { current?: unknown; keys?: unknown } | undefined;
  if (!shape || typeof shape.keys !== 'object' || shape.keys === null || Array.isArray(shape.keys)) {
    throw new Error('The data keyring must be JSON {"current": N, "keys": {"1": "<64 hex or base64>", ...}}');
  }
  const keys = new Map<number, Buffer>();
  for (const [version, key] of Object.entries(shape.keys)) {
    if (!/^[1-9][0-9]{0,5}$/.test(version) || typeof key !== 'string') throw new Error('Data-key versions are positive integers naming a key string');
    keys.set(Number(version), decodeKey(key, version));
  }
  if (keys.size === 0) throw new Error('The data keyring holds no key');
  const current = shape.current === undefined ? Math.max(...keys.keys()) : shape.current;
  if (typeof current !== 'number') throw new Error('The data keyring\'s "current" must be a version number');
  const ring = { current, keys };
  checkKeyring(ring);
  return ring;
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
/** Base64 of exactly 32 bytes: 43 characters and one padding `=` (optional). */
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=?$/;

/**
 * Decodes one 32-byte data key: 64 hex characters (what the CDK stack generates, since Secrets Manager cannot
 * generate base64 of random bytes) or base64 (a key created by hand or by the local key file). Anything else
 * fails loudly instead of yielding a short or garbled key; the value is never echoed.
 */
export function decodeKey(text: string, version?: string): Buffer {
  const value = text.trim();
  if (HEX_KEY.test(value)) return Buffer.from(value, 'hex');
  if (BASE64_KEY.test(value)) return Buffer.from(value, 'base64');
  const which = version ? ` of version ${version}` : '';
  throw new Error(`The data key${which} must be 32 bytes as 64 hex characters or base64 (got ${value.length} characters)`);
}

/** The keyring as the local key file and the secret hold it (keys in base64). */
export function formatKeyring(ring: DataKeyring): string {
  const keys = Object.fromEntries([...ring.keys].sort(([a], [b]) => a - b).map(([v, k]) => [String(v), k.toString('base64')]));
  return `${JSON.stringify({ current: ring.current, keys }, null, 2)}\n`;
}

/** A keyring with one more version, made current: the next step of a rotation (docs/data-key.md). */
export function addKeyVersion(ring: DataKeyring, key: Buffer = randomBytes(32)): DataKeyring {
  const next = Math.max(...ring.keys.keys()) + 1;
  return { current: next, keys: new Map([...ring.keys, [next, key]]) };
}

/** Reads the local keyring, creating a one-key file (readable by the owner only) on first use. */
export async function loadOrCreateKeyFile(path: string): Promise<DataKeyring> {
  try {
    return parseKeyring(await readFile(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(path), { recursive: true });
    const fresh = randomBytes(32);
    try {
      await writeFile(path, fresh.toString('base64'), { mode: 0o600, flag: 'wx' });
      return singleKeyring(fresh);
    } catch (raceError) {
      // Another process created it first: use theirs.
      if ((raceError as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateKeyFile(path);
      throw raceError;
    }
  }
}

/** Writes a keyring over the local key file (owner-only), for `cli -- data-key rotate`. */
export async function writeKeyFile(path: string, ring: DataKeyring): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, formatKeyring(ring), { mode: 0o600 });
}
