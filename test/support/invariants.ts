import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import type { Db } from '../../lib/store/dynamo.js';
import { MASK } from '../../lib/domain/tool.js';

/**
 * Assertions the whole connected suite shares: a refused request leaves the store as it was, and a tool
 * never leaves the API with a header value in it.
 */

/** The statuses that refuse a request (bad input included): none of them may change what is stored. */
export const REFUSALS = [400, 401, 402, 403, 404, 409, 410, 413, 429] as const;

/**
 * Items that a refusal is meant to write: the rate-limit windows count refused requests (failed
 * authentications and per-IP limits are counted because they were refused; docs/api.md).
 */
const COUNTS_REFUSALS = (item: Record<string, unknown>) => String(item.pk).startsWith('RATE#');

/**
 * A key's "last used" is noted when a working key is presented, whatever the answer (docs/dashboard.md,
 * at most once a minute): usage, not a change the request made.
 */
const withoutKeyUse = (item: Record<string, unknown>): Record<string, unknown> => {
  if (!String(item.pk).startsWith('APIKEY#') || !('lastUsedAt' in item)) return item;
  const { lastUsedAt: _used, ...rest } = item;
  return rest;
};

/**
 * Every item of the platform's table (the test file's own), sorted, rate windows and keys' last use left out. The whole table
 * rather than one workspace's partition: a refused request must not write a key lookup, a meeting token or a
 * phone-number owner either.
 */
export async function tableSnapshot(db: Db): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(new ScanCommand({ TableName: db.table, ConsistentRead: true, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []).filter((i) => !COUNTS_REFUSALS(i)).map(withoutKeyUse));
    start = out.LastEvaluatedKey;
  } while (start);
  const id = (i: Record<string, unknown>) => `${String(i.pk)}\u0000${String(i.sk)}`;
  return items.sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}

/**
 * Runs `request`, expects it refused with `status` (and `code` when given), and expects every stored item
 * exactly as it was before. Returns the answer for further checks.
 */
export async function expectRefusedUnchanged<R extends { status: number; body?: any }>(
  db: Db,
  status: (typeof REFUSALS)[number],
  request: () => Promise<R>,
  code?: string,
): Promise<R> {
  const before = await tableSnapshot(db);
  const res = await request();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (code) expect(res.body?.error?.code).toBe(code);
  expect(await tableSnapshot(db), `the ${status} changed the store`).toEqual(before);
  return res;
}

/**
 * Every tool object inside `body` (anything with a `config.headers` map) shows each header value as the
 * mask, whatever the route. Checked on every API answer by test/support/platform.ts.
 */
export function expectToolsMasked(body: unknown, where = 'response'): void {
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${path}[${i}]`));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    const headers = (o.config as { headers?: unknown } | undefined)?.headers;
    if (headers && typeof headers === 'object' && !Array.isArray(headers)) {
      for (const [name, value] of Object.entries(headers)) {
        expect(value, `${where}: ${path}.config.headers.${name} is not masked`).toBe(MASK);
      }
    }
    for (const [k, x] of Object.entries(o)) walk(x, `${path}.${k}`);
  };
  walk(body, '$');
}
