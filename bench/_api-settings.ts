/** The API benchmark's settings and fixtures (bench/api.ts): sizes and targets, seeded agents, and Lambda events and calls built by hand. */
import { randomUUID } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Agent } from '../lib/domain/agent.js';
import { newId } from '../lib/domain/ids.js';
import type { RouteSpec } from '../lib/infra/routes.js';
import { putNewAgent } from '../lib/store/agents.js';
import { createDb, type Db } from '../lib/store/dynamo.js';
import { withConcurrency, type LatencyStats } from './_latency.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Under the project (gitignored) so the bundles' external @aws-sdk/* resolve from node_modules. */
export const BUNDLE_ROOT = join(PROJECT_ROOT, 'bench', 'out', 'api');

const AGENT_COUNT = 5_000;
/** Every insert also bumps the workspace's agent counter; more writers only buy transaction conflicts. */
export const SEED_CONCURRENCY = 6;
export const LIST_LAST_PAGE = { page: 50, limit: 100 } as const;

/**
 * Samples per case, sized for the ~3-minute budget on two cores: 300 leave 15 samples beyond p95. The last
 * page reads 5,000 items per call (~150 ms here), so it gets 100, enough for p50 and a rough p95.
 */
export const ITERATIONS = { fast: 300, lastPage: 100, write: 250 } as const;
export const WARMUP = 30;
export const INIT_RUNS = 5;

/** The targets the numbers are read against, as docs/benchmarks.md lists them. */
export const TARGET = { getRatio: 1.5, bundleKb: 500, initMs: 100 } as const;

export const BENCH_TABLE = 'bench-api';
export const BUCKET = 'voice-agents-recordings';

/** A realistic agent: the system prompt dominates the item size, as it does in practice. */
export function agentFields(i: number) {
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

export async function seedAgents(db: Db, workspaceId: string): Promise<string[]> {
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

export type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** A request as API Gateway (payload 2.0) would deliver it, for calling a handler without HTTP. */
export function gatewayEvent(
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
export async function invoke(handler: Handler, event: APIGatewayProxyEventV2, expected: number): Promise<void> {
  const res = await handler(event, lambdaContext(event.requestContext.requestId));
  if (res.statusCode !== expected) throw new Error(`handler answered ${res.statusCode}, expected ${expected}: ${res.body}`);
}

/** fetch that insists on the expected status, so a benchmark of 401s or 404s cannot pass unnoticed. */
export async function call(url: string, init: RequestInit, expected: number): Promise<void> {
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
export function httpGetter(agent: HttpAgent, baseUrl: string) {
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

export interface Measured {
  readonly stats: Map<string, LatencyStats>;
  /** Facts about the data set worth printing beside the numbers. */
  readonly notes: readonly string[];
  /** Table writes the limiter row made per 1,000 counted requests (its reservations). */
  readonly limiterWritesPer1000: number;
}

/** A client built like `db`'s, counting the commands it sends (the limiter's reservations). */
export function countingDb(options: Parameters<typeof createDb>[0]): { db: Db; sent: () => number } {
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

export const ROW = {
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
