/**
 * Invariant: the upload function as the stack deploys it (its CDK asset folder: the bundle, and the workbook
 * libraries built beside it by the afterBundling hook) imports an .xlsx. The folder is synthesized with real
 * bundling, then its index.mjs runs in a fresh Node process, as a cold Lambda would, against DynamoDB Local:
 * the bundle no longer carries the spreadsheet reader, so this proves it finds and loads the module beside it
 * (lib/domain/contact-import/xlsx.ts). Running from source is covered by contacts-upload.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xlsx } from '../support/contact-files.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { PROJECT_ROOT } from '../../lib/infra/constructs/api-function.js';
import { synthFunctionAsset } from '../support/stack.js';

const run = promisify(execFile);

/** The variables the stack gives the function, here as the local platform gives its handlers (lib/local/platform/platform.ts). */
const LAMBDA_ENVIRONMENT = [
  'TABLE_NAME',
  'AWS_REGION',
  'DYNAMODB_ENDPOINT',
  'SQS_ENDPOINT',
  'WEBHOOK_QUEUE_URL',
  'WEBHOOK_DLQ_URL',
  'SECRET_KEY_FILE',
  'PUBLIC_BASE_URL',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
] as const;

/** The child's whole program: import the bundle, invoke its handler once with the event file, print the result. */
const INVOKE = `
import { readFileSync } from 'node:fs';
const { handler } = await import(process.argv[1]);
const event = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const deadline = Date.now() + 29_000;
const context = { functionName: 'upload', awsRequestId: event.requestContext.requestId, getRemainingTimeInMillis: () => deadline - Date.now() };
const result = await handler(event, context);
process.stdout.write('\\nRESULT ' + JSON.stringify(result) + '\\n');
`;

let t: TestPlatform;
let asset: string;
let scratch: string;

beforeAll(async () => {
  t = await startTestPlatform();
  asset = synthFunctionAsset('functions/contacts/upload.ts');
  scratch = await mkdtemp(join(tmpdir(), 'upload-bundle-'));
});
afterAll(async () => {
  await t?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  // The cloud assembly the asset was staged in (a temporary folder of its own).
  if (asset) await rm(dirname(asset), { recursive: true, force: true });
});

/** POST /api/contacts/upload as API Gateway (HTTP API, payload 2.0) hands it to the function. */
async function uploadEvent(apiKey: string, form: FormData): Promise<APIGatewayProxyEventV2> {
  const request = new Request('http://127.0.0.1/api/contacts/upload', { method: 'POST', body: form });
  const body = Buffer.from(await request.arrayBuffer());
  const requestId = `req-${Date.now()}`;
  return {
    version: '2.0',
    routeKey: 'POST /api/contacts/upload',
    rawPath: '/api/contacts/upload',
    rawQueryString: '',
    headers: { 'content-type': request.headers.get('content-type')!, 'content-length': String(body.length), 'x-api-key': apiKey },
    body: body.toString('base64'),
    isBase64Encoded: true,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: '127.0.0.1',
      domainPrefix: 'local',
      http: { method: 'POST', path: '/api/contacts/upload', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId,
      routeKey: 'POST /api/contacts/upload',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
  };
}

/** Runs the deployed index.mjs once in a fresh process with only the function's environment. */
async function invokeDeployed(event: APIGatewayProxyEventV2): Promise<{ statusCode: number; body: any; logs: string }> {
  const eventFile = join(scratch, `${event.requestContext.requestId}.json`);
  await writeFile(eventFile, JSON.stringify(event));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    LOG_LEVEL: 'warn',
    // The Lambda runtime's own SDK copy, which the bundles require the SQS and S3 clients from
    // (lib/infra/bundling.ts, LAZY_SDK_PACKAGES), is on NODE_PATH there. NODE_PATH reaches require() only,
    // never import(), so the workbook libraries still have to come from beside the bundle.
    NODE_PATH: join(PROJECT_ROOT, 'node_modules'),
  };
  for (const name of LAMBDA_ENVIRONMENT) if (process.env[name]) env[name] = process.env[name]!;
  const { stdout, stderr } = await run(
    process.execPath,
    ['--input-type=module', '-e', INVOKE, pathToFileURL(join(asset, 'index.mjs')).href, eventFile],
    { env, cwd: asset },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '))!;
  const result = JSON.parse(line.slice('RESULT '.length)) as { statusCode: number; body: string };
  // The function's log lines, to explain an unexpected answer.
  return { statusCode: result.statusCode, body: JSON.parse(result.body), logs: `${stdout}${stderr}` };
}

describe('the deployed upload function', () => {
  it('imports an .xlsx through the workbook libraries beside its bundle', async () => {
    const ws = await t.workspace();
    const form = new FormData();
    form.append('workspaceId', ws.workspaceId);
    form.append('defaultCountry', 'US');
    const book = await xlsx([
      ['contactName', 'phoneNumber', 'Company'],
      ['Ann', '+14155552671', 'Acme'],
      ['Bob', 4155552672, 'Beta'],
      ['Cy', 12345, null],
    ]);
    form.append('file', new Blob([new Uint8Array(book)]), 'contacts.xlsx');

    const res = await invokeDeployed(await uploadEvent(ws.apiKey, form));
    expect(res.statusCode, res.logs).toBe(200);
    expect(res.body).toEqual({
      imported: 2,
      skipped: 0,
      errors: [{ row: 4, column: 'phoneNumber', value: '12345', message: expect.any(String) }],
      importId: expect.stringMatching(/^imp_/),
    });
    const listed = await t.api(ws.apiKey, 'GET', '/api/contacts?limit=10');
    const stored = listed.body.data
      .map((c: { contactName: string; phoneNumber: string; region: string }) => [c.contactName, c.phoneNumber, c.region])
      .sort();
    expect(stored).toEqual([
      ['Ann', '+14155552671', 'US'],
      ['Bob', '+14155552672', 'US'],
    ]);
  });
});
