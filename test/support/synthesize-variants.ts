/**
 * The run's synthesizer: started by test/support/synth-cache-setup.ts as the run begins, it synthesizes every
 * variant of {@link STACK_VARIANTS} in this one process and writes their templates where the CDK files read
 * them (`node --import tsx test/support/synthesize-variants.ts <dir>`). CloudFormation's validator starts
 * once here instead of once in each worker that would have synthesized a variant first (about 5 s of CPU
 * each). It runs at the lowest priority, on the CPU the tests leave; a variant a worker has claimed is left
 * to it. A variant whose synthesis throws leaves no template, and each file that asks for it then throws
 * its own error.
 */
import { STACK_VARIANTS, synthesizeAhead } from './stack-synthesis.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: synthesize-variants.ts <directory>');
for (const props of Object.values(STACK_VARIANTS)) synthesizeAhead(dir, props);
