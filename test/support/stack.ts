import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { inject } from 'vitest';
import { PlatformFunction } from '../../lib/infra/constructs/api-function.js';
import { ENTRY_NEEDS, type RouteEntry } from '../../lib/infra/entry-needs.js';
import { CDK_CONTEXT, scratchOutdir, sharedSynthesis, synthesize, type Props, type Resource, type Synthesized } from './stack-synthesis.js';

export { CDK_CONTEXT, scratchOutdir, STACK_VARIANTS, type Resource, type Statement } from './stack-synthesis.js';

/** Each variant synthesized in this process, by its props: the CDK files share worker processes (vitest.config.ts). */
const synthesized = new Map<string, Synthesized>();

/**
 * Synthesizes the platform stack without running esbuild: bundling every handler takes most of a minute and
 * proves nothing about the template (`npm run synth` bundles them all; test/offline/stack.test.ts runs one
 * real bundle). CloudFormation's own template validation (cdk.json's `validateAgainstDefaultRules`) still
 * runs on every variant. A variant is synthesized once per run (seven files assert on the default stack),
 * those of {@link STACK_VARIANTS} by one process started with the run, and kept per process, its template
 * frozen.
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
  // Asset metadata (as the CLI asks for it) names the staged bundle folder. The whole stack's template, this
  // function's included, is validated by synthPlatform: a process that only bundles skips the validator.
  const dir = inject('synthCache');
  const app = new App({
    outdir: dir ? scratchOutdir(dir) : undefined,
    context: { ...CDK_CONTEXT, 'aws:cdk:enable-asset-metadata': true },
    builtinCloudFormationValidation: false,
  });
  const stack = new Stack(app, 'Bundle');
  new PlatformFunction(stack, 'Function', { entry, bundleFiles: needs.bundleFiles ?? [], bundleModules: needs.bundleModules ?? [] });
  const assembly = app.synth();
  const fn = Object.values(assembly.getStackByName('Bundle').template.Resources as Record<string, Resource>).find(
    (r) => r.Type === 'AWS::Lambda::Function',
  )!;
  return join(assembly.directory, fn.Metadata!['aws:asset:path'] as string);
}
