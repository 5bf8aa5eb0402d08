import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { buildSdkSchema, SDK_BANNER, SDK_SCHEMA_DIR, SDK_SRC } from '../../sdk/build.js';
import { ToolCreate, ToolCreateByType } from '../../lib/domain/tool.js';
import { assertToolIsCoherent } from '../../lib/domain/tool-coherence.js';
import { buildOpenApiDocument } from '../../lib/http/openapi.js';
import { TOOL_CREATE_EXAMPLES } from '../../lib/http/openapi-examples/index.js';

/**
 * The typed client (sdk/, docs/sdk.md): its generated types are those of the OpenAPI document as it is now,
 * and a program written against them as a user would write it compiles under `tsc --strict` with no cast,
 * so a document that regresses (a default forced required, an upload typed string, a code or an end reason
 * a bare string) fails here.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SAMPLE = join(ROOT, 'sdk', 'sample', 'quickstart.ts');

describe('the typed client', () => {
  it('is current: `npm run build:sdk` writes what is committed', async () => {
    const built = await buildSdkSchema();
    const committed = readdirSync(join(SDK_SRC, SDK_SCHEMA_DIR), { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => relative(SDK_SRC, join(f.parentPath, f.name)));
    expect([...built.keys()].sort(), 'a generated file is missing or left over: run `npm run build:sdk`').toEqual(['schema.ts', ...committed].sort());
    for (const [name, text] of built) {
      expect(text.startsWith(`${SDK_BANNER}\n`)).toBe(true);
      expect(readFileSync(join(SDK_SRC, name), 'utf8') === text, `sdk/src/${name} is stale: run \`npm run build:sdk\``).toBe(true);
    }
  });

  it('cuts the types along the document: a file per route and per schema, none of them long', async () => {
    const built = await buildSdkSchema();
    const document = buildOpenApiDocument() as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    const routes = [...built.keys()].filter((name) => name.startsWith(`${SDK_SCHEMA_DIR}/routes/`));
    const schemas = [...built.keys()].filter((name) => name.startsWith(`${SDK_SCHEMA_DIR}/schemas/`));
    expect(routes.length).toBe(Object.keys(document.paths).length);
    expect(schemas.map((name) => name.slice(`${SDK_SCHEMA_DIR}/schemas/`.length, -3)).sort()).toEqual(Object.keys(document.components.schemas).sort());
    for (const [name, text] of built) expect(text.split('\n').length, name).toBeLessThan(450);
    expect(built.get(`${SDK_SCHEMA_DIR}/routes/agents.ts`)).toContain('"/api/agents": {');
    expect(built.get(`${SDK_SCHEMA_DIR}/routes/agents.ts`)).not.toContain('"/api/agents/{id}": {');
    // No schema file imports another: each refers to the others through its `S`.
    for (const name of schemas) expect(built.get(name)).not.toMatch(/^import /m);
  });

  it('types uploads as Blob, request defaults as optional, codes and end reasons as their values', () => {
    const component = (name: string) => readFileSync(join(SDK_SRC, SDK_SCHEMA_DIR, 'schemas', `${name}.ts`), 'utf8');
    expect(component('ContactImportForm')).toMatch(/\n\s+file: Blob;/);
    expect(component('AgentCreate')).toMatch(/\n\s+system_prompt\?: string;/);
    expect(component('CampaignCreate')).toMatch(/\n\s+concurrency\?: number;/);
    expect(component('Error')).toMatch(/code: "bad_request" \| "validation_failed"/);
    expect(component('HistoryListItem')).toMatch(/callEndReason: "customer_hangup" \|/);
    expect(component('ToolCreate')).toMatch(/\nexport type ToolCreate<S extends [^\n]*> = S\["HttpToolCreate"\] \| S\["IntegrationToolCreate"\] \| S\["TransferToolCreate"\]/);
  });

  it('compiles the sample program under tsc --strict, and the sample has no cast', async () => {
    const code = readFileSync(SAMPLE, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    expect(code).toContain("api.POST('/api/agents'");
    expect(code).not.toMatch(/\bas\s+(?!const\b)[\w{[(]/);
    expect(code).not.toMatch(/@ts-|\bany\b/);
    const tsc = join(ROOT, 'node_modules', 'typescript-native', 'bin', 'tsc');
    const run = await promisify(execFile)(process.execPath, [tsc, '-p', join(ROOT, 'sdk', 'sample', 'tsconfig.json'), '--strict', '--noEmit'], { cwd: ROOT }).catch(
      (e: { stdout: string; code: number }) => ({ stdout: e.stdout, code: e.code }),
    );
    expect(run.stdout).toBe('');
  });

  it('leaves no `default` in a request body, at any depth (a generator would make the field required)', () => {
    const document = buildOpenApiDocument() as any;
    const found: string[] = [];
    const seen = new Set<string>();
    const visit = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((v, i) => visit(v, `${at}/${i}`));
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'default') found.push(at);
        else if (key === '$ref' && typeof value === 'string' && !seen.has(value)) {
          seen.add(value);
          visit(value.slice(2).split('/').reduce((n: any, k) => n?.[k], document), value);
        } else if (key !== 'examples' && key !== 'example') visit(value, `${at}/${key}`);
      }
    };
    for (const item of Object.values(document.paths) as any[]) for (const op of Object.values(item) as any[]) visit(op.requestBody, op.operationId);
    expect(seen.has('#/components/schemas/AgentCreate')).toBe(true);
    expect(found).toEqual([]);
    // Said in words instead.
    expect(document.components.schemas.AgentCreate.properties.transfer_mode.description).toContain('Default: `"cold"`.');
  });

  it('is a document Redocly finds no error in (its recommended rules)', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const errorsOf = async (document: unknown) =>
      (await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config }))
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    const document = buildOpenApiDocument() as { components: { schemas: Record<string, unknown> } };
    expect(await errorsOf(document)).toEqual([]);
    // The linter does read it: the same document with a component gone is an error.
    const { HttpToolCreate: _gone, ...schemas } = document.components.schemas;
    expect(await errorsOf({ ...document, components: { ...document.components, schemas } })).not.toEqual([]);
  });

  it('documents the tool create by type, and every body a type documents is one the API takes', () => {
    for (const [type, example] of Object.entries(TOOL_CREATE_EXAMPLES)) {
      expect(ToolCreateByType.parse(example).type, type).toBe(type);
      expect(() => assertToolIsCoherent(ToolCreate.parse(example)), type).not.toThrow();
    }
    // A member states what its type needs: an http tool without a URL is refused by the documented shape too.
    expect(ToolCreateByType.safeParse({ name: 'x', type: 'http', description: 'd', config: { method: 'GET' } }).success).toBe(false);
    expect(ToolCreateByType.safeParse({ name: 'x', type: 'integration', description: 'd' }).success).toBe(false);
  });
});
