/**
 * `npm run bench -- api`: what the API layer costs on top of DynamoDB, and what each Lambda costs to load.
 *
 * 1. Latency. A workspace with 5,000 agents in DynamoDB Local; each HTTP operation through the local server
 *    (the same handler modules Lambda runs) is compared with the raw DynamoDB round trips it needs, measured
 *    in the same run with the same client configuration. Sequential requests, interleaved in rounds.
 * 2. Cold start. Every handler entry in the route table bundled with the deployed esbuild options; bundle
 *    size, and the time to import the bundle in a fresh Node process (median of several).
 *
 * Benchmarks report; they never fail the run. docs/benchmarks.md explains each number.
 */
import { randomUUID } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { getDeps } from '../lib/deps.js';
import type { Agent } from '../lib/domain/agent.js';
import { newId } from '../lib/domain/ids.js';
import { ROUTES, type RouteSpec } from '../lib/infra/routes.js';
import { API_KEY_AUTHORIZER_TTL } from '../lib/infra/constructs/edge.js';
import { bundleExtras } from '../lib/infra/constructs/api-function.js';
import { ENTRY_NEEDS } from '../lib/infra/entry-needs.js';

/**
 * The functions beyond the route handlers (lib/infra/stack.ts, constructs/edge.ts, constructs/campaign-scheduler.ts),
 * bundled and timed with them: the API-key authorizer, the queue consumers and the schedules.
 */
const OTHER_ENTRIES = [
  'functions/auth/authorizer.ts',
  'functions/queue/dispatch.ts',
  'functions/queue/webhooks.ts',
  'functions/schedule/abandoned-streams.ts',
  'functions/schedule/campaigns.ts',
] as const;

/** `npm run bench -- api --bundles-only`: only the cold-start part (no DynamoDB Local, no latency rounds). */
const BUNDLES_ONLY = process.argv.includes('--bundles-only');
import type { RunningPlatform } from '../lib/local/platform/platform.js';
import { putNewAgent } from '../lib/store/agents.js';
import { createDb, type Db } from '../lib/store/dynamo.js';
import { ratePolicies, takeRate } from '../lib/services/rate-limits.js';
import { windowAt } from '../lib/domain/rate-window.js';
import { countInWindow } from '../lib/store/rate-limits.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from '../lib/store/model.js';
import { createWorkspace, hashApiKey } from '../lib/store/workspaces.js';
import { withBenchPlatform } from './_platform.js';
import { bundleEntry, bundleName, measureInit, median, type BundleReport } from './_bundles.js';
import { formatTable, measureInterleaved, ms, withConcurrency, type LatencyCase, type LatencyStats } from './_latency.js';

const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Under the project (gitignored) so the bundles' external @aws-sdk/* resolve from node_modules. */
const BUNDLE_ROOT = join(PROJECT_ROOT, 'bench', 'out', 'api');

const AGENT_COUNT = 5_000;
/** Every insert also bumps the workspace's agent counter; more writers only buy transaction conflicts. */
const SEED_CONCURRENCY = 6;
const LIST_LAST_PAGE = { page: 50, limit: 100 } as const;

/**
 * Samples per case, sized for the ~3-minute budget on two cores: 300 leave 15 samples beyond p95. The last
 * page reads 5,000 items per call (~150 ms here), so it gets 100, enough for p50 and a rough p95.
 */
const ITERATIONS = { fast: 300, lastPage: 100, write: 250 } as const;
const WARMUP = 30;
const INIT_RUNS = 5;

/** The targets the numbers are read against, as docs/benchmarks.md lists them. */
const TARGET = { getRatio: 1.5, bundleKb: 500, initMs: 100 } as const;

const BENCH_TABLE = 'bench-api';
const BUCKET = 'voice-agents-recordings';

/** A realistic agent: the system prompt dominates the item size, as it does in practice. */
function agentFields(i: number) {
  return {
    name: `Receptionist ${i}`,
    llm_provider: 'openai',
    llm_model: 'gpt-4o-mini',
    tts_provider: 'elevenlabs',
    tts_voice_id: '21m00Tcm4TlvDq8ikWAM',
    stt_provider: 'deepgram',
    system_prompt: `You are the front desk of a dental practice. Greet callers, book, move or cancel appointments, and answer questions about opening hours, prices and insurance. Be brief and warm. Agent ${i}.`,
    first_message: 'Hello! How can I help you today?',
    recording_enabled: true,
    ambience_enabled: false,
  } as const;
}

async function seedAgents(db: Db, workspaceId: string): Promise<string[]> {
  const now = new Date().toISOString();
  const agents: Agent[] = Array.from({ length: AGENT_COUNT }, (_, i) => ({
    ...agentFields(i),
    _id: newId('agent'),
    workspaceId,
    createdAt: now,
    updatedAt: now,
  }));
  await withConcurrency(agents, SEED_CONCURRENCY, (agent) => putNewAgent(db, agent));
  return agents.map((a) => a._id);
}

/** The Lambda context the local server hands a handler (the timeout timer middy arms is part of the cost). */
function lambdaContext(requestId: string): Context {
  const deadline = Date.now() + 29_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'bench',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:bench',
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: '/aws/lambda/bench',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** A request as API Gateway (payload 2.0) would deliver it, for calling a handler without HTTP. */
function gatewayEvent(
  route: RouteSpec,
  apiKey: string,
  path: string,
  extra: { pathParameters?: Record<string, string>; body?: string } = {},
): APIGatewayProxyEventV2 {
  const routeKey = `${route.method} ${route.path}`;
  const now = Date.now();
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: { 'x-api-key': apiKey, host: 'localhost', ...(extra.body ? { 'content-type': 'application/json' } : {}) },
    pathParameters: extra.pathParameters,
    body: extra.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'local',
      http: { method: route.method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
  };
}

/** Calls a handler module in-process and insists on the expected status. */
async function invoke(handler: Handler, event: APIGatewayProxyEventV2, expected: number): Promise<void> {
  const res = await handler(event, lambdaContext(event.requestContext.requestId));
  if (res.statusCode !== expected) throw new Error(`handler answered ${res.statusCode}, expected ${expected}: ${res.body}`);
}

/** fetch that insists on the expected status, so a benchmark of 401s or 404s cannot pass unnoticed. */
async function call(url: string, init: RequestInit, expected: number): Promise<void> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status}, expected ${expected}: ${text.slice(0, 300)}`);
}

/**
 * The same check over node:http with a keep-alive agent: the HTTP stack the baseline's SDK client uses
 * (lib/store/dynamo.ts; the SDK's NodeHttpHandler keeps connections alive), so the API and the baseline are
 * reached through the same client code. Called as the SDK calls it, with host, port and path rather than a
 * URL string to parse per request. fetch (undici) costs more CPU per request than the server does.
 */
function httpGetter(agent: HttpAgent, baseUrl: string) {
  const { hostname: host, port } = new URL(baseUrl);
  return (path: string, headers: Record<string, string>, expected: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host, port, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode === expected) return resolve();
          reject(new Error(`GET ${path}: ${res.statusCode}, expected ${expected}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`));
        });
      });
      req.on('error', reject);
      req.end();
    });
}

interface Measured {
  readonly stats: Map<string, LatencyStats>;
  /** Facts about the data set worth printing beside the numbers. */
  readonly notes: readonly string[];
  /** Table writes the limiter row made per 1,000 counted requests (its reservations). */
  readonly limiterWritesPer1000: number;
}

/** A client built like `db`'s, counting the commands it sends (the limiter's reservations). */
function countingDb(options: Parameters<typeof createDb>[0]): { db: Db; sent: () => number } {
  const db = createDb(options);
  let sent = 0;
  db.doc.middlewareStack.add(
    (next) => (args) => {
      sent += 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchCountCommands' },
  );
  return { db, sent: () => sent };
}

const ROW = {
  rawGet: 'raw GetItem (agent, consistent)',
  rawQuery10: 'raw Query, 1 page of 10',
  rawLastPage: 'raw reads of page 50 x 100 (keys-only skip + 100 items)',
  get: 'GET /api/agents/{id}',
  getHttp: 'GET /api/agents/{id}, node:http keep-alive client',
  list1: 'GET /api/agents?page=1&limit=10',
  list50: 'GET /api/agents?page=50&limit=100',
  rawGetW: 'raw GetItem (agent, consistent), write phase',
  rawTransact: 'raw TransactWrite (agent put + counter)',
  post: 'POST /api/agents',
  httpFloor: 'HTTP floor: GET unknown path -> 404 (server only)',
  directGet: 'GET agent handler called directly (no HTTP)',
  rawGet2: 'raw GetItem agent || GetItem API key',
  rawList3: 'raw Query 10 || GetItem counter || GetItem API key',
  directPost: 'POST agent handler called directly (no HTTP)',
  rawKeyThenTransact: 'raw GetItem API key, then TransactWrite',
  limiter: 'rate limiter alone, as a request pays it (batched reservations)',
  rawGet3: 'raw GetItem agent || GetItem API key || UpdateItem window',
} as const;

/** The measured request path, then the raw DynamoDB work each request needs, all against one table. */
async function measureLatency(platform: RunningPlatform): Promise<Measured> {
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
interface LatencyFigures {
  readonly getRatio: number;
  /** The same over node:http with a keep-alive agent, the client stack the baseline's SDK uses: the headline. */
  readonly getRatioHttp: number;
  readonly limiterRatio: number;
  readonly windowCountRatio: number;
  readonly windowCountAddedMs: number;
  readonly limiterWritesPer1000: number;
}

function printLatency({ stats, notes, limiterWritesPer1000 }: Measured): LatencyFigures {
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

/** Bundles every distinct handler entry and times its cold import. */
async function measureBundles(): Promise<BundleReport[]> {
  // The routes' handlers and every other function the stack deploys (test/offline/bundles.test.ts checks the set).
  const entries = [...new Set([...Object.values(ROUTES as Record<string, RouteSpec>).map((r) => r.entry), ...OTHER_ENTRIES])].sort();
  await rm(BUNDLE_ROOT, { recursive: true, force: true });
  const reports: BundleReport[] = [];
  for (const entry of entries) {
    const needs = (ENTRY_NEEDS as Partial<Record<string, Parameters<typeof bundleExtras>[0]>>)[entry] ?? {};
    const built = await bundleEntry(PROJECT_ROOT, entry, join(BUNDLE_ROOT, bundleName(entry)), bundleExtras(needs));
    reports.push(await measureInit(built, INIT_RUNS));
  }
  return reports;
}

function printBundles(reports: readonly BundleReport[]): void {
  process.stdout.write(
    `\nLambda bundles (lib/infra/bundling.ts options: the AWS SDK bundled, S3 and SQS loaded from the runtime on first use).\n` +
      `Init = cold import of the bundle in a fresh Node process with only PATH set, median of ${INIT_RUNS}; the bundled\n` +
      "SDK loads with it, S3 and SQS do not (no handler touches them at import). CPU = user + system time of that import, which\n" +
      'is what it would take on a dedicated core (wall time here also includes waiting for a shared core).\n\n',
  );
  const rows = reports.map((r) => [
    r.entry,
    r.bytes !== undefined ? (r.bytes / 1024).toFixed(1) : '-',
    r.initMs ? ms(median(r.initMs)) : '-',
    r.initCpuMs ? ms(median(r.initCpuMs)) : '-',
    r.initMs ? `${ms(Math.min(...r.initMs))}-${ms(Math.max(...r.initMs))}` : '-',
    r.problem ?? '',
  ]);
  process.stdout.write(`${formatTable(['entry', 'KB', 'init ms (median)', 'init CPU ms (median)', 'init ms range', 'note'], rows)}\n`);
  const beside = reports.flatMap((r) => (r.modules ?? []).map((m) => `  ${(m.bytes / 1024).toFixed(1).padStart(7)} KB  ${m.file} beside ${r.entry}`));
  if (beside.length > 0) {
    process.stdout.write(`\nModules built beside a bundle (loaded on first use, so not in its size or init):\n${beside.join('\n')}\n`);
  }
  const largest = [...reports].filter((r) => r.bytes !== undefined).sort((a, b) => b.bytes! - a.bytes!)[0];
  if (largest?.largestInputs) {
    process.stdout.write(`\nLargest inputs of the largest bundle (${largest.entry}):\n`);
    for (const input of largest.largestInputs) process.stdout.write(`  ${(input.bytes / 1024).toFixed(1).padStart(7)} KB  ${input.path}\n`);
  }
}

function printSummary(latency: LatencyFigures | undefined, reports: readonly BundleReport[], seconds: number): void {
  const measured = reports.filter((r) => r.bytes !== undefined);
  const maxKb = Math.max(...measured.map((r) => r.bytes! / 1024));
  const over = measured.filter((r) => r.bytes! / 1024 > TARGET.bundleKb).length;
  const slowest = (pick: (r: BundleReport) => readonly number[] | undefined) =>
    reports
      .filter((r) => pick(r))
      .map((r) => ({ entry: r.entry, ms: median(pick(r)!) }))
      .reduce((a, b) => (b.ms > a.ms ? b : a), { entry: '-', ms: 0 });
  const wall = slowest((r) => r.initMs);
  const cpu = slowest((r) => r.initCpuMs);
  const verdict = (ok: boolean, by: string) => (ok ? 'within target' : `MISSED by ${by}`);
  const skipped = reports.filter((r) => r.problem);
  // The headline is the node:http row: the API and its baseline reached through the same client stack
  // (docs/benchmarks.md, "Which GET ratio is the headline"); the fetch row stays beside it.
  const headline = latency?.getRatioHttp;
  const lines = [
    ...(headline === undefined
      ? ['GET agent / raw GetItem p50: not measured (--bundles-only)']
      : [`GET agent / raw GetItem p50, both through the baseline SDK's own client stack (node:http keep-alive): ${headline.toFixed(2)}x vs <= ${TARGET.getRatio}x: ${verdict(headline <= TARGET.getRatio, `${(headline - TARGET.getRatio).toFixed(2)}x`)} (with a fetch client: ${latency!.getRatio.toFixed(2)}x)`]),
    `largest bundle: ${maxKb.toFixed(1)} KB vs <= ${TARGET.bundleKb} KB: ${verdict(maxKb <= TARGET.bundleKb, `${(maxKb - TARGET.bundleKb).toFixed(1)} KB`)} (${over} of ${measured.length} over)`,
    `slowest init, wall median: ${ms(wall.ms)} ms (${wall.entry}) vs <= ${TARGET.initMs} ms: ${verdict(wall.ms <= TARGET.initMs, `${ms(wall.ms - TARGET.initMs)} ms`)}`,
    `slowest init, CPU median: ${ms(cpu.ms)} ms (${cpu.entry}) vs <= ${TARGET.initMs} ms: ${verdict(cpu.ms <= TARGET.initMs, `${ms(cpu.ms - TARGET.initMs)} ms`)}`,
    ...(skipped.length > 0 ? [`not measured: ${skipped.map((r) => `${r.entry} (${r.problem})`).join('; ')}`] : []),
    `total run time ${seconds.toFixed(0)} s; 1-minute load average at the end ${loadavg()[0]!.toFixed(1)} (a busy machine inflates every number)`,
  ];
  process.stdout.write(`\nSummary\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  // The last line: the figures as JSON, for scripts that compare runs (as the pipeline suite ends).
  const round = (n: number) => Math.round(n * 100) / 100;
  const figures = {
    suite: 'api',
    ...(latency
      ? {
          getRatioHttp: round(latency.getRatioHttp),
          getRatio: round(latency.getRatio),
          rateLimiterRatio: round(latency.limiterRatio),
          rateLimitWindowCountRatio: round(latency.windowCountRatio),
          rateLimitAddedMs: round(latency.windowCountAddedMs),
          rateLimitWritesPer1000: round(latency.limiterWritesPer1000),
        }
      : {}),
    maxBundleKb: round(maxKb),
    slowestInitMs: round(wall.ms),
    slowestInitCpuMs: round(cpu.ms),
    seconds: Math.round(seconds),
    loadAverage1m: round(loadavg()[0]!),
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

/** Runs the suite: latency against a fresh platform, then bundles once the platform is gone. */
export async function run(): Promise<void> {
  const started = performance.now();
  process.stdout.write(`1-minute load average at the start: ${loadavg()[0]!.toFixed(1)}\n`);
  // One JSON log line per request would bury the report; writing it is not what is being measured.
  process.env.LOG_LEVEL = 'silent';
  // Thousands of sequential requests with one key: far above the default per-key limit. Raised, not turned
  // off, so every measured request still pays for its window count.
  process.env.RATE_LIMIT_KEY = '1000000/10s';
  // The deployed request path: behind API Gateway the authorizer's verdict is cached per key for its TTL, so
  // a route function never reads the key; locally the same verdict cache stands in for it (lib/http/handler.ts).
  process.env.KEY_VERDICT_CACHE_TTL_MS = String(API_KEY_AUTHORIZER_TTL.toMilliseconds());
  const measure = () =>
    withBenchPlatform({ dataDirPrefix: 'vap-bench-', table: BENCH_TABLE, bucket: BUCKET }, async (platform) =>
      printLatency(await measureLatency(platform)),
    );
  const latency = BUNDLES_ONLY ? undefined : await measure();
  // After the JVM is gone, so cold imports do not compete with it for the two cores.
  const reports = await measureBundles();
  printBundles(reports);
  await rm(BUNDLE_ROOT, { recursive: true, force: true });
  printSummary(latency, reports, (performance.now() - started) / 1000);
}
