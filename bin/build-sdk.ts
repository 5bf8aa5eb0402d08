import { writeFileSync } from 'node:fs';
import { buildSdkSchema, SDK_SCHEMA } from '../sdk/build.js';

/** `npm run build:sdk`: regenerates the typed client's types from the OpenAPI document (sdk/build.ts). */
writeFileSync(SDK_SCHEMA, await buildSdkSchema());
console.log(`wrote ${SDK_SCHEMA}`);
