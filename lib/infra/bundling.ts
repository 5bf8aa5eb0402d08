/**
 * How every Lambda handler is bundled, shared by the CDK stack (NodejsFunction) and the bundle-size
 * benchmark so the numbers measured are the numbers deployed. esbuild runs locally: no Docker.
 */
export const LAMBDA_RUNTIME = 'nodejs22.x' as const;

export const BUNDLE_OPTIONS = {
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  sourcemap: false,
  /** The AWS SDK v3 is in the Lambda runtime; bundling it would only add cold-start weight. */
  external: ['@aws-sdk/*'],
  /** ESM bundles still meet CommonJS dependencies that call require(). */
  banner: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);",
} as const;
