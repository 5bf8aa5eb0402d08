import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Size as a smell (docs/architecture.md, "Size"): a source file over 450 lines holds more than one job, and
 * the voice session, which every later stage plugs into, stays under 400. The vendor stand-ins in
 * lib/local/standins/ mirror vendor protocols and are exempt, and so is a generated file (its first line says
 * so, as the widget's bundle does). Tracked files only: builds are not sources.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE = /\.(ts|tsx|js|mjs|cjs|css)$/;
const EXEMPT = /^lib\/local\/standins\//;

const text = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const lines = (path: string): number => text(path).split('\n').length - 1;
const generated = (path: string): boolean => /^\/\/ Generated from /.test(text(path));

describe('file sizes', () => {
  it('no source file over 450 lines, the stand-ins aside', () => {
    const tracked = execFileSync('git', ['ls-files', '-z', '--', 'lib', 'streaming-service', 'functions', 'bin', 'bench', 'test'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((path) => SOURCE.test(path) && !EXEMPT.test(path) && !generated(path));
    expect(tracked.length).toBeGreaterThan(100);
    const over = tracked.filter((path) => lines(path) > 450).map((path) => `${path}: ${lines(path)}`);
    expect(over).toEqual([]);
  });

  it('the voice session class under 400 lines', () => {
    expect(lines('streaming-service/src/session/call-session.ts')).toBeLessThan(400);
  });
});
