/**
 * The fuzz run's requests (./fuzz.test.ts): JSON routes with broken bodies and queries, multipart uploads,
 * Twilio webhooks and stray paths, each a `Spec` whose `@@placeholders@@` are filled at send time.
 */
import fc from 'fast-check';
import * as z from 'zod';
import { ROUTES, type RouteSpec } from '../../lib/infra/routes.js';
import { BASES, CONTENT_TYPES, ID_RESOURCE, KNOWN_QUERY, PROTO_NAMES, type Resource, WS, anyString, applyMutations, badJson, junk, key, mutations, tooLarge } from './fuzz-bodies.js';

/** A request before real ids are filled in. */
export interface Spec {
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

/**
 * A JSON route's request: a broken valid body most often, else a valid one, random JSON, malformed JSON or
 * none. The valid bodies make each route's success likely enough to test for: with broken ones alone, a
 * route got about a hundred requests of which one in twenty passed, and none in one run of a few hundred.
 */
function jsonSpec(name: keyof typeof ROUTES, route: RouteSpec): fc.Arbitrary<Spec> {
  const base = BASES[name];
  const fields = route.body instanceof z.ZodObject ? Object.keys(route.body.shape) : ['workspaceId'];
  const body: fc.Arbitrary<string | Uint8Array | undefined> = fc.oneof(
    { arbitrary: fc.tuple(fc.nat(), mutations(fields)).map(([n, m]) => JSON.stringify(applyMutations(base ? base(n) : { workspaceId: WS }, m))), weight: base ? 500 : 100 },
    ...(base ? [{ arbitrary: fc.nat().map((n) => JSON.stringify(base(n))), weight: 200 }] : []),
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
      // All of PLAUSIBLE_TWILIO a third of the time, else some of it; then junk fields and values on top.
      // About one in five gets through: a run gives each webhook route some ninety requests (weight 3 below).
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
export const INPUT_ROUTES = (Object.entries(ROUTES) as [keyof typeof ROUTES, RouteSpec][]).filter(
  ([, r]) => r.body || r.query || r.params || r.bodyKind === 'raw',
);

export const requestArb: fc.Arbitrary<Spec> = fc.oneof(
  ...INPUT_ROUTES.map(([name, route]) => {
    if (name === 'uploadContacts' || name === 'uploadDoNotCall') return { arbitrary: uploadSpec(name), weight: 3 };
    if (name === 'twilioVoice' || name === 'twilioStatus' || name === 'twilioAmd' || name === 'twilioTransfer') return { arbitrary: twilioSpec(name), weight: 3 };
    return { arbitrary: jsonSpec(name, route), weight: route.body ? 3 : 2 };
  }),
  { arbitrary: strayPath, weight: 1 },
);
