import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { inject } from 'vitest';
import { PlatformFunction, PROJECT_ROOT } from '../../lib/infra/constructs/api-function.js';
import { ENTRY_NEEDS, type EntryNeeds, type RouteEntry } from '../../lib/infra/entry-needs.js';
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

export type Synthesized = { readonly app: App; readonly stack: PlatformStack; readonly template: Template; readonly resources: Record<string, Resource> };

/** Freezes a synthesized template (its JSON) all the way down, so no test can change what the next one reads. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export type Props = ConstructorParameters<typeof PlatformStack>[2];

const ZONE = { hostedZoneId: 'Z0123456789', zoneName: 'example.com' };
const DOMAINS = { apiDomain: 'api.example.com', streamDomain: 'stream.example.com' };

/**
 * The stack variants the CDK files synthesize, by name (`synthPlatform` keeps each by its props, so files
 * naming the same one share its synthesis). `everyOption` is the stack with every option at once:
 * test/offline/nag.test.ts checks its findings, test/offline/operations-stack.test.ts its template.
 */
export const STACK_VARIANTS = {
  default: {},
  alarmEmail: { alarmEmail: 'ops@example.com' },
  waf: { waf: true },
  domainsInZone: { domains: { ...DOMAINS, hostedZone: ZONE } },
  domains: { domains: DOMAINS },
  publicBaseUrl: { publicBaseUrl: 'https://voice.example.com/' },
  twilioSecretArn: { twilioSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:twilio-platform-AbCdEf' },
  everyOption: {
    alarmEmail: 'ops@example.com',
    domains: { ...DOMAINS, hostedZone: ZONE },
    waf: true,
    twilioSecretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:twilio-AbCdEf',
    vendorKeysSecretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:vendors-AbCdEf',
  },
} as const satisfies Record<string, NonNullable<Props>>;

/**
 * A new folder for a cloud assembly inside the run's directory (test/support/cdk-setup.ts), which global
 * teardown removes: left to the CDK, every synthesis made a `cdk.out*` folder in the system's temporary
 * directory and kept it (about 50 MB a run, the streaming service's staged image sources included). Outside
 * a vitest run (no directory), a new temporary folder.
 */
export const scratchOutdir = (): string | undefined => {
  const dir = inject('cdkOutdir');
  return dir ? mkdtempSync(join(dir, 'cdk.out-')) : undefined;
};

/** Each variant synthesized in this process, by its props: the CDK files share one worker process (vitest.config.ts). */
const synthesized = new Map<string, Synthesized>();

/**
 * Synthesizes the platform stack without running esbuild: bundling every handler takes most of a minute and
 * proves nothing about the template (`npm run synth` bundles them all; test/offline/stack.test.ts runs one
 * real bundle). CloudFormation's own template validation (cdk.json's `validateAgainstDefaultRules`) still
 * runs on every variant: its first use in a process costs about 5 s of CPU (a 9 MB WebAssembly module and
 * its resource schemas), each later one about 1 s, which is why the CDK files run in one process. A variant
 * is synthesized once per run (seven files assert on the default stack), its template frozen.
 */
export function synthPlatform(props: Props = {}): Synthesized {
  const key = JSON.stringify(props);
  const known = synthesized.get(key);
  if (known) return known;
  const app = new App({ outdir: scratchOutdir(), context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: true });
  const stack = new PlatformStack(app, 'Test', props);
  const template = Template.fromStack(stack);
  const built = { app, stack, template, resources: deepFreeze(template.toJSON()).Resources as Record<string, Resource> };
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
export function synthFunctionAsset(entry: RouteEntry, needs: EntryNeeds = ENTRY_NEEDS[entry] ?? {}): string {
  // Asset metadata (as the CLI asks for it) names the staged bundle folder. The whole stack's template, this
  // function's included, is validated by synthPlatform: a process that only bundles skips the validator.
  const app = new App({
    outdir: scratchOutdir(),
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
