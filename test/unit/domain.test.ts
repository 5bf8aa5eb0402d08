/**
 * Invariant: the pure domain rules — phone normalization, ids, the secret box, JSON body parsing, contact
 * regions and field numbers, and tool coherence — accept what they should and refuse what they should, with
 * no I/O.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newId, ulidTimeBounds } from '../../lib/domain/ids.js';
import { ContactCreate, regionText } from '../../lib/domain/contact.js';
import { normalizePhone } from '../../lib/domain/phone.js';
import { assertToolIsCoherent } from '../../lib/domain/tool-coherence.js';
import { AppError } from '../../lib/domain/errors.js';
import { parseJsonBody } from '../../lib/http/json.js';
import { createSecretBox } from '../../lib/store/secret-box.js';

describe('normalizePhone', () => {
  it.each([
    ['+14155552671', '+14155552671', 'US'],
    ['+1 (415) 555-2671', '+14155552671', 'US'],
    ['+44 20 7183 8750', '+442071838750', 'GB'],
    ['+15551234567', '+15551234567', 'US'],
    ['+4915112345678', '+4915112345678', 'DE'],
  ])('%s -> %s in %s', (input, e164, region) => {
    expect(normalizePhone(input)).toEqual({ e164, region });
  });

  it.each(['4155552671', '+1415', '+999123456', 'phone', '', '+1 415 555 2671 ext 3', '=1+1'])('refuses %j', (input) => {
    expect(normalizePhone(input)).toBeUndefined();
  });

  it('uses a default country for national numbers', () => {
    expect(normalizePhone('020 7183 8750', 'GB')).toEqual({ e164: '+442071838750', region: 'GB' });
  });
});

describe('ids', () => {
  it('are prefixed, sortable by time and recognizable', () => {
    const early = newId('call', Date.parse('2026-01-01T00:00:00Z'));
    const late = newId('call', Date.parse('2026-06-01T00:00:00Z'));
    expect(early < late).toBe(true);
    expect(early).toMatch(/^call_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newId('agent')).toMatch(/^agt_[0-9A-HJKMNP-TV-Z]{26}$/);
    const sameMs = Array.from({ length: 50 }, () => newId('agent'));
    expect([...sameMs].sort()).toEqual(sameMs);
  });

  it('time bounds enclose ids of that millisecond', () => {
    const ms = Date.parse('2026-03-03T03:03:03.003Z');
    const id = newId('call', ms).slice(5);
    const { low, high } = ulidTimeBounds(ms);
    expect(low <= id && id <= high).toBe(true);
    expect(ulidTimeBounds(ms + 1).low > id).toBe(true);
  });
});

describe('secret box', () => {
  const box = createSecretBox(randomBytes(32));
  it('round-trips, and each seal differs', () => {
    const a = box.seal('Bearer secret', 'ws_1');
    expect(a).not.toContain('secret');
    expect(box.seal('Bearer secret', 'ws_1')).not.toBe(a);
    expect(box.open(a, 'ws_1')).toBe('Bearer secret');
  });
  it('refuses another context, a tampered value or another key', () => {
    const a = box.seal('Bearer secret', 'ws_1');
    expect(() => box.open(a, 'ws_2')).toThrow();
    const parts = a.split(':');
    parts[3] = Buffer.from('Bearer secreT').toString('base64');
    expect(() => box.open(parts.join(':'), 'ws_1')).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(a, 'ws_1')).toThrow();
  });
});

describe('parseJsonBody', () => {
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return error instanceof AppError ? `${error.status}:${error.code}` : 'other';
    }
    return 'ok';
  };
  it('parses JSON, plain or base64', () => {
    expect(parseJsonBody('{"a":1}', false)).toEqual({ a: 1 });
    expect(parseJsonBody(Buffer.from('{"a":1}').toString('base64'), true)).toEqual({ a: 1 });
    expect(parseJsonBody(undefined, false)).toBeUndefined();
  });
  it('refuses malformed JSON, __proto__ at any depth, and bodies over 1 MiB', () => {
    expect(code(() => parseJsonBody('{', false))).toBe('400:invalid_json');
    expect(code(() => parseJsonBody('{"a":{"b":[{"__proto__":1}]}}', false))).toBe('400:forbidden_key');
    expect(code(() => parseJsonBody(`"${'x'.repeat(1024 * 1024)}"`, false))).toBe('413:payload_too_large');
    expect(code(() => parseJsonBody('{"constructor":{"prototype":1}}', false))).toBe('ok');
  });
  it('refuses a lone surrogate in a string or a key, and keeps paired ones', () => {
    expect(code(() => parseJsonBody('{"a":["x\\ud800"]}', false))).toBe('400:invalid_text');
    expect(code(() => parseJsonBody('{"\\udfffk":1}', false))).toBe('400:invalid_text');
    expect(parseJsonBody('{"a":"\\ud83d\\ude00"}', false)).toEqual({ a: '😀' });
  });
});

describe('regionText', () => {
  it.each([
    ['California', 'California'],
    ['  New \t York\r\n', 'New York'],
    ['us', 'US'],
    ['Île-de-France', 'Île-de-France'],
    ['USA', 'USA'],
    ['x'.repeat(100), 'x'.repeat(100)],
    ['a\u2028b\u00a0c', 'a b c'],
  ])('%j is the region %j', (input, region) => {
    expect(regionText(input)).toEqual({ region });
  });
  it.each(['', '  ', '\n'])('%j is blank: derive it', (input) => {
    expect(regionText(input)).toEqual({ region: null });
  });
  it.each([['x'.repeat(101), 'longer than 100'], ['a\u0000b', 'control'], ['a\u007fb', 'control'], ['\ud800', 'control']])('refuses %j', (input, why) => {
    const out = regionText(input);
    expect('problem' in out && out.problem).toContain(why);
  });
});

describe('external field numbers', () => {
  const parse = (n: number) => ContactCreate.safeParse({ contactName: 'A', phoneNumber: '+14155552671', workspaceId: 'w', externalFields: { n } }).success;
  it('keeps every number DynamoDB stores exactly and refuses the rest', () => {
    for (const n of [0, -0, 1, -1, 1.5, 0.1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e-130]) expect(parse(n), String(n)).toBe(true);
    for (const n of [Number.MAX_SAFE_INTEGER + 1, -(2 ** 60), 1e308, 1e-131, 5e-324, Infinity, NaN]) expect(parse(n), String(n)).toBe(false);
  });
});

describe('tool coherence', () => {
  const ok = (tool: Parameters<typeof assertToolIsCoherent>[0]) => () => assertToolIsCoherent(tool);
  it('accepts a well-formed http tool and names every problem of a bad one', () => {
    expect(ok({ type: 'http', config: { method: 'POST', url: 'https://x.test/{id}' }, parameters: [{ name: 'id', description: 'd', required: true }] })).not.toThrow();
    try {
      assertToolIsCoherent({ type: 'http', config: { url: 'https://x.test/{id}/{other}' }, parameters: [] });
      expect.unreachable();
    } catch (error) {
      const fields = ((error as AppError).details as unknown as { field: string }[]).map((d) => d.field);
      expect(fields).toEqual(['config.method', 'config.url', 'config.url']);
    }
  });
  it('integration tools need a known template and its credentials', () => {
    expect(ok({ type: 'integration', templateId: 'slack.post_message', config: { headers: { authorization: 'x' }, settings: { channel: 'C0123' } }, parameters: [] })).not.toThrow();
    expect(ok({ type: 'integration', templateId: 'slack.post_message', config: { headers: { authorization: 'x' } }, parameters: [] })).toThrow();
    expect(ok({ type: 'integration', templateId: 'slack.post_message', parameters: [] })).toThrow();
    expect(ok({ type: 'integration', templateId: 'nope', parameters: [] })).toThrow();
  });
});
