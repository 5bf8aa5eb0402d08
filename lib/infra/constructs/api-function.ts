import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Config } from '../../config.js';
import { PHONE_METADATA_FILE, PHONE_METADATA_PACKAGE_PATH } from '../../domain/phone.js';
import { afterBundlingCommands, BUNDLE_OPTIONS, LAMBDA_RUNTIME, type BundleFile, type BundleModule } from '../bundling.js';
import type { BindTarget } from './bindings.js';

/** The project root: entries, the lock file and node_modules are resolved from here, never from the cwd. */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export type { BundleFile, BundleModule };

/** Options of {@link PlatformFunction}; everything but `entry` has a platform default. */
export interface PlatformFunctionProps {
  /** The handler module relative to the project root; it exports `handler`. */
  readonly entry: string;
  /** Defaults to the entry, so the console names the file a function runs. */
  readonly description?: string;
  /** Defaults to {@link FUNCTION_DEFAULTS}.timeout. */
  readonly timeout?: Duration;
  /** Defaults to {@link FUNCTION_DEFAULTS}.memoryMiB. */
  readonly memoryMiB?: number;
  readonly bundleFiles?: readonly BundleFile[];
  /** Modules built into files of their own beside the bundle, loaded on first use (see BundleModule). */
  readonly bundleModules?: readonly BundleModule[];
  /** Variables that are not bindings (those come from `bind*` in bindings.ts). */
  readonly environment?: Partial<Record<keyof Config, string>>;
  /**
   * A role shared with functions that need exactly the same rights (see PlatformStack's route functions):
   * grants bound to this function then land on that role, so only share between identical needs.
   */
  readonly role?: iam.IRole;
}

/**
 * Copied beside every bundle: the phone metadata lib/domain/phone.ts reads on first use instead of bundling
 * it. Into every function, not only those that parse numbers today: 80 KB of package is cheaper than a
 * handler that fails on AWS alone because a new import reached phone.ts.
 */
export const PHONE_METADATA_BUNDLE_FILE: BundleFile = { from: `node_modules/${PHONE_METADATA_PACKAGE_PATH}`, to: PHONE_METADATA_FILE };

/**
 * What the afterBundling hook adds beside a function's bundle: the phone metadata, then the function's own
 * files and modules. The bundle benchmark and the tests complete their bundles from the same list.
 */
export function bundleExtras(props: Pick<PlatformFunctionProps, 'bundleFiles' | 'bundleModules'>): {
  files: BundleFile[];
  modules: BundleModule[];
} {
  return { files: [PHONE_METADATA_BUNDLE_FILE, ...(props.bundleFiles ?? [])], modules: [...(props.bundleModules ?? [])] };
}

/** The platform's Lambda defaults, each with its reason. */
export const FUNCTION_DEFAULTS = {
  /**
   * CPU grows with memory up to ~1.8 GB; 1 GB roughly halves cold-start initialisation (zod schemas, SDK
   * clients) against 512 MB, and the shorter run pays back most of the price difference.
   */
  memoryMiB: 1024,
  /**
   * A request is a few single-digit-millisecond DynamoDB calls: 10 s is far above any healthy run and below
   * HTTP API's 30 s integration limit, so a hung dependency ends as a logged Lambda timeout, not a gateway 503.
   */
  timeout: Duration.seconds(10),
  /** Long enough to investigate an incident reported a few weeks late; older logs are cost without use. */
  logRetention: logs.RetentionDays.ONE_MONTH,
} as const;

/** lib/infra/bundling.ts names the runtime as a string; the bench reads the same value, so map, do not restate. */
export function lambdaRuntime(name: string = LAMBDA_RUNTIME): lambda.Runtime {
  const runtime = lambda.Runtime.ALL.find((r) => r.name === name && r.family === lambda.RuntimeFamily.NODEJS);
  if (!runtime) throw new Error(`Unknown Node.js Lambda runtime ${name} in lib/infra/bundling.ts`);
  return runtime;
}

/**
 * The one Lambda construct (STYLE 16): runtime, arm64, memory, timeout, its own log group with retention,
 * X-Ray tracing and the shared esbuild options, bundled by the local esbuild (no Docker). It has no
 * permissions beyond writing its logs and traces until something is bound to it (see bindings.ts).
 */
export class PlatformFunction extends Construct implements BindTarget {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: PlatformFunctionProps) {
    super(scope, id);
    const extras = bundleExtras(props);
    // An explicit log group instead of `logRetention`: that option deploys a helper Lambda whose policy
    // acts on every log group in the account.
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: FUNCTION_DEFAULTS.logRetention });
    this.function = new NodejsFunction(this, 'Function', {
      entry: join(PROJECT_ROOT, props.entry),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      handler: 'handler',
      description: props.description ?? props.entry,
      runtime: lambdaRuntime(),
      // Graviton: cheaper per millisecond and at least as fast for this I/O-bound work; no native modules.
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMiB ?? FUNCTION_DEFAULTS.memoryMiB,
      timeout: props.timeout ?? FUNCTION_DEFAULTS.timeout,
      logGroup,
      ...(props.role ? { role: props.role } : {}),
      tracing: lambda.Tracing.ACTIVE,
      environment: { LOG_LEVEL: 'info', ...props.environment },
      bundling: {
        // Local esbuild only: `cdk synth` must work on a machine without a Docker engine.
        forceDockerBundling: false,
        format: BUNDLE_OPTIONS.format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS,
        target: BUNDLE_OPTIONS.target,
        minify: BUNDLE_OPTIONS.minify,
        sourceMap: BUNDLE_OPTIONS.sourcemap,
        externalModules: [...BUNDLE_OPTIONS.external],
        mainFields: [...BUNDLE_OPTIONS.mainFields],
        banner: BUNDLE_OPTIONS.banner,
        // Twenty "Done in 300ms" lines bury the warnings that matter.
        logLevel: LogLevel.WARNING,
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          // inputDir is the project root (mounted at /asset-input if bundling ever falls back to Docker),
          // so these paths hold either way.
          afterBundling: (inputDir, outputDir) =>
            afterBundlingCommands(inputDir, outputDir, extras),
        },
      },
    });
  }

  get grantPrincipal() {
    return this.function.grantPrincipal;
  }

  addEnvironment(name: string, value: string): this {
    this.function.addEnvironment(name, value);
    return this;
  }
}

/** `functions/agents/create.ts` -> `AgentsCreate`: a stable construct id (and logical id) per entry. */
export function entryConstructId(entry: string): string {
  const withoutExt = relative('functions', entry).replace(/\.[cm]?[jt]sx?$/, '');
  return withoutExt
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}
