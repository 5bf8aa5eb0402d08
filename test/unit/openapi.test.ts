/**
 * Invariant: the OpenAPI document describes every route of the route table, exactly once, with the request
 * and response schemas the handlers validate against, and it is structurally sound OpenAPI 3.1: every
 * $ref resolves, path templates match their parameters, and auth, error and no-content responses are stated.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildOpenApiDocument, errorStatuses } from '../../lib/http/openapi.js';
import { ROUTES, type RouteSpec } from '../../lib/infra/routes.js';

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
    expect(create.properties.llm_provider.enum).toEqual(['openai', 'anthropic', 'google']);
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
        expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
      if (route.auth) {
        expect(op.security, id).toEqual([{ ApiKey: [] }]);
        expect(errors, id).toEqual(expect.arrayContaining([401, 403]));
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
