/**
 * Invariant: the stack passes cdk-nag's AwsSolutions pack. Every finding it keeps is acknowledged, with a
 * written reason, in lib/infra/constructs/nag-acknowledgements.ts, on the construct that carries it; any new
 * finding fails synthesis here.
 */
import { App, Stack, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { PlatformStack, type PlatformStackProps } from '../../lib/infra/stack.js';
import { CDK_CONTEXT, scratchOutdir, STACK_VARIANTS } from '../support/stack.js';

/**
 * Synthesizes with the AwsSolutions pack as a validation plugin (no bundling); throws on any finding.
 * CloudFormation's own validation is left to synthPlatform (test/support/stack.ts), which runs it on the
 * same variants.
 */
function synthWithNag(build: (app: App) => void): void {
  const app = new App({
    outdir: scratchOutdir(),
    context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: false,
  });
  build(app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
}

describe('cdk-nag AwsSolutions', () => {
  it('is active here: an unacknowledged finding fails synthesis', () => {
    expect(() => synthWithNag((app) => new s3.Bucket(new Stack(app, 'Bare'), 'Unlogged'))).toThrow(/AwsSolutions-S1/);
  });

  const variants: Record<string, PlatformStackProps> = {
    'the default stack': STACK_VARIANTS.default,
    'every option (email, domains in a zone, WAF, existing secrets)': STACK_VARIANTS.everyOption,
  };
  for (const [name, props] of Object.entries(variants)) {
    it(`has no finding left unacknowledged: ${name}`, () => {
      expect(() => synthWithNag((app) => new PlatformStack(app, 'Nag', props))).not.toThrow();
    });
  }
});
