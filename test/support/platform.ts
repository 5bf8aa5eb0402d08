import { randomBytes } from 'node:crypto';
import { CreateQueueCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { getDeps, withTelephony, type Deps } from '../../lib/deps.js';
import { createTwilioTelephony } from '../../lib/vendors/telephony/twilio.js';
import type { LocalStores } from '../../lib/local/platform/stores.js';
import { startPlatform, type RunningPlatform } from '../../lib/local/platform/platform.js';
import type { Fallback } from '../../lib/local/platform/server.js';
import { createSqsClient } from '../../lib/store/queue.js';
import { createWorkspace } from '../../lib/store/workspaces.js';
import { expectToolsMasked } from './invariants.js';

export interface TestPlatform {
  readonly baseUrl: string;
  /** The DATA_DIR and TABLE_NAME this platform runs with (the admin CLI finds it through them). */
  readonly dataDir: string;
  readonly table: string;
  readonly platform: RunningPlatform;
  readonly deps: Deps;
  /** A fresh workspace with an API key and the given credits. */
  workspace(credits?: number): Promise<{ workspaceId: string; apiKey: string; keyId: string }>;
  /** fetch against the platform with the key set and JSON encoded. */
  api(apiKey: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  stop(): Promise<void>;
}

/**
 * Stores started by global setup, handed to the platform so it does not start its own (their `stop` does
 * nothing: global teardown owns them). `queue` replaces the shared dispatch queue with one of the caller's
 * (every platform a test starts has one: {@link ownDispatchQueue}).
 */
export function sharedStores(queue?: { queueUrl: string; deadLetterQueueUrl: string }): LocalStores {
  const s = inject('stores');
  const noop = async () => undefined;
  const { queueUrl, deadLetterQueueUrl } = queue ?? s;
  return {
    dynamo: { endpoint: s.dynamodb, stop: noop },
    s3: { endpoint: s.s3, credentials: s.s3Credentials, stop: noop },
    sqs: { endpoint: s.sqs, queueUrl, deadLetterQueueUrl, stop: noop },
    cognito: { ...s.cognito, stop: noop },
    stop: noop,
  };
}

/**
 * A dispatch queue (and its dead letters) of the caller's own on the shared SQS server. Every platform polls
 * its dispatch queue, so two test files sharing one (they run side by side: docs/testing.md) would take
 * each other's messages.
 */
export async function ownDispatchQueue(sqs: SQSClient): Promise<{ queueUrl: string; deadLetterQueueUrl: string }> {
  const suffix = randomBytes(5).toString('hex');
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `dispatch-${suffix}-dlq` }));
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: `dispatch-${suffix}`,
      Attributes: {
        VisibilityTimeout: '60',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: `arn:aws:sqs:us-east-1:123456789012:dispatch-${suffix}-dlq`, maxReceiveCount: 3 }),
      },
    }),
  );
  return { queueUrl: queue.QueueUrl!, deadLetterQueueUrl: dlq.QueueUrl! };
}

/**
 * {@link TestPlatform.api} for a platform at `baseUrl`: the key set, a body JSON-encoded unless it is a
 * string already (so a test can send malformed JSON), and the answer parsed when it is JSON. Every JSON
 * answer is checked for unmasked tool header values, so no route can leak one unnoticed.
 */
export function platformApi(baseUrl: string): TestPlatform['api'] {
  return async (apiKey, method, path, body, headers = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        'x-api-key': apiKey,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Non-JSON answers (HTML, TwiML) stay text.
    }
    expectToolsMasked(parsed, `${method} ${path}`);
    return { status: res.status, body: parsed, headers: res.headers };
  };
}

/**
 * Every test request comes from 127.0.0.1, unlike real users, so the per-IP limits of the public meeting
 * pages and of failed authentications are raised unless a test sets its own (test/connected/rate-limits
 * runs with real, low ones). The per-key and webhook limits keep their defaults. Call before the platform
 * starts (the config is read once).
 */
export function raiseLoopbackIpLimits(): void {
  process.env.RATE_LIMIT_MEETING ??= '100000/60s';
  process.env.RATE_LIMIT_MEETING_JOIN ??= '100000/60s';
  process.env.RATE_LIMIT_WIDGET ??= '100000/60s';
  process.env.RATE_LIMIT_AUTH_FAILURES ??= '100000/60s';
  process.env.RATE_LIMIT_ACCOUNT ??= '100000/60s';
  process.env.RATE_LIMIT_REFRESH ??= '100000/60s';
}

/**
 * The whole local platform in this test file's process, on a free port, with a table of its own so test
 * files never see each other's data.
 */
export async function startTestPlatform(
  options: { fallbacks?: Fallback[]; persist?: boolean; twilioSandbox?: boolean } = {},
): Promise<TestPlatform> {
  raiseLoopbackIpLimits();
  const dataDir = await mkdtemp(join(tmpdir(), 'vap-test-'));
  const table = `t-${randomBytes(6).toString('hex')}`;
  const queue = await ownDispatchQueue(createSqsClient({ AWS_REGION: 'us-east-1', SQS_ENDPOINT: inject('stores').sqs }));
  const platform = await startPlatform(
    { PORT: 0, HOST: '127.0.0.1', DATA_DIR: dataDir, TABLE_NAME: table, BUCKET_NAME: 'voice-agents-recordings' },
    // The Twilio stand-in is strict unless asked: only accounts a test registers authenticate.
    { stores: sharedStores(queue), persist: options.persist ?? false, fallbacks: options.fallbacks, twilioSandbox: options.twilioSandbox ?? false },
  );
  // Tests reach the provider directly too, so their deps carry the adapter the telephony handlers name.
  const deps = withTelephony(await getDeps(), createTwilioTelephony);
  return {
    baseUrl: platform.baseUrl,
    dataDir,
    table,
    platform,
    deps,
    workspace: (credits = 100) => createWorkspace(deps.db, { name: 'test', credits }),
    api: platformApi(platform.baseUrl),
    async stop() {
      await platform.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
