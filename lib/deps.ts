import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod';
import { loadConfig, type Config } from './config.js';
import { createDb, type Db } from './store/dynamo.js';
import { createDispatchQueue, createSqsClient, createWebhookQueue, type DispatchQueue, type WebhookQueue } from './store/queue.js';
import { createRecordings, type Recordings } from './store/recordings.js';
import { createSecretBox, decodeKey, loadOrCreateKeyFile, parseKeyring, type DataKeyring, type SecretBox } from './store/secret-box.js';
import { unavailableTelephonyPort, type TelephonyAccount, type TelephonyPort } from './vendors/telephony/port.js';

/** Everything a handler needs, built once per cold start (never at a handler's module scope). */
export interface Deps {
  readonly config: Config;
  readonly db: Db;
  readonly secrets: SecretBox;
  readonly telephony: Telephony;
  /** The call-dispatch queue (clients are built now, no I/O until a send). */
  readonly dispatch: DispatchQueue;
  /** The recordings bucket. */
  readonly recordings: Recordings;
  /** The webhook-delivery queue (events are published to it, its consumer delivers them). */
  readonly webhooks: WebhookQueue;
}

/** The telephony port and the platform's own account (for bought numbers and their webhooks). */
export interface Telephony {
  readonly port: TelephonyPort;
  /** The platform account, read once (from Secrets Manager on AWS); undefined when none is configured. */
  platformAccount(): Promise<TelephonyAccount | undefined>;
}

const TwilioSecret = z.object({ accountSid: z.string().regex(/^AC[0-9a-fA-F]{32}$/), authToken: z.string().min(1) });

/** Builds the telephony port of a vendor (today Twilio: lib/vendors/telephony/twilio.ts). */
export type TelephonyAdapter = (options: { baseUrl?: string }) => TelephonyPort;

/**
 * The platform credentials are read on first use (a Secrets Manager call on AWS). The port refuses until an
 * entry point supplies its adapter with withTelephony: the vendor SDK is several megabytes, so only the
 * handlers that place calls or manage numbers import it, and every other bundle leaves it out.
 */
function createTelephony(config: Config): Telephony {
  let account: Promise<TelephonyAccount | undefined> | undefined;
  const load = async (): Promise<TelephonyAccount | undefined> => {
    if (config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN) {
      return { accountSid: config.TWILIO_ACCOUNT_SID, authToken: config.TWILIO_AUTH_TOKEN };
    }
    if (!config.TWILIO_SECRET_ARN) return undefined;
    const sm = new SecretsManagerClient({ region: config.AWS_REGION });
    const out = await sm.send(new GetSecretValueCommand({ SecretId: config.TWILIO_SECRET_ARN }));
    let json: unknown;
    try {
      json = JSON.parse(out.SecretString ?? 'null');
    } catch {
      json = undefined; // JSON.parse quotes the text in its message: never let the secret reach a log.
    }
    const parsed = TwilioSecret.safeParse(json);
    // The message names the shape, never the value.
    if (!parsed.success) throw new Error('The Twilio secret must be JSON {"accountSid": "AC...", "authToken": "..."}');
    return parsed.data;
  };
  return {
    port: unavailableTelephonyPort(),
    platformAccount() {
      account ??= load().catch((error: unknown) => {
        account = undefined;
        throw error;
      });
      return account;
    },
  };
}

/**
 * Decodes one 32-byte data key (64 hex characters, as the CDK stack generates, or base64); kept for callers
 * that hold a single key. The secret itself may hold a versioned keyring: see {@link parseKeyring}.
 */
export const decodeDataKey = (text: string): Buffer => decodeKey(text);

/**
 * The data keyring: from Secrets Manager on AWS, from the local key file otherwise. Either holds one key
 * (version 1) or the versioned JSON keyring of a rotation (docs/data-key.md).
 */
async function loadDataKeyring(config: Config): Promise<DataKeyring> {
  if (config.SECRET_KEY_ARN) {
    const sm = new SecretsManagerClient({ region: config.AWS_REGION });
    const out = await sm.send(new GetSecretValueCommand({ SecretId: config.SECRET_KEY_ARN }));
    if (!out.SecretString) throw new Error('The data-key secret is empty');
    return parseKeyring(out.SecretString);
  }
  if (config.SECRET_KEY_FILE) return loadOrCreateKeyFile(config.SECRET_KEY_FILE);
  throw new Error('Set SECRET_KEY_ARN (AWS) or SECRET_KEY_FILE (local) so secrets can be sealed');
}

/** Both queues share one SQS client (connections are pooled per client). */
function queues(config: Config): Pick<Deps, 'dispatch' | 'webhooks'> {
  const client = createSqsClient(config);
  return { dispatch: createDispatchQueue(config, client), webhooks: createWebhookQueue(config, client) };
}

/** Builds the dependencies from a parsed config. */
export async function buildDeps(config: Config): Promise<Deps> {
  const db = createDb({ table: config.TABLE_NAME, region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT });
  return {
    config,
    db,
    secrets: createSecretBox(await loadDataKeyring(config)),
    telephony: createTelephony(config),
    ...queues(config),
    recordings: createRecordings(config),
  };
}

/**
 * The dependencies with a working telephony port, for the entry points that need one (they import the
 * adapter, so it lands in their bundles only). The platform account's cache is shared.
 */
export function withTelephony(deps: Deps, adapter: TelephonyAdapter): Deps {
  return {
    ...deps,
    telephony: { ...deps.telephony, port: adapter({ baseUrl: deps.config.TWILIO_API_BASE_URL }) },
  };
}

let cached: Promise<Deps> | undefined;

/**
 * Sets variables of this process's environment, which the process-wide dependencies are built from: they
 * are dropped, and the next {@link getDeps} builds them from the environment as it is then. The local
 * platform sets its stores' and stand-ins' addresses this way when it starts (a Lambda never changes its
 * environment). The function returned puts the variables back as they were, so a platform started later
 * in the same process (tests run files one after another in one process) starts from the same place.
 */
export function setProcessEnvironment(values: Readonly<Record<string, string>>): () => void {
  const previous = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  cached = undefined;
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    cached = undefined;
  };
}

/** The process-wide dependencies, from the environment, built on first use. */
export function getDeps(): Promise<Deps> {
  cached ??= buildDeps(loadConfig()).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
