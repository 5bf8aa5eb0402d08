import * as z from 'zod';
import { PageQuery } from '../domain/common.js';
import {
  AppError,
  ConflictError,
  ForbiddenError,
  InsufficientCreditsError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  ValidationError,
} from '../domain/errors.js';
import { MASK } from '../domain/tool.js';
import { ROUTES, type RouteSpec } from '../infra/routes.js';
import { MAX_JSON_BODY_BYTES } from './json.js';

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
  402: { name: 'PaymentRequired', description: 'The workspace has insufficient credits (insufficient_credits).', example: new InsufficientCreditsError(1, 0) },
  403: { name: 'Forbidden', description: 'A workspaceId in the query or body is not the API key\'s workspace (forbidden).', example: new ForbiddenError() },
  404: {
    name: 'NotFound',
    description: 'No such record in this workspace (not_found); records of other workspaces are reported the same way.',
    example: new NotFoundError('Agent'),
  },
  409: {
    name: 'Conflict',
    description: 'The change conflicts with existing data, e.g. a phone number already in use.',
    example: new ConflictError('phone_number_taken', 'A contact with phone number +14155552671 already exists.', [
      { field: 'phoneNumber', message: 'already used by another contact in this workspace' },
    ]),
  },
  410: { name: 'Gone', description: 'The resource was used up, e.g. a meeting link already opened.' },
  413: {
    name: 'PayloadTooLarge',
    description: `The body exceeds its limit (payload_too_large): ${MAX_JSON_BODY_BYTES} bytes for JSON.`,
    example: new PayloadTooLargeError(MAX_JSON_BODY_BYTES),
  },
  429: { name: 'TooManyRequests', description: 'Rate limited; retry later.' },
};

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
  }
  if (route.params) out.add(404);
  if (readsBody) out.add(413);
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

function parameters(schema: z.ZodObject | undefined, where: 'path' | 'query', collector: SchemaCollector): Json[] {
  if (!schema) return [];
  const required = new Set((collector.convert(schema, 'input').required as string[] | undefined) ?? []);
  return Object.entries(schema.shape).map(([name, field]) => {
    const fieldSchema = collector.convert(field as z.ZodType, 'input');
    const description = typeof fieldSchema.description === 'string' ? { description: fieldSchema.description } : {};
    return { name, in: where, required: where === 'path' || required.has(name), ...description, schema: fieldSchema };
  });
}

function describeConventions(): string {
  const page = (z.toJSONSchema(PageQuery, { io: 'input' }) as { properties: Record<string, Json> }).properties;
  const { limit, page: pageNo } = page;
  return [
    'REST API of the voice-agent platform. Bodies are JSON; timestamps are ISO 8601 in UTC; identifiers are strings in `_id`.',
    '',
    '**Authentication.** Send the `x-api-key` header. The key decides the workspace: a `workspaceId` in a query or body must be the key\'s own (otherwise 403); list queries may omit it.',
    '',
    '**Errors.** Every failure has the body `{"error": {"code": "snake_case_code", "message": "…", "details": [...]}}` and an `x-request-id` header. ' +
      'Statuses: 400 bad request or failed validation, 401 missing/unknown/revoked key, 403 another workspace, 404 unknown id ' +
      '(also another workspace\'s record), 409 conflict, 413 body too large, 500 our fault (its details carry the request id).',
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

function responseContent(route: RouteSpec, collector: SchemaCollector): Json | undefined {
  if (route.status === 204) return undefined;
  if (route.response) return { 'application/json': { schema: collector.convert(route.response, 'output') } };
  if (route.produces === 'application/json') return { 'application/json': { schema: { type: 'object' } } };
  return { [route.produces ?? 'application/octet-stream']: { schema: { type: 'string' } } };
}

function operation(operationId: string, route: RouteSpec, collector: SchemaCollector): Json {
  const content = responseContent(route, collector);
  const responses: Json = {
    [String(route.status)]: { description: route.status === 204 ? 'Done; no body.' : route.summary, ...(content ? { content } : {}) },
  };
  for (const status of errorStatuses(route)) {
    const known = ERROR_STATUSES[status];
    responses[String(status)] = known
      ? { $ref: `#/components/responses/${known.name}` }
      : { description: `Error ${status}`, content: { 'application/json': { schema: { $ref: `${REF_PREFIX}Error` } } } };
  }
  const params = [...parameters(route.params, 'path', collector), ...parameters(route.query, 'query', collector)];
  const jsonBody = route.body && route.bodyKind !== 'raw' && route.bodyKind !== 'none';
  return {
    operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(jsonBody ? { requestBody: { required: true, content: { 'application/json': { schema: collector.convert(route.body!, 'input') } } } } : {}),
    // Raw bodies with a declared form (multipart uploads) are described by that form's schema.
    ...(!jsonBody && route.consumes && route.form
      ? { requestBody: { required: true, content: { [route.consumes]: { schema: collector.convert(route.form, 'input') } } } }
      : {}),
    responses,
    security: route.auth ? [{ [SECURITY_SCHEME]: [] }] : [],
  };
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
    item[method] = operation(operationId, route, collector);
    if (!tags.includes(route.tag)) tags.push(route.tag);
  }
  const used = new Set(Object.values(ROUTES as Record<string, RouteSpec>).flatMap(errorStatuses));
  const responses = Object.fromEntries(
    Object.entries(ERROR_STATUSES)
      .filter(([status]) => used.has(Number(status)))
      .map(([, { name, description, example }]) => [
        name,
        {
          description,
          content: {
            'application/json': { schema: { $ref: `${REF_PREFIX}Error` }, ...(example ? { example: errorExample(example) } : {}) },
          },
        },
      ]),
  );
  const { document, schemas } = collector.finish(paths, { Error: collector.convert(ErrorBody, 'output') });
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
