import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const loads = new Map<string, Promise<unknown>>();

/**
 * Loads a module that is built on its own beside the Lambda bundles that use it (`bundleModules` in
 * lib/infra/entry-needs.ts), for code too large to parse on every cold start and needed by few requests:
 * a vendor SDK, a parser. It reads `file` from beside the bundle on Lambda (`moduleUrl` is the caller's
 * `import.meta.url`, the bundle's own once bundled) and `source` (relative to the caller) when running from
 * source (tsx, the tests), where no such file sits beside it. The specifier is a variable, so esbuild cannot
 * follow the import and leaves the module out of the bundle (a literal one it would inline: with one output
 * file there is no code splitting). Loaded once; a failed load is not cached. Call it inside a function,
 * never at a module's top level: a top-level call keeps the calling module in bundles that do not use it.
 */
export function loadSideModule<T>(moduleUrl: string, file: string, source: string): Promise<T> {
  // Keyed by the caller and file, so the file system is asked once per module, not on every use.
  const key = `${moduleUrl}#${file}`;
  let load = loads.get(key);
  if (!load) {
    const beside = new URL(`./${file}`, moduleUrl);
    const specifier = existsSync(fileURLToPath(beside)) ? beside.href : new URL(source, moduleUrl).href;
    load = import(specifier).catch((error: unknown) => {
      loads.delete(key);
      throw error;
    });
    loads.set(key, load);
  }
  return load as Promise<T>;
}
