/**
 * Invariant: the data key can be rotated without losing a secret. A sealed value names the key version that
 * sealed it; every version in the keyring opens its own values (values written before versions existed read
 * `v1:` and open with version 1), new values are sealed with the current version, and a value is bound to
 * its workspace. Keyrings parse from one key or from the versioned JSON, and malformed ones are refused
 * without echoing a key. Derived signing keys follow the current version; verifiers get every version's.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addKeyVersion, createSecretBox, formatKeyring, parseKeyring, singleKeyring } from '../../lib/store/secret-box.js';
import { costBreakdownFor, costFor } from '../../lib/domain/call.js';
import type { Agent } from '../../lib/domain/agent.js';
import { capabilitiesOnWorkspaceKeys, parsePriceShares } from '../../lib/domain/provider-key.js';

/** A value sealed exactly as the box sealed before key versions existed (its source, verbatim). */
function sealedBeforeVersions(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

describe('data-key versions', () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);

  it('opens a value written before versions existed, with the one key as version 1', () => {
    const old = sealedBeforeVersions(k1, 'Bearer tok', 'ws_1');
    expect(createSecretBox(k1).open(old, 'ws_1')).toBe('Bearer tok');
    expect(createSecretBox(addKeyVersion(singleKeyring(k1), k2)).open(old, 'ws_1')).toBe('Bearer tok');
  });

  it('after a rotation, values of v1 still open and new values are sealed with v2', () => {
    const before = createSecretBox(k1);
    const sealed1 = before.seal('sk-one', 'ws_1');
    expect(before.versionOf(sealed1)).toBe(1);

    const after = createSecretBox(addKeyVersion(singleKeyring(k1), k2));
    expect(after.currentVersion).toBe(2);
    expect(after.open(sealed1, 'ws_1')).toBe('sk-one');
    const sealed2 = after.seal('sk-two', 'ws_1');
    expect(sealed2.startsWith('v2:')).toBe(true);
    expect(after.open(sealed2, 'ws_1')).toBe('sk-two');
    // A process still on the old keyring cannot open v2 values, and says which version it lacks.
    expect(() => before.open(sealed2, 'ws_1')).toThrow(/version 2/);
  });

  it('a keyring may keep an older version current (the first step of a rollout)', () => {
    const ring = parseKeyring(JSON.stringify({ current: 1, keys: { 1: k1.toString('hex'), 2: k2.toString('base64') } }));
    const box = createSecretBox(ring);
    expect(box.versionOf(box.seal('x', 'ws'))).toBe(1);
    expect(box.open(createSecretBox(addKeyVersion(singleKeyring(k1), k2)).seal('y', 'ws'), 'ws')).toBe('y');
  });

  it('binds a value to its workspace and refuses tampering, under any version', () => {
    const box = createSecretBox(addKeyVersion(singleKeyring(k1), k2));
    const sealed = box.seal('secret', 'ws_1');
    expect(() => box.open(sealed, 'ws_2')).toThrow();
    const [v, iv, tag, body] = sealed.split(':');
    const flipped = Buffer.from(body!, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64')].join(':'), 'ws_1')).toThrow();
    // Relabelled as v1: the other key does not open it.
    expect(() => box.open(['v1', iv, tag, body].join(':'), 'ws_1')).toThrow();
    expect(() => box.open('not sealed', 'ws_1')).toThrow(/Not a sealed secret/);
  });

  it('derives signing keys from the current version, and hands verifiers every version\'s', () => {
    const rotated = createSecretBox(addKeyVersion(singleKeyring(k1), k2));
    const old = createSecretBox(k1);
    expect(rotated.deriveKey('p').equals(old.deriveKey('p'))).toBe(false);
    const all = rotated.deriveKeys('p');
    expect(all).toHaveLength(2);
    expect(all[0]!.equals(rotated.deriveKey('p'))).toBe(true);
    expect(all[1]!.equals(old.deriveKey('p'))).toBe(true);
  });
});

describe('keyring text', () => {
  const k1 = randomBytes(32);

  it('reads one key (hex or base64) as version 1, and the JSON form with current defaulting to the newest', () => {
    expect(parseKeyring(k1.toString('hex')).current).toBe(1);
    expect(parseKeyring(k1.toString('base64')).keys.get(1)!.equals(k1)).toBe(true);
    const rotated = addKeyVersion(singleKeyring(k1));
    const text = formatKeyring(rotated);
    const { current: _current, ...withoutCurrent } = JSON.parse(text) as { current: number; keys: object };
    expect(parseKeyring(JSON.stringify(withoutCurrent)).current).toBe(2);
    const again = parseKeyring(text);
    expect(again.current).toBe(2);
    expect(again.keys.get(1)!.equals(k1)).toBe(true);
  });

  it('refuses malformed keyrings without echoing a key', () => {
    const hex = k1.toString('hex');
    const bad = [
      `{"keys": {"1": "${hex.slice(2)}"}}`,
      `{"current": 3, "keys": {"1": "${hex}"}}`,
      `{"keys": {"zero": "${hex}"}}`,
      `{"keys": {}}`,
      `{"keys": ["${hex}"]}`,
      `{"current": "1", "keys": {"1": "${hex}"}}`,
      `{"keys": {"1": "${hex}"`,
      hex.slice(4),
    ];
    for (const text of bad) {
      expect(() => parseKeyring(text)).toThrow();
      try {
        parseKeyring(text);
      } catch (error) {
        expect((error as Error).message).not.toContain(hex.slice(4, 40));
      }
    }
  });
});

describe('price shares (docs/provider-keys.md)', () => {
  const shares = parsePriceShares('stt=0.15,llm=0.35,tts=0.3')!;
  const pricing = { creditsPerMinute: 1, maxDurationSeconds: 600, shares };

  it('parses every capability once, each 0..1, together at most 1', () => {
    expect(shares).toEqual({ stt: 0.15, llm: 0.35, tts: 0.3 });
    for (const bad of ['stt=0.5,llm=0.5,tts=0.5', 'stt=0.1,llm=0.1', 'stt=0.1,llm=0.1,tts=x', 'stt=0.1,stt=0.1,tts=0.1', 'stt=-1,llm=0,tts=0', 'asr=0.1,llm=0.1,tts=0.1', '']) {
      expect(parsePriceShares(bad), bad).toBeUndefined();
    }
  });

  it('charges the full price on the platform\'s keys and only the platform\'s share when all three are the workspace\'s', () => {
    expect(costFor(pricing, 60)).toBe(1);
    expect(costFor(pricing, 7)).toBe(costFor({ creditsPerMinute: 1, maxDurationSeconds: 600 }, 7));
    const all = costBreakdownFor(pricing, 60, ['stt', 'llm', 'tts']);
    expect(all).toEqual({ total: 0.2, platform: 0.2, stt: 0, llm: 0, tts: 0, workspaceKeys: ['stt', 'llm', 'tts'] });
    const sttOnly = costBreakdownFor(pricing, 60, ['stt']);
    expect(sttOnly).toMatchObject({ total: 0.85, stt: 0, llm: 0.35, tts: 0.3, workspaceKeys: ['stt'] });
  });

  it('the parts always add up to the total', () => {
    for (const seconds of [1, 7, 13, 59, 61, 333, 599]) {
      for (const keys of [[], ['stt'], ['llm', 'tts'], ['stt', 'llm', 'tts']] as const) {
        const b = costBreakdownFor(pricing, seconds, keys);
        expect(Math.round((b.platform + b.stt + b.llm + b.tts) * 10_000) / 10_000, `${seconds}s ${keys.join()}`).toBe(b.total);
      }
    }
  });

  it('a capability counts as the workspace\'s only when its vendor and every fallback have the workspace\'s key', () => {
    const agent: Pick<Agent, 'stt_provider' | 'llm_provider' | 'tts_provider' | 'fallback'> = {
      stt_provider: 'deepgram',
      llm_provider: 'openai',
      tts_provider: 'elevenlabs',
      fallback: { llm: [{ provider: 'anthropic', model: 'claude-3-5-haiku-latest' }] },
    };
    expect(capabilitiesOnWorkspaceKeys(agent, { deepgram: 'a', openai: 'b', elevenlabs: 'c' })).toEqual(['stt', 'tts']);
    expect(capabilitiesOnWorkspaceKeys(agent, { deepgram: 'a', openai: 'b', anthropic: 'd', elevenlabs: 'c' })).toEqual(['stt', 'llm', 'tts']);
    expect(capabilitiesOnWorkspaceKeys(agent, {})).toEqual([]);
  });
});
