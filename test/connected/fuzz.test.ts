/**
 * Invariant: nothing a client can send makes the API answer 5xx, and every error it answers carries the
 * documented body `{"error": {"code": "snake_case", "message": "...", "details": [...] | {...}}}`.
 *
 * At least 10,000 requests per run, generated with fast-check, go through the local server to every route
 * of lib/infra/routes.ts that takes input: nearly valid bodies with one to three fields broken (wrong types,
 * huge or odd strings, lone surrogates, control characters, nested junk, Object.prototype names as keys),
 * wholly random JSON, malformed JSON, bodies over the limit, wrong content types, bad and odd query
 * parameters, bad path ids (other workspaces' ids included), wrong methods, broken multipart uploads and CSV
 * files of junk, and Twilio webhooks of junk fields, signed with the platform account's token, unsigned or
 * wrongly signed. Ids in paths and bodies are mostly of records that exist (created before and during the
 * run, history records and meeting links included), so requests that pass validation reach the services
 * behind each route. 429 (rate limiting) is an ordinary 4xx here. The seed is printed with any failure.
 */
import { PROVIDER_KEY_VENDORS } from '../../lib/domain/provider-key.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { newId } from '../../lib/domain/ids.js';
import { MASK } from '../../lib/domain/tool.js';
import { MEETING_ASSET_FILES } from '../../lib/web/meeting/assets.js';
import { ROUTES, type RouteSpec } from '../../lib/infra/routes.js';
import { publicUrl } from '../../lib/config.js';
import { putNewHistoryRecord } from '../../lib/store/history.js';
import { createSessionKey } from '../../lib/store/users.js';
import { createApiKey } from '../../lib/store/workspaces.js';
import { parseForm, twilioSignature } from '../../lib/vendors/telephony/twilio-webhook.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { PROGRESS_BOUNDED_TEST_MS, watchProgress } from '../support/progress.js';

/** The run's size: the issue asks for at least 10,000 requests. */
const REQUESTS = 10_000;
/** Requests in flight: enough to keep both cores busy without queueing for long inside DynamoDB Local. */
const CONCURRENCY = 16;
/** A new seed each run, so runs add up; a failure prints it, and FUZZ_SEED=<seed> replays that run. */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() ^ (Math.random() * 0x7fffffff);

let t: TestPlatform;
/** The workspace the fuzzer acts as, with a key the test created in the store (so limits are its own). */
let own: { workspaceId: string; apiKey: string };
let other: { workspaceId: string; apiKey: string };

type Resource = 'agent' | 'tool' | 'contact' | 'phoneNumber' | 'history' | 'call' | 'asset' | 'webhook' | 'provider' | 'apiKey' | 'campaign' | 'dnc';
/** Ids that exist, per resource (own workspace), growing as creates succeed; and some of another workspace. */
const pools: Record<Resource, string[]> = {
  agent: [],
  tool: [],
  contact: [],
  phoneNumber: [],
  history: [],
  call: [],
  asset: [...Object.keys(MEETING_ASSET_FILES), 'swagger-ui.css'],
  webhook: [],
  // Provider-key routes name a vendor, not a record: every vendor, and names that are none.
  provider: [...PROVIDER_KEY_VENDORS, 'OpenAI', 'twilio', 'constructor'],
  apiKey: [],
  campaign: [],
  // Do-not-call entries are named by their number (+ written as %2B in a path).
  dnc: [],
};
const foreign: string[] = [];
/** A dashboard owner's session key for the fuzzed workspace (the user-only routes refuse API keys). */
let sessionKey: string;
/** Real meeting-link tokens (each opens its link once). */
const tokens: string[] = [];
/** The platform's own telephony account on the stand-in: webhooks signed with its token pass the check. */
let platformAccount: { accountSid: string; authToken: string };

beforeAll(async () => {
  // Ten thousand requests from one key in well under a minute is a flood the per-key limit is there to stop;
  // this suite is about what each request gets past the limiter (test/connected/rate-limits.test.ts tests it).
  process.env.RATE_LIMIT_KEY ??= '1000000/60s';
  process.env.RATE_LIMIT_WEBHOOK ??= '1000000/60s';
  t = await startTestPlatform();
  // No credits: a call or meeting link that passes validation stops at the credit check (402) instead of
  // dialling the stand-in; everything before that check is still exercised.
  own = await t.workspace(0);
  platformAccount = (await t.deps.telephony.platformAccount())!;
  other = await t.workspace(100);
  for (let i = 0; i < 3; i += 1) {
    pools.agent.push((await t.api(own.apiKey, 'POST', '/api/agents', agentBody(own.workspaceId))).body._id);
    pools.tool.push((await t.api(own.apiKey, 'POST', '/api/tools', toolBody(own.workspaceId))).body._id);
    pools.contact.push((await t.api(own.apiKey, 'POST', '/api/contacts', contactBody(own.workspaceId, 900 + i))).body._id);
    pools.webhook.push((await t.api(own.apiKey, 'POST', '/api/webhooks', webhookBody(own.workspaceId))).body._id);
  }
  // Session keys live 15 minutes: longer than this suite runs.
  sessionKey = (await createSessionKey(t.deps.db, { userId: 'fuzz-user', workspaceId: own.workspaceId, role: 'owner' })).apiKey;
  for (let i = 0; i < 3; i += 1) pools.apiKey.push((await createApiKey(t.deps.db, own.workspaceId, `Fuzz key ${i}`)).keyId);
  // A number to call from (buying costs no credits), then campaigns and do-not-call entries to aim at.
  const available = await t.api(own.apiKey, 'GET', '/api/phone-numbers/available?country=US&areaCode=628');
  pools.phoneNumber.push((await t.api(own.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: available.body.data.at(-1).number })).body._id);
  for (let i = 0; i < 2; i += 1) {
    const campaign = await t.api(own.apiKey, 'POST', '/api/campaigns', JSON.parse(fill(JSON.stringify(BASES.createCampaign!(i)))));
    pools.campaign.push(campaign.body._id);
    const number = `+1415555${String(7_000 + i)}`;
    await t.api(own.apiKey, 'POST', '/api/do-not-call', { phoneNumber: number });
    pools.dnc.push(encodeURIComponent(number));
  }
  foreign.push((await t.api(other.apiKey, 'POST', '/api/agents', agentBody(other.workspaceId))).body._id);
  foreign.push((await t.api(other.apiKey, 'POST', '/api/contacts', contactBody(other.workspaceId, 1))).body._id);
  // History exists only once a call ended: written straight to the store, as the call service would.
  for (let i = 0; i < 3; i += 1) {
    const _id = newId('call');
    await putNewHistoryRecord(t.deps.db, {
      _id, agentType: 'voice', fullName: 'Ann', mobileNumber: '+14155552671', callDuration: 12, callEndReason: 'customer_hangup',
      callTranscript: 'agent: hi', callSummary: '', callCost: 1, callRecordingUrl: '', workspace_id: own.workspaceId, createdAt: new Date().toISOString(),
    });
    pools.history.push(_id);
  }
  // Meeting links need credits, which the fuzzed workspace lacks; the other workspace makes a few, so that
  // generated tokens are tried against links that exist.
  for (let i = 0; i < 2; i += 1) {
    const link = await t.api(other.apiKey, 'POST', '/api/optimus/meeting-link', { assistantId: foreign[0], workspaceId: other.workspaceId });
    if (link.status === 201) {
      pools.call.push(link.body.call_id);
      tokens.push(new URL(link.body.room_url).searchParams.get('token')!);
    }
  }
  expect([...pools.agent, ...pools.tool, ...pools.contact, ...foreign].every((id) => typeof id === 'string')).toBe(true);
});
afterAll(() => t?.stop());

// ---------------------------------------------------------------------------------------------------------
// Valid bodies, which the generator then breaks. `@@agent@@` and the like are replaced at send time by an
// id that exists then.

const agentBody = (workspaceId: string) => ({
  name: 'Fuzz agent',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'deepgram',
  stt_provider: 'deepgram',
  system_prompt: 'Be brief. {{contactName}}',
  workspaceId,
});
const toolBody = (workspaceId: string) => ({
  name: 'Order lookup',
  type: 'http',
  description: 'Looks an order up',
  workspaceId,
  config: { method: 'GET', url: 'https://api.example.com/orders/{order}', headers: { Authorization: 'Bearer x' } },
  parameters: [{ name: 'order', description: 'the order number', required: true }],
});
const contactBody = (workspaceId: string, n: number) => ({
  contactName: 'Fuzz contact',
  phoneNumber: `+1415${String(5_550_000 + (n % 10_000)).padStart(7, '0')}`,
  region: 'California',
  externalFields: { plan: 'gold', visits: 3 },
  workspaceId,
});

const webhookBody = (workspaceId: string) => ({
  url: 'https://crm.example.com/hooks/voice',
  description: 'CRM',
  eventTypes: ['call.ended', 'call.analyzed'],
  workspaceId,
});

const WS = '@@ws@@';
const BASES: Partial<Record<keyof typeof ROUTES, (n: number) => Record<string, unknown>>> = {
  createAgent: () => agentBody(WS),
  updateAgent: () => ({ name: 'Renamed', recording_enabled: true }),
  createTool: () => toolBody(WS),
  updateTool: () => ({ description: 'Changed', config: { headers: { Authorization: MASK, 'x-extra': 'v' } } }),
  createContact: (n) => contactBody(WS, n),
  updateContact: () => ({ region: 'Texas', externalFields: { plan: null, tier: 'vip' } }),
  startPhoneCall: () => ({ assistantId: '@@agent@@', phoneNumber: '+14155552671', phoneNumberId: '@@phoneNumber@@', workspaceId: WS }),
  startCall: () => ({ assistantId: '@@agent@@', phoneNumber: '+14155552671', phoneNumberId: '@@phoneNumber@@', workspaceId: WS }),
  createMeetingLink: () => ({ assistantId: '@@agent@@', contactName: 'Ann', phoneNumber: '+14155552671', workspaceId: WS }),
  createChat: () => ({ agentId: '@@agent@@', contactName: 'Ann', workspaceId: WS }),
  buyPhoneNumber: (n) => ({ phoneNumber: `+1628${String(5_550_100 + (n % 50)).padStart(7, '0')}`, workspaceId: WS }),
  importPhoneNumber: () => ({ phoneNumber: '+14155550123', telephonyAccountSid: `AC${'a'.repeat(32)}`, telephonyAuthToken: 'f'.repeat(32), workspaceId: WS }),
  updatePhoneNumber: () => ({ agentId: '@@agent@@' }),
  createWebhookEndpoint: () => webhookBody(WS),
  updateWebhookEndpoint: () => ({ description: 'Renamed', eventTypes: ['call.ended'], enabled: true }),
  replayWebhookEvents: () => ({ since: '2026-01-01T00:00:00Z', until: '2026-01-02T00:00:00Z' }),
  updateWebhookSettings: () => ({ creditsLowThreshold: 5 }),
  setProviderKey: () => ({ apiKey: 'sk-proj-fuzz0000000000000000000000', workspaceId: WS }),
  signUp: (n) => ({ email: `fuzz${n}@example.com`, password: 'Correct-horse-9', workspaceName: 'Fuzz' }),
  confirmSignUp: (n) => ({ email: `fuzz${n}@example.com`, code: '123456' }),
  signIn: (n) => ({ email: `fuzz${n}@example.com`, password: 'Correct-horse-9' }),
  refreshSession: () => ({ workspaceId: WS }),
  forgotPassword: (n) => ({ email: `fuzz${n}@example.com` }),
  resetPassword: (n) => ({ email: `fuzz${n}@example.com`, code: '123456', password: 'Battery-staple-4' }),
  acceptInvitation: () => ({ token: 'Hn4vR8kQ2mX7cT1bW9pL5sZ3dF6gJ0yAe8uK2oI4rVq' }),
  createApiKey: () => ({ name: 'Fuzz key', scope: 'widget', agentIds: ['@@agent@@'], origins: ['https://shop.example'] }),
  createInvitation: () => ({ email: 'grace@example.com', role: 'member' }),
  createUserWorkspace: () => ({ name: 'Fuzz workspace' }),
  createCampaign: () => ({ name: 'Fuzz campaign', agentId: '@@agent@@', phoneNumberIds: ['@@phoneNumber@@'], contacts: { contactIds: ['@@contact@@'] }, concurrency: 2, workspaceId: WS }),
  addDoNotCall: (n) => ({ phoneNumber: `+1415${String(5_560_000 + (n % 10_000)).padStart(7, '0')}`, reason: 'fuzz', workspaceId: WS }),
};

/** Which pool a route's `{id}` draws real ids from. */
const ID_RESOURCE: Partial<Record<keyof typeof ROUTES, Resource>> = {
  getAgent: 'agent', updateAgent: 'agent', deleteAgent: 'agent',
  getTool: 'tool', updateTool: 'tool', deleteTool: 'tool',
  getContact: 'contact', updateContact: 'contact', deleteContact: 'contact',
  getHistory: 'history', deleteHistory: 'history', getRecordingUrl: 'history',
  getPhoneNumber: 'phoneNumber', updatePhoneNumber: 'phoneNumber', deletePhoneNumber: 'phoneNumber',
  openMeeting: 'call', joinMeeting: 'call',
  docsAsset: 'asset', meetingAsset: 'asset',
  getWebhookEndpoint: 'webhook', updateWebhookEndpoint: 'webhook', deleteWebhookEndpoint: 'webhook', rotateWebhookSecret: 'webhook',
  sendWebhookTest: 'webhook', replayWebhookEvents: 'webhook', listWebhookDeliveries: 'webhook',
  setProviderKey: 'provider', testProviderKey: 'provider', deleteProviderKey: 'provider',
  revokeApiKey: 'apiKey',
  getCampaign: 'campaign', listCampaignResults: 'campaign', startCampaign: 'campaign', pauseCampaign: 'campaign', resumeCampaign: 'campaign', cancelCampaign: 'campaign',
  getDoNotCall: 'dnc', deleteDoNotCall: 'dnc',
};
/** What a 201 of a route adds to a pool. */
const CREATES: Partial<Record<keyof typeof ROUTES, Resource>> = {
  createAgent: 'agent', createTool: 'tool', createContact: 'contact', buyPhoneNumber: 'phoneNumber', importPhoneNumber: 'phoneNumber',
  createWebhookEndpoint: 'webhook', createCampaign: 'campaign',
};
/** Query parameters each route knows, so generated queries hit them as well as unknown ones. */
const KNOWN_QUERY = ['workspaceId', 'page', 'limit', 'search', 'agentType', 'startDate', 'endDate', 'country', 'areaCode', 'contains', 'token', 'status', 'success'];

// ---------------------------------------------------------------------------------------------------------
// Arbitraries.

const PROTO_NAMES = Object.getOwnPropertyNames(Object.prototype);
const ODD_STRINGS = [
  '', ' ', '\u0000', '\ud800', '\udfff', '\u202e', '\ufeff', '\u2028', '\r\n', '\t', '😀', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', 'é', 'ｆｕｌｌ',
  'null', 'undefined', 'NaN', 'Infinity', '-0', '1e309', '0x10', 'true', '[]', '{}', '%00', '%zz', '../../etc/passwd',
  '${7*7}', '{{contactName}}', '{order}', "' OR 1=1 --", '<script>alert(1)</script>', '********', 'tel:+14155552671',
  '+14155552671', 'US', 'ws_00000000000000000000000000', '@@ws@@', ...PROTO_NAMES,
];
const oddString = fc.constantFrom(...ODD_STRINGS);
/** Runs of one character just past each length limit of the API (64, 100, 200, 1,000, 2,000, 4,000, 20,000). */
const hugeString = fc
  .tuple(fc.constantFrom('a', 'é', '😀', '\u0000', ' ', '{', '"'), fc.constantFrom(65, 101, 201, 1_001, 2_001, 4_001, 20_001, 70_000))
  .map(([c, n]) => c.repeat(n));
const anyString = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }), weight: 12 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 6 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 6 },
  { arbitrary: oddString, weight: 12 },
  { arbitrary: hugeString, weight: 1 },
  // (weights: a body holds several strings, so huge ones stay a few per hundred requests)
);
const key = fc.oneof({ arbitrary: fc.constantFrom(...PROTO_NAMES), weight: 3 }, { arbitrary: anyString, weight: 2 });
const scalar = fc.oneof(
  anyString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53 + 1, 1e-320, 1.5, -1),
  fc.boolean(),
  fc.constant(null),
);
const junk: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: scalar, weight: 5 },
    { arbitrary: fc.array(tie('value'), { maxLength: 5 }), weight: 1 },
    { arbitrary: fc.dictionary(key, tie('value'), { maxKeys: 5 }), weight: 1 },
  ),
})).value;
/** A map of user keys (external fields, headers) with every kind of key and mostly plausible values. */
const userMap = fc.dictionary(key, fc.oneof(anyString, fc.integer(), fc.boolean(), fc.constant(null), junk), { maxKeys: 8 });

/**
 * Many keys with long values at once: together up to past what one stored item may hold (400 KB), yet
 * inside the 1 MiB body limit (450 KB at most), so the validation of counts and sizes is what answers.
 */
const bigMap = fc
  .tuple(fc.integer({ min: 10, max: 300 }), fc.constantFrom(100, 1_000, 4_000), fc.constantFrom(['a', 1], ['é', 2], ['語', 3], ['😀', 4]))
  .map(([keys, length, [c, bytes]]) =>
    Object.fromEntries(Array.from({ length: Math.min(keys, Math.floor(450_000 / (length * (bytes as number)))) }, (_, i) => [`k${i}`, (c as string).repeat(length)])),
  );

type Mutation = { kind: 'set'; path: string[]; value: unknown } | { kind: 'delete'; path: string[] } | { kind: 'add'; key: string; value: unknown };

/** Up to three changes to a valid body, at a known field, a nested one, or a new key (none: it stays valid). */
function mutations(fields: string[]): fc.Arbitrary<Mutation[]> {
  const field = fc.constantFrom(...fields, 'config', 'externalFields', 'parameters');
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('set' as const), path: field.map((f) => [f]), value: junk }), weight: 5 },
    { arbitrary: fc.record({ kind: fc.constant('set' as const), path: field.map((f) => [f]), value: userMap }), weight: 2 },
    {
      arbitrary: fc.record({
        kind: fc.constant('set' as const),
        path: fc.tuple(fc.constantFrom('config', 'externalFields'), fc.oneof(key, fc.constantFrom('headers', 'url', 'method', 'body'))).map(([a, b]) => [a, b]),
        value: fc.oneof(junk, userMap),
      }),
      weight: 3,
    },
    { arbitrary: fc.record({ kind: fc.constant('set' as const), path: fc.constant(['config', 'headers'] as string[]), value: userMap }), weight: 2 },
    { arbitrary: fc.record({ kind: fc.constant('set' as const), path: fc.constantFrom<string[]>(['config', 'headers'], ['externalFields']), value: bigMap }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('delete' as const), path: field.map((f) => [f]) }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('add' as const), key, value: junk }), weight: 1 },
  );
  return fc.array(mutation, { minLength: 0, maxLength: 3 });
}

function applyMutations(base: Record<string, unknown>, list: Mutation[]): Record<string, unknown> {
  const body = structuredClone(base);
  for (const m of list) {
    if (m.kind === 'add') {
      Object.defineProperty(body, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
      continue;
    }
    let at: Record<string, unknown> = body;
    for (const step of m.path.slice(0, -1)) {
      const next = Object.hasOwn(at, step) ? at[step] : undefined;
      if (typeof next !== 'object' || next === null || Array.isArray(next)) {
        const fresh: Record<string, unknown> = {};
        Object.defineProperty(at, step, { value: fresh, enumerable: true, writable: true, configurable: true });
        at = fresh;
      } else at = next as Record<string, unknown>;
    }
    const last = m.path[m.path.length - 1]!;
    if (m.kind === 'delete') delete at[last];
    else Object.defineProperty(at, last, { value: m.value, enumerable: true, writable: true, configurable: true });
  }
  return body;
}

/** JSON text the parser must refuse or survive. */
const badJson = fc.oneof(
  fc.constantFrom('{', '}', '{"a":}', '{"a":1,}', "{'a':1}", '[1,2', 'nul', 'NaN', '"\\x"', '{"a":"\\ud800"}', '\ufeff{}', '{"a":1}{"a":2}',
    '{"workspaceId":1e999}', '{"__proto__":null}', '{"constructor":{"prototype":{"x":1}}}', '[]', '0', '"text"', 'null', 'true'),
  fc.string({ maxLength: 60 }),
  fc.integer({ min: 100, max: 20_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 100, max: 20_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
);
/** Over the 1 MiB JSON limit. */
const tooLarge = fc.constant(`{"a":"${'x'.repeat(1024 * 1024)}"}`);

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data', 'multipart/form-data; boundary=', 'application/octet-stream', 'image/png', 'application/json; charset=utf-16',
  '*/*', 'garbage', '',
];

/** A request before real ids are filled in. */
interface Spec {
  readonly route: keyof typeof ROUTES | 'unknown';
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
}

/**
 * Percent-encoding of any JS string: a lone surrogate, which encodeURIComponent refuses, is sent as its
 * WTF-8 bytes (%ED%A0%80), which are not valid UTF-8, so the server sees exactly that kind of junk too.
 */
function enc(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      out += [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

const pathId = (resource: Resource | undefined): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.constant(resource ? `@@${resource}@@` : '@@agent@@'), weight: 6 },
    { arbitrary: fc.constant('@@foreign@@'), weight: 1 },
    { arbitrary: anyString.filter((s) => s.length > 0).map((s) => enc(s.slice(0, 300))), weight: 4 },
    { arbitrary: fc.constantFrom('%zz', '%', '%E0%A4%A', '..', '.', '%2e%2e', 'a%00b', '%2F', 'x'.repeat(65), ...PROTO_NAMES), weight: 2 },
  );

const queryString = fc.oneof(
  { arbitrary: fc.constant(''), weight: 2 },
  {
    arbitrary: fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...KNOWN_QUERY), key), fc.oneof(anyString, fc.integer().map(String), fc.constantFrom('0', '-1', '101', '1.5', '1e3', ' 2', '10001', '2024-01-01', '2024-13-45', '0000-01-01', '1969-12-31T23:59:59Z', '9999-12-31T23:59:59.999Z', '2024-02-30', 'voice', '@@ws@@', '@@token@@'))), { maxLength: 6 })
      .map((pairs) => `?${pairs.map(([k, v]) => `${enc(k)}=${enc(v.slice(0, 2_000))}`).join('&')}`),
    weight: 6,
  },
  { arbitrary: fc.constantFrom('?page=%zz', '?%zz=1', '?limit', '?=', '?&&&', '?page=1&page=2', '?search=%00', '?workspaceId=other', '?token=@@token@@'), weight: 1 },
);

/** Headers a fetch client can send: the key most of the time, sometimes none, a wrong one, or another's. */
const apiKeyHeader = fc.oneof(
  { arbitrary: fc.constant('@@key@@'), weight: 20 },
  { arbitrary: fc.constant('@@session@@'), weight: 8 },
  { arbitrary: fc.constantFrom('', 'x', 'vap_'.padEnd(300, 'z'), '@@otherkey@@', 'constructor'), weight: 1 },
  { arbitrary: fc.constant(undefined), weight: 1 },
);
const contentType = fc.oneof({ arbitrary: fc.constant('application/json'), weight: 8 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 2 });

/** A JSON route's request: a broken valid body most often, else random JSON, malformed JSON or none. */
function jsonSpec(name: keyof typeof ROUTES, route: RouteSpec): fc.Arbitrary<Spec> {
  const base = BASES[name];
  const fields = route.body instanceof z.ZodObject ? Object.keys(route.body.shape) : ['workspaceId'];
  const body: fc.Arbitrary<string | Uint8Array | undefined> = fc.oneof(
    { arbitrary: fc.tuple(fc.nat(), mutations(fields)).map(([n, m]) => JSON.stringify(applyMutations(base ? base(n) : { workspaceId: WS }, m))), weight: base ? 500 : 100 },
    { arbitrary: junk.map((v) => JSON.stringify(v) ?? 'null'), weight: 100 },
    { arbitrary: badJson, weight: 100 },
    { arbitrary: fc.uint8Array({ maxLength: 200 }), weight: 30 },
    { arbitrary: fc.constant(undefined), weight: 50 },
    // A megabyte each: a handful per run is enough.
    { arbitrary: tooLarge, weight: 1 },
  );
  return fc.record({
    route: fc.constant(name),
    method: fc.oneof({ arbitrary: fc.constant(route.method), weight: 12 }, { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), weight: 1 }),
    path: route.params ? pathId(ID_RESOURCE[name]).map((id) => route.path.replace(/\{\w+\}/, id)) : fc.constant(route.path),
    query: route.query ? queryString : fc.oneof({ arbitrary: fc.constant(''), weight: 5 }, { arbitrary: queryString, weight: 1 }),
    // The /auth routes refuse any request without the dashboard's header: most carry it, to reach their input checks.
    headers: fc.record({ key: apiKeyHeader, type: contentType, dashboard: fc.oneof({ arbitrary: fc.constant(true), weight: 9 }, { arbitrary: fc.constant(false), weight: 1 }) }).map(({ key: k, type, dashboard }) => ({
      ...(k === undefined ? {} : { 'x-api-key': k }),
      ...(type ? { 'content-type': type } : {}),
      ...(route.csrf && dashboard ? { 'x-requested-with': 'dashboard' } : {}),
    })),
    body: route.method === 'GET' ? fc.constant(undefined) : body,
  });
}

/** CSV text of a header (required columns, prototype names, junk) and rows of junk cells. */
const csvFile = (always: boolean) => fc
  .tuple(
    fc.array(fc.oneof(fc.constantFrom('contactName', 'phoneNumber', 'region', 'CONTACTNAME', ...PROTO_NAMES), fc.string({ maxLength: 70 })), { maxLength: 8 }),
    fc.array(fc.array(fc.oneof(anyString.map((s) => s.slice(0, 1_100)), fc.constantFrom('+14155552671', '+447700900123', '4155552671', 'London', 'ca')), { maxLength: 8 }), { maxLength: 6 }),
    fc.boolean(),
  )
  .map(([header, rows, required]) => {
    const cols = always || required ? ['contactName', 'phoneNumber', ...header] : header;
    const quote = (c: string) => `"${c.replace(/"/g, '""')}"`;
    return Buffer.from([cols, ...rows].map((r) => r.map(quote).join(',')).join('\r\n'), 'utf8');
  });
const fileBytes = fc.oneof(
  { arbitrary: csvFile(false), weight: 6 },
  { arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)), weight: 2 },
  { arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), b])), weight: 1 },
  { arbitrary: fc.constantFrom(Buffer.alloc(0), Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.from('%PDF-1.4'), Buffer.from([0xff, 0xfe, 0x41, 0])), weight: 1 },
);

/** A multipart upload: fields and a file, or a broken framing. */
const uploadSpec = (route: 'uploadContacts' | 'uploadDoNotCall'): fc.Arbitrary<Spec> => fc
  .record({
    boundary: fc.constantFrom('fuzzBoundary', 'x', '----', 'a'.repeat(70)),
    declared: fc.oneof({ arbitrary: fc.constant('ok'), weight: 8 }, { arbitrary: fc.constantFrom('none', 'wrong', 'missing-boundary', 'json'), weight: 2 }),
    fields: fc.array(fc.tuple(fc.oneof(fc.constantFrom('workspaceId', 'defaultCountry', 'file', ...PROTO_NAMES), anyString.map((s) => s.slice(0, 120))), fc.oneof(fc.constantFrom('@@ws@@', 'US', 'gb', 'ZZ', ''), anyString.map((s) => s.slice(0, 1_500)))), { maxLength: 4 }),
    withWorkspace: fc.boolean(),
    files: fc.array(fc.tuple(fc.constantFrom('file', 'file', 'other', 'constructor'), fileBytes), { minLength: 0, maxLength: 2 }),
    truncate: fc.oneof({ arbitrary: fc.constant(-1), weight: 9 }, { arbitrary: fc.nat(2_000), weight: 1 }),
    key: apiKeyHeader,
    // A third are well-formed uploads of a junk CSV, so the import itself runs, not only the form checks.
    clean: fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: csvFile(true), weight: 1 }),
  })
  .map(({ clean, ...messy }) =>
    clean
      ? { ...messy, declared: 'ok', fields: [], withWorkspace: true, files: [['file', clean]] as [string, Buffer][], truncate: -1, key: '@@key@@' }
      : messy,
  )
  .map(({ boundary, declared, fields, withWorkspace, files, truncate, key: k }) => {
    const parts: Buffer[] = [];
    const all = withWorkspace ? [['workspaceId', '@@ws@@'] as [string, string], ...fields] : fields;
    for (const [name, value] of all) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${value}\r\n`));
    }
    for (const [name, bytes] of files) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="c.csv"\r\nContent-Type: text/csv\r\n\r\n`), bytes, Buffer.from('\r\n'));
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    let body = Buffer.concat(parts);
    if (truncate >= 0) body = body.subarray(0, truncate);
    const type = declared === 'ok' ? `multipart/form-data; boundary=${boundary}`
      : declared === 'missing-boundary' ? 'multipart/form-data'
        : declared === 'wrong' ? `multipart/form-data; boundary=${boundary}x`
          : declared === 'json' ? 'application/json' : '';
    return {
      route,
      method: 'POST',
      path: ROUTES[route].path,
      query: '',
      headers: { ...(k === undefined ? {} : { 'x-api-key': k }), ...(type ? { 'content-type': type } : {}) },
      body,
    };
  });

/** What Twilio always sends, from our own account, so signed requests get past the signature into the handlers. */
const PLAUSIBLE_TWILIO: [string, string][] = [
  ['CallSid', `CA${'0'.repeat(31)}1`], ['AccountSid', '@@accountsid@@'], ['From', '+14155552671'], ['To', '+16285550100'],
  ['CallStatus', 'completed'], ['Direction', 'outbound-api'], ['CallDuration', '12'], ['SequenceNumber', '3'],
];

/** A Twilio webhook: form fields of every kind, unsigned or wrongly signed. */
const twilioSpec = (name: 'twilioVoice' | 'twilioStatus' | 'twilioAmd' | 'twilioTransfer'): fc.Arbitrary<Spec> =>
  fc
    .record({
      // All of PLAUSIBLE_TWILIO a third of the time (so ~50 requests per route reliably get one through),
      // else some of it; then junk fields and values on top.
      plausible: fc.oneof({ arbitrary: fc.constant(PLAUSIBLE_TWILIO), weight: 1 }, { arbitrary: fc.subarray(PLAUSIBLE_TWILIO), weight: 2 }),
      fields: fc.array(
        fc.tuple(
          fc.oneof(fc.constantFrom('CallSid', 'AccountSid', 'From', 'To', 'CallStatus', 'Direction', 'CallDuration', 'SequenceNumber', 'AnsweredBy', 'MachineDetectionDuration', 'Digits', ...PROTO_NAMES), anyString.map((s) => s.slice(0, 200))),
          fc.oneof(fc.constantFrom(`CA${'0'.repeat(32)}`, `AC${'a'.repeat(32)}`, '@@accountsid@@', '+14155552671', 'completed', 'ringing', 'in-progress', 'busy', 'inbound', 'machine_start', 'machine_end_beep', 'human', '-1', '1e9'), anyString.map((s) => s.slice(0, 2_000))),
        ),
        { maxLength: 4 },
      ),
      // Signed with the platform account's token (at send time, over the URL as sent), unsigned, or junk.
      signature: fc.oneof(
        { arbitrary: fc.constant('@@sign@@'), weight: 3 },
        { arbitrary: fc.option(fc.constantFrom('', 'abc', 'x'.repeat(500), 'AAAAAAAAAAAAAAAAAAAAAAAAAAA='), { nil: undefined }), weight: 1 },
      ),
      type: fc.oneof({ arbitrary: fc.constant('application/x-www-form-urlencoded'), weight: 5 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 1 }),
      query: fc.oneof(
        { arbitrary: fc.constant('?callId=@@call@@'), weight: 2 },
        { arbitrary: queryString, weight: 1 },
        { arbitrary: fc.constantFrom('?callId=call_none', '?callId=', '?callId=@@call@@&callId=x'), weight: 1 },
      ),
    })
    .map(({ plausible, fields, signature, type, query }) => ({
      route: name,
      method: 'POST',
      path: ROUTES[name].path,
      query,
      headers: { ...(type ? { 'content-type': type } : {}), ...(signature === undefined ? {} : { 'x-twilio-signature': signature }) },
      body: [...plausible, ...fields].map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&'),
    }));

/** Paths no route claims, and routes' paths with extra segments. */
const strayPath: fc.Arbitrary<Spec> = fc
  .record({
    path: fc.oneof(fc.constantFrom('/api', '/api/', '/api/agents/x/y', '/api/contacts/upload/x', '/API/AGENTS', '/api/%zz', '/api/agents//', '/docs/assets/', '/meeting/'), anyString.map((s) => `/api/${enc(s.slice(0, 200))}`)),
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
  })
  .map(({ path, method }) => ({ route: 'unknown' as const, method, path, query: '', headers: { 'x-api-key': '@@key@@' } }));

/** Every route that takes input. */
const INPUT_ROUTES = (Object.entries(ROUTES) as [keyof typeof ROUTES, RouteSpec][]).filter(
  ([, r]) => r.body || r.query || r.params || r.bodyKind === 'raw',
);

const requestArb: fc.Arbitrary<Spec> = fc.oneof(
  ...INPUT_ROUTES.map(([name, route]) => {
    if (name === 'uploadContacts' || name === 'uploadDoNotCall') return { arbitrary: uploadSpec(name), weight: 3 };
    if (name === 'twilioVoice' || name === 'twilioStatus' || name === 'twilioAmd' || name === 'twilioTransfer') return { arbitrary: twilioSpec(name), weight: 1 };
    return { arbitrary: jsonSpec(name, route), weight: route.body ? 3 : 2 };
  }),
  { arbitrary: strayPath, weight: 1 },
);

// ---------------------------------------------------------------------------------------------------------
// Sending and judging.

const pick = (list: readonly string[], fallback: string) => (list.length > 0 ? list[Math.floor(Math.random() * list.length)]! : fallback);

/** Fills the placeholders with what exists now. */
function fill(text: string): string {
  // Placeholders may have been percent-encoded with the query or form they sit in (@ is %40).
  return text.replace(/(?:@@|%40%40)(\w+)(?:@@|%40%40)/g, (_m, what: string) => {
    if (what === 'ws') return own.workspaceId;
    if (what === 'key') return own.apiKey;
    if (what === 'session') return sessionKey;
    if (what === 'otherkey') return other.apiKey;
    if (what === 'foreign') return pick(foreign, 'none');
    if (what === 'token') return pick(tokens, 'none');
    if (what === 'accountsid') return platformAccount.accountSid;
    if (what in pools) return pick(pools[what as Resource], `${what}_none`);
    return _m;
  });
}

const ERROR_BODY = z.object({
  error: z.object({
    code: z.string().regex(/^[a-z][a-z0-9_]*$/),
    message: z.string().min(1),
    details: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]),
  }),
});

interface Outcome {
  readonly spec: Spec;
  readonly status: number;
  readonly problem?: string;
}

async function send(spec: Spec): Promise<Outcome> {
  const headers = Object.fromEntries(Object.entries(spec.headers).map(([k, v]) => [k, fill(v)]));
  // fetch refuses a body on GET; a route's method swapped for GET goes without one.
  // Binary bodies are filled through latin1, which maps bytes to characters one to one.
  const body = spec.method === 'GET' || spec.body === undefined ? undefined
    : typeof spec.body === 'string' ? fill(spec.body) : Buffer.from(fill(Buffer.from(spec.body).toString('latin1')), 'latin1');
  const url = `${t.baseUrl}${fill(spec.path)}${fill(spec.query)}`;
  if (headers['x-twilio-signature'] === '@@sign@@') {
    // Over the URL as the server will see it (the URL parser may re-encode the query) and the form sent.
    const sent = new URL(url);
    const signedUrl = publicUrl(t.deps.config, sent.pathname) + sent.search;
    headers['x-twilio-signature'] = twilioSignature(platformAccount.authToken, signedUrl, parseForm(typeof body === 'string' ? body : ''));
  }
  const res = await fetch(url, { method: spec.method, headers, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  if (res.status >= 500) return { spec, status: res.status, problem: `5xx: ${text.slice(0, 300)}` };
  if (res.status === 201 && spec.route !== 'unknown' && CREATES[spec.route]) {
    const id = (JSON.parse(text) as { _id?: string })._id;
    if (id) pools[CREATES[spec.route]!].push(id);
  }
  if (res.status >= 200 && res.status < 300 && spec.method === 'DELETE') {
    // A deleted record leaves its pool: picked again, every later request on it could only be a 404, and
    // a run that deleted the few agents early could see no agent update succeed (once in 13 runs, 28 November).
    const gone = decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '');
    for (const list of Object.values(pools)) if (list.includes(gone)) list.splice(list.indexOf(gone), 1);
  }
  if (res.status >= 400) {
    // The meeting pages answer a browser: a used or unknown link is an HTML page, by design. A dot segment
    // in a generated id ('.', '..') is resolved by the URL parser before the request leaves: the request
    // is then another route's, a meeting page's when the path left is one (`/meeting/assets/.` is
    // `/meeting/assets/`, the page of a link named "assets": once in a run, 28 November).
    const meetingPage = /^\/meeting\/[^/]+\/?$/.test(new URL(url).pathname);
    if ((spec.route === 'openMeeting' || spec.route === 'joinMeeting' || meetingPage) && type.startsWith('text/html')) return { spec, status: res.status };
    if (!type.startsWith('application/json')) return { spec, status: res.status, problem: `error with content-type "${type}": ${text.slice(0, 200)}` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { spec, status: res.status, problem: `error body is not JSON: ${text.slice(0, 200)}` };
    }
    const shape = ERROR_BODY.safeParse(parsed);
    if (!shape.success) return { spec, status: res.status, problem: `error body shape: ${text.slice(0, 300)}` };
  }
  return { spec, status: res.status };
}

const describeSpec = (o: Outcome) => {
  const body = o.spec.body === undefined ? '' : typeof o.spec.body === 'string' ? o.spec.body : Buffer.from(o.spec.body).toString('latin1');
  return `${o.spec.method} ${o.spec.path.slice(0, 200)}${o.spec.query.slice(0, 200)} [${o.spec.route}] -> ${o.status}: ${o.problem}\n  headers ${JSON.stringify(o.spec.headers)}\n  body ${JSON.stringify(body.slice(0, 600))}`;
};

describe('fuzzing every route that takes input', () => {
  it(`${REQUESTS} generated requests: no 5xx, every error in the documented shape`, async () => {
    const specs = fc.sample(requestArb, { numRuns: REQUESTS, seed: SEED });
    const outcomes: Outcome[] = [];
    let next = 0;
    const inFlight = new Set<Spec>();
    // However long the machine takes for 10,000 requests, the run fails only if none is answered for a minute.
    await watchProgress(
      Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < specs.length) {
            const spec = specs[next++]!;
            inFlight.add(spec);
            try {
              // Once more on a network error: a kept-alive socket the server closed just as the client reused
              // it fails the request without the server ever seeing it. Twice is the server's doing.
              outcomes.push(await send(spec).catch(() => send(spec)));
            } catch (error) {
              const cause = (error as Error & { cause?: Error }).cause;
              outcomes.push({ spec, status: 0, problem: `request failed twice: ${(error as Error).message} ${cause?.message ?? ''}` });
            } finally {
              inFlight.delete(spec);
            }
          }
        }),
      ),
      {
        what: `seed ${SEED}: the fuzz run`,
        progress: () => outcomes.length,
        describe: () => `waiting on ${[...inFlight].map((r) => `${r.method} ${r.path.slice(0, 80)} [${r.route}]`).join(', ')}`,
      },
    );

    expect(outcomes).toHaveLength(REQUESTS);

    const failures = outcomes.filter((o) => o.problem);
    // One example per route and kind of failure, so a report stays readable.
    const examples = new Map<string, Outcome>();
    for (const f of failures) examples.set(`${f.spec.route} ${f.status} ${f.problem!.slice(0, 40)}`, f);
    expect(failures.length, `seed ${SEED}: ${failures.length} bad answers\n${[...examples.values()].slice(0, 15).map(describeSpec).join('\n')}`).toBe(0);

    // The run reached every input route, and got past validation often enough to exercise the services.
    const byRoute = new Map<string, number[]>();
    for (const o of outcomes) byRoute.set(o.spec.route, [...(byRoute.get(o.spec.route) ?? []), o.status]);
    for (const [name] of INPUT_ROUTES) expect(byRoute.get(name)?.length ?? 0, name).toBeGreaterThan(20);
    const succeeding = ['createAgent', 'updateAgent', 'createTool', 'updateTool', 'createContact', 'updateContact', 'uploadContacts', 'buyPhoneNumber', 'listContacts', 'listHistory', 'searchPhoneNumbers', 'twilioVoice', 'twilioStatus'] as const;
    for (const name of succeeding) {
      const statuses = byRoute.get(name) ?? [];
      const histogram = statuses.reduce<Record<number, number>>((h, s) => ({ ...h, [s]: (h[s] ?? 0) + 1 }), {});
      expect(statuses.some((s) => s >= 200 && s < 300), `seed ${SEED}: ${name} never succeeded: ${JSON.stringify(histogram)}`).toBe(true);
    }
  }, PROGRESS_BOUNDED_TEST_MS);
});
