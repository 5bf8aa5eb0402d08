import * as z from 'zod';
import { PageQuery } from '../domain/common.js';
import { IdempotencyKey } from '../domain/call.js';
import { MASK } from '../domain/tool.js';
import { ROUTES, type OperationId, type RouteSpec } from '../infra/routes.js';
import { MAX_JSON_BODY_BYTES } from './json.js';
import { MEETING_PAGE_EXAMPLES, OPERATION_EXAMPLES, TOOL_CREATE_EXAMPLES } from './openapi-examples/index.js';
import { ERROR_STATUSES, ErrorBody, errorExample, errorHeaders, errorStatuses, HEADERS, RATE_LIMIT_HEADERS, REQUEST_ID_HEADER } from './openapi-errors.js';
import { REF_PREFIX, SchemaCollector } from './openapi-schemas.js';

export { errorStatuses };

/**
 * The OpenAPI 3.1 document of this API, generated from the route table and its zod schemas, so the
 * reference page can never describe an API other than the one the handlers validate against.
 */

type Json = Record<string, unknown>;

const SECURITY_SCHEME = 'ApiKey';


function parameters(
  schema: z.ZodObject | undefined,
  where: 'path' | 'query',
  collector: SchemaCollector,
  examples: Readonly<Record<string, string>> = {},
): Json[] {
  if (!schema) return [];
  const required = new Set((collector.convert(schema, 'input', { keepDefaults: true }).required as string[] | undefined) ?? []);
  return Object.entries(schema.shape).map(([name, field]) => {
    const fieldSchema = collector.convert(field as z.ZodType, 'input', { keepDefaults: true });
    const description = typeof fieldSchema.description === 'string' ? { description: fieldSchema.description } : {};
    const example = examples[name] !== undefined ? { example: examples[name] } : {};
    return { name, in: where, required: where === 'path' || required.has(name), ...description, schema: fieldSchema, ...example };
  });
}

/** The optional `Idempotency-Key` header of the call-starting routes (docs/calls.md). */
function idempotencyKeyHeader(collector: SchemaCollector, live = false): Json {
  if (live)
    return {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: the same key with the same body for the same call, while it runs, answers as the first time (replayed: true) and does nothing again; ' +
        'the same key with another body is 422 idempotency_key_reused (docs/live-calls.md).',
      schema: collector.convert(IdempotencyKey, 'input', { keepDefaults: true }),
    };
  return {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the same key with the same body within 24 hours gets the first answer and starts nothing; ' +
      'the same key with another body is 422 idempotency_key_reused. Use a new random value (e.g. a UUID) per call.',
    schema: collector.convert(IdempotencyKey, 'input', { keepDefaults: true }),
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
/** Live call commands: an Idempotency-Key is remembered by the call's task for as long as the call runs. */
const LIVE_IDEMPOTENT: ReadonlySet<OperationId> = new Set(['endCall', 'sayOnCall', 'addCallContext', 'transferCall']);

/**
 * Error statuses a page (text/html) answers with a page of its own rather than the JSON error body: the
 * meeting page says "link not found" or "already used" to a person, not to a client.
 */
function htmlError(route: RouteSpec, status: number): Json | undefined {
  if (route.produces !== 'text/html' || !(status in MEETING_PAGE_EXAMPLES)) return undefined;
  const text = MEETING_PAGE_EXAMPLES[status as keyof typeof MEETING_PAGE_EXAMPLES];
  const html = { 'text/html': { schema: { type: 'string' }, example: text } };
  // A page that also answers JSON (the meeting join, with Accept: application/json) refuses in JSON too.
  if (route.response) {
    const [code, message] = status === 404 ? ['not_found', 'Meeting link was not found.'] : ['link_used', 'This meeting link has already been used. Ask for a new link.'];
    const description = status === 404 ? 'No such meeting link: a page, or the JSON error body (not_found) to a client asking for JSON.' : 'The link was already opened (link_used) or has expired (link_expired): a page, or the JSON error body to a client asking for JSON.';
    return { description, content: { ...html, 'application/json': { schema: { $ref: `${REF_PREFIX}Error` }, example: { error: { code, message, details: [] } } } } };
  }
  const description = status === 404 ? 'No such meeting link (an HTML page).' : 'The link was already opened or has expired (an HTML page).';
  return { description, content: html };
}

/** What a success answer carries: the request id on JSON answers, the RateLimit fields where requests are counted. */
function successHeaders(route: RouteSpec): Json | undefined {
  const headers = { ...(route.produces ? {} : REQUEST_ID_HEADER), ...(route.auth || route.ipLimit ? RATE_LIMIT_HEADERS : {}) };
  return Object.keys(headers).length > 0 ? headers : undefined;
}

function operation(operationId: OperationId, route: RouteSpec, collector: SchemaCollector): Json {
  const examples = OPERATION_EXAMPLES[operationId] ?? {};
  const content = responseContent(route, collector, examples.response);
  const responses: Json = {
    [String(route.status)]: {
      description: route.status === 204 ? 'Done; no body.' : route.summary,
      ...(successHeaders(route) ? { headers: successHeaders(route) } : {}),
      ...(content ? { content } : {}),
    },
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
    ...(LIVE_IDEMPOTENT.has(operationId) ? [idempotencyKeyHeader(collector, true)] : []),
  ];
  const jsonBody = route.body && route.bodyKind !== 'raw' && route.bodyKind !== 'none';
  const bodySchema = jsonBody ? collector.convert(route.documentedBody ?? route.body!, 'input') : undefined;
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
  // The tool create's members, one per type.
  const mapping = (schemas.ToolCreate?.discriminator as { mapping?: Record<string, string> } | undefined)?.mapping ?? {};
  for (const [type, ref] of Object.entries(mapping)) put({ $ref: ref }, TOOL_CREATE_EXAMPLES[type as keyof typeof TOOL_CREATE_EXAMPLES]);
  for (const [operationId, route] of Object.entries(ROUTES as Record<string, RouteSpec>)) {
    const examples = OPERATION_EXAMPLES[operationId as OperationId];
    if (!examples) continue;
    if (route.body && examples.request !== undefined) {
      // The request components are named after the schema's id, or `<id>Input` where input and output differ.
      const name = ((route.documentedBody ?? route.body).meta() as { id?: string } | undefined)?.id;
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
          headers: errorHeaders(Number(status)),
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
      headers: HEADERS,
      securitySchemes: { [SECURITY_SCHEME]: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
    },
  };
}
