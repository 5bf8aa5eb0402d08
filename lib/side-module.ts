import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A loader of a module that is built on its own beside the Lambda bundles that use it (`bundleModules` in
 * lib/infra/entry-needs.ts), for code too large to parse on every cold start and needed by few requests:
 * a vendor SDK, a parser. The loader reads `file` from beside the bundle on Lambda (`moduleUrl` is the
 * caller's `import.meta.url`, the bundle's own once bundled) and `source` (relative to the caller) when
 * running from source (tsx, the tests), where no such file sits beside it. The specifier is a variable, so
 * esbuild cannot follow the import and leaves the module out of the bundle (a literal one it would inline:
 * with one output file there is no code splitting). Loaded once; a failed load is not cached.
 */
export function sideModule<T>(moduleUrl: string, file: string, source: string): () => Promise<T> {
  let load: Promise<T> | undefined;
  return () => {
    if (!load) {
      const beside = new URL(`./${file}`, moduleUrl);
      const specifier = existsSync(fileURLToPath(beside)) ? beside.href : new URL(source, moduleUrl).href;
      load = (import(specifier) as Promise<T>).catch((error: unknown) => {
        load = undefined;
        throw error;
      });
    }
    return load;
  };
}
