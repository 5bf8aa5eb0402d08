import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildSdkSchema, SDK_SCHEMA_DIR, SDK_SRC } from '../sdk/build.js';

/** `npm run build:sdk`: regenerates the typed client's types from the OpenAPI document (sdk/build.ts). */
const files = await buildSdkSchema();
mkdirSync(join(SDK_SRC, SDK_SCHEMA_DIR), { recursive: true });
for (const old of readdirSync(join(SDK_SRC, SDK_SCHEMA_DIR))) {
  if (!files.has(`${SDK_SCHEMA_DIR}/${old}`)) rmSync(join(SDK_SRC, SDK_SCHEMA_DIR, old));
}
for (const [name, text] of files) {
  mkdirSync(dirname(join(SDK_SRC, name)), { recursive: true });
  writeFileSync(join(SDK_SRC, name), text);
}
console.log(`wrote ${files.size} files in ${SDK_SRC}`);
