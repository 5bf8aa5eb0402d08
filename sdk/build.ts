import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { buildOpenApiDocument } from '../lib/http/openapi.js';

/**
 * The client's types (sdk/src/schema.ts): openapi-typescript run on the OpenAPI document the API serves at
 * /api/openapi.json, with its defaults, except that a `format: binary` field (an upload's file) is a
 * `Blob`, as openapi-typescript's docs advise for multipart bodies. `npm run build:sdk` writes it;
 * test/unit/sdk.test.ts fails while the committed file differs from what this builds.
 */
export const SDK_SCHEMA = join(import.meta.dirname, 'src', 'schema.ts');
export const SDK_BANNER = '// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.';

const BLOB = ts.factory.createTypeReferenceNode('Blob');

export async function buildSdkSchema(): Promise<string> {
  const document = buildOpenApiDocument();
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], {
    transform(schemaObject) {
      if ('format' in schemaObject && schemaObject.format === 'binary') return BLOB;
      return undefined;
    },
  });
  return `${SDK_BANNER}\n\n${astToString(ast)}`;
}
