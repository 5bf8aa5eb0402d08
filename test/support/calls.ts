import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteMessageBatchCommand, GetQueueAttributesCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import { getDeps, withTelephony, type Deps } from '../../lib/deps.js';
import { createTwilioTelephony } from '../../lib/vendors/telephony/twilio.js';
import { startPlatform, type RunningPlatform } from '../../lib/local/platform/platform.js';
import { createSqsClient } from '../../lib/store/queue.js';
import { createWorkspace } from '../../lib/store/workspaces.js';
import { findCall } from '../../lib/store/calls.js';
import type { CalleeBehaviour } from '../../lib/local/standins/twilio/callee.js';
import { ownDispatchQueue, platformApi, raiseLoopbackIpLimits, sharedStores } from './platform.js';
import type { StandinAccount } from '../../lib/local/standins/twilio/state.js';
import { WAIT_MS } from './progress.js';

/**
 * A local platform for the calls tests: like test/support/platform.ts, with the SQS client and queue URLs a
 * test needs to look at its dispatch messages.
 */
export interface CallsPlatform {
  readonly baseUrl: string;
  readonly platform: RunningPlatform;
  readonly deps: Deps;
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  readonly deadLetterQueueUrl: string;
  /** The platform's DATA_DIR (a temporary directory, removed by `stop`). */
  readonly dataDir: string;
  workspace(credits?: number): Promise<{ workspaceId: string; apiKey: string }>;
  api(apiKey: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  /** A workspace with credits, an agent and a bought number to call from. */
  callerSetup(credits?: number): Promise<CallerSetup>;
  /** An agent and a bought number in the key's workspace. */
  agentAndNumber(apiKey: string): Promise<{ agentId: string; numberId: string; number: string }>;
  /** Messages visible on a queue right now (received with visibility 0, so they stay). */
  peek(queueUrl: string): Promise<number>;
  stop(): Promise<void>;
}

/**
 * One call's reservation at the platform's default price (lib/config.ts: 1 credit a minute, 600 s at most),
 * written out so that tests do not compute expected amounts with the code they test.
 */
export const CALL_RESERVATION = 10;

/**
 * What a call of `seconds` costs at the default price: every started second at 1/60 credit, to 4 decimals
 * (docs/calls.md), spelled independently of lib/domain/call.ts for durations a test only learns at run time.
 */
export const expectedCallCost = (seconds: number): number => Math.round((Math.ceil(seconds) / 60) * 10_000) / 10_000;

let numberSeq = 0;

export interface CallerSetup {
  readonly workspaceId: string;
  readonly apiKey: string;
  readonly agentId: string;
  readonly numberId: string;
  readonly number: string;
}

export async function startCallsPlatform(options: { dispatchPoller?: boolean; streamSweep?: boolean; lostCallbacks?: boolean; campaignScheduler?: boolean } = {}): Promise<CallsPlatform> {
  const sqs = createSqsClient({ AWS_REGION: 'us-east-1', SQS_ENDPOINT: inject('stores').sqs });
  const queue = await ownDispatchQueue(sqs);
  const stores = sharedStores(queue);
  const dataDir = await mkdtemp(join(tmpdir(), 'vap-calls-'));
  const table = `t-${randomBytes(6).toString('hex')}`;
  raiseLoopbackIpLimits();
  const platform = await startPlatform(
    { PORT: 0, HOST: '127.0.0.1', DATA_DIR: dataDir, TABLE_NAME: table, BUCKET_NAME: 'voice-agents-recordings' },
    { stores, persist: false, dispatchPoller: options.dispatchPoller, streamSweep: options.streamSweep, lostCallbacks: options.lostCallbacks, campaignScheduler: options.campaignScheduler },
  );
  // Tests reach the provider directly too, so their deps carry the adapter the telephony handlers name.
  const deps = withTelephony(await getDeps(), createTwilioTelephony);

  const api: CallsPlatform['api'] = platformApi(platform.baseUrl);

  const agentAndNumber: CallsPlatform['agentAndNumber'] = async (apiKey) => {
    const agent = await api(apiKey, 'POST', '/api/agents', {
      name: 'Caller',
      llm_provider: 'openai',
      llm_model: 'gpt-4o-mini',
      tts_provider: 'deepgram',
      stt_provider: 'deepgram',
      first_message: 'Hello {{contactName|there}}, this is the clinic calling.',
      system_prompt: 'You confirm appointments.',
    });
    if (agent.status !== 201) throw new Error(`agent: ${agent.status} ${JSON.stringify(agent.body)}`);
    // The stand-in sells +1 415 555-01xx; each workspace of this file takes the next one.
    const number = `+1415555${String(100 + (numberSeq++ % 100)).padStart(4, '0')}`;
    const bought = await api(apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: number });
    if (bought.status !== 201) throw new Error(`buy: ${bought.status} ${JSON.stringify(bought.body)}`);
    return { agentId: agent.body._id, numberId: bought.body._id, number };
  };

  return {
    baseUrl: platform.baseUrl,
    platform,
    deps,
    sqs,
    queueUrl: queue.queueUrl,
    deadLetterQueueUrl: queue.deadLetterQueueUrl,
    dataDir,
    workspace: (credits = 100) => createWorkspace(deps.db, { name: 'calls test', credits }),
    api,
    async callerSetup(credits = 100) {
      const ws = await createWorkspace(deps.db, { name: 'calls test', credits });
      return { workspaceId: ws.workspaceId, apiKey: ws.apiKey, ...(await agentAndNumber(ws.apiKey)) };
    },
    agentAndNumber,
    async peek(queueUrl) {
      const out = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }));
      return Number(out.Attributes?.ApproximateNumberOfMessages ?? 0) + Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
    },
    async stop() {
      await platform.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Receives up to 10 messages from a queue (they become invisible for `visibility` seconds). `waitSeconds` 0
 * is a short poll: it answers at once with what is visible, which is all a drain of messages sent before it
 * needs (the API answers only after SQS took the message); a wait is for messages still to come.
 */
export async function receive(sqs: SQSClient, queueUrl: string, visibility = 30, waitSeconds = 1) {
  const out = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: waitSeconds, VisibilityTimeout: visibility, AttributeNames: ['All'] }),
  );
  return out.Messages ?? [];
}

/**
 * Every message on the queue now, taken off it (short polls: the API answers only after SQS took its
 * message). Deleted, not only received: a received message comes back once its visibility timeout ends, and
 * a file that ran past it on a loaded machine found an earlier test's call among its own.
 */
export async function drainQueue(sqs: SQSClient, queueUrl: string): Promise<string[]> {
  const bodies: string[] = [];
  for (let got = await receive(sqs, queueUrl, 30, 0); got.length > 0; got = await receive(sqs, queueUrl, 30, 0)) {
    bodies.push(...got.map((m) => m.Body!));
    await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: got.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
  }
  return bodies;
}

/** Polls `check` every `intervalMs` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = WAIT_MS, what = 'condition', intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Places an outbound call through the API from a fresh workspace (an agent patched with `agentPatch`, the
 * given tools, and a contact for the number when `contactName` is given) to a callee of the Twilio
 * stand-in behaving as `behaviour` (undefined: as the number's own, a test number's or the default callee);
 * waits for the call to finish and for its history record.
 */
export async function placeOutboundCall(
  p: CallsPlatform,
  to: string,
  behaviour: CalleeBehaviour | undefined,
  options: { agentPatch?: Record<string, unknown>; tools?: unknown[]; contactName?: string; setup?: CallerSetup; body?: Record<string, unknown> } = {},
) {
  const s = options.setup ?? (await p.callerSetup(100));
  for (const tool of options.tools ?? []) {
    const created = await p.api(s.apiKey, 'POST', '/api/tools', { ...(tool as object), workspaceId: s.workspaceId });
    if (created.status !== 201) throw new Error(`tool not created: ${created.status}`);
  }
  if (options.agentPatch && Object.keys(options.agentPatch).length > 0) {
    const patched = await p.api(s.apiKey, 'PATCH', `/api/agents/${s.agentId}`, options.agentPatch);
    if (patched.status !== 200) throw new Error(`agent not patched: ${patched.status} ${JSON.stringify(patched.body)}`);
  }
  if (options.contactName) await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: options.contactName, phoneNumber: to, workspaceId: s.workspaceId });
  if (behaviour) p.platform.callSimulator!.setRule(to, behaviour);
  const started = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, phoneNumber: to, phoneNumberId: s.numberId, workspaceId: s.workspaceId, ...options.body });
  if (started.status !== 202) throw new Error(`call not started: ${started.status} ${JSON.stringify(started.body)}`);
  const callId: string = started.body.call_id;
  // Bounds that only end a test gone wrong: several calls placed at once on a machine shared with other work
  // (a load of 40 on two cores here) took over 20 s to be dispatched.
  const sid = await eventually(async () => (await findCall(p.deps.db, s.workspaceId, callId))?.providerCallSid, 90_000, 'the call to be placed');
  const result = await p.platform.callSimulator!.finished(sid);
  const record = await eventually(async () => {
    const res = await p.api(s.apiKey, 'GET', `/api/history/${callId}`);
    return res.status === 200 ? res.body : undefined;
  }, 90_000, 'the history record');
  const placed = p.platform.twilio!.requests.find((r) => r.method === 'POST' && r.path.endsWith('/Calls.json') && r.form.To === to)!;
  return { s, callId, sid, result, record, placed };
}

/**
 * Imports `number` into the setup's workspace from a new provider account of the Twilio stand-in (bring
 * your own telephony: the workspace holds the account's auth token); answers the account and the number's id.
 */
export async function importOwnNumber(p: CallsPlatform, s: CallerSetup, number: string): Promise<{ customer: StandinAccount; numberId: string }> {
  const customer = p.platform.twilio!.addAccount();
  p.platform.twilio!.addNumber(customer.sid, number);
  const imported = await p.api(s.apiKey, 'POST', '/api/phone-numbers/import', {
    phoneNumber: number,
    telephonyAccountSid: customer.sid,
    telephonyAuthToken: customer.authToken,
    workspaceId: s.workspaceId,
  });
  if (imported.status !== 201) throw new Error(`number not imported: ${imported.status} ${JSON.stringify(imported.body)}`);
  return { customer, numberId: imported.body._id as string };
}

