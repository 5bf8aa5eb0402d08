/**
 * Invariant: before any config is parsed, the logger follows `LOG_LEVEL` (a valid level only; anything
 * else, an `Object.prototype` name included, leaves the default of info); the parsed config then decides.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

let loads = 0;
/**
 * A fresh instance of the log module, read with the environment as it is now (a query makes it a module of
 * its own; the registry the other files in this worker share is left alone).
 */
const freshLog = (): Promise<typeof import('../../lib/observability/log.js')> => import(/* @vite-ignore */ `../../lib/observability/log.js?fresh=${(loads += 1)}`);

/** The log module loaded afresh with `LOG_LEVEL` as given, and what it printed for one line per level. */
async function printedWith(level: string | undefined): Promise<string[]> {
  if (level === undefined) vi.stubEnv('LOG_LEVEL', undefined);
  else vi.stubEnv('LOG_LEVEL', level);
  const { log } = await freshLog();
  const printed: string[] = [];
  const keep = (chunk: unknown) => {
    printed.push(JSON.parse(String(chunk)).level);
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  try {
    for (const l of ['debug', 'info', 'warn', 'error'] as const) log(l, 'x');
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return printed;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the log level before the config is read', () => {
  it('is the one LOG_LEVEL names', async () => {
    expect(await printedWith('warn')).toEqual(['warn', 'error']);
    expect(await printedWith('silent')).toEqual([]);
    expect(await printedWith('debug')).toEqual(['debug', 'info', 'warn', 'error']);
  });

  it('is info when LOG_LEVEL is unset or not a level', async () => {
    expect(await printedWith(undefined)).toEqual(['info', 'warn', 'error']);
    expect(await printedWith('constructor')).toEqual(['info', 'warn', 'error']);
    expect(await printedWith('LOUD')).toEqual(['info', 'warn', 'error']);
  });

  it('gives way to the parsed config', async () => {
    vi.stubEnv('LOG_LEVEL', 'silent');
    const { log, setLogLevel } = await freshLog();
    setLogLevel('error');
    const printed: string[] = [];
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (printed.push(JSON.parse(String(chunk)).level), true));
    try {
      log('warn', 'x');
      log('error', 'x');
    } finally {
      err.mockRestore();
    }
    expect(printed).toEqual(['error']);
  });
});
