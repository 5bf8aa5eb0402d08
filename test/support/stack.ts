import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { inject } from 'vitest';
import { PlatformFunction, PROJECT_ROOT } from '../../lib/infra/constructs/api-function.js';
import { ENTRY_NEEDS, type RouteEntry } from '../../lib/infra/entry-needs.js';
import { PlatformStack } from '../../lib/infra/stack.js';

/** A resource of a synthesized template, loosely typed: each test reads the properties it asserts. */
export type Resource = {
  Type: string;
  Properties?: Record<string, any>;
  DependsOn?: string | string[];
  DeletionPolicy?: string;
  Metadata?: Record<string, unknown>;
};

/** An IAM policy statement as it appears in a template. */
export type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

/** The feature flags `cdk synth` runs with (cdk.json's context), so assertions see what the CLI deploys. */
export const CDK_CONTEXT = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

type Synthesized = { readonly app: App; readonly stack: PlatformStack; readonly template: Template; readonly resources: Record<string, Resource> };

/** Each variant synthesized in this process, by its props: the CDK files share worker processes (vitest.config.ts). */
const synthesized = new Map<string, Synthesized>();

/** Freezes a synthesized template (its JSON) all the way down, so no test can change what the next one reads. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

type Props = ConstructorParameters<typeof PlatformStack>[2];

/** Synthesizes a variant in this process; CloudFormation's template validation runs as part of it. */
function synthesize(props: Props): Synthesized {
  const app = new App({ context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
  const stack = new PlatformStack(app, 'Test', props);
  const template = Template.fromStack(stack);
  return { app, stack, template, resources: deepFreeze(template.toJSON()).Resources as Record<string, Resource> };
}

/**
 * A variant another worker process synthesized in this run: the template from its JSON; the construct tree
 * (which one test needs, to synthesize the cloud assembly) is built here only if asked for.
 */
function fromShared(json: Record<string, unknown>, props: Props): Synthesized {
  let own: Synthesized | undefined;
  const tree = () => (own ??= synthesize(props));
  return {
    get app() {
      return tree().app;
    },
    get stack() {
      return tree().stack;
    },
    template: Template.fromJSON(json),
    resources: deepFreeze(json).Resources as Record<string, Resource>,
  };
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** How long a process waits for another's synthesis before doing its own (a stuck writer must not hang the run). */
const SHARED_WAIT_MS = 180_000;

/**
 * Across the run's worker processes, one synthesis per variant (test/support/synth-cache-setup.ts gives the
 * directory): the first process to claim a variant synthesizes it and writes its template; the others wait
 * for the file. A variant whose synthesis throws leaves no file, so each process then throws its own error.
 */
function sharedSynthesis(dir: string, props: Props): Synthesized {
  const file = join(dir, `${createHash('sha256').update(JSON.stringify(props)).digest('hex').slice(0, 16)}.json`);
  const lock = `${file}.lock`;
  try {
    closeSync(openSync(lock, 'wx'));
  } catch {
    // Another process is on it: wait for its template, or for its lock to go (its synthesis threw).
    for (const end = Date.now() + SHARED_WAIT_MS; Date.now() < end && !existsSync(file) && existsSync(lock); ) pause(50);
    if (existsSync(file)) return fromShared(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>, props);
    return synthesize(props);
  }
  try {
    const built = synthesize(props);
    writeFileSync(`${file}.tmp`, JSON.stringify(built.template.toJSON()));
    renameSync(`${file}.tmp`, file);
    return built;
  } catch (error) {
    rmSync(lock, { force: true });
    throw error;
  }
}

/**
 * Synthesizes the platform stack without running esbuild: bundling every handler takes most of a minute and
 * proves nothing about the template (`npm run synth` bundles them all; test/offline/stack.test.ts runs one
 * real bundle). CloudFormation's own template validation (cdk.json's `validateAgainstDefaultRules`) still
 * runs on every variant. A variant is synthesized once per run (about 8 s of CPU each, and seven files
 * assert on the default stack) and kept per process, its template frozen.
 */
export function synthPlatform(props: Props = {}): Synthesized {
  const key = JSON.stringify(props);
  const known = synthesized.get(key);
  if (known) return known;
  const dir = inject('synthCache');
  const built = dir ? sharedSynthesis(dir, props) : synthesize(props);
  synthesized.set(key, built);
  return built;
}

/**
 * The API-key authorizer (lib/infra/constructs/edge.ts) is the one function that runs no platform handler:
 * it reads the table only, with no data key, base URL or stream URL.
 */
export const AUTHORIZER_ENTRY = 'functions/auth/authorizer.ts';

/** The functions of a template that run platform handlers (every one but the authorizer). */
export const handlerFunctions = (resources: Record<string, Resource>): [string, Resource][] =>
  Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties?.Description !== AUTHORIZER_ENTRY);

/** The logical id a `Ref` or `Fn::GetAtt` points at. */
export const refId = (v: unknown): string | undefined => {
  const o = v as { Ref?: string; 'Fn::GetAtt'?: [string, string] } | undefined;
  return o?.Ref ?? o?.['Fn::GetAtt']?.[0];
};

/** CloudFormation's one-or-many properties (a role list, an action list) as a list. */
export const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * The folder the stack deploys as one route function's code: a PlatformFunction with the entry's bundle files
 * and modules (ENTRY_NEEDS, as PlatformStack passes them), synthesized with real bundling (the local esbuild
 * and the afterBundling hook). Seconds per entry, so tests bundle only the entries they inspect.
 */
export function synthFunctionAsset(entry: RouteEntry): string {
  const needs = ENTRY_NEEDS[entry] ?? {};
  // Asset metadata (as the CLI asks for it) names the staged bundle folder.
  const app = new App({ context: { ...CDK_CONTEXT, 'aws:cdk:enable-asset-metadata': true } });
  const stack = new Stack(app, 'Bundle');
  new PlatformFunction(stack, 'Function', { entry, bundleFiles: needs.bundleFiles ?? [], bundleModules: needs.bundleModules ?? [] });
  const assembly = app.synth();
  const fn = Object.values(assembly.getStackByName('Bundle').template.Resources as Record<string, Resource>).find(
    (r) => r.Type === 'AWS::Lambda::Function',
  )!;
  return join(assembly.directory, fn.Metadata!['aws:asset:path'] as string);
}
