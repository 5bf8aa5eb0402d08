import { dirname, join } from 'node:path';

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

/** A file copied into the bundle after esbuild ran (for files a handler reads at run time, not imports). */
export interface BundleFile {
  /** Relative to the project root. */
  readonly from: string;
  /** Relative to the bundle root (the folder holding index.mjs). */
  readonly to: string;
}

/**
 * A module built by esbuild, with the bundle's own options, into an ES module file of its own beside the
 * bundle: code a handler loads on first use through an import esbuild cannot follow, so it stays out of the
 * bundle every cold start parses (NodejsFunction bundles to one file: esbuild's code splitting is not open
 * to it). Only libraries: a class of ours built into both files would break `instanceof`.
 */
export interface BundleModule {
  /** The module's source, relative to the project root. */
  readonly from: string;
  /** The file name, relative to the bundle root. */
  readonly to: string;
}

const shellQuote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** BUNDLE_OPTIONS as esbuild command-line flags (for the modules built after the bundle). */
function esbuildFlags(): string[] {
  return [
    '--bundle',
    `--format=${BUNDLE_OPTIONS.format}`,
    `--platform=${BUNDLE_OPTIONS.platform}`,
    `--target=${BUNDLE_OPTIONS.target}`,
    ...(BUNDLE_OPTIONS.minify ? ['--minify'] : []),
    ...(BUNDLE_OPTIONS.sourcemap ? ['--sourcemap'] : []),
    ...BUNDLE_OPTIONS.external.map((name) => `--external:${name}`),
    `--main-fields=${BUNDLE_OPTIONS.mainFields.join(',')}`,
    `--banner:js=${BUNDLE_OPTIONS.banner}`,
    '--log-level=warning',
  ];
}

/**
 * The shell commands that complete a bundle once esbuild wrote index.mjs into `outputDir`: copy the files and
 * build the modules beside it. The CDK stack runs them as NodejsFunction's afterBundling hook; the bundle
 * benchmark and the tests run the very same commands, so what they measure and load is what is deployed.
 * `inputDir` is the project root; the modules are built by its installed esbuild (no Docker, no download).
 */
export function afterBundlingCommands(
  inputDir: string,
  outputDir: string,
  extras: { readonly files?: readonly BundleFile[]; readonly modules?: readonly BundleModule[] },
): string[] {
  const copies = (extras.files ?? []).map(({ from, to }) => {
    const target = join(outputDir, to);
    return `mkdir -p ${shellQuote(dirname(target))} && cp ${shellQuote(join(inputDir, from))} ${shellQuote(target)}`;
  });
  const esbuild = join(inputDir, 'node_modules', '.bin', 'esbuild');
  const builds = (extras.modules ?? []).map(({ from, to }) =>
    [esbuild, join(inputDir, from), ...esbuildFlags(), `--outfile=${join(outputDir, to)}`].map(shellQuote).join(' '),
  );
  return [...copies, ...builds];
}
