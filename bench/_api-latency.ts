/**
 * The API benchmark's latency half (bench/api.ts): the measured request path through the local platform and
 * the Lambda handlers, against the raw DynamoDB work each request needs, on one table; and its printed table.
 */
import { Agent as HttpAgent } from 'node:http';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { getDeps } from '../lib/deps.js';
import { newId } from '../lib/domain/ids.js';
import { ROUTES } from '../lib/infra/routes.js';
import type { RunningPlatform } from '../lib/local/platform/platform.js';
import { createDb } from '../lib/store/dynamo.js';
import { ratePolicies, takeRate } from '../lib/services/rate-limits.js';
import { windowAt } from '../lib/domain/rate-window.js';
import { countInWindow } from '../lib/store/rate-limits.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from '../lib/store/model.js';
import { createWorkspace, hashApiKey } from '../lib/store/workspaces.js';
import { formatTable, measureInterleaved, ms, type LatencyCase } from './_latency.js';
import { BENCH_TABLE, type Handler, ITERATIONS, LIST_LAST_PAGE, type Measured, ROW, SEED_CONCURRENCY, TARGET, WARMUP, agentFields, call, countingDb, gatewayEvent, httpGetter, invoke, seedAgents } from './_api-settings.js';

export async function measureLatency(platform: RunningPlatform): Promise<Measured> {
  const deps = await getDeps();
  const { workspaceId, apiKey } = await createWorkspace(deps.db, { name: 'bench', credits: 1_000 });

  const seedStart = performance.now();
  const ids = await seedAgents(deps.db, workspaceId);
  const notes = [`Seeded ${ids.length} agents in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (concurrency ${SEED_CONCURRENCY}).`];
  process.stdout.write(`${notes[0]}\n`);

  // The baseline gets its own client built exactly as the handlers' is (lib/store/dynamo.ts createDb).
  const raw = createDb({ table: BENCH_TABLE, region: 'us-east-1', endpoint: platform.stores.dynamo.endpoint });
  const pk = `WS#${workspaceId}`;
  // Rotate through agents spread over the whole partition, the same sequence for raw and HTTP reads.
  const sampleIds = Array.from({ length: 97 }, (_, i) => ids[Math.floor((i * ids.length) / 97)]!);
  const idAt = (i: number) => sampleIds[i % sampleIds.length]!;

  const rawGetAgent = (id: string) =>
    raw.doc.send(new GetCommand({ TableName: raw.table, Key: key.agent(workspaceId, id), ConsistentRead: true }));
  const rawGetKey = () =>
    raw.doc.send(new GetCommand({ TableName: raw.table, Key: key.apiKey(hashApiKey(apiKey)), ConsistentRead: true }));
  const rawQuery = (limit: number, start?: Record<string, unknown>, keysOnly = false) =>
    raw.doc.send(
      new QueryCommand({
        TableName: raw.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': 'AGENT#' },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: start,
        ...(keysOnly ? { ProjectionExpression: 'pk, sk' } : {}),
      }),
    );
  /** The same reads lib/store/dynamo.ts queryPage makes for a late page; DynamoDB caps each at 1 MB read. */
  const rawLastPage = async (): Promise<number> => {
    let toSkip = (LIST_LAST_PAGE.page - 1) * LIST_LAST_PAGE.limit;
    let start: Record<string, unknown> | undefined;
    let calls = 0;
    while (toSkip > 0) {
      const out = await rawQuery(toSkip, start, true);
      calls += 1;
      toSkip -= out.Items?.length ?? 0;
      start = out.LastEvaluatedKey;
    }
    const page = await rawQuery(LIST_LAST_PAGE.limit, start);
    if (page.Items?.length !== LIST_LAST_PAGE.limit) throw new Error(`last page has ${page.Items?.length} items`);
    return calls + 1;
  };
  notes.push(`Page ${LIST_LAST_PAGE.page} x ${LIST_LAST_PAGE.limit} takes ${await rawLastPage()} Query calls (keys-only skips are cut at 1 MB of items read).`);
  const rawTransact = () => {
    const now = new Date().toISOString();
    const agentId = newId('agent');
    return raw.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: raw.table,
              Item: { ...key.agent(workspaceId, agentId), entity: ENTITY.agent, v: TABLE_SCHEMA_VERSION, ...agentFields(0), _id: agentId, workspaceId, createdAt: now, updatedAt: now },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: raw.table,
              Key: key.counter(workspaceId, 'agent'),
              UpdateExpression: 'ADD #n :d SET entity = :e',
              ExpressionAttributeNames: { '#n': 'n' },
              ExpressionAttributeValues: { ':d': 1, ':e': 'counter' },
            },
          },
        ],
      }),
    );
  };

  const limitPolicy = ratePolicies(deps.config).key;
  const limiterDb = countingDb({ table: BENCH_TABLE, region: 'us-east-1', endpoint: platform.stores.dynamo.endpoint });
  let limiterRequests = 0;
  notes.push(`Rate limit per key during the run: ${limitPolicy.limit} per ${limitPolicy.windowSeconds} s (raised so no request is refused; every request still counts, against units reserved in the table in batches).`);
  const getHandler = ((await import('../functions/agents/get.js')) as { handler: Handler }).handler;
  const createHandler = ((await import('../functions/agents/create.js')) as { handler: Handler }).handler;
  const headers = { 'x-api-key': apiKey };
  const keepAlive = new HttpAgent({ keepAlive: true });
  const httpGet = httpGetter(keepAlive, platform.baseUrl);
  const url = (path: string) => `${platform.baseUrl}${path}`;
  const fast = { iterations: ITERATIONS.fast, warmup: WARMUP };
  const slow = { iterations: ITERATIONS.lastPage, warmup: 5 };
  const write = { iterations: ITERATIONS.write, warmup: WARMUP };

  const reads: LatencyCase[] = [
    { name: ROW.rawGet, ...fast, op: (i) => rawGetAgent(idAt(i)) },
    { name: ROW.rawQuery10, ...fast, op: () => rawQuery(10) },
    { name: ROW.rawLastPage, ...slow, op: rawLastPage },
    { name: ROW.get, ...fast, op: (i) => call(url(`/api/agents/${idAt(i)}`), { headers }, 200) },
    { name: ROW.getHttp, ...fast, op: (i) => httpGet(`/api/agents/${idAt(i)}`, headers, 200) },
    { name: ROW.list1, ...fast, op: () => call(url('/api/agents?page=1&limit=10'), { headers }, 200) },
    { name: ROW.list50, ...slow, op: () => call(url(`/api/agents?page=${LIST_LAST_PAGE.page}&limit=${LIST_LAST_PAGE.limit}`), { headers }, 200) },
    { name: ROW.httpFloor, ...fast, op: () => call(url('/api/no-such-route'), { headers }, 404) },
    {
      name: ROW.directGet,
      ...fast,
      op: (i) => invoke(getHandler, gatewayEvent(ROUTES.getAgent, apiKey, `/api/agents/${idAt(i)}`, { pathParameters: { id: idAt(i) } }), 200),
    },
    { name: ROW.rawGet2, ...fast, op: (i) => Promise.all([rawGetAgent(idAt(i)), rawGetKey()]) },
    // The per-key rate limit (lib/services/rate-limits.ts) as the handlers run it: most requests are admitted
    // from units this instance already reserved, so its p50 is memory and its table writes are counted. Then
    // the reads of a GET with and without one window count beside them: what a reservation costs when due.
    {
      name: ROW.limiter,
      ...fast,
      op: () => {
        limiterRequests += 1;
        return takeRate(limiterDb.db, limitPolicy, 'bench-limiter');
      },
    },
    {
      name: ROW.rawGet3,
      ...fast,
      op: (i) => {
        const { startMs } = windowAt(limitPolicy, Date.now());
        return Promise.all([
          rawGetAgent(idAt(i)),
          rawGetKey(),
          countInWindow(raw, { policy: 'key', partition: 'bench-parallel', startMs, windowSeconds: limitPolicy.windowSeconds, limit: limitPolicy.limit }),
        ]);
      },
    },
    {
      name: ROW.rawList3,
      ...fast,
      op: () =>
        Promise.all([rawQuery(10), raw.doc.send(new GetCommand({ TableName: raw.table, Key: key.counter(workspaceId, 'agent') })), rawGetKey()]),
    },
  ];
  const readStats = await measureInterleaved(reads);

  // Writes last: every create adds an agent, so page 50 would no longer be the last page.
  const body = JSON.stringify({ ...agentFields(0), workspaceId });
  const writes: LatencyCase[] = [
    { name: ROW.rawGetW, ...write, op: (i) => rawGetAgent(idAt(i)) },
    { name: ROW.rawTransact, ...write, op: rawTransact },
    { name: ROW.post, ...write, op: () => call(url('/api/agents'), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body }, 201) },
    { name: ROW.directPost, ...write, op: () => invoke(createHandler, gatewayEvent(ROUTES.createAgent, apiKey, '/api/agents', { body }), 201) },
    {
      name: ROW.rawKeyThenTransact,
      ...write,
      op: async () => {
        await rawGetKey();
        await rawTransact();
      },
    },
  ];
  const writeStats = await measureInterleaved(writes);
  keepAlive.destroy();
  return { stats: new Map([...readStats, ...writeStats]), notes, limiterWritesPer1000: (1000 * limiterDb.sent()) / Math.max(1, limiterRequests) };
}

/** The latency figures the summary and the closing JSON line carry (ratios are against the same run's raw reads). */
export interface LatencyFigures {
  readonly getRatio: number;
  /** The same over node:http with a keep-alive agent, the client stack the baseline's SDK uses: the headline. */
  readonly getRatioHttp: number;
  readonly limiterRatio: number;
  readonly windowCountRatio: number;
  readonly windowCountAddedMs: number;
  readonly limiterWritesPer1000: number;
}

export function printLatency({ stats, notes, limiterWritesPer1000 }: Measured): LatencyFigures {
  const p50 = (n: string) => stats.get(n)!.p50;
  const table = (names: readonly string[], base: string) =>
    formatTable(
      ['operation', 'n', 'p50 ms', 'p95 ms', 'mean ms', 'p50 / raw GetItem p50'],
      names.map((n) => {
        const s = stats.get(n)!;
        return [n, String(s.n), ms(s.p50), ms(s.p95), ms(s.mean), `${(s.p50 / p50(base)).toFixed(2)}x`];
      }),
    );
  const out = (text: string) => process.stdout.write(`${text}\n`);
  out('\nLatency: sequential requests, keep-alive clients (fetch unless the row names node:http), DynamoDB Local in memory, handler logging silenced.');
  out(`${notes.slice(1).join('\n')}\n`);
  out(table([ROW.rawGet, ROW.rawQuery10, ROW.rawLastPage, ROW.get, ROW.getHttp, ROW.list1, ROW.list50], ROW.rawGet));
  out('');
  out(table([ROW.rawGetW, ROW.rawTransact, ROW.post], ROW.rawGetW));
  out('  (writes are measured after the reads, against a GetItem measured alongside them)');
  out('\nWhere the time goes');
  out(table([ROW.httpFloor, ROW.directGet, ROW.rawGet2, ROW.rawGet3, ROW.limiter, ROW.rawList3], ROW.rawGet));
  out(table([ROW.directPost, ROW.rawKeyThenTransact], ROW.rawGetW).split('\n').slice(2).join('\n'));
  out('');

  const ratio = (a: string, b: string) => p50(a) / p50(b);
  const getRatio = ratio(ROW.get, ROW.rawGet);
  const getRatioHttp = ratio(ROW.getHttp, ROW.rawGet);
  out(
    [
      `GET agent p50 / raw GetItem p50, both over node:http keep-alive (the baseline SDK's own HTTP stack) = ${getRatioHttp.toFixed(2)}x (target <= ${TARGET.getRatio}x); the API layer adds ${ms(p50(ROW.getHttp) - p50(ROW.rawGet))} ms`,
      `  with a fetch (undici) client instead: ${getRatio.toFixed(2)}x (adds ${ms(p50(ROW.get) - p50(ROW.rawGet))} ms; the difference is the client's own CPU)`,
      `  of which: handler code with the rate limiter ${ms(p50(ROW.directGet) - p50(ROW.rawGet))} ms (the limiter alone ${ms(p50(ROW.limiter))} ms, ${limiterWritesPer1000.toFixed(1)} table writes per 1,000 requests), HTTP hop over node:http ${ms(p50(ROW.getHttp) - p50(ROW.directGet))} ms, over fetch ${ms(p50(ROW.get) - p50(ROW.directGet))} ms (server-only floor with fetch ${ms(p50(ROW.httpFloor))} ms)`,
      `  not on this path while the key's verdict is cached and a reservation is held: a revocation-check read in parallel would add ${ms(p50(ROW.rawGet2) - p50(ROW.rawGet))} ms, a window count in parallel ${ms(p50(ROW.rawGet3) - p50(ROW.rawGet2))} ms more`,
      `list page 1 p50 / raw GetItem p50 = ${ratio(ROW.list1, ROW.rawGet).toFixed(2)}x; / raw Query-10 p50 = ${ratio(ROW.list1, ROW.rawQuery10).toFixed(2)}x; / its raw reads (Query || counter || key) = ${ratio(ROW.list1, ROW.rawList3).toFixed(2)}x`,
      `list page 50 x 100 p50 / raw GetItem p50 = ${ratio(ROW.list50, ROW.rawGet).toFixed(2)}x; / its raw reads p50 = ${ratio(ROW.list50, ROW.rawLastPage).toFixed(2)}x`,
      `POST agent p50 / raw GetItem p50 = ${ratio(ROW.post, ROW.rawGetW).toFixed(2)}x; / raw TransactWrite p50 = ${ratio(ROW.post, ROW.rawTransact).toFixed(2)}x; / raw key read then TransactWrite = ${ratio(ROW.post, ROW.rawKeyThenTransact).toFixed(2)}x`,
      `  POST handler alone (no HTTP) / raw key read then TransactWrite = ${ratio(ROW.directPost, ROW.rawKeyThenTransact).toFixed(2)}x`,
      `rate limiter alone p50 / raw GetItem p50 = ${ratio(ROW.limiter, ROW.rawGet).toFixed(2)}x (${ms(p50(ROW.limiter))} ms, mean ${ms(stats.get(ROW.limiter)!.mean)} ms; ${limiterWritesPer1000.toFixed(1)} table writes per 1,000 requests); a GET's reads with a window count / without = ${ratio(ROW.rawGet3, ROW.rawGet2).toFixed(2)}x (adds ${ms(p50(ROW.rawGet3) - p50(ROW.rawGet2))} ms to the requests that reserve)`,
    ].join('\n'),
  );
  return {
    getRatio,
    getRatioHttp,
    limiterRatio: ratio(ROW.limiter, ROW.rawGet),
    windowCountRatio: ratio(ROW.rawGet3, ROW.rawGet2),
    windowCountAddedMs: p50(ROW.rawGet3) - p50(ROW.rawGet2),
    limiterWritesPer1000,
  };
}
