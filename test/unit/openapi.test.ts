/**
 * Invariant: the OpenAPI document describes every route of the route table, exactly once, with the request
 * and response schemas the handlers validate against, and it is structurally sound OpenAPI 3.1: every
 * $ref resolves, path templates match their parameters, and auth, error and no-content responses are stated.
 * Its examples are realistic and valid: every request example parses with its route's body schema, every
 * answer example with its response schema, ids carry their entity's prefix, timestamps are ISO 8601 UTC and
 * phone numbers E.164.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { isPossiblePhoneNumber } from 'libphonenumber-js';
import { loadConfig } from '../../lib/config.js';
import { reservationFor } from '../../lib/domain/call.js';
import { ID_PREFIX } from '../../lib/domain/ids.js';
import { buildOpenApiDocument, errorStatuses } from '../../lib/http/openapi.js';
import { MEETING_PAGE_EXAMPLES, OPERATION_EXAMPLES } from '../../lib/http/openapi-examples/index.js';
import { ROUTES, type OperationId, type RouteSpec } from '../../lib/infra/routes.js';

const doc = buildOpenApiDocument() as any;
const routes = Object.entries(ROUTES as Record<string, RouteSpec>);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Follows a local JSON pointer (RFC 6901) inside the document; undefined when it leads nowhere. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function collectRefs(node: unknown, at = '#', out: { at: string; ref: string }[] = []) {
  if (Array.isArray(node)) node.forEach((v, i) => collectRefs(v, `${at}/${i}`, out));
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push({ at, ref: v });
      else collectRefs(v, `${at}/${k}`, out);
    }
  }
  return out;
}

/** The object a schema or response stands for, following $refs. */
const deref = (node: any): any => (node?.$ref ? deref(resolvePointer(doc, node.$ref)) : node);

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).filter(([m]) => METHODS.includes(m)).map(([method, op]) => ({ path, method, op })),
  );

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1.0 with info, a server and the x-api-key scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(buildOpenApiDocument('https://api.example.com').servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
  });

  it('has one operation per route, at its path and method, and no other', () => {
    const ops = operations();
    expect(ops.map((o) => o.op.operationId).sort()).toEqual(routes.map(([id]) => id).sort());
    for (const [id, route] of routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op?.operationId, id).toBe(id);
      expect(op.summary).toBe(route.summary);
      expect(op.tags).toEqual([route.tag]);
    }
    expect(doc.tags.map((t: { name: string }) => t.name).sort()).toEqual([...new Set(routes.map(([, r]) => r.tag))].sort());
  });

  it('resolves every $ref inside the document', () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(20);
    const broken = refs.filter(({ ref }) => resolvePointer(doc, ref) === undefined);
    expect(broken).toEqual([]);
  });

  it('publishes every named zod schema the routes use as a component', () => {
    const ids = new Set<string>();
    const visit = (schema: z.ZodType | undefined) => {
      if (!schema) return;
      const json = z.toJSONSchema(schema, { unrepresentable: 'any' }) as { $defs?: Record<string, unknown> };
      for (const id of Object.keys(json.$defs ?? {})) ids.add(id);
    };
    for (const [, r] of routes) [r.body, r.response].forEach(visit);
    expect(ids.size).toBeGreaterThan(5);
    for (const id of ids) expect(doc.components.schemas[id] ?? doc.components.schemas[`${id}Input`], id).toBeDefined();
    expect(doc.paths['/api/agents'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AgentCreate' });
    expect(doc.paths['/api/agents/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Agent' });
  });

  it('documents request bodies as the handlers read them: defaults optional, unknown fields refused', () => {
    const create = doc.components.schemas.AgentCreate;
    expect(create.additionalProperties).toBe(false);
    expect(create.required).toContain('name');
    expect(create.required).not.toContain('system_prompt');
    expect(create.properties.llm_provider.enum).toEqual(['openai', 'anthropic', 'google', 'custom']);
    const list = doc.paths['/api/agents'].get.parameters;
    const limit = list.find((p: { name: string }) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } });
  });

  it('gives every path template parameter a required path parameter, and no stray ones', () => {
    for (const { path, op } of operations()) {
      const template = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path');
      expect(declared.map((p: any) => p.name).sort(), `${op.operationId}`).toEqual(template);
      for (const p of declared) expect(p.required).toBe(true);
      const keys = (op.parameters ?? []).map((p: any) => `${p.in}:${p.name}`);
      expect(new Set(keys).size, `${op.operationId} duplicate parameters`).toBe(keys.length);
    }
  });

  it('states the success status, no content for 204, and the error responses with the shared Error schema', () => {
    for (const [id, route] of routes) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      const success = op.responses[String(route.status)];
      expect(success, id).toBeDefined();
      if (route.status === 204) expect(success.content, id).toBeUndefined();
      else expect(Object.keys(success.content ?? {}).length, id).toBeGreaterThan(0);
      const errors = Object.keys(op.responses).filter((s) => Number(s) >= 400).map(Number).sort((a, b) => a - b);
      expect(errors, id).toEqual(errorStatuses(route));
      for (const status of errors) {
        const response = deref(op.responses[String(status)]);
        expect(response.description, `${id} ${status}`).toBeTruthy();
        // A page answers a person with a page; every other error is the JSON error body.
        if (route.produces === 'text/html' && (status === 404 || status === 410)) {
          // ...and one that also answers JSON (the meeting join) refuses a JSON client with the error body.
          expect(Object.keys(response.content), `${id} ${status}`).toEqual(route.response ? ['text/html', 'application/json'] : ['text/html']);
          if (route.response) expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
        } else expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
      if (route.auth) {
        expect(op.security, id).toEqual([{ ApiKey: [] }]);
        expect(errors, id).toEqual(expect.arrayContaining([401, 403, 429]));
      } else {
        expect(op.security, id).toEqual([]);
        expect(errors, id).not.toContain(401);
      }
      if (route.params) expect(errors, id).toContain(404);
      if (route.body) expect(errors, id).toEqual(expect.arrayContaining([400, 413]));
      for (const status of route.errors ?? []) expect(errors, id).toContain(status);
    }
    for (const [name, response] of Object.entries(doc.components.responses as Record<string, any>)) {
      const example = response.content['application/json'].example;
      if (example) expect(Object.keys(example.error).sort(), name).toEqual(['code', 'details', 'message']);
    }
    expect(doc.components.schemas.Error.required).toEqual(['error']);
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message', 'details']);
  });

  it('documents the conventions with the limits the code enforces', () => {
    const text: string = doc.info.description;
    expect(text).toContain('x-api-key');
    expect(text).toContain('"error"');
    expect(text).toMatch(/`limit` \(default 10, 1\.\.100\)/);
    expect(text).toContain('********');
    expect(text).toMatch(/unknown fields/);
  });

  it('contains only plain JSON (no undefined, functions or zod internals) and is stable', () => {
    const text = JSON.stringify(doc);
    expect(JSON.parse(text)).toEqual(doc);
    expect(text).not.toContain('~standard');
    expect(text).not.toContain('$defs');
    expect(text).not.toContain('"$schema"');
    expect(JSON.stringify(buildOpenApiDocument())).toBe(text);
  });
});

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
/** The id prefix of each field that names a record, and of `_id` per tag. */
const ID_FIELDS: Record<string, string> = {
  workspaceId: ID_PREFIX.workspace,
  workspace_id: ID_PREFIX.workspace,
  assistantId: ID_PREFIX.agent,
  agentId: ID_PREFIX.agent,
  phoneNumberId: ID_PREFIX.phoneNumber,
  call_id: ID_PREFIX.call,
  callId: ID_PREFIX.call,
  endpointId: ID_PREFIX.webhookEndpoint,
  eventId: ID_PREFIX.event,
  deliveryId: ID_PREFIX.delivery,
  knowledgeBaseId: ID_PREFIX.knowledgeBase,
  documentId: ID_PREFIX.knowledgeDocument,
  chunkId: ID_PREFIX.knowledgeChunk,
};
const ID_OF_TAG: Record<string, string> = {
  Agents: ID_PREFIX.agent,
  Tools: ID_PREFIX.tool,
  Contacts: ID_PREFIX.contact,
  History: ID_PREFIX.call,
  'Agent tests': ID_PREFIX.agentTest,
  'Test runs': ID_PREFIX.agentTestRun,
  // Numbers, and the inbound webhook answers listed under a number.
  'Phone numbers': `(?:${ID_PREFIX.phoneNumber}|${ID_PREFIX.delivery})`,
  Calls: ID_PREFIX.call,
  // Endpoints, and the deliveries listed under an endpoint.
  Events: `(?:${ID_PREFIX.webhookEndpoint}|${ID_PREFIX.delivery})`,
  // The dashboard's one path id is an API key's.
  Dashboard: ID_PREFIX.apiKey,
  Campaigns: ID_PREFIX.campaign,
  // Bases, and the documents listed under a base.
  Knowledge: `(?:${ID_PREFIX.knowledgeBase}|${ID_PREFIX.knowledgeDocument})`,
};
/** Counts that are truly 0 in a realistic answer (a new campaign has made no call yet). */
const COUNT_FIELDS = new Set(['callCost', 'cost', 'passed', 'inFlight', 'pending', 'finished', 'skipped', 'answered', 'voicemail', 'busy', 'no_answer', 'failed']);
const PHONE_FIELDS = new Set(['phoneNumber', 'number', 'mobileNumber']);
const TIME_FIELDS = new Set(['createdAt', 'updatedAt', 'expiresAt']);

/** Every (key, value) pair in a JSON value, at any depth. */
function entries(value: unknown, out: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(value)) value.forEach((v) => entries(v, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([k, v]);
      entries(v, out);
    }
  }
  return out;
}

/** Why an example value is not realistic, or undefined. */
function unrealistic(tag: string, key: string, value: unknown): string | undefined {
  // A parameter's JSON-Schema `type` may truly be "string"; anywhere else it is a generator's filler.
  if ((value === 'string' && key !== 'type') || value === 0 && !COUNT_FIELDS.has(key)) return `${key} is a placeholder (${String(value)})`;
  if (typeof value !== 'string') return undefined;
  const prefix = key === '_id' ? ID_OF_TAG[tag] : ID_FIELDS[key];
  if (prefix && !new RegExp(`^${prefix}_${ULID}$`).test(value)) return `${key} ${value} is not a ${prefix}_ id`;
  if (PHONE_FIELDS.has(key) && !(/^\+[1-9]\d{7,14}$/.test(value) && isPossiblePhoneNumber(value))) return `${key} ${value} is not E.164`;
  if (TIME_FIELDS.has(key)) {
    const year = Number(value.slice(0, 4));
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/.test(value) || Number.isNaN(Date.parse(value)) || year < 2024 || year > 2030) {
      return `${key} ${value} is not a recent ISO 8601 UTC time`;
    }
  }
  return undefined;
}

const jsonBodyRoutes = routes.filter(([, r]) => r.body && r.bodyKind !== 'raw' && r.bodyKind !== 'none');

describe('OpenAPI examples', () => {
  it('every JSON request body has an example that its route\'s body schema accepts as is', () => {
    expect(jsonBodyRoutes.length).toBeGreaterThan(10);
    for (const [id, route] of jsonBodyRoutes) {
      const example = OPERATION_EXAMPLES[id as OperationId]?.request;
      expect(example, `${id}: add its request example to its domain's module in lib/http/openapi-examples/`).toBeDefined();
      const parsed = route.body!.safeParse(example);
      expect(parsed.error?.issues ?? [], id).toEqual([]);
      // Nothing dropped or rewritten: what the try-out sends is what the handler gets (plus defaults).
      expect(parsed.data, id).toMatchObject(JSON.parse(JSON.stringify(example)));
      const op = doc.paths[route.path][route.method.toLowerCase()];
      expect(op.requestBody.content['application/json'].example, id).toEqual(example);
    }
  });

  it('every JSON answer has an example that its response schema returns unchanged', () => {
    for (const [id, route] of routes) {
      if (!route.response || route.status === 204) continue;
      const example = OPERATION_EXAMPLES[id as OperationId]?.response;
      expect(example, `${id}: add its answer example to its domain's module in lib/http/openapi-examples/`).toBeDefined();
      const parsed = route.response.safeParse(example);
      expect(parsed.error?.issues ?? [], id).toEqual([]);
      expect(parsed.data, id).toEqual(example);
      const op = doc.paths[route.path][route.method.toLowerCase()];
      expect(op.responses[String(route.status)].content['application/json'].example, id).toEqual(example);
    }
  });

  it('every path parameter has an example of the right kind, and each parameter example is valid for its schema', () => {
    for (const [id, route] of routes) {
      const params = OPERATION_EXAMPLES[id as OperationId]?.params ?? {};
      for (const name of Object.keys(route.params?.shape ?? {})) {
        // Static asset routes name a file, not a record: their example (if any) is a file name. Provider-key
        // routes name a vendor; the loop below checks it against its enum.
        if (name === 'file' || name === 'provider') continue;
        // The do-not-call routes name a number, not a record.
        if (name === 'number') {
          expect(params[name], `${id} ${name}`).toMatch(/^\+[1-9]\d{7,14}$/);
          continue;
        }
        // An agent's version routes name a version number.
        if (name === 'version') {
          expect(params[name], `${id} ${name}`).toMatch(/^[1-9]\d*$/);
          continue;
        }
        expect(params[name], `${id} ${name}`).toBeDefined();
        const prefix = name === 'callId' ? ID_PREFIX.call : ID_OF_TAG[route.tag];
        expect(params[name], `${id} ${name}`).toMatch(new RegExp(`^${prefix}_${ULID}$`));
      }
      for (const [name, value] of Object.entries(params)) {
        const schema = (route.params?.shape as Record<string, z.ZodType> | undefined)?.[name] ?? (route.query?.shape as Record<string, z.ZodType> | undefined)?.[name];
        expect(schema, `${id} ${name} is not a parameter`).toBeDefined();
        expect(schema!.safeParse(value).success, `${id} ${name}=${value}`).toBe(true);
      }
      // Optional query filters get no example: a pre-filled filter would narrow the try-out's answer, and
      // a pre-filled workspaceId would be someone else's (403).
      const op = doc.paths[route.path][route.method.toLowerCase()];
      const workspaceParam = (op.parameters ?? []).find((p: any) => p.name === 'workspaceId');
      if (workspaceParam) expect(workspaceParam.example, id).toBeUndefined();
    }
  });

  it('uses realistic values: prefixed ids, E.164 numbers, recent UTC timestamps, no placeholders', () => {
    const problems: string[] = [];
    for (const [id, route] of routes) {
      const ex = OPERATION_EXAMPLES[id as OperationId];
      if (!ex) continue;
      for (const part of [ex.request, ex.response, ex.params]) {
        for (const [key, value] of entries(part)) {
          const why = unrealistic(route.tag, key, value);
          if (why) problems.push(`${id}: ${why}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Nothing in the document's examples is a generator's placeholder.
    const shown: unknown[] = [];
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) (k === 'example' || k === 'examples' ? shown.push(v) : collect(v));
      }
    };
    collect(doc);
    expect(shown.length).toBeGreaterThan(50);
    const placeholders = shown.flatMap((v) => entries({ v })).filter(([k, v]) => (v === 'string' && k !== 'type') || v === 'ZL' || v === 'user@example.com');
    expect(placeholders).toEqual([]);
  });

  it('leaves workspaceId out of every request example: it is optional and means the key\'s workspace', () => {
    for (const [id, route] of jsonBodyRoutes) {
      // An optional body (POST /auth/refresh) has its object inside.
      const body = route.body instanceof z.ZodOptional ? route.body.unwrap() : route.body;
      const shape = (body as z.ZodObject).shape as Record<string, z.ZodType>;
      const example = OPERATION_EXAMPLES[id as OperationId]!.request as Record<string, unknown>;
      expect(example.workspaceId, id).toBeUndefined();
      if (shape.workspaceId) expect(shape.workspaceId.safeParse(undefined).success, id).toBe(true);
    }
    expect(doc.info.description).toMatch(/may be left out everywhere/);
  });

  it('puts each example on its component too, so the schema view shows no pattern-made values', () => {
    const without = Object.entries(doc.components.schemas as Record<string, any>).filter(([, s]) => s.examples === undefined).map(([n]) => n);
    expect(without.sort()).toEqual(['ContactImportForm', 'ContactImportRowError', 'Error', 'KnowledgeUploadForm']);
    // The tool create's members each show a body of their own type.
    for (const type of ['http', 'integration', 'transfer', 'mcp']) {
      const member = deref({ $ref: doc.components.schemas.ToolCreate.discriminator.mapping[type] });
      expect(member.examples[0].type, type).toBe(type);
    }
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, any>)) {
      if (schema.examples) expect(Array.isArray(schema.examples) && schema.examples.length, name).toBe(1);
    }
  });

  it('shows a 402 that asks for what a call really reserves, and 429 with its rate-limit headers on every authenticated route', () => {
    const config = loadConfig({});
    const reservation = reservationFor({ creditsPerMinute: config.CALL_CREDITS_PER_MINUTE, maxDurationSeconds: config.CALL_MAX_DURATION_SECONDS });
    expect(reservation).toBeGreaterThan(1);
    const paymentRequired = doc.components.responses.PaymentRequired.content['application/json'].example;
    expect(paymentRequired.error).toMatchObject({ code: 'insufficient_credits', details: { required: reservation } });
    expect(paymentRequired.error.details.available).toBeLessThan(reservation);
    const limited = doc.components.responses.TooManyRequests;
    expect(Object.keys(limited.headers).sort()).toEqual(['RateLimit', 'RateLimit-Policy', 'Retry-After', 'x-request-id']);
    expect(limited.content['application/json'].example.error.code).toBe('rate_limited');
    for (const [id, route] of routes) {
      if (!route.auth) continue;
      expect(doc.paths[route.path][route.method.toLowerCase()].responses['429'], id).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    }
    const notAllowed = doc.components.responses.MethodNotAllowed;
    expect(notAllowed.headers.Allow).toBeDefined();
    expect(doc.info.description).toMatch(/405 a known path with another method \(with an `Allow` header\)/);
  });

  it('marks every /auth route as the dashboard page\'s own: 403 csrf_refused and 415 for a body that is not JSON', () => {
    const authRoutes = routes.filter(([, route]) => route.path.startsWith('/auth/'));
    expect(authRoutes.map(([id]) => id).sort()).toEqual(['acceptInvitation', 'confirmSignUp', 'forgotPassword', 'refreshSession', 'resendConfirmationCode', 'resetPassword', 'signIn', 'signOut', 'signUp']);
    for (const [id, route] of authRoutes) {
      expect(route.csrf, id).toBe(true);
      expect(Object.keys(doc.paths[route.path].post.responses), id).toEqual(expect.arrayContaining(['403', '415']));
    }
    expect(doc.components.responses.Forbidden.description).toContain('csrf_refused');
    expect(doc.components.responses.UnsupportedMediaType.description).toContain('application/json');
  });

  it('declares Idempotency-Key on the call routes, their 404, and the meeting page\'s HTML 404 and 410', () => {
    for (const id of ['startPhoneCall', 'startCall'] as const) {
      const route = ROUTES[id];
      const op = doc.paths[route.path].post;
      const header = op.parameters.find((p: any) => p.in === 'header');
      expect(header, id).toMatchObject({ name: 'Idempotency-Key', required: false });
      expect(header.example, id).toBeUndefined();
      expect(Object.keys(op.responses), id).toEqual(expect.arrayContaining(['402', '404', '422', '429']));
    }
    expect(Object.keys(doc.paths['/api/optimus/meeting-link'].post.responses)).toEqual(expect.arrayContaining(['402', '404']));
    const meeting = doc.paths['/meeting/{callId}'].get.responses;
    expect(meeting['404'].content['text/html'].example).toBe(MEETING_PAGE_EXAMPLES[404]);
    expect(meeting['410'].content['text/html'].example).toBe(MEETING_PAGE_EXAMPLES[410]);
  });
});
