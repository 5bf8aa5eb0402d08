/**
 * The fuzz run's raw material (./fuzz.test.ts): a valid body per route, which the generator then breaks,
 * and the junk it breaks them with (odd and huge strings, prototype names as keys, nested values).
 */
import fc from 'fast-check';
import { MASK } from '../../lib/domain/tool.js';
import { ROUTES } from '../../lib/infra/routes.js';

export type Resource = 'agent' | 'tool' | 'contact' | 'phoneNumber' | 'history' | 'call' | 'asset' | 'webhook' | 'provider' | 'apiKey' | 'campaign' | 'dnc';
// ---------------------------------------------------------------------------------------------------------
// Valid bodies, which the generator then breaks. `@@agent@@` and the like are replaced at send time by an
// id that exists then.

export const agentBody = (workspaceId: string) => ({
  name: 'Fuzz agent',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'deepgram',
  stt_provider: 'deepgram',
  system_prompt: 'Be brief. {{contactName}}',
  workspaceId,
});
export const toolBody = (workspaceId: string) => ({
  name: 'Order lookup',
  type: 'http',
  description: 'Looks an order up',
  workspaceId,
  config: { method: 'GET', url: 'https://api.example.com/orders/{order}', headers: { Authorization: 'Bearer x' } },
  parameters: [{ name: 'order', description: 'the order number', required: true }],
});
export const contactBody = (workspaceId: string, n: number) => ({
  contactName: 'Fuzz contact',
  phoneNumber: `+1415${String(5_550_000 + (n % 10_000)).padStart(7, '0')}`,
  region: 'California',
  externalFields: { plan: 'gold', visits: 3 },
  workspaceId,
});

export const webhookBody = (workspaceId: string) => ({
  url: 'https://crm.example.com/hooks/voice',
  description: 'CRM',
  eventTypes: ['call.ended', 'call.analyzed'],
  workspaceId,
});

export const WS = '@@ws@@';
export const BASES: Partial<Record<keyof typeof ROUTES, (n: number) => Record<string, unknown>>> = {
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
export const ID_RESOURCE: Partial<Record<keyof typeof ROUTES, Resource>> = {
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
export const CREATES: Partial<Record<keyof typeof ROUTES, Resource>> = {
  createAgent: 'agent', createTool: 'tool', createContact: 'contact', buyPhoneNumber: 'phoneNumber', importPhoneNumber: 'phoneNumber',
  createWebhookEndpoint: 'webhook', createCampaign: 'campaign',
};
/** Query parameters each route knows, so generated queries hit them as well as unknown ones. */
export const KNOWN_QUERY = ['workspaceId', 'page', 'limit', 'search', 'agentType', 'startDate', 'endDate', 'country', 'areaCode', 'contains', 'token', 'status', 'success'];

// ---------------------------------------------------------------------------------------------------------
// Arbitraries.

export const PROTO_NAMES = Object.getOwnPropertyNames(Object.prototype);
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
export const anyString = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }), weight: 12 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 6 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 6 },
  { arbitrary: oddString, weight: 12 },
  { arbitrary: hugeString, weight: 1 },
  // (weights: a body holds several strings, so huge ones stay a few per hundred requests)
);
export const key = fc.oneof({ arbitrary: fc.constantFrom(...PROTO_NAMES), weight: 3 }, { arbitrary: anyString, weight: 2 });
const scalar = fc.oneof(
  anyString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53 + 1, 1e-320, 1.5, -1),
  fc.boolean(),
  fc.constant(null),
);
export const junk: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
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
export function mutations(fields: string[]): fc.Arbitrary<Mutation[]> {
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

export function applyMutations(base: Record<string, unknown>, list: Mutation[]): Record<string, unknown> {
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
export const badJson = fc.oneof(
  fc.constantFrom('{', '}', '{"a":}', '{"a":1,}', "{'a':1}", '[1,2', 'nul', 'NaN', '"\\x"', '{"a":"\\ud800"}', '\ufeff{}', '{"a":1}{"a":2}',
    '{"workspaceId":1e999}', '{"__proto__":null}', '{"constructor":{"prototype":{"x":1}}}', '[]', '0', '"text"', 'null', 'true'),
  fc.string({ maxLength: 60 }),
  fc.integer({ min: 100, max: 20_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 100, max: 20_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
);
/** Over the 1 MiB JSON limit. */
export const tooLarge = fc.constant(`{"a":"${'x'.repeat(1024 * 1024)}"}`);

export const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data', 'multipart/form-data; boundary=', 'application/octet-stream', 'image/png', 'application/json; charset=utf-16',
  '*/*', 'garbage', '',
];
