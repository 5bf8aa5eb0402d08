import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise, type ICruiseOptions, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

/**
 * The architecture rules (.dependency-cruiser.cjs, explained in docs/architecture.md) hold for the whole
 * project, and they do catch what they forbid: a fixture tree that breaks each one must fail each one.
 */
const require = createRequire(import.meta.url);
const ROOT = join(import.meta.dirname, '..', '..');
const config = require(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: unknown[]; options: ICruiseOptions };

async function violations(baseDir: string, roots: string[], exclude?: ICruiseOptions['exclude']): Promise<IViolation[]> {
  const options: ICruiseOptions = {
    ...config.options,
    ...(exclude !== undefined ? { exclude } : {}),
    baseDir,
    validate: true,
    ruleSet: { forbidden: config.forbidden } as ICruiseOptions['ruleSet'],
    tsConfig: { fileName: join(ROOT, 'tsconfig.json') },
  };
  const { output } = await cruise(roots, options);
  return (output as ICruiseResult).summary.violations;
}

const described = (v: IViolation): string =>
  `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((step) => step.name).join(' → ')})` : ''}`;

describe('architecture', () => {
  it('holds for lib, the container, the handlers, the commands, the benchmarks and the tests', async () => {
    const found = await violations(ROOT, ['lib', 'streaming-service/src', 'functions', 'bin', 'bench', 'test']);
    expect(found.map(described)).toEqual([]);
  });

  it('refuses each thing it forbids (a fixture tree that breaks every rule)', async () => {
    const fixture = join(ROOT, 'test', 'fixtures', 'architecture');
    const found = await violations(fixture, ['lib', 'streaming-service', 'functions'], { path: '^$' });
    const broken = new Set(found.map((v) => `${v.rule.name} ${v.from}`));
    expect([...broken].sort()).toEqual(
      [
        'domain-no-network lib/domain/sdk.ts',
        'domain-pure lib/domain/sdk.ts',
        'lib-not-container lib/services/reaches-up.ts',
        'lib-not-handlers lib/services/reaches-up.ts',
        'no-circular lib/domain/a.ts',
        'services-no-aws-sdk lib/services/uses-sdk.ts',
      ].sort(),
    );
  });
});
