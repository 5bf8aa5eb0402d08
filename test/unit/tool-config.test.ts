/**
 * Invariant: a tool is refused when it is saved if its URL names a non-public address or an internal host
 * (every IPv6 form that carries an IPv4 address judged by that address), unless the host is allow-listed;
 * `config.body` may be a JSON object or array whose string placeholders are filled with the arguments'
 * own types and can never change the body's structure; parameters carry JSON-Schema `type` and `enum`,
 * reach the model's tool schema as written, and the model's arguments are coerced to them or refused
 * before anything is sent; integration tools supply exactly their template's settings.
 */
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/domain/errors.js';
import { isForbiddenAddress, refuseToolUrl } from '../../lib/domain/ssrf.js';
import { ToolCreate, type Tool } from '../../lib/domain/tool.js';
import { assertToolIsCoherent } from '../../lib/domain/tool-coherence.js';
import { listTemplates, TOOL_TEMPLATES } from '../../lib/domain/tool-templates.js';
import { coerceArguments, encodeBody, fillJson, runHttpTool } from '../../streaming-service/src/tools/http.js';
import { buildCallTools, httpSpecOf } from '../../streaming-service/src/tools/registry.js';

/** The fields of every problem assertToolIsCoherent reports, or [] when the tool is coherent. */
function problemsOf(tool: Parameters<typeof assertToolIsCoherent>[0], allowedHosts: string[] = []): { field: string; message: string }[] {
  try {
    assertToolIsCoherent(tool, { allowedHosts });
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).details as unknown as { field: string; message: string }[];
  }
}

const httpTool = (url: string, extra: Partial<Tool> = {}) => ({
  type: 'http' as const,
  config: { method: 'GET' as const, url },
  parameters: [],
  ...extra,
});

describe('SSRF at save time', () => {
  it.each([
    'http://127.0.0.1/',
    'http://[::127.0.0.1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[::ffff:127.0.0.1]:8080/',
    'http://[64:ff9b:1::a00:1]/',
    'http://[64:ff9b::169.254.169.254]/',
    'http://[2002:a9fe:a9fe::]/',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'http://[fd00:ec2::254]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://2130706433/', // 127.0.0.1 written as one number: the URL parser normalizes it
    'http://0x7f.1/',
    'http://localhost:8080/',
    'http://LOCALHOST./',
    'http://admin.localhost/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://instance-data.ec2.internal/',
    'http://metadata/',
    'http://printer.local/',
  ])('refuses %s with a 400 naming config.url', (url) => {
    const problems = problemsOf(httpTool(url));
    expect(problems.map((p) => p.field)).toEqual(['config.url']);
    expect(problems[0]!.message).toMatch(/refused/);
  });

  it('accepts public hosts, and private ones only when allow-listed (local development and tests)', () => {
    expect(problemsOf(httpTool('https://api.example.com/orders'))).toEqual([]);
    expect(problemsOf(httpTool('https://93.184.216.34/'))).toEqual([]);
    expect(problemsOf(httpTool('http://127.0.0.1:4000/x'), ['127.0.0.1:4000'])).toEqual([]);
    expect(problemsOf(httpTool('http://127.0.0.1:4001/x'), ['127.0.0.1:4000'])).toHaveLength(1);
    // A placeholder in the host is judged at call time, after it is filled and resolved.
    expect(problemsOf(httpTool('https://{tenant}.example.com/', { parameters: [{ name: 'tenant', description: 't', required: true }] }))).toEqual([]);
    expect(problemsOf(httpTool('http://{host}/x', { parameters: [{ name: 'host', description: 'h', required: true }] }))).toEqual([]);
  });

  it('checks the generic webhook URL too', () => {
    const webhook = { type: 'integration' as const, templateId: 'webhook.post', parameters: [] };
    expect(problemsOf({ ...webhook, config: { url: 'http://10.0.0.5/hook' } }).map((p) => p.field)).toEqual(['config.url']);
    expect(problemsOf({ ...webhook, config: {} }).map((p) => p.field)).toEqual(['config.url']);
    expect(problemsOf({ ...webhook, config: { url: 'https://hooks.example.com/in' } })).toEqual([]);
  });

  const privateV4 = fc.oneof(
    fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(0), fc.nat(255), fc.nat(255), fc.nat(255)),
  );
  const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
  /** Every IPv6 spelling that carries the IPv4 address a.b.c.d. */
  const embeddings = ([a, b, c, d]: number[]) => [
    `::ffff:${a}.${b}.${c}.${d}`,
    `::ffff:${hex(a!, b!)}:${hex(c!, d!)}`,
    `::${a}.${b}.${c}.${d}`,
    `::ffff:0:${a}.${b}.${c}.${d}`,
    `64:ff9b::${a}.${b}.${c}.${d}`,
    `64:ff9b:1::${hex(a!, b!)}:${hex(c!, d!)}`,
    `2002:${hex(a!, b!)}:${hex(c!, d!)}::1`,
  ];

  it('refuses every IPv6 form of every private IPv4 address, at save time and at call time', () => {
    fc.assert(
      fc.property(privateV4, (octets) => {
        expect(isForbiddenAddress(octets.join('.'))).toBe(true);
        for (const v6 of embeddings(octets)) {
          expect(isForbiddenAddress(v6), v6).toBe(true);
          expect(refuseToolUrl(new URL(`http://[${v6}]/`), []), v6).toBeDefined();
        }
      }),
    );
  });

  it('judges mapped, translated, NAT64 and 6to4 forms of a public address as public', () => {
    const publicV4 = fc
      .tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255))
      .filter((o) => ipaddr.IPv4.parse(o.join('.')).range() === 'unicast');
    fc.assert(
      fc.property(publicV4, (octets) => {
        const [mapped, mappedHex, , translated, nat64, , sixToFour] = embeddings(octets);
        for (const v6 of [mapped, mappedHex, translated, nat64, sixToFour]) expect(isForbiddenAddress(v6!), v6).toBe(false);
      }),
    );
  });
});

describe('JSON bodies', () => {
  const params = [
    { name: 'order_id', description: 'Order', required: true },
    { name: 'quantity', description: 'How many', required: false, type: 'integer' as const },
    { name: 'gift', description: 'Gift wrap', required: false, type: 'boolean' as const },
    { name: 'note', description: 'Note', required: false },
  ];

  it('accepts an object, an array or a string and keeps it as given', () => {
    const body = { order_id: '{order_id}', items: [{ qty: '{quantity}' }], meta: { big: 1e200, none: null } };
    const parsed = ToolCreate.parse({ name: 'T', type: 'http', description: 'd', workspaceId: 'ws', config: { method: 'POST', url: 'https://x.test/', body }, parameters: params });
    expect(parsed.config?.body).toEqual(body);
    expect(ToolCreate.safeParse({ name: 'T', type: 'http', description: 'd', workspaceId: 'ws', config: { body: [1, '{a}'] } }).success).toBe(true);
    expect(ToolCreate.safeParse({ name: 'T', type: 'http', description: 'd', workspaceId: 'ws', config: { body: 5 } }).success).toBe(false);
    let deep: unknown = '{a}';
    for (let i = 0; i < 11; i += 1) deep = { d: deep };
    expect(ToolCreate.safeParse({ name: 'T', type: 'http', description: 'd', workspaceId: 'ws', config: { body: deep } }).success).toBe(false);
  });

  it('refuses body placeholders that name no parameter', () => {
    const problems = problemsOf({ type: 'http', config: { method: 'POST', url: 'https://x.test/', body: { a: ['{missing}'] } }, parameters: [] });
    expect(problems).toEqual([{ field: 'config.body', message: 'placeholder {missing} names no parameter' }]);
  });

  it('fills whole placeholders with typed values, text placeholders as text, and drops what is missing', () => {
    const body = {
      order_id: '{order_id}',
      label: 'Order {order_id} ({note})',
      quantity: '{quantity}',
      gift: '{gift}',
      attendees: [{ email: '{email}' }],
      fixed: 1,
    };
    expect(fillJson(body, { order_id: 'A"1', quantity: 3, gift: false })).toEqual({
      order_id: 'A"1',
      label: 'Order A"1 ()',
      quantity: 3,
      gift: false,
      fixed: 1,
    });
    // The caller's words are data: quotes and braces cannot add keys.
    const hostile = 'x", "admin": true, "y": "{';
    const sent = encodeBody({ body }, { order_id: hostile, note: hostile });
    expect(sent!.contentType).toBe('application/json');
    expect(Object.keys(JSON.parse(sent!.text)).sort()).toEqual(['fixed', 'label', 'order_id']);
    expect(JSON.parse(sent!.text).order_id).toBe(hostile);
  });

  it('form-encodes a template body that says so', () => {
    const sent = encodeBody({ body: { To: '{to}', Body: '{message}', Skip: '{nothing}' }, bodyEncoding: 'form' }, { to: '+14155550142', message: 'a&b=c' });
    expect(sent).toEqual({ text: 'To=%2B14155550142&Body=a%26b%3Dc', contentType: 'application/x-www-form-urlencoded' });
  });
});

describe('typed parameters', () => {
  const parse = (parameters: unknown) =>
    ToolCreate.safeParse({ name: 'T', type: 'http', description: 'd', workspaceId: 'ws', config: { method: 'GET', url: 'https://x.test/' }, parameters });

  it('accepts JSON-Schema types and enums that match them, refuses the rest', () => {
    expect(parse([{ name: 'n', description: 'd', required: true, type: 'integer', enum: [1, 2, 3] }]).success).toBe(true);
    expect(parse([{ name: 's', description: 'd', required: true, enum: ['low', 'high'] }]).success).toBe(true);
    expect(parse([{ name: 'b', description: 'd', required: false, type: 'boolean' }]).success).toBe(true);
    const bad = [
      [{ name: 'n', description: 'd', required: true, type: 'date' }],
      [{ name: 'n', description: 'd', required: true, type: 'integer', enum: [1.5] }],
      [{ name: 'n', description: 'd', required: true, enum: [1] }],
      [{ name: 'n', description: 'd', required: true, enum: ['a', 'a'] }],
      [{ name: 'n', description: 'd', required: true, enum: [] }],
      [{ name: 'n', description: 'd', required: true, format: 'email' }],
    ];
    for (const parameters of bad) expect(parse(parameters).success, JSON.stringify(parameters)).toBe(false);
  });

  it('offers the types and enums to the model as JSON Schema', () => {
    const tools = buildCallTools([
      {
        _id: 't1', workspaceId: 'ws', createdAt: '', updatedAt: '', name: 'Book', type: 'http', description: 'd',
        config: { method: 'POST', url: 'https://x.test/' },
        parameters: [
          { name: 'seats', description: 'Seats', required: true, type: 'integer' },
          { name: 'tier', description: 'Tier', required: false, enum: ['basic', 'pro'] },
          { name: 'note', description: 'Note', required: false },
        ],
      },
    ]);
    expect(tools.specs[0]!.parameters).toEqual({
      type: 'object',
      properties: {
        seats: { type: 'integer', description: 'Seats' },
        tier: { type: 'string', description: 'Tier', enum: ['basic', 'pro'] },
        note: { type: 'string', description: 'Note' },
      },
      required: ['seats'],
      additionalProperties: false,
    });
  });

  it("coerces the model's arguments to their types or refuses them with every problem", () => {
    const params = [
      { name: 'seats', description: 'd', required: true, type: 'integer' as const },
      { name: 'price', description: 'd', required: false, type: 'number' as const },
      { name: 'vip', description: 'd', required: false, type: 'boolean' as const },
      { name: 'tier', description: 'd', required: false, enum: ['basic', 'pro'] },
      { name: 'note', description: 'd', required: false },
    ];
    expect(coerceArguments({ seats: '2', price: '9.5', vip: 'TRUE', tier: 'Pro', note: 42, extra: 'dropped' }, params)).toEqual({
      ok: true,
      args: { seats: 2, price: 9.5, vip: true, tier: 'pro', note: '42' },
    });
    expect(coerceArguments({ seats: 2, note: null }, params)).toEqual({ ok: true, args: { seats: 2 } });
    const refused = coerceArguments({ seats: 2.5, price: 'cheap', vip: 'yes', tier: 'gold' }, params);
    expect(refused).toEqual({
      ok: false,
      problems: ['seats must be an integer', 'price must be a number', 'vip must be a boolean', 'tier must be one of "basic", "pro"'],
    });
    expect(coerceArguments({}, params)).toEqual({ ok: false, problems: ['seats is required'] });
    // Names of Object.prototype members are plain parameters, never the prototype.
    const odd = coerceArguments(JSON.parse('{"__proto__":"x","constructor":"y"}') as Record<string, unknown>, [
      { name: '__proto__', description: 'd', required: true },
      { name: 'constructor', description: 'd', required: true },
    ]);
    expect(odd.ok && Object.entries(odd.args)).toEqual([['__proto__', 'x'], ['constructor', 'y']]);
  });

  it('refuses "." and ".." as URL arguments, which would move the request to another path', async () => {
    for (const id of ['.', '..']) {
      const outcome = await runHttpTool({ method: 'GET', url: 'https://api.example.com/orders/{id}/status', headers: {} }, { id });
      expect(outcome.ok).toBe(false);
      expect(JSON.parse(outcome.content).error).toMatch(/cannot be "\." or "\.\."; the request was not sent/);
    }
  });
});

describe('integration settings and the catalogue', () => {
  const zendesk = (settings: Record<string, string | number> | undefined, extra: Record<string, unknown> = {}) => ({
    type: 'integration' as const,
    templateId: 'zendesk.create_ticket',
    config: { headers: { Authorization: 'Basic x' }, ...(settings ? { settings } : {}), ...extra },
    parameters: [],
  });

  it('needs exactly the template settings, each of the right shape', () => {
    expect(problemsOf(zendesk({ subdomain: 'acme' }))).toEqual([]);
    expect(problemsOf(zendesk(undefined)).map((p) => p.field)).toEqual(['config.settings.subdomain']);
    // A subdomain lands in the host name: nothing that could move the request elsewhere gets through.
    for (const subdomain of ['evil.com#', 'a/b', 'x@evil.com', '127.0.0.1', '', '..']) {
      expect(problemsOf(zendesk({ subdomain })).map((p) => p.field), subdomain).toEqual(['config.settings.subdomain']);
    }
    expect(problemsOf(zendesk({ subdomain: 'acme', other: 'x' })).map((p) => p.field)).toEqual(['config.settings.other']);
    expect(problemsOf(zendesk({ subdomain: 'acme' }, { url: 'https://evil.example/' })).map((p) => p.field)).toEqual(['config.url']);
    expect(problemsOf(zendesk({ subdomain: 'acme' }, { body: '{}' })).map((p) => p.field)).toEqual(['config.body']);
    const cal = { type: 'integration' as const, templateId: 'calcom.book_meeting', parameters: [] };
    expect(problemsOf({ ...cal, config: { headers: { Authorization: 'Bearer x' }, settings: { event_type_id: 42 } } })).toEqual([]);
    expect(problemsOf({ ...cal, config: { headers: { Authorization: 'Bearer x' }, settings: { event_type_id: '42' } } }).map((p) => p.field)).toEqual([
      'config.settings.event_type_id',
    ]);
    expect(problemsOf({ type: 'http', config: { method: 'GET', url: 'https://x.test/', settings: { a: 'b' } }, parameters: [] }).map((p) => p.field)).toEqual([
      'config.settings',
    ]);
  });

  it('lists every template with what a tool must supply, and each one builds a call', () => {
    const listed = listTemplates();
    expect(listed.map((t) => t.templateId)).toEqual(TOOL_TEMPLATES.map((t) => t.templateId));
    for (const template of listed) {
      expect(template.title.length).toBeGreaterThan(0);
      expect(template.docsUrl).toMatch(/^https:\/\//);
      if (template.url) expect(new URL(template.url.replace(/\{[a-z_]+\}/g, 'x')).protocol).toBe('https:');
    }
    const webhook = listed.find((t) => t.templateId === 'webhook.post')!;
    expect(webhook).toMatchObject({ parametersFromTool: true, parameters: [], requiredHeaders: [] });
    const spec = httpSpecOf({
      _id: 't', workspaceId: 'ws', createdAt: '', updatedAt: '', name: 'Cal', type: 'integration', description: 'd', templateId: 'calcom.book_meeting',
      config: { headers: { Authorization: 'Bearer k' }, settings: { event_type_id: 42 } },
      parameters: [],
    });
    expect(spec).toMatchObject({ method: 'POST', url: 'https://api.cal.com/v2/bookings', headers: { 'cal-api-version': '2024-08-13', Authorization: 'Bearer k' }, fixed: { event_type_id: 42 } });
    const pinned = httpSpecOf({
      _id: 't', workspaceId: 'ws', createdAt: '', updatedAt: '', name: 'Cal', type: 'integration', description: 'd', templateId: 'calcom.book_meeting',
      config: { headers: { Authorization: 'Bearer k', 'CAL-API-VERSION': '2026-02-25' }, settings: { event_type_id: 42 } },
      parameters: [],
    });
    // The tool's own header overrides the template's fixed one, whatever its case, and is sent once.
    expect(pinned!.headers).toEqual({ Authorization: 'Bearer k', 'CAL-API-VERSION': '2026-02-25' });
  });
});
