import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { buildOpenApiDocument } from '../lib/http/openapi.js';

/**
 * The client's types: openapi-typescript run on the OpenAPI document the API serves at /api/openapi.json,
 * with its defaults, except that a `format: binary` field (an upload's file) is a `Blob`, as
 * openapi-typescript's docs advise for multipart bodies. The output is cut along the document's seams, so no
 * file is thousands of lines of everything:
 * - `sdk/src/schema/components.ts`: every component (schemas, responses, headers), the shared vocabulary;
 * - `sdk/src/schema/<tag>.ts`: one per API tag, that tag's `paths` and the `operations` they name;
 * - `sdk/src/schema.ts`: `paths` and `operations` as the union of the tags', and `components`.
 * `npm run build:sdk` writes them (and removes a tag's file that is gone); test/unit/sdk.test.ts fails
 * while the committed files differ from what this builds.
 */
export const SDK_SRC = join(import.meta.dirname, 'src');
export const SDK_BANNER = '// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.';
/** The folder of the generated parts, relative to {@link SDK_SRC}. */
export const SDK_SCHEMA_DIR = 'schema';

const BLOB = ts.factory.createTypeReferenceNode('Blob');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface OpenApiDocument {
  readonly tags?: readonly { readonly name: string }[];
  readonly paths: Record<string, Partial<Record<(typeof METHODS)[number], { readonly tags?: readonly string[]; readonly operationId?: string }>>>;
}

/** `Phone numbers` → `phone-numbers` (the file) and `PhoneNumbers` (its name in schema.ts). */
const fileOf = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const nameOf = (tag: string) => fileOf(tag).split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');

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

/** Every generated file, by its path relative to {@link SDK_SRC}, with its text. */
export async function buildSdkSchema(): Promise<Map<string, string>> {
  const document = buildOpenApiDocument() as unknown as OpenApiDocument;
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], {
    transform(schemaObject) {
      if ('format' in schemaObject && schemaObject.format === 'binary') return BLOB;
      return undefined;
    },
  });

  // Each path belongs to its operations' tag (a path's operations share one: checked here), and each
  // operation to its path's tag, so a tag's file names only its own operations.
  const tagOfPath = new Map<string, string>();
  const tagOfOperation = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths)) {
    const operations = METHODS.flatMap((m) => (item[m] ? [item[m]] : []));
    const tags = new Set(operations.map((op) => op.tags?.[0] ?? 'Other'));
    if (tags.size !== 1) throw new Error(`${path}: its operations are under ${tags.size} tags; give them one`);
    const [tag] = tags as unknown as [string];
    tagOfPath.set(path, tag);
    for (const op of operations) if (op.operationId) tagOfOperation.set(op.operationId, tag);
  }
  const tags = [...new Set([...(document.tags ?? []).map((t) => t.name), ...tagOfPath.values()])].filter((t) => [...tagOfPath.values()].includes(t));

  const byTag = (members: readonly ts.TypeElement[], tagOf: Map<string, string>, what: string) => {
    const out = new Map<string, ts.TypeElement[]>(tags.map((t) => [t, []]));
    for (const member of members) {
      const tag = tagOf.get(memberName(member));
      if (!tag) throw new Error(`the generated ${what} ${memberName(member)} is not in the document`);
      out.get(tag)!.push(member);
    }
    return out;
  };
  const paths = byTag(interfaceNamed(ast, 'paths').members, tagOfPath, 'path');
  const operations = byTag(interfaceNamed(ast, 'operations').members, tagOfOperation, 'operation');

  const files = new Map<string, string>();
  const file = (name: string, imports: string, nodes: ts.Node[]) => {
    const text = astToString(nodes);
    files.set(name, `${SDK_BANNER}\n\n${imports ? `${imports}\n\n` : ''}${text}`);
  };

  file(`${SDK_SCHEMA_DIR}/components.ts`, '', [interfaceNamed(ast, 'components')]);
  for (const tag of tags) {
    const nodes = [exported('paths', paths.get(tag)!), exported('operations', operations.get(tag)!)];
    const usesComponents = astToString(nodes).includes('components[');
    file(`${SDK_SCHEMA_DIR}/${fileOf(tag)}.ts`, `// The "${tag}" operations.${usesComponents ? "\nimport type { components } from './components.js';" : ''}`, nodes);
  }
  const rest = ast.filter((node) => !(ts.isInterfaceDeclaration(node) && ['paths', 'operations', 'components'].includes(node.name.text)));
  const names = tags.map(nameOf);
  file(
    'schema.ts',
    [
      `import type { components } from './${SDK_SCHEMA_DIR}/components.js';`,
      ...tags.map((tag) => `import type * as ${nameOf(tag)} from './${SDK_SCHEMA_DIR}/${fileOf(tag)}.js';`),
      '',
      'export type { components };',
      `export interface paths extends ${names.map((n) => `${n}.paths`).join(', ')} {}`,
      `export interface operations extends ${names.map((n) => `${n}.operations`).join(', ')} {}`,
    ].join('\n'),
    rest,
  );
  return files;
}
