import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { buildOpenApiDocument } from '../lib/http/openapi.js';

/**
 * The client's types: openapi-typescript run on the OpenAPI document the API serves at /api/openapi.json,
 * with its defaults, except that a `format: binary` field (an upload's file) is a `Blob`, as
 * openapi-typescript's docs advise for multipart bodies. The output is cut along the document's own seams:
 * - `sdk/src/schema/routes/<path>.ts`: one per route (path), its `paths` entry and the `operations` it names;
 * - `sdk/src/schema/schemas/<Name>.ts`: one per component schema, a type over the schemas it refers to (`S`),
 *   so no schema file imports another;
 * - `sdk/src/schema/responses.ts`: the shared answers (errors with their headers), over `components` (`C`);
 * - `sdk/src/schema/components.ts`: `components` with every schema and response put together;
 * - `sdk/src/schema.ts`: `paths` and `operations` as the union of the routes', and `components`.
 * `npm run build:sdk` writes them (and removes a file that is gone); test/unit/sdk.test.ts fails while the
 * committed files differ from what this builds.
 */
export const SDK_SRC = join(import.meta.dirname, 'src');
export const SDK_BANNER = '// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.';
/** The folder of the generated parts, relative to {@link SDK_SRC}. */
export const SDK_SCHEMA_DIR = 'schema';

const BLOB = ts.factory.createTypeReferenceNode('Blob');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

interface OpenApiDocument {
  readonly paths: Record<string, Partial<Record<(typeof METHODS)[number], { readonly operationId?: string }>>>;
}

/** `/api/agents/{id}/versions` → `agents-id-versions` (its file) and `AgentsIdVersions` (its name in schema.ts). */
const fileOf = (path: string) => path.replace(/^\/api\//, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'root';
const nameOf = (file: string) => file.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');

function memberName(member: ts.TypeElement): string {
  const name = member.name;
  if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name))) return name.text;
  throw new Error(`unexpected member in the generated types: ${ts.SyntaxKind[member.kind]}`);
}

function interfaceNamed(ast: readonly ts.Node[], name: string): ts.InterfaceDeclaration {
  const found = ast.find((node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === name);
  if (!found) throw new Error(`openapi-typescript wrote no interface ${name}`);
  return found;
}

function exported(name: string, members: readonly ts.TypeElement[]): ts.InterfaceDeclaration {
  return ts.factory.createInterfaceDeclaration([ts.factory.createModifier(ts.SyntaxKind.ExportKeyword)], name, undefined, undefined, members);
}

/**
 * The members of the block opened at `open` (a line ending in `{`) of `lines`, as printed (4 spaces a
 * level): each member's lines, with the doc comment before it, and its name.
 */
function blockMembers(lines: readonly string[], open: number): { name: string; lines: string[] }[] {
  const indent = ' '.repeat(lines[open]!.length - lines[open]!.trimStart().length + 4);
  const out: { name: string; lines: string[] }[] = [];
  let pending: string[] = [];
  let inDoc = false;
  for (let i = open + 1; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (!line.startsWith(indent)) return out;
    const rest = line.slice(indent.length);
    // A doc comment belongs to the member after it.
    if (inDoc || rest.startsWith('/**')) {
      if (!inDoc) pending = [];
      pending.push(line);
      inDoc = !line.includes('*/');
      continue;
    }
    if (line[indent.length] === ' ' || rest.startsWith('}')) {
      const last = out.at(-1);
      if (!last) throw new Error(`unexpected line in the generated components: ${line}`);
      last.lines.push(line);
      continue;
    }
    const name = /^"?([^"?:]+)"?\??:/.exec(rest)?.[1];
    if (!name) throw new Error(`unexpected line in the generated components: ${line}`);
    out.push({ name, lines: [...pending, line] });
    pending = [];
  }
  throw new Error('a block of the generated components is not closed');
}

const dedent = (lines: readonly string[], by: number) => lines.map((l) => l.slice(by)).join('\n');

/** Every generated file, by its path relative to {@link SDK_SRC}, with its text. */
export async function buildSdkSchema(): Promise<Map<string, string>> {
  const document = buildOpenApiDocument() as unknown as OpenApiDocument;
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], {
    transform(schemaObject) {
      if ('format' in schemaObject && schemaObject.format === 'binary') return BLOB;
      return undefined;
    },
  });
  const files = new Map<string, string>();
  const file = (name: string, imports: readonly string[], body: string) => files.set(name, `${SDK_BANNER}\n\n${imports.length ? `${imports.join('\n')}\n\n` : ''}${body}`);

  // Routes: each path with the operations under it.
  const routeOf = new Map<string, string>();
  const routes = new Map<string, { path: string; paths: ts.TypeElement[]; operations: ts.TypeElement[] }>();
  for (const [path, item] of Object.entries(document.paths)) {
    const name = fileOf(path);
    if (routes.has(name)) throw new Error(`${path} and ${routes.get(name)!.path} would share the file ${name}.ts`);
    routes.set(name, { path, paths: [], operations: [] });
    routeOf.set(path, name);
    for (const m of METHODS) if (item[m]?.operationId) routeOf.set(item[m].operationId, name);
  }
  for (const [kind, members] of [
    ['paths', interfaceNamed(ast, 'paths').members],
    ['operations', interfaceNamed(ast, 'operations').members],
  ] as const) {
    for (const member of members) {
      const route = routes.get(routeOf.get(memberName(member)) ?? '');
      if (!route) throw new Error(`the generated ${kind} member ${memberName(member)} is not in the document`);
      route[kind].push(member);
    }
  }
  for (const [name, route] of routes) {
    const body = astToString([exported('paths', route.paths), exported('operations', route.operations)]);
    const imports = [`// ${route.path}`, ...(body.includes('components[') ? ["import type { components } from '../components.js';"] : [])];
    file(`${SDK_SCHEMA_DIR}/routes/${name}.ts`, imports, body);
  }

  // Components: each schema a type over the others (`S`), the shared responses over `components` (`C`).
  const lines = astToString([interfaceNamed(ast, 'components')]).split('\n');
  const sections = new Map(blockMembers(lines, 0).map((m) => [m.name, m.lines]));
  const schemasAt = lines.indexOf('    schemas: {');
  const schemas = blockMembers(lines, schemasAt);
  for (const schema of schemas) {
    if (!IDENTIFIER.test(schema.name)) throw new Error(`schema ${schema.name} is not a TypeScript name`);
    const text = dedent(schema.lines, 8);
    const refs = [...new Set([...text.matchAll(/components\["schemas"\]\["([^"]+)"\]/g)].map((m) => m[1]!))];
    const params = refs.length ? `<S extends Record<${refs.map((r) => `"${r}"`).join(' | ')}, unknown>>` : '';
    const declared = text
      .replace(new RegExp(`^${schema.name}\\??: `, 'm'), `export type ${schema.name}${params} = `)
      .replaceAll('components["schemas"][', 'S[');
    file(`${SDK_SCHEMA_DIR}/schemas/${schema.name}.ts`, [], `${declared}\n`);
  }
  const responses = sections.get('responses');
  if (!responses) throw new Error('openapi-typescript wrote no components.responses');
  file(
    `${SDK_SCHEMA_DIR}/responses.ts`,
    ["// The answers every operation shares: the errors, with their headers."],
    `${dedent(responses, 4).replace(/^responses: \{/, 'export interface Responses<C extends { schemas: { Error: unknown }; headers: Record<string, unknown> }> {').replaceAll('components[', 'C[').replace(/};$/, '}')}\n`,
  );
  const rest = [...sections].filter(([name]) => name !== 'schemas' && name !== 'responses').map(([, member]) => member.join('\n'));
  file(
    `${SDK_SCHEMA_DIR}/components.ts`,
    ["import type { Responses } from './responses.js';", ...schemas.map((s) => `import type { ${s.name} } from './schemas/${s.name}.js';`)],
    [
      '/** Every component schema, each given the others it refers to. */',
      'export interface Schemas {',
      ...schemas.map((s) => `    ${s.name}: ${s.name}${/<S extends/.test(files.get(`${SDK_SCHEMA_DIR}/schemas/${s.name}.ts`)!) ? '<Schemas>' : ''};`),
      '}',
      'export interface components {',
      '    schemas: Schemas;',
      '    responses: Responses<components>;',
      ...rest,
      '}',
      '',
    ].join('\n'),
  );

  const names = [...routes.keys()].map((r) => [nameOf(r), r] as const);
  const others = ast.filter((node) => !(ts.isInterfaceDeclaration(node) && ['paths', 'operations', 'components'].includes(node.name.text)));
  file(
    'schema.ts',
    [`import type { components } from './${SDK_SCHEMA_DIR}/components.js';`, ...names.map(([n, r]) => `import type * as ${n} from './${SDK_SCHEMA_DIR}/routes/${r}.js';`)],
    [
      'export type { components };',
      `export interface paths extends ${names.map(([n]) => `${n}.paths`).join(', ')} {}`,
      `export interface operations extends ${names.map(([n]) => `${n}.operations`).join(', ')} {}`,
      '',
      astToString(others),
    ].join('\n'),
  );
  return files;
}
