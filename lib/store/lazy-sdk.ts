import { createRequire } from 'node:module';

/**
 * An AWS SDK package loaded on first use rather than when the module loads. The Lambda bundles leave the
 * clients few handlers use (S3, SQS) out of the bundle (lib/infra/bundling.ts, LAZY_SDK_PACKAGES) and get
 * them from the Lambda runtime's own SDK the first time a handler needs one, so they cost no cold start to
 * the handlers that never do. `require` (CommonJS, through the runtime's NODE_PATH) and not `import()`:
 * the callers stay synchronous, and ES-module resolution would not look in NODE_PATH.
 */
export function lazySdk<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(import.meta.url)(name) as T);
}
