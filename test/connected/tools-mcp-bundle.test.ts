/**
 * Invariant: the tools function as the stack deploys it (its CDK asset folder: the bundle, and the MCP SDK
 * built beside it by the afterBundling hook) saves an `mcp` tool: its index.mjs runs in a fresh Node process,
 * as a cold Lambda would, against DynamoDB Local and a real MCP SDK server on loopback. The bundle does not
 * carry the SDK, so this proves it finds and loads the module beside it (lib/outbound/mcp.ts, loadMcpLibs).
 * Running from source is covered by mcp-tools.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/infra/constructs/api-function.js';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { synthFunctionAsset } from '../support/stack.js';

const run = promisify(execFile);

/** The variables the stack gives the function, here as the local platform gives its handlers. */
const LAMBDA_ENVIRONMENT = ['TABLE_NAME', 'AWS_REGION', 'DYNAMODB_ENDPOINT', 'SECRET_KEY_FILE', 'PUBLIC_BASE_URL', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const;

/** The child's whole program: import the bundle, invoke its handler once with the event file, print the result. */
const INVOKE = `
import { readFileSync } from 'node:fs';
const { handler } = await import(process.argv[1]);
const event = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const deadline = Date.now() + 15_000;
const context = { functionName: 'tools', awsRequestId: event.requestContext.requestId, getRemainingTimeInMillis: () => deadline - Date.now() };
const result = await handler(event, context);
process.stdout.write('\\nRESULT ' + JSON.stringify(result) + '\\n');
`;

let t: TestPlatform;
let mcp: TestMcpServer;
let asset: string;
let scratch: string;

beforeAll(async () => {
  [t, mcp] = await Promise.all([startTestPlatform(), startMcpServer()]);
  asset = synthFunctionAsset('functions/tools/routes.ts');
  scratch = await mkdtemp(join(tmpdir(), 'tools-bundle-'));
});
afterAll(async () => {
  await t?.stop();
  await mcp?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  if (asset) await rm(dirname(asset), { recursive: true, force: true });
});

/** POST /api/tools as API Gateway (HTTP API, payload 2.0) hands it to the function. */
function createEvent(apiKey: string, body: unknown) {
  const requestId = `req-${Date.now()}`;
  return {
    version: '2.0',
    routeKey: 'POST /api/tools',
    rawPath: '/api/tools',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: '127.0.0.1',
      domainPrefix: 'local',
      http: { method: 'POST', path: '/api/tools', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId,
      routeKey: 'POST /api/tools',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
  };
}

describe('the deployed tools function', () => {
  it('saves an mcp tool through the MCP SDK beside its bundle', async () => {
    const ws = await t.workspace();
    const event = createEvent(ws.apiKey, { name: 'Weather', type: 'mcp', description: 'Forecasts.', config: { url: mcp.url, headers: { Authorization: 'Bearer b-1' } } });
    const eventFile = join(scratch, 'create.json');
    await writeFile(eventFile, JSON.stringify(event));
    // NODE_PATH reaches require() only, never import(): the SDK must come from beside the bundle.
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', NODE_PATH: join(PROJECT_ROOT, 'node_modules'), TOOL_ALLOWED_HOSTS: `127.0.0.1:${mcp.port}` };
    for (const name of LAMBDA_ENVIRONMENT) if (process.env[name]) env[name] = process.env[name]!;
    const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', INVOKE, pathToFileURL(join(asset, 'index.mjs')).href, eventFile], { env, cwd: asset });
    const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
    expect(line, `${stdout}${stderr}`).toBeDefined();
    const result = JSON.parse(line!.slice('RESULT '.length)) as { statusCode: number; body: string };
    expect(result.statusCode, `${result.body}${stderr}`).toBe(201);
    const body = JSON.parse(result.body) as { _id: string; mcp: { tools: { name: string }[] } };
    expect(body.mcp.tools.map((x) => x.name)).toEqual(['get_forecast', 'fail_always', 'slow']);
    expect(mcp.headersSeen.at(-1)?.authorization).toBe('Bearer b-1');
    const got = await t.api(ws.apiKey, 'GET', `/api/tools/${body._id}`);
    expect(got.body.mcp.tools).toHaveLength(3);
  });
});
