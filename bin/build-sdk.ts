import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildSdkSchema, SDK_SCHEMA_DIR, SDK_SRC } from '../sdk/build.js';

/** `npm run build:sdk`: regenerates the typed client's types from the OpenAPI document (sdk/build.ts). */
const files = await buildSdkSchema();
const dir = join(SDK_SRC, SDK_SCHEMA_DIR);
mkdirSync(dir, { recursive: true });
for (const old of readdirSync(dir, { recursive: true, withFileTypes: true })) {
  const name = relative(SDK_SRC, join(old.parentPath, old.name));
  if (old.isFile() && !files.has(name)) rmSync(join(SDK_SRC, name));
}
for (const [name, text] of files) {
  mkdirSync(dirname(join(SDK_SRC, name)), { recursive: true });
  writeFileSync(join(SDK_SRC, name), text);
}
console.log(`wrote ${files.size} files in ${SDK_SRC}`);
