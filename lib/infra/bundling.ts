/**
 * How every Lambda handler is bundled, shared by the CDK stack (NodejsFunction) and the bundle-size
 * benchmark so the numbers measured are the numbers deployed. esbuild runs locally: no Docker.
 */
export const LAMBDA_RUNTIME = 'nodejs22.x' as const;

/**
 * AWS SDK packages left out of the bundles and loaded, on first use only, from the Lambda runtime's own copy
 * of the SDK (lib/store/lazy-sdk.ts): the S3 and SQS clients, which few handlers use, and the credential
 * providers the default chain reaches only when the environment holds no credentials (never on Lambda).
 * Every other SDK package (DynamoDB, Secrets Manager, the shared core) is bundled: loading the runtime's
 * CommonJS copy costs ~150 ms of CPU per cold start, the bundled, tree-shaken ES modules a fraction of it
 * (docs/benchmarks.md, "Cold start").
 */
export const LAZY_SDK_PACKAGES = [
  '@aws-sdk/client-s3',
  '@aws-sdk/s3-request-presigner',
  '@aws-sdk/client-sqs',
  '@aws-sdk/nested-clients',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-web-identity',
  '@aws-sdk/credential-provider-login',
  '@aws-sdk/token-providers',
] as const;

export const BUNDLE_OPTIONS = {
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  sourcemap: false,
  external: [...LAZY_SDK_PACKAGES],
  /** The SDK's ES-module builds (`module`), which esbuild can tree-shake; its CommonJS builds it cannot. */
  mainFields: ['module', 'main'],
  /** ESM bundles still meet CommonJS dependencies that call require(). */
  banner: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);",
} as const;
