import * as z from 'zod';
import { PageQuery } from '../domain/common.js';
import {
  AppError,
  ConflictError,
  ForbiddenError,
  InsufficientCreditsError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
} from '../domain/errors.js';
import { loadConfig } from '../config.js';
import { IdempotencyKey, reservationFor } from '../domain/call.js';
import { MASK } from '../domain/tool.js';
import { ROUTES, type OperationId, type RouteSpec } from '../infra/routes.js';
import { MAX_JSON_BODY_BYTES } from './json.js';
import { MEETING_PAGE_EXAMPLES, OPERATION_EXAMPLES } from './openapi-examples/index.js';

/**
 * The OpenAPI 3.1 document of this API, generated from the route table and its zod schemas, so the
 * reference page can never describe an API other than the one the handlers validate against.
 */

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const REF_PREFIX = '#/components/schemas/';
const SECURITY_SCHEME = 'ApiKey';

/** The error body every failure carries (DESIGN.md); not in the global registry so no id can clash. */
const ErrorBody = z.object({
  error: z.object({
    code: z.string().describe('Stable snake_case code to branch on, e.g. validation_failed.'),
    message: z.string().describe('A human sentence; may change between releases.'),
    details: z
      .union([
        z.array(
          z
            .object({
              field: z.string().optional().describe('Dotted path of the offending input, e.g. config.url or query.limit.'),
              message: z.string().optional(),
              keys: z.array(z.string()).optional().describe('The unknown field names, on an unrecognized-keys failure.'),
            })
            .catchall(z.unknown()),
        ),
        z.record(z.string(), z.unknown()),
      ])
      .describe('Usually a list of {field, message}; an object for some codes (insufficient_credits: {required, available}).'),
  }),
});

/** What one call reserves at the default pricing (docs/calls.md): the `required` of a realistic 402. */
const DEFAULT_CONFIG = loadConfig({});
const CALL_RESERVATION = reservationFor({
  creditsPerMinute: DEFAULT_CONFIG.CALL_CREDITS_PER_MINUTE,
  maxDurationSeconds: DEFAULT_CONFIG.CALL_MAX_DURATION_SECONDS,
});

/** The headers of a 429 (the rate limiter's, RFC 9110 and draft-ietf-httpapi-ratelimit-headers). */
const RATE_LIMIT_HEADERS: Json = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  RateLimit: { description: 'The quota left in the current window and the seconds until it resets (draft-ietf-httpapi-ratelimit-headers).', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The quota and window of the policy that applied (draft-ietf-httpapi-ratelimit-headers).', schema: { type: 'string' } },
};

/**
 * Why each error status happens; which ones a route lists is decided in {@link errorStatuses}. Examples
 * are built from the domain's own error classes, so they show the codes and messages clients really get.
 */
const ERROR_STATUSES: Record<number, { name: string; description: string; example?: AppError }> = {
  400: {
    name: 'BadRequest',
    description: 'Validation failed (validation_failed), malformed JSON (invalid_json) or a __proto__ key (forbidden_key).',
    example: new ValidationError([{ field: 'body', message: 'Unrecognized key: "colour"', keys: ['colour'] }]),
  },
  401: { name: 'Unauthorized', description: 'The x-api-key header is missing, unknown or revoked (unauthorized).', example: new UnauthorizedError() },
  402: {
    name: 'PaymentRequired',
    description: `The workspace has insufficient credits (insufficient_credits): a call needs its longest possible duration in credits up front (${CALL_RESERVATION} at the default pricing; docs/calls.md).`,
    example: new InsufficientCreditsError(CALL_RESERVATION, 2.5),
  },
  403: {
    name: 'Forbidden',
    description: 'A workspaceId in the query or body is not the API key\'s workspace (forbidden); on /auth, a request not from the dashboard page (csrf_refused).',
    example: new ForbiddenError(),
  },
  404: {
    name: 'NotFound',
    description: 'No such record in this workspace (not_found); records of other workspaces are reported the same way.',
    example: new NotFoundError('Agent'),
  },
  409: {
    name: 'Conflict',
    description:
      'The change conflicts with existing data, e.g. a phone number already in use (phone_number_taken), or a phone call to a number on the ' +
      "workspace's do-not-call list (do_not_call: details name the number and the history record of the refusal; send consentedCall: true for a call the person agreed to).",
    example: new ConflictError('phone_number_taken', 'A contact with phone number +14155552671 already exists.', [
      { field: 'phoneNumber', message: 'already used by another contact in this workspace' },
    ]),
  },
  410: { name: 'Gone', description: 'The resource was used up, e.g. a meeting link already opened.' },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The body is not multipart/form-data (uploads) or application/json (/auth) (unsupported_media_type).',
    example: new AppError(415, 'unsupported_media_type', 'Send the upload as multipart/form-data with the fields file and workspaceId (and optionally defaultCountry).', [
      { field: 'content-type', message: 'expected multipart/form-data' },
    ]),
  },
  422: {
    name: 'UnprocessableContent',
    description:
      'Well-formed but not usable: an Idempotency-Key reused with another body (idempotency_key_reused), an agent that is not the workspace\'s ' +
      '(unknown_agent), telephony credentials the provider refused or a number not in that account (telephony_credentials_invalid, number_not_in_account).',
    example: new AppError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.', [
      { field: 'Idempotency-Key', message: 'send a new key for a new request' },
    ]),
  },
  413: {
    name: 'PayloadTooLarge',
    description: `The body exceeds its limit (payload_too_large): ${MAX_JSON_BODY_BYTES} bytes for JSON.`,
    example: new PayloadTooLargeError(MAX_JSON_BODY_BYTES),
  },
  429: {
    name: 'TooManyRequests',
    description: 'Too many requests (rate_limited): this API key\'s quota, or the route\'s own limit (per source IP on public routes; webhook replays per endpoint and workspace, and their hourly delivery budget; docs/api.md, Rate limits); wait Retry-After seconds.',
    example: new AppError(429, 'rate_limited', 'Too many requests; retry after 12 seconds.'),
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'Our data store was busy or unreachable for the whole request (service_unavailable): nothing was changed; send the same request again after Retry-After seconds.',
    example: new ServiceUnavailableError(),
  },
};

/** Statuses whose shared response carries headers. */
const ERROR_HEADERS: Record<number, Json> = { 429: RATE_LIMIT_HEADERS, 503: { 'Retry-After': RATE_LIMIT_HEADERS['Retry-After' as keyof typeof RATE_LIMIT_HEADERS] } };

const errorExample = (e: AppError) => ({ error: { code: e.code, message: e.message, details: e.details } });

/**
 * The error statuses a route can answer: those its middleware implies plus those it declares. Sorted so
 * the document is stable.
 */
export function errorStatuses(route: RouteSpec): number[] {
  const out = new Set<number>(route.errors ?? []);
  const readsBody = route.bodyKind !== 'none' && (route.body !== undefined || route.bodyKind === 'raw');
  if (route.body || route.query || route.params || route.form) out.add(400);
  if (route.auth) {
    out.add(401);
    // Any workspaceId in the query string is checked, declared or not, so every authenticated route can 403.
    out.add(403);
    // The rate limiter counts every authenticated request.
    out.add(429);
  }
  // The dashboard's /auth routes refuse other pages' requests (csrf_refused) and bodies that are not JSON.
  if (route.csrf) {
    out.add(403);
    out.add(415);
  }
  // Public routes with a per-IP limit (webhooks, meeting pages) answer 429 too.
  if (route.ipLimit) out.add(429);
  if (route.params) out.add(404);
  if (readsBody) out.add(413);
  // Every route that counts requests reads the table, and a busy table is a 503 (lib/http/unavailable.ts).
  if (route.auth || route.ipLimit) out.add(503);
  return [...out].sort((a, b) => a - b);
}

/** Replaces every `$ref` string in a JSON value (a deep copy; the input stays untouched). */
function mapRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapRefs(v, rewrite));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? rewrite(v) : mapRefs(v, rewrite)]),
  );
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Marks a ref until the final component names are known: `#/$defs/<io>/<id>`. */
const PENDING = /^#\/\$defs\/(input|output)\/(.+)$/;
const unmark = (ref: string) => ref.replace(PENDING, '#/$defs/$2');

/**
 * Converts zod schemas into JSON Schema 2020-12 (OpenAPI 3.1's dialect) and gathers every schema that has
 * a `.meta({ id })` into one components map. Request parts are converted as input (defaults make fields
 * optional), responses as output. When a named schema differs between the two, the input form is
 * published as `<id>Input`.
 */
class SchemaCollector {
  private readonly defs: Record<Io, Map<string, Json>> = { input: new Map(), output: new Map() };

  /** The schema, its named parts replaced by pending refs that {@link finish} resolves. */
  convert(schema: z.ZodType, io: Io): Json {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      // A refinement or transform never makes the wire shape unrepresentable; fall back to "any" for it.
      unrepresentable: 'any',
      override: ({ jsonSchema }) => {
        // zod bounds every int by the safe-integer range; that is noise to a reader and to client generators.
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      },
    }) as Json;
    const { $schema: _dialect, $defs, ...rest } = json;
    const mark = (ref: string) => {
      if (!ref.startsWith('#/$defs/')) throw new Error(`Unexpected $ref ${ref} in a generated schema`);
      return `#/$defs/${io}/${ref.slice('#/$defs/'.length)}`;
    };
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      const marked = mapRefs(def, mark) as Json;
      const known = this.defs[io].get(id);
      if (known && !sameJson(known, marked)) throw new Error(`Two different schemas share the id "${id}" (${io})`);
      this.defs[io].set(id, marked);
    }
    return mapRefs(rest, mark) as Json;
  }

  /**
   * Names the collected schemas, adds `extra` (hand-made components), and resolves every pending ref in
   * `document`. Returns the rewritten document and components/schemas.
   */
  finish<T>(document: T, extra: Record<string, Json>): { document: T; schemas: Record<string, Json> } {
    const names: Record<Io, Map<string, string>> = { input: new Map(), output: new Map() };
    for (const id of this.defs.output.keys()) names.output.set(id, id);
    for (const [id, def] of this.defs.input) {
      const out = this.defs.output.get(id);
      const differs = out !== undefined && !sameJson(mapRefs(out, unmark), mapRefs(def, unmark));
      names.input.set(id, differs ? `${id}Input` : id);
    }
    const resolve = (ref: string) => {
      const m = PENDING.exec(ref);
      if (!m) return ref;
      const name = names[m[1] as Io].get(m[2]!);
      if (name === undefined) throw new Error(`Unresolvable $ref ${ref}`);
      return `${REF_PREFIX}${name}`;
    };
    const schemas: Record<string, Json> = {};
    for (const io of ['output', 'input'] as const) {
      for (const [id, def] of this.defs[io]) schemas[names[io].get(id)!] = mapRefs(def, resolve) as Json;
    }
    for (const [name, def] of Object.entries(extra)) {
      if (schemas[name]) throw new Error(`The component name "${name}" is taken by a domain schema`);
      schemas[name] = mapRefs(def, resolve) as Json;
    }
    return {
      document: mapRefs(document, resolve) as T,
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    };
  }
}

function parameters(
  schema: z.ZodObject | undefined,
  where: 'path' | 'query',
  collector: SchemaCollector,
  examples: Readonly<Record<string, string>> = {},
): Json[] {
  if (!schema) return [];
  const required = new Set((collector.convert(schema, 'input').required as string[] | undefined) ?? []);
  return Object.entries(schema.shape).map(([name, field]) => {
    const fieldSchema = collector.convert(field as z.ZodType, 'input');
    const description = typeof fieldSchema.description === 'string' ? { description: fieldSchema.description } : {};
    const example = examples[name] !== undefined ? { example: examples[name] } : {};
    return { name, in: where, required: where === 'path' || required.has(name), ...description, schema: fieldSchema, ...example };
  });
}

/** The optional `Idempotency-Key` header of the call-starting routes (docs/calls.md). */
function idempotencyKeyHeader(collector: SchemaCollector): Json {
  return {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the same key with the same body within 24 hours gets the first answer and starts nothing; ' +
      'the same key with another body is 422 idempotency_key_reused. Use a new random value (e.g. a UUID) per call.',
    schema: collector.convert(IdempotencyKey, 'input'),
  };
}

function describeConventions(): string {
  const page = (z.toJSONSchema(PageQuery, { io: 'input' }) as { properties: Record<string, Json> }).properties;
  const { limit, page: pageNo } = page;
  return [
    'REST API of the voice-agent platform. Bodies are JSON; timestamps are ISO 8601 in UTC; identifiers are strings in `_id`.',
    '',
    '**Authentication.** Send the `x-api-key` header (the Authorize button). The key decides the workspace: a `workspaceId` in a query or body must be the key\'s own (otherwise 403), and it may be left out everywhere, ' +
      'create bodies included: it then means the key\'s workspace. The examples leave it out, so a try-out works as pasted once you have authorized.',
    '',
    '**Errors.** Every failure has the body `{"error": {"code": "snake_case_code", "message": "…", "details": [...]}}` and an `x-request-id` header. ' +
      'Statuses: 400 bad request or failed validation, 401 missing/unknown/revoked key, 403 another workspace, 404 unknown id ' +
      '(also another workspace\'s record), 405 a known path with another method (with an `Allow` header), 409 conflict, 413 body too large, ' +
      '415 an upload that is not multipart, 422 well-formed but unusable, 429 rate limited (with `Retry-After`, `RateLimit` and `RateLimit-Policy`), ' +
      '500 our fault (its details carry the request id). On AWS, API Gateway answers a method or path it has no route for with its own 404 `{"message":"Not Found"}`.',
    '',
    '**Success.** 201 for creates, 200 for reads and updates, 204 (no body) for deletes.',
    '',
    `**Pagination.** Lists of agents, contacts and history take \`page\` (default ${String(pageNo?.default)}, ${String(pageNo?.minimum)}..${String(pageNo?.maximum)}) and \`limit\` ` +
      `(default ${String(limit?.default)}, ${String(limit?.minimum)}..${String(limit?.maximum)}); the envelope is \`{data, total, page, limit}\` with \`total\` the number of matching records. Newest first.`,
    '',
    '**Strict bodies.** Request bodies reject unknown fields with 400 `validation_failed`; `details[].keys` names them. ' +
      `JSON bodies over ${MAX_JSON_BODY_BYTES} bytes are refused with 413.`,
    '',
    `**Secrets.** Tool header values come back masked as \`${MASK}\`; sending the mask back on update keeps the stored value.`,
  ].join('\n');
}

function responseContent(route: RouteSpec, collector: SchemaCollector, example: unknown): Json | undefined {
  if (route.status === 204) return undefined;
  const withExample = example === undefined ? {} : { example };
  const json = route.response ? { 'application/json': { schema: collector.convert(route.response, 'output'), ...withExample } } : undefined;
  // A page that also answers JSON to a client asking for it (the meeting join) names both.
  if (json && route.produces && route.produces !== 'application/json') return { ...json, [route.produces]: { schema: { type: 'string' } } };
  if (json) return json;
  if (route.produces === 'application/json') return { 'application/json': { schema: { type: 'object' } } };
  return { [route.produces ?? 'application/octet-stream']: { schema: { type: 'string' } } };
}

/** Routes that answer with the call-starting `Idempotency-Key` semantics. */
const IDEMPOTENT: ReadonlySet<OperationId> = new Set(['startPhoneCall', 'startCall']);

/**
 * Error statuses a page (text/html) answers with a page of its own rather than the JSON error body: the
 * meeting page says "link not found" or "already used" to a person, not to a client.
 */
function htmlError(route: RouteSpec, status: number): Json | undefined {
  if (route.produces !== 'text/html' || !(status in MEETING_PAGE_EXAMPLES)) return undefined;
  const text = MEETING_PAGE_EXAMPLES[status as keyof typeof MEETING_PAGE_EXAMPLES];
  const description = status === 404 ? 'No such meeting link (an HTML page).' : 'The link was already opened or has expired (an HTML page).';
  return { description, content: { 'text/html': { schema: { type: 'string' }, example: text } } };
}

function operation(operationId: OperationId, route: RouteSpec, collector: SchemaCollector): Json {
  const examples = OPERATION_EXAMPLES[operationId] ?? {};
  const content = responseContent(route, collector, examples.response);
  const responses: Json = {
    [String(route.status)]: { description: route.status === 204 ? 'Done; no body.' : route.summary, ...(content ? { content } : {}) },
  };
  for (const status of errorStatuses(route)) {
    const known = ERROR_STATUSES[status];
    responses[String(status)] =
      htmlError(route, status) ??
      (known
        ? { $ref: `#/components/responses/${known.name}` }
        : { description: `Error ${status}`, content: { 'application/json': { schema: { $ref: `${REF_PREFIX}Error` } } } });
  }
  const params = [
    ...parameters(route.params, 'path', collector, examples.params),
    ...parameters(route.query, 'query', collector, examples.params),
    ...(IDEMPOTENT.has(operationId) ? [idempotencyKeyHeader(collector)] : []),
  ];
  const jsonBody = route.body && route.bodyKind !== 'raw' && route.bodyKind !== 'none';
  const bodySchema = jsonBody ? collector.convert(route.body!, 'input') : undefined;
  return {
    operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(jsonBody
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: bodySchema, ...(examples.request === undefined ? {} : { example: examples.request }) } },
          },
        }
      : {}),
    // Raw bodies with a declared form (multipart uploads) are described by that form's schema.
    ...(!jsonBody && route.consumes && route.form
      ? { requestBody: { required: true, content: { [route.consumes]: { schema: collector.convert(route.form, 'input') } } } }
      : {}),
    responses,
    security: route.auth ? [{ [SECURITY_SCHEME]: [] }] : [],
  };
}

/**
 * Puts each operation's examples on the component its body or answer refers to (a list's on its item), so
 * the Schemas section shows realistic values too instead of ones made up from patterns.
 */
function componentExamples(schemas: Record<string, Json>): void {
  const put = (schema: unknown, example: unknown) => {
    const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
    if (typeof ref !== 'string' || example === undefined) return;
    const target = schemas[ref.slice(REF_PREFIX.length)];
    if (target && target.examples === undefined) target.examples = [example];
  };
  for (const [operationId, route] of Object.entries(ROUTES as Record<string, RouteSpec>)) {
    const examples = OPERATION_EXAMPLES[operationId as OperationId];
    if (!examples) continue;
    if (route.body && examples.request !== undefined) {
      // The request components are named after the schema's id, or `<id>Input` where input and output differ.
      const name = (route.body.meta() as { id?: string } | undefined)?.id;
      if (name) put({ $ref: `${REF_PREFIX}${schemas[`${name}Input`] ? `${name}Input` : name}` }, examples.request);
    }
    const response = examples.response as { data?: unknown[] } | undefined;
    if (!route.response || response === undefined) continue;
    const meta = (route.response.meta() as { id?: string } | undefined)?.id;
    if (meta) put({ $ref: `${REF_PREFIX}${meta}` }, response);
    else if (Array.isArray(response.data) && route.response instanceof z.ZodObject) {
      const items = (route.response.shape as Record<string, z.ZodType>).data;
      const itemId = items instanceof z.ZodArray ? ((items.element as z.ZodType).meta() as { id?: string } | undefined)?.id : undefined;
      if (itemId) put({ $ref: `${REF_PREFIX}${itemId}` }, response.data[0]);
    }
  }
}

/**
 * Builds the OpenAPI 3.1 document for every route in {@link ROUTES}. `baseUrl` becomes the server URL;
 * without it the server is `/`, which clients resolve against wherever they fetched the document.
 */
export function buildOpenApiDocument(baseUrl?: string): Json {
  const collector = new SchemaCollector();
  const paths: Record<string, Json> = {};
  const tags: string[] = [];
  for (const [operationId, route] of Object.entries(ROUTES as Record<string, RouteSpec>)) {
    const item = (paths[route.path] ??= {});
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`Two routes for ${route.method} ${route.path}`);
    item[method] = operation(operationId as OperationId, route, collector);
    if (!tags.includes(route.tag)) tags.push(route.tag);
  }
  const used = new Set(Object.values(ROUTES as Record<string, RouteSpec>).flatMap(errorStatuses));
  const responses = Object.fromEntries(
    Object.entries(ERROR_STATUSES)
      .filter(([status]) => used.has(Number(status)))
      .map(([status, { name, description, example }]) => [
        name,
        {
          description,
          ...(ERROR_HEADERS[Number(status)] ? { headers: ERROR_HEADERS[Number(status)] } : {}),
          content: {
            'application/json': { schema: { $ref: `${REF_PREFIX}Error` }, ...(example ? { example: errorExample(example) } : {}) },
          },
        },
      ]),
  );
  const { document, schemas } = collector.finish(paths, { Error: collector.convert(ErrorBody, 'output') });
  componentExamples(schemas);
  // A known path with another method: the local server answers this (API Gateway answers 404 instead).
  responses.MethodNotAllowed = {
    description: 'The path exists but not with this method (method_not_allowed); `Allow` lists the methods it takes. Local server only: API Gateway answers 404.',
    headers: { Allow: { description: 'The methods this path takes, e.g. `GET, POST`.', schema: { type: 'string' } } },
    content: {
      'application/json': {
        schema: { $ref: `${REF_PREFIX}Error` },
        example: { error: { code: 'method_not_allowed', message: 'PUT is not allowed here; use POST, GET.', details: [] } },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Voice Agent Platform API', version: '1.0.0', description: describeConventions() },
    servers: [{ url: baseUrl ?? '/' }],
    tags: tags.map((name) => ({ name })),
    paths: document,
    components: {
      schemas,
      responses,
      securitySchemes: { [SECURITY_SCHEME]: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
    },
  };
}
