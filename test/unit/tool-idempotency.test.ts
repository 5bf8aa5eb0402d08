/**
 * Invariant: a tool call's cache key ignores the order of object keys at every level and nothing else,
 * and only a successful outcome is reused: a failed or thrown attempt is forgotten, so the same call runs
 * again; identical calls made while one is running share it.
 */
import { describe, expect, it } from 'vitest';
import type { ToolOutcome } from '../../streaming-service/src/tools/http.js';
import { canonicalArguments, ToolCallCache } from '../../streaming-service/src/tools/idempotency.js';

const ok = (content: string): ToolOutcome => ({ ok: true, status: 200, content });
const failed = (content: string): ToolOutcome => ({ ok: false, content });

describe('canonicalArguments', () => {
  it('sorts keys at every level and keeps values and array order', () => {
    expect(canonicalArguments('{"b":{"y":1,"x":[2,1]},"a":"s"}')).toBe(canonicalArguments('{"a":"s","b":{"x":[2,1],"y":1}}'));
    expect(canonicalArguments('{"a":[1,2]}')).not.toBe(canonicalArguments('{"a":[2,1]}'));
    expect(canonicalArguments('{"a":"2"}')).not.toBe(canonicalArguments('{"a":2}'));
    expect(canonicalArguments('')).toBe('{}');
    expect(canonicalArguments('{not json')).toBe('{not json');
  });
});

describe('ToolCallCache', () => {
  it('reuses a success for the same tool and arguments only', async () => {
    const cache = new ToolCallCache();
    let runs = 0;
    const run = async () => ok(`answer ${++runs}`);
    expect((await cache.run('t', '{"a":1,"b":2}', run)).content).toBe('answer 1');
    expect((await cache.run('t', '{"b":2,"a":1}', run)).content).toBe('answer 1');
    expect((await cache.run('t', '{"a":1}', run)).content).toBe('answer 2');
    expect((await cache.run('u', '{"a":1,"b":2}', run)).content).toBe('answer 3');
  });

  it('forgets failures and thrown errors, so the call runs again', async () => {
    const cache = new ToolCallCache();
    let runs = 0;
    expect((await cache.run('t', '{}', async () => failed(`timeout ${++runs}`))).content).toBe('timeout 1');
    await expect(cache.run('t', '{}', async () => { runs += 1; throw new Error('boom'); })).rejects.toThrow('boom');
    expect((await cache.run('t', '{}', async () => ok(`answer ${++runs}`))).content).toBe('answer 3');
    expect((await cache.run('t', '{}', async () => ok('never'))).content).toBe('answer 3');
  });

  it('shares a call in flight', async () => {
    const cache = new ToolCallCache();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const run = async () => {
      runs += 1;
      await gate;
      return ok('shared');
    };
    const first = cache.run('t', '{"a":1}', run);
    const second = cache.run('t', '{"a":1}', run);
    release();
    expect([(await first).content, (await second).content]).toEqual(['shared', 'shared']);
    expect(runs).toBe(1);
  });
});
