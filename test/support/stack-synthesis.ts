/**
 * The platform stack's synthesis for the CDK files, shared between processes, with no vitest import: the
 * run's variant synthesizer (test/support/synthesize-variants.ts) runs it outside the test workers.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PROJECT_ROOT } from '../../lib/infra/constructs/api-function.js';
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
 * The variants the CDK files assert on. The run's synthesizer (test/support/synthesize-variants.ts) makes
 * them all in one process as the run starts, so the validator's start-up is paid once, not once per worker;
 * a test may still synthesize a variant not listed here, in its own process. `everyOption` is the stack
 * with every option at once: test/offline/nag.test.ts checks its findings, and its validation happens here.
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
 * Synthesizes a variant in this process. CloudFormation's template validation (cdk.json's
 * `validateAgainstDefaultRules`) runs as part of it unless `validate` is false: the validator's first use
 * in a process costs about 5 s of CPU (a 9 MB WebAssembly module and its resource schemas), each later one
 * about 1 s. The cloud assembly goes to `outdir` (see {@link scratchOutdir}), else to a new temporary folder
 * nothing removes.
 */
export function synthesize(props: Props, validate = true, outdir?: string): Synthesized {
  const app = new App({ outdir, context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: validate });
  const stack = new PlatformStack(app, 'Test', props);
  const template = Template.fromStack(stack);
  return { app, stack, template, resources: deepFreeze(template.toJSON()).Resources as Record<string, Resource> };
}

/**
 * A variant another process synthesized in this run: the template from its JSON; the construct tree (which
 * one test needs, to synthesize the cloud assembly) is built here only if asked for, without validating
 * again what the other process validated.
 */
function fromShared(json: Record<string, unknown>, props: Props, dir: string): Synthesized {
  let own: Synthesized | undefined;
  const tree = () => (own ??= synthesize(props, false, scratchOutdir(dir)));
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

/**
 * A new folder for a cloud assembly inside the run's directory, which global teardown removes: left to
 * the CDK, every synthesis made a `cdk.out*` folder in the system's temporary directory and kept it (about
 * 50 MB a run, the streaming service's staged image sources included).
 */
export const scratchOutdir = (dir: string): string => mkdtempSync(join(dir, 'cdk.out-'));

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** How long a process waits for another's synthesis before doing its own (a stuck writer must not hang the run). */
const SHARED_WAIT_MS = 180_000;

/** Where a variant's template and its lock go. */
function variantPaths(dir: string, props: Props): { file: string; lock: string } {
  const file = join(dir, `${createHash('sha256').update(JSON.stringify(props)).digest('hex').slice(0, 16)}.json`);
  return { file, lock: `${file}.lock` };
}

/** Writes a template whole (a rename), so a reader never sees half of one. */
function publish(file: string, built: Synthesized): void {
  writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify(built.template.toJSON()));
  renameSync(`${file}.${process.pid}.tmp`, file);
}

/**
 * Across the run's processes, one synthesis per variant (test/support/synth-cache-setup.ts gives the
 * directory): the first process to claim a variant synthesizes it and writes its template; the others wait
 * for the file (the run's synthesizer, {@link synthesizeAhead}, is one such process). A variant whose
 * synthesis throws leaves no file, so each process then throws its own error.
 */
export function sharedSynthesis(dir: string, props: Props): Synthesized {
  const { file, lock } = variantPaths(dir, props);
  const read = () => fromShared(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>, props, dir);
  if (existsSync(file)) return read();
  try {
    writeFileSync(lock, '', { flag: 'wx' });
  } catch {
    // Another process is on it: wait for its template, or for its lock to go (its synthesis threw).
    for (const end = Date.now() + SHARED_WAIT_MS; Date.now() < end && !existsSync(file) && existsSync(lock); ) pause(50);
    if (existsSync(file)) return read();
    return synthesize(props, true, scratchOutdir(dir));
  }
  try {
    const built = synthesize(props, true, scratchOutdir(dir));
    publish(file, built);
    return built;
  } catch (error) {
    rmSync(lock, { force: true });
    throw error;
  }
}

/**
 * The run's synthesizer's share: synthesizes a variant and writes its template unless a worker has claimed
 * it or written it already. A variant whose synthesis throws is left to the workers, which report it.
 */
export function synthesizeAhead(dir: string, props: Props): void {
  const { file, lock } = variantPaths(dir, props);
  if (existsSync(file)) return;
  try {
    writeFileSync(lock, '', { flag: 'wx' });
  } catch {
    return;
  }
  try {
    publish(file, synthesize(props, true, scratchOutdir(dir)));
  } catch {
    rmSync(lock, { force: true });
  }
}
