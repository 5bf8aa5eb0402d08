import * as z from 'zod';
import { parseRate } from './domain/rate-window.js';
import { parsePriceShares } from './domain/provider-key.js';
import { parseStandInVendors } from './domain/stand-ins.js';

/**
 * The streaming container's port: the stack maps it and passes it as STREAMING_PORT, the image exposes it,
 * and the service listens on it when nothing says otherwise (`docker run`).
 */
export const STREAMING_CONTAINER_PORT = 8080;

/** A rate-limit policy in the environment: `<requests>/<seconds>s`, for example `200/10s`. */
const rate = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const parsed = parseRate(text);
      if (!parsed) {
        ctx.addIssue({ code: 'custom', message: 'a rate as <requests>/<seconds>s, for example 200/10s' });
        return z.NEVER;
      }
      return parsed;
    });

/**
 * The one place that reads `process.env`. Everything else receives a parsed {@link Config}.
 * Lambda gets these variables from the CDK stack; `npm start` sets them for its in-process handlers.
 */
const EnvSchema = z.object({
  TABLE_NAME: z.string().min(1).default('voice-agents'),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /** Set only for local stand-ins (DynamoDB Local); absent on AWS. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  BUCKET_NAME: z.string().min(1).default('voice-agents-recordings'),
  S3_ENDPOINT: z.url().optional(),
  DISPATCH_QUEUE_URL: z.string().optional(),
  SQS_ENDPOINT: z.url().optional(),
  /** The webhook-delivery queue and its dead letters (docs/webhooks.md). */
  WEBHOOK_QUEUE_URL: z.string().optional(),
  /** The knowledge-ingestion queue (docs/knowledge.md): one message per document to index. */
  KNOWLEDGE_QUEUE_URL: z.string().optional(),
  /** The agent-test run queue (docs/agent-tests.md): one message per run to play. */
  AGENT_TEST_QUEUE_URL: z.string().optional(),
  /**
   * Scenarios of one run played side by side: each is a chat on the streaming service, mostly waiting for
   * the model, so a few at once finish a suite in a fraction of the time without crowding the workspace's calls.
   */
  AGENT_TEST_PARALLELISM: z.coerce.number().int().min(1).max(10).default(4),
  /** Runs of one workspace queued or playing at once; more is 429 (docs/agent-tests.md). */
  AGENT_TEST_MAX_ACTIVE_RUNS: z.coerce.number().int().min(1).max(20).default(3),
  WEBHOOK_DLQ_URL: z.string().optional(),
  /**
   * Seconds to wait before each retry of a webhook delivery, comma-separated; its length is the number of
   * retries. The default is the Standard Webhooks schedule (about 28 hours in all, see lib/domain/webhook.ts).
   */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('5,300,1800,7200,18000,36000,36000')
    .transform((text, ctx) => {
      const steps = text.split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
      if (steps.length > 20 || steps.some((n) => !Number.isFinite(n) || n < 0 || n > 86_400)) {
        ctx.addIssue({ code: 'custom', message: 'at most 20 comma-separated seconds, each 0..86400' });
        return z.NEVER;
      }
      return steps;
    }),
  /**
   * An endpoint whose deliveries have kept giving up for this long is disabled (a `webhook.disabled` notice
   * is recorded): five days, so a receiver down over a long weekend is not switched off.
   */
  WEBHOOK_DISABLE_AFTER_MS: z.coerce.number().int().min(0).default(5 * 86_400_000),
  /**
   * How long one webhook attempt may take in all, from the DNS lookup to the answer's last byte; past it the
   * attempt is a timeout and retried. At most 20 s: the consumer's batch must end within its 25 s Lambda timeout.
   */
  WEBHOOK_DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(50).max(20_000).default(10_000),
  /** Local: a file holding the 32-byte data key. AWS: a Secrets Manager secret holding it (base64). */
  SECRET_KEY_FILE: z.string().optional(),
  SECRET_KEY_ARN: z.string().optional(),
  PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:3000'),
  /**
   * Twilio, the platform's own account (numbers bought through us): the pair directly, or on AWS a Secrets
   * Manager secret holding JSON `{accountSid, authToken}`. BYOT numbers bring their own account instead.
   */
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'an account sid: AC and 32 hex characters').optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_SECRET_ARN: z.string().optional(),
  /** Twilio's REST origin; `npm start` and the tests point it at the local stand-in. */
  TWILIO_API_BASE_URL: z.url().default('https://api.twilio.com'),
  /**
   * The streaming service's Media Streams URL; defaults to PUBLIC_BASE_URL as ws(s) + /media-stream. Twilio
   * takes no query string on a `<Stream url>` (values go in `<Parameter>`s: twilio.com/docs/api/errors/31922),
   * so one is refused here rather than at every call.
   */
  STREAM_URL: z
    .url()
    .refine((u) => !u.includes('?') && !u.includes('#'), 'STREAM_URL must have no query string or fragment: Twilio passes stream values in <Parameter>')
    .optional(),
  /** The streaming service's browser transport (docs/meeting.md); defaults to PUBLIC_BASE_URL as ws(s) + /web-stream. */
  WEB_STREAM_URL: z.url().optional(),
  /** Call price in credits per minute, billed per started second (docs/calls.md). */
  CALL_CREDITS_PER_MINUTE: z.coerce.number().positive().max(1_000).default(1),
  /** Credits per US dollar of a vendor's token price (a realtime model's, docs/realtime.md "Billing"): 10, a credit is $0.10. */
  CREDITS_PER_USD: z.coerce.number().positive().max(100_000).default(10),
  /**
   * The parts of the call price that pay each vendor capability, as fractions of it (docs/provider-keys.md):
   * a call whose speech recognition, language model or speech synthesis ran entirely on the workspace's own
   * keys is not charged that part. What the three leave is the platform's own share (telephony, hosting),
   * always charged. The defaults follow what those vendors cost next to a minute of telephony and compute.
   */
  CALL_PRICE_SHARES: z
    .string()
    .default('stt=0.15,llm=0.35,tts=0.3')
    .transform((text, ctx) => {
      const shares = parsePriceShares(text);
      if (!shares) {
        ctx.addIssue({ code: 'custom', message: 'stt=<fraction>,llm=<fraction>,tts=<fraction>, each 0..1, together at most 1' });
        return z.NEVER;
      }
      return shares;
    }),
  /**
   * The longest call the platform places (agents have no limit of their own yet): the provider hangs up
   * after it, and a call reserves its price up front. Ten minutes covers typical outbound agent calls.
   */
  CALL_MAX_DURATION_SECONDS: z.coerce.number().int().min(30).max(4 * 3600).default(600),
  /** A text chat's price in credits per visitor message answered (docs/chat.md: why per message). */
  CHAT_CREDITS_PER_MESSAGE: z.coerce.number().positive().max(1_000).default(0.02),
  /** The longest a text chat runs; a visitor who stays longer starts a new one (docs/chat.md). */
  CHAT_MAX_DURATION_SECONDS: z.coerce.number().int().min(60).max(24 * 3600).default(3600),
  /** Receives of a dispatch message before SQS moves it to the dead letters; mirrors the queue's redrive policy. */
  DISPATCH_MAX_RECEIVE_COUNT: z.coerce.number().int().min(1).max(1_000).default(3),
  /**
   * Campaign dials per second across the platform's Twilio account (docs/campaigns.md): Twilio admits 1
   * call per second per account unless raised, and queues what exceeds it, so we never send more.
   */
  CAMPAIGN_DIALS_PER_SECOND: z.coerce.number().int().min(1).max(1_000).default(1),
  /** How often the campaign scheduler looks for due contacts (a tick); a second keeps slots busy. */
  CAMPAIGN_TICK_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /**
   * How the streaming service publishes its active-session count: `emf` prints a CloudWatch embedded-metric
   * line every minute (the ECS task's log group turns it into the metric autoscaling tracks); `off` locally.
   */
  METRICS_MODE: z.enum(['off', 'emf']).default('off'),
  METRICS_NAMESPACE: z.string().min(1).default('VoiceAgentPlatform/Streaming'),
  /** The `Service` dimension of those metrics: one value per deployed streaming service (the stack sets it). */
  METRICS_SERVICE: z.string().min(1).default('streaming'),
  /**
   * The deployment a call-outcome metric belongs to (its `Stack` dimension; lib/services/call-metrics.ts),
   * so stages sharing an account alarm apart. The CDK stack sets its own name.
   */
  METRICS_STACK: z.string().min(1).default('local'),
  /**
   * On SIGTERM the streaming service stops admitting streams and lets active calls finish for this long, then
   * ends the rest. Below Fargate's 120 s stopTimeout (the SIGKILL deadline), leaving time to write history.
   */
  DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(100_000),
  /**
   * How long a meeting whose page went away (a reload, a network blip) waits for the same tab to rejoin
   * before it ends (docs/meeting.md). 30 s covers a reload on a slow phone and a Wi-Fi to cellular switch.
   */
  /** How long a text chat whose page went away waits for the same tab to come back (docs/chat.md). */
  CHAT_REJOIN_GRACE_MS: z.coerce.number().int().min(1_000).max(600_000).default(120_000),
  WEB_REJOIN_GRACE_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
  // Voice vendors: a key switches that vendor to its real service; a base URL points the real client
  // elsewhere: a stand-in on loopback (npm start and the tests set both), or an operator's proxy or
  // compatible server. Where one vendor serves two capabilities, each capability may have its own base URL,
  // falling back to the vendor's.
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_STT_BASE_URL: z.url().optional(),
  /** The Realtime API for speech-to-speech agents (docs/realtime.md); falls back to OPENAI_BASE_URL. */
  OPENAI_REALTIME_BASE_URL: z.url().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z.url().optional(),
  GOOGLE_API_KEY: z.string().optional(),
  GOOGLE_BASE_URL: z.url().optional(),
  DEEPGRAM_API_KEY: z.string().optional(),
  DEEPGRAM_BASE_URL: z.url().optional(),
  DEEPGRAM_TTS_BASE_URL: z.url().optional(),
  ASSEMBLYAI_API_KEY: z.string().optional(),
  ASSEMBLYAI_BASE_URL: z.url().optional(),
  SPEECHMATICS_API_KEY: z.string().optional(),
  SPEECHMATICS_BASE_URL: z.url().optional(),
  /** Where Speechmatics issues the temporary keys its real-time client needs (default mp.speechmatics.com/v1). */
  SPEECHMATICS_AUTH_URL: z.url().optional(),
  ELEVENLABS_API_KEY: z.string().optional(),
  ELEVENLABS_BASE_URL: z.url().optional(),
  CARTESIA_API_KEY: z.string().optional(),
  CARTESIA_BASE_URL: z.url().optional(),
  /**
   * The platform's vendor keys as one JSON object, `{"OPENAI_API_KEY": "sk-...", "DEEPGRAM_API_KEY": "..."}`:
   * on AWS the whole Secrets Manager secret is mapped into this one variable (docs/deploy.md, "Vendor keys"),
   * so adding a vendor's key is a field in the secret, not a change to the stack. Each field must be one of
   * the `*_API_KEY` variables above; a variable set on its own wins over the same field here.
   */
  VENDOR_KEYS: z.string().optional(),
  /**
   * The vendors this deployment runs on stand-ins, as `capability:vendor` pairs (`stt:deepgram,llm:openai,
   * telephony:twilio`). Set by what starts the stand-ins (`npm start`: lib/local/platform/platform.ts, and
   * the tests through it), never by the stack, so empty in production. It describes the deployment and is
   * read only to tell users so (lib/vendors/stand-ins.ts: the notice on pages, GET /api/stand-ins); it
   * changes no behaviour: where calls go is the base URLs and keys above.
   */
  STAND_IN_VENDORS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const parsed = parseStandInVendors(v);
      if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
      return typeof parsed === 'string' ? [] : parsed;
    }),
  /**
   * The port the streaming service listens on as its own container (streaming-service/src/main.ts). The stack
   * sets it to the port it maps ({@link STREAMING_CONTAINER_PORT}); `npm start` serves streams on its own origin.
   */
  STREAMING_PORT: z.coerce.number().int().min(0).max(65_535).default(STREAMING_CONTAINER_PORT),
  /**
   * This streaming task's address as the other tasks reach it (docs/live-calls.md): control requests and
   * listeners that reach another task are forwarded here. On ECS it is read from the task metadata endpoint
   * (ECS_CONTAINER_METADATA_URI_V4, which Fargate sets) when unset; unset off ECS (one process holds every call).
   */
  STREAMING_INTERNAL_URL: z.url().optional(),
  /** Set by Fargate (platform 1.4.0+) in every container: the task metadata endpoint v4. */
  ECS_CONTAINER_METADATA_URI_V4: z.url().optional(),
  /**
   * Hosts (names or IPs, optionally `:port`, comma-separated) that call-time tools may reach even though they
   * resolve to private or loopback addresses. Local development and tests only; empty in production, where
   * the SSRF guard refuses every private, loopback, link-local and metadata address.
   */
  /**
   * Rate limits (docs/api.md, "Rate limits"), each `<requests>/<seconds>s` in fixed windows. Per API key:
   * 20 requests a second on average, and a batch of up to 200 at once passes. Per source IP: failed
   * authentications (each costs a table read), the Twilio webhooks (Twilio sends every call's webhooks from a
   * few addresses, so this one is generous), the public meeting pages, and media-stream upgrades (enforced
   * in memory by each streaming-service task).
   */
  RATE_LIMIT_KEY: rate('200/10s'),
  RATE_LIMIT_AUTH_FAILURES: rate('20/60s'),
  RATE_LIMIT_WEBHOOK: rate('1200/60s'),
  RATE_LIMIT_MEETING: rate('60/60s'),
  /** Joins (each a conditional write) have a budget of their own, below the page views'. */
  RATE_LIMIT_MEETING_JOIN: rate('20/60s'),
  RATE_LIMIT_MEDIA_STREAM: rate('600/60s'),
  /**
   * The widget's key is public (docs/widget.md, "Abuse limits"): sessions (voice or chat) started per visitor
   * IP, and per widget key across all visitors.
   */
  RATE_LIMIT_WIDGET: rate('10/60s'),
  RATE_LIMIT_WIDGET_KEY: rate('120/60s'),
  /**
   * Webhook replays (docs/webhooks.md, "Replay"): each request reads up to thousands of stored events and
   * each replayed event is an outbound POST that no call paid for. Requests per endpoint and per workspace,
   * and the deliveries they may replay (the budget) per endpoint and per workspace.
   */
  RATE_LIMIT_WEBHOOK_REPLAY: rate('10/60s'),
  RATE_LIMIT_WEBHOOK_REPLAY_WORKSPACE: rate('30/60s'),
  WEBHOOK_REPLAY_BUDGET: rate('1000/3600s'),
  WEBHOOK_REPLAY_WORKSPACE_BUDGET: rate('2000/3600s'),
  /** Widget sessions (calls and chats) open at once on one widget key (docs/widget.md, abuse limits). */
  WIDGET_MAX_SESSIONS_PER_KEY: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Of those, what one visitor address may hold (a forged-Origin script must not take them all). */
  WIDGET_MAX_SESSIONS_PER_IP: z.coerce.number().int().min(1).max(10_000).default(5),
  /**
   * How long a widget session's lease holds its place before its socket opens (the panel opens it at once);
   * the socket's claim then extends it to the session's longest length. A session never opened frees its
   * place after this, and its socket can no longer claim it.
   */
  WIDGET_PENDING_LEASE_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  /**
   * How long a key hash that the table does not know (or knows as revoked) is answered 401 from memory. A key
   * created after someone presented its value works at the latest this long after creation: key values are
   * 256 random bits shown once, so in practice only a guess or a revoked key is ever cached.
   */
  UNKNOWN_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /**
   * Dashboard sign-in (docs/dashboard.md): the Cognito user pool and its app client (the stack sets them;
   * `npm start` points them at cognito-local with COGNITO_ENDPOINT and COGNITO_ISSUER). The issuer defaults
   * to the pool's AWS issuer URL.
   */
  COGNITO_USER_POOL_ID: z.string().min(1).max(64).optional(),
  COGNITO_CLIENT_ID: z.string().min(1).max(128).optional(),
  COGNITO_ENDPOINT: z.url().optional(),
  COGNITO_ISSUER: z.url().optional(),
  /** Extra origins (comma-separated) the /auth endpoints accept besides PUBLIC_BASE_URL's: the CloudFront domain of the dashboard. */
  DASHBOARD_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((o) => o.trim()).filter((o) => o !== '')),
  /** Credits a workspace made by a dashboard sign-up starts with (0 on AWS: credits are bought; `npm start` gives 100 to try calls). */
  SIGNUP_CREDITS: z.coerce.number().min(0).max(1_000_000).default(0),
  /** Dashboard account attempts (sign-in, sign-up, password reset) per source IP. */
  RATE_LIMIT_ACCOUNT: rate('30/60s'),
  /**
   * Dashboard session refreshes per source IP (each asks Cognito and writes a session key). A page refreshes
   * on load, a minute before its key expires and on a workspace switch: a person uses a few a minute at most,
   * so 60 leaves room for an office behind one address, and stops a script minting keys by the second.
   */
  RATE_LIMIT_REFRESH: rate('60/60s'),
  /**
   * How long a route instance trusts a key it confirmed current without reading it again. 0 (the default):
   * every request re-checks revocation, in parallel with its own reads. On AWS the API's Lambda authorizer
   * caches its verdict per key instead (API_KEY_AUTHORIZER_TTL in lib/infra/constructs/edge.ts), so the
   * route functions never read the key; the API benchmark sets this to that TTL to measure the same path.
   */
  KEY_VERDICT_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  TOOL_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((h) => h.trim()).filter((h) => h !== '')),
});

export type Config = Readonly<z.infer<typeof EnvSchema>>;

/** Parses the environment once and fails fast with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(withVendorKeys(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  if (Boolean(parsed.data.TWILIO_ACCOUNT_SID) !== Boolean(parsed.data.TWILIO_AUTH_TOKEN)) {
    throw new Error('Invalid configuration: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN together, or neither');
  }
  return Object.freeze(parsed.data);
}

/** The variables VENDOR_KEYS may set: every vendor key the configuration knows (`OPENAI_API_KEY`, ...). */
export const VENDOR_KEY_NAMES: readonly string[] = Object.keys(EnvSchema.shape).filter((name) => name.endsWith('_API_KEY'));

/**
 * The environment with VENDOR_KEYS spread into the vendor-key variables it names. Errors name the fields,
 * never a value: the text is a secret's.
 */
function withVendorKeys(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const text = env.VENDOR_KEYS;
  if (text === undefined || text.trim() === '') return env;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined; // JSON.parse quotes the text in its message: never let a key reach a log.
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Error('Invalid configuration: VENDOR_KEYS must be a JSON object of vendor keys, {"OPENAI_API_KEY": "..."}');
  }
  const entries = Object.entries(json as Record<string, unknown>);
  const unknown = entries.filter(([name]) => !VENDOR_KEY_NAMES.includes(name)).map(([name]) => name);
  if (unknown.length > 0) {
    throw new Error(`Invalid configuration: VENDOR_KEYS names ${unknown.join(', ')}; known vendor keys: ${VENDOR_KEY_NAMES.join(', ')}`);
  }
  const notText = entries.filter(([, value]) => typeof value !== 'string').map(([name]) => name);
  if (notText.length > 0) throw new Error(`Invalid configuration: VENDOR_KEYS fields must be strings (${notText.join(', ')})`);
  const spread = Object.fromEntries(entries.filter(([name, value]) => value !== '' && !env[name])) as Record<string, string>;
  return { ...env, ...spread };
}

/** The public base URL with its scheme turned into ws/wss and `path` appended (the streaming service shares the origin locally). */
function socketUrl(config: Pick<Config, 'PUBLIC_BASE_URL'>, path: string): string {
  const url = new URL(config.PUBLIC_BASE_URL);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  return url.toString();
}

/** Where Twilio opens a call's Media Stream: STREAM_URL, or the public base URL as ws(s) + `/media-stream`. */
export function streamUrl(config: Pick<Config, 'STREAM_URL' | 'PUBLIC_BASE_URL'>): string {
  return config.STREAM_URL ?? socketUrl(config, '/media-stream');
}

/** Where the meeting page opens its call's WebSocket: WEB_STREAM_URL, or the public base URL as ws(s) + `/web-stream`. */
export function webStreamUrl(config: Pick<Config, 'WEB_STREAM_URL' | 'PUBLIC_BASE_URL'>): string {
  return config.WEB_STREAM_URL ?? socketUrl(config, '/web-stream');
}

/** Where a chat's page opens its WebSocket: beside the browser transport, `/web-chat` instead of `/web-stream`. */
export function webChatUrl(config: Pick<Config, 'WEB_STREAM_URL' | 'PUBLIC_BASE_URL'>): string {
  return webStreamUrl(config).replace(/\/web-stream$/, '/web-chat');
}

/** The public URL of one of our paths (webhooks Twilio calls, links we hand out). */
export function publicUrl(config: Pick<Config, 'PUBLIC_BASE_URL'>, path: string): string {
  return `${config.PUBLIC_BASE_URL.replace(/\/+$/, '')}${path}`;
}

/** Where a listener opens a live call's listen socket: beside the browser transport, `/live/listen`. */
export function liveListenUrl(config: Pick<Config, 'WEB_STREAM_URL' | 'PUBLIC_BASE_URL'>): string {
  return webStreamUrl(config).replace(/\/web-stream$/, '/live/listen');
}

/**
 * Where the API sends a live call's commands (docs/live-calls.md): the streaming service's own origin (the
 * browser transport's, as https), `/live/control`. The task that takes it forwards it to the call's task.
 */
export function liveControlUrl(config: Pick<Config, 'WEB_STREAM_URL' | 'PUBLIC_BASE_URL'>): string {
  return liveListenUrl(config).replace(/^ws/, 'http').replace(/\/live\/listen$/, '/live/control');
}
