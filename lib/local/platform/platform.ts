import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import * as z from 'zod';
import { ensureTable } from './dynamodb.js';
import { cognitoEnvironment } from './cognito.js';
import { ensureAgentTestQueue, ensureKnowledgeQueue, ensureWebhookQueues } from './sqs.js';
import { createLocalServer, type Fallback } from './server.js';
import { startTwilioStandin, type TwilioStandin } from '../standins/twilio/standin.js';
import type { CallHooks } from '../standins/twilio/state.js';
import { createCallSimulator, type CallSimulator } from '../standins/twilio/call-simulator.js';
import { knownLinesOr, SpokenLines } from '../standins/spoken-lines.js';
import { DEFAULT_STT_SCRIPT } from '../standins/stt.js';
import { startLocalVoice, type LocalVoice, type LocalVoiceOptions } from '../../../streaming-service/src/local.js';
import { startAgentTestPoller, startDispatchPoller, startKnowledgePoller, startWebhookPoller } from './queue-poller.js';
import { startCampaignSchedule, startLostCallbackSchedule, startStreamSweepSchedule } from './schedule.js';
import { registerInstance } from './instances.js';
import { loadConfig } from '../../config.js';
import { setProcessEnvironment } from '../../deps.js';
import { dashboardFallback } from './dashboard.js';
import { declareStandInVendors, type DeclaredStandIn } from '../../domain/stand-ins.js';
import { startStores, type LocalStores } from './stores.js';

/** Settings of `npm start` itself (the handlers read theirs through lib/config.ts). */
export const LocalSettings = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('.data'),
  TABLE_NAME: z.string().default('voice-agents'),
  BUCKET_NAME: z.string().default('voice-agents-recordings'),
  PUBLIC_BASE_URL: z.url().optional(),
  /** Real Twilio credentials switch telephony to the real service; without them the local stand-in runs. */
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  /** Credits of a workspace made by a dashboard sign-up; locally 100 when unset, so a new user can try a call. */
  SIGNUP_CREDITS: z.coerce.number().min(0).max(1_000_000).optional(),
  /** The simulated callee's scripted lines per destination (docs/telephony.md); default DATA_DIR/callee-scripts.json. */
  CALLEE_SCRIPTS: z.string().min(1).optional(),
});
export type LocalSettings = z.infer<typeof LocalSettings>;

export { endpointsFile } from './instances.js';

/** The environment a Lambda would get from the stack, pointed at the local stores. */
export function handlerEnvironment(
  stores: LocalStores,
  settings: LocalSettings,
  baseUrl: string,
  webhookQueues?: { queueUrl: string; deadLetterQueueUrl: string },
  knowledgeQueue?: { queueUrl: string },
  agentTestQueue?: { queueUrl: string },
): Record<string, string> {
  return {
    ...(agentTestQueue ? { AGENT_TEST_QUEUE_URL: agentTestQueue.queueUrl } : {}),
    ...(webhookQueues ? { WEBHOOK_QUEUE_URL: webhookQueues.queueUrl, WEBHOOK_DLQ_URL: webhookQueues.deadLetterQueueUrl } : {}),
    ...(knowledgeQueue ? { KNOWLEDGE_QUEUE_URL: knowledgeQueue.queueUrl } : {}),
    TABLE_NAME: settings.TABLE_NAME,
    AWS_REGION: 'us-east-1',
    DYNAMODB_ENDPOINT: stores.dynamo.endpoint,
    BUCKET_NAME: settings.BUCKET_NAME,
    S3_ENDPOINT: stores.s3.endpoint,
    SQS_ENDPOINT: stores.sqs.endpoint,
    DISPATCH_QUEUE_URL: stores.sqs.queueUrl,
    SECRET_KEY_FILE: resolve(settings.DATA_DIR, 'secret.key'),
    PUBLIC_BASE_URL: settings.PUBLIC_BASE_URL ?? baseUrl,
    // The recordings stand-in accepts only requests signed with the credentials it made up at start.
    AWS_ACCESS_KEY_ID: stores.s3.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: stores.s3.credentials.secretAccessKey,
    ...cognitoEnvironment(stores.cognito),
    SIGNUP_CREDITS: String(settings.SIGNUP_CREDITS ?? 100),
  };
}

export interface RunningPlatform {
  readonly baseUrl: string;
  /** The local Twilio stand-in, when no real Twilio credentials were given. */
  readonly twilio?: TwilioStandin;
  /** What the stand-in does with placed calls (callee rules, results); with the stand-in only. */
  readonly callSimulator?: CallSimulator;
  /** The streaming service (`/media-stream`, `/health`) and the STT/LLM/TTS stand-ins it talks to. */
  readonly voice: LocalVoice;
  readonly docsUrl: string;
  readonly stores: LocalStores;
  /** This platform's webhook-delivery queue and its dead letters (named after its table). */
  readonly webhookQueues: { readonly queueUrl: string; readonly deadLetterQueueUrl: string };
  readonly server: Server;
  stop(): Promise<void>;
}

/**
 * The whole platform on this machine: stores, table, bucket, queues, and the HTTP API whose routes run the
 * Lambda handler modules in this process. `ownStores: false` reuses stores started elsewhere (tests).
 */
export async function startPlatform(
  settings: LocalSettings,
  options: {
    stores?: LocalStores;
    persist?: boolean;
    fallbacks?: Fallback[];
    /** Stand-in mode (see lib/local/standins/twilio/standin.ts); `npm start` uses the sandbox, tests default to strict. */
    twilioSandbox?: boolean;
    /** Run the call-dispatch consumer (lib/local/platform/queue-poller.ts); on unless a test drives dispatch itself. */
    dispatchPoller?: boolean;
    /** Run the webhook-delivery consumer; on unless a test drives deliveries itself. */
    webhookPoller?: boolean;
    /** Run the knowledge-ingestion consumer; on unless a test drives ingestion itself. */
    knowledgePoller?: boolean;
    /** Run the agent-test run consumer; on unless a test drives runs itself. */
    agentTestPoller?: boolean;
    /** Run the sweep of abandoned streams on its timer (lib/local/platform/schedule.ts); on unless a test drives it. */
    streamSweep?: boolean;
    /** Run the reconciliation of lost status callbacks on its timer (lib/local/platform/schedule.ts); on unless a test drives it. */
    lostCallbacks?: boolean;
    /** Run the campaign scheduler on its timer (lib/local/platform/schedule.ts); on unless a test drives it with its own clock. */
    campaignScheduler?: boolean;
    /** Scripts for the voice stand-ins and session tuning (tests, the benchmark). */
    voice?: LocalVoiceOptions;
  } = {},
): Promise<RunningPlatform> {
  const persist = options.persist ?? true;
  await mkdir(settings.DATA_DIR, { recursive: true });
  const stores = options.stores ?? (await startStores(persist ? resolve(settings.DATA_DIR) : undefined, settings.BUCKET_NAME));
  await ensureTable(stores.dynamo.endpoint, settings.TABLE_NAME);
  const webhookQueues = await ensureWebhookQueues(stores.sqs.endpoint, settings.TABLE_NAME);
  const knowledgeQueue = await ensureKnowledgeQueue(stores.sqs.endpoint, settings.TABLE_NAME);
  const agentTestQueue = await ensureAgentTestQueue(stores.sqs.endpoint, settings.TABLE_NAME);

  // A copy the streaming service can add its health route to.
  const fallbacks = [...(options.fallbacks ?? [])];
  // The dashboard (docs/dashboard.md): built at start when its sources changed; recordings play from the S3 stand-in.
  fallbacks.push(await dashboardFallback(() => (process.env.S3_ENDPOINT ? [new URL(process.env.S3_ENDPOINT).origin] : [])));
  const server = createLocalServer({ fallbacks });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(settings.PORT, settings.HOST, () => done());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : settings.PORT;
  const baseUrl = `http://${settings.HOST === '0.0.0.0' ? '127.0.0.1' : settings.HOST}:${port}`;
  const restoreEnvironment = setProcessEnvironment(handlerEnvironment(stores, settings, baseUrl, webhookQueues, knowledgeQueue, agentTestQueue));
  // The callee's lines, and what the TTS stand-ins speak for the browser, are what the recognizer
  // stand-ins hear (spoken-lines.ts).
  const spokenLines = new SpokenLines();
  const callSimulator = createCallSimulator({ spokenLines, scriptsFile: resolve(settings.CALLEE_SCRIPTS ?? `${settings.DATA_DIR}/callee-scripts.json`) });
  const { twilio, restoreEnvironment: restoreTelephonyEnvironment } = await startTelephony(settings, persist, options.twilioSandbox ?? true, callSimulator.hooks);
  if (twilio) callSimulator.attach(twilio);
  // After telephony: the streaming service reads the final environment (stand-in URLs included).
  const voice = await startLocalVoice(server, fallbacks, {
    ...options.voice,
    stt: { transcripts: knownLinesOr(spokenLines, DEFAULT_STT_SCRIPT.transcripts), ...options.voice?.stt },
    tts: { spokenLines, ...options.voice?.tts },
  });
  const restoreDeclaration = setProcessEnvironment({ STAND_IN_VENDORS: declareStandInVendors(standInsRunning(voice, twilio)) });
  const poller = options.dispatchPoller === false ? undefined : await startDispatchPoller((error) => {
    process.stderr.write(`dispatch poller: ${String(error)}\n`);
  });

  const webhooks = options.webhookPoller === false ? undefined : await startWebhookPoller((error) => {
    process.stderr.write(`webhook poller: ${String(error)}\n`);
  });

  const knowledge = options.knowledgePoller === false ? undefined : await startKnowledgePoller((error) => {
    process.stderr.write(`knowledge poller: ${String(error)}\n`);
  });

  const agentTests = options.agentTestPoller === false ? undefined : await startAgentTestPoller((error) => {
    process.stderr.write(`agent-test poller: ${String(error)}\n`);
  });

  const sweep = options.streamSweep === false ? undefined : await startStreamSweepSchedule((error) => {
    process.stderr.write(`abandoned-stream sweep: ${String(error)}\n`);
  });

  const reconciliation = options.lostCallbacks === false ? undefined : await startLostCallbackSchedule((error) => {
    process.stderr.write(`lost-callback reconciliation: ${String(error)}\n`);
  });

  const campaigns = options.campaignScheduler === false ? undefined : await startCampaignSchedule(loadConfig().CAMPAIGN_TICK_MS, (error) => {
    process.stderr.write(`campaign scheduler: ${String(error)}\n`);
  });

  // How the admin CLI finds this instance (lib/local/platform/instances.ts).
  const unregister = persist
    ? await registerInstance({
        pid: process.pid,
        dynamodb: stores.dynamo.endpoint,
        cognito: cognitoEnvironment(stores.cognito),
        table: settings.TABLE_NAME,
        baseUrl,
        dataDir: resolve(settings.DATA_DIR),
      })
    : undefined;
  return {
    baseUrl,
    docsUrl: `${baseUrl}/docs`,
    stores,
    webhookQueues,
    server,
    twilio,
    callSimulator: twilio ? callSimulator : undefined,
    voice,
    async stop() {
      await poller?.stop();
      await webhooks?.stop();
      await knowledge?.stop();
      await agentTests?.stop();
      await sweep?.stop();
      await reconciliation?.stop();
      await campaigns?.stop();
      await voice.stop();
      await twilio?.stop();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      await unregister?.();
      if (!options.stores) await stores.stop();
      restoreDeclaration();
      restoreTelephonyEnvironment();
      restoreEnvironment();
    },
  };
}

/**
 * The stand-ins this platform started, for STAND_IN_VENDORS (lib/config.ts): what the pages say is
 * simulated. Declared here, where they start, rather than guessed from addresses, so an operator's own
 * base URL with its key (a proxy, a compatible server on this machine) is never called simulated. It
 * replaces whatever the environment said: this composition knows what it runs.
 */
export function standInsRunning(voice: Pick<LocalVoice, 'stt' | 'llm' | 'tts'>, twilio: TwilioStandin | undefined): DeclaredStandIn[] {
  const tts = (['elevenlabs', 'deepgram', 'cartesia'] as const).filter((v) => voice.tts.control[v] !== undefined);
  return [
    ...Object.keys(voice.stt.control).map((vendor) => ({ capability: 'stt' as const, vendor })),
    ...Object.keys(voice.llm.urls).map((vendor) => ({ capability: 'llm' as const, vendor })),
    ...tts.map((vendor) => ({ capability: 'tts' as const, vendor })),
    ...(twilio ? [{ capability: 'telephony' as const, vendor: 'twilio' }] : []),
  ];
}

/**
 * Telephony for `npm start`: with TWILIO_ACCOUNT_SID/TWILIO_AUTH_TOKEN set, the handlers use the real
 * Twilio with them (they are already in the environment). Otherwise the Twilio stand-in starts on loopback,
 * with a platform account of its own (kept in DATA_DIR so bought numbers survive restarts), and the
 * handlers are pointed at it.
 */
async function startTelephony(
  settings: LocalSettings,
  persist: boolean,
  sandbox: boolean,
  hooks?: CallHooks,
): Promise<{ twilio?: TwilioStandin; restoreEnvironment: () => void }> {
  if (settings.TWILIO_ACCOUNT_SID && settings.TWILIO_AUTH_TOKEN) return { restoreEnvironment: () => undefined };
  const stateFile = persist ? resolve(settings.DATA_DIR, 'twilio-standin.json') : undefined;
  const twilio = await startTwilioStandin({ sandbox, stateFile, hooks });
  const accountFile = resolve(settings.DATA_DIR, 'twilio-platform-account.json');
  const saved = persist
    ? await readFile(accountFile, 'utf8').then((t) => JSON.parse(t) as { sid: string; authToken: string }, () => undefined)
    : undefined;
  const account = twilio.addAccount(saved?.sid, saved?.authToken);
  if (persist && !saved) await writeFile(accountFile, JSON.stringify(account), { mode: 0o600 });
  const restoreEnvironment = setProcessEnvironment({
    TWILIO_ACCOUNT_SID: account.sid,
    TWILIO_AUTH_TOKEN: account.authToken,
    TWILIO_API_BASE_URL: twilio.baseUrl,
  });
  return { twilio, restoreEnvironment };
}
