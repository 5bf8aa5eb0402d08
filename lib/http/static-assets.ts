import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { NotFoundError } from '../domain/errors.js';
import type { RawResponse } from './handler.js';

/**
 * Static files served by a route function from this origin (the docs page's swagger-ui, the meeting page's
 * script): read once per process, gzipped, and revalidated by ETag, or cached for good when the URL names
 * the current version (`?v=`).
 */

/** For public code loaded by other sites' pages (module scripts and worklets are fetched in CORS mode). */
export const CROSS_ORIGIN_ASSET_HEADERS = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' } as const;

export interface AssetSpec {
  readonly contentType: string;
  /** The body itself, for a generated file; otherwise the file is read from the asset directories. */
  readonly inline?: string;
}

export interface Asset {
  readonly contentType: string;
  readonly body: string;
  readonly gzip: Buffer;
  /** Content hash; a page may put it in an asset's URL so that URL can be cached for good. */
  readonly version: string;
}

export interface StaticAssets {
  load(name: string): Promise<Asset>;
  /** The asset as a response (404 for a name not in the set, 304 for a current ETag). */
  serve(name: string, event: APIGatewayProxyEventV2): Promise<RawResponse>;
}

async function readFirst(name: string, dirs: readonly string[]): Promise<string> {
  for (const dir of dirs) {
    try {
      return await readFile(join(dir, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  // A packaging fault, not the client's: it surfaces as a logged 500.
  throw new Error(`Asset ${name} is in none of ${dirs.join(', ')}`);
}

const header = (event: APIGatewayProxyEventV2, name: string) => event.headers?.[name] ?? '';

/**
 * A set of assets. `directories` lists where the files may be, first match wins (the Lambda bundle's copy,
 * then the source tree); `what` names the set in the 404 message.
 */
export function staticAssets(
  specs: ReadonlyMap<string, AssetSpec>,
  directories: () => readonly string[],
  what: string,
  /** Headers every answer carries (for example CORS, for files other sites' pages load). */
  extraHeaders: Readonly<Record<string, string>> = {},
): StaticAssets {
  // Assets are immutable for the life of the process, so each is read, hashed and compressed once.
  const loaded = new Map<string, Promise<Asset>>();

  function load(name: string): Promise<Asset> {
    let found = loaded.get(name);
    if (!found) {
      const spec = specs.get(name);
      if (!spec) return Promise.reject(new NotFoundError(what));
      found = (spec.inline === undefined ? readFirst(name, directories()) : Promise.resolve(spec.inline)).then((body) => ({
        contentType: spec.contentType,
        body,
        gzip: gzipSync(body),
        version: createHash('sha256').update(body).digest('hex').slice(0, 16),
      }));
      found.catch(() => loaded.delete(name));
      loaded.set(name, found);
    }
    return found;
  }

  async function serve(name: string, event: APIGatewayProxyEventV2): Promise<RawResponse> {
    if (!specs.has(name)) throw new NotFoundError(what);
    const asset = await load(name);
    const gzip = /\bgzip\b/.test(header(event, 'accept-encoding'));
    const etag = `"${asset.version}${gzip ? '-gz' : ''}"`;
    const headers: Record<string, string> = {
      ...extraHeaders,
      etag,
      vary: 'accept-encoding',
      'x-content-type-options': 'nosniff',
      // A URL carrying the current version never changes content; any other is revalidated by ETag.
      'cache-control': event.queryStringParameters?.v === asset.version ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    if (header(event, 'if-none-match').split(/\s*,\s*/).includes(etag)) {
      return { raw: true, status: 304, contentType: asset.contentType, body: '', headers };
    }
    if (gzip) headers['content-encoding'] = 'gzip';
    return { raw: true, contentType: asset.contentType, body: gzip ? asset.gzip : asset.body, headers };
  }

  return { load, serve };
}
