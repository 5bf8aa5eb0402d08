import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { NotFoundError } from '../../lib/domain/errors.js';
import { defineRoute, type RawResponse } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';

/**
 * The API reference page (GET /docs) and its assets (GET /docs/assets/{file}); both routes share this
 * module. Swagger UI is served from this origin, never a CDN, under a CSP that allows only 'self'.
 */

const ASSET_BASE = '/docs/assets/';

/**
 * Configuration of Swagger UI, served as a script file so the page needs no inline script.
 * BaseLayout, not the standalone one: no URL bar to load other documents. `validatorUrl: null` because
 * Swagger UI's default sends the document's URL to validator.swagger.io wherever a layout shows its badge.
 */
const INIT_JS = `SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/** The only files served: two from swagger-ui-dist (no `inline`) and the generated init script. */
const ASSETS = new Map<string, { contentType: string; inline?: string }>([
  ['swagger-ui-bundle.js', { contentType: 'text/javascript; charset=utf-8' }],
  ['swagger-ui.css', { contentType: 'text/css; charset=utf-8' }],
  ['init.js', { contentType: 'text/javascript; charset=utf-8', inline: INIT_JS }],
]);

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // Swagger UI's stylesheet draws its icons from data: URIs.
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Asset {
  readonly contentType: string;
  readonly body: string;
  readonly gzip: Buffer;
  /** Content hash; the page puts it in each asset URL so those URLs can be cached for good. */
  readonly version: string;
}

/**
 * Where swagger-ui-dist's files are: first `docs-assets/` beside this file (the Lambda bundle, where the
 * CDK bundling copies them), then the installed package (`npm start`, tests).
 */
function assetDirectories(): string[] {
  const dirs = [fileURLToPath(new URL('./docs-assets/', import.meta.url))];
  try {
    dirs.push(dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')));
  } catch {
    // Not installed (a Lambda bundle): docs-assets/ is the only place.
  }
  return dirs;
}

async function readDistFile(name: string): Promise<string> {
  const dirs = assetDirectories();
  for (const dir of dirs) {
    try {
      return await readFile(join(dir, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  // A packaging fault, not the client's: it surfaces as a logged 500.
  throw new Error(`Docs asset ${name} is in none of ${dirs.join(', ')}`);
}

/** Assets are immutable for the life of the process, so each is read, hashed and compressed once. */
const loaded = new Map<string, Promise<Asset>>();

function loadAsset(name: string): Promise<Asset> {
  let found = loaded.get(name);
  if (!found) {
    const spec = ASSETS.get(name)!;
    found = (spec.inline === undefined ? readDistFile(name) : Promise.resolve(spec.inline)).then((body) => ({
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

const header = (event: APIGatewayProxyEventV2, name: string) => event.headers?.[name] ?? '';

async function renderPage(): Promise<RawResponse> {
  const url = async (name: string) => `${ASSET_BASE}${name}?v=${(await loadAsset(name)).version}`;
  const [css, bundle, init] = await Promise.all(['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js'].map(url));
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Voice Agent Platform API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${css}">
<script defer src="${bundle}"></script>
<script defer src="${init}"></script>
</head>
<body>
<div id="swagger-ui"></div>
</body>
</html>
`;
  return {
    raw: true,
    contentType: 'text/html; charset=utf-8',
    body,
    // The page is tiny and names the current asset versions, so it is always revalidated.
    headers: { 'cache-control': 'no-cache', 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' },
  };
}

async function serveAsset(file: string, event: APIGatewayProxyEventV2): Promise<RawResponse> {
  if (!ASSETS.has(file)) throw new NotFoundError('That docs asset');
  const asset = await loadAsset(file);
  const gzip = /\bgzip\b/.test(header(event, 'accept-encoding'));
  const etag = `"${asset.version}${gzip ? '-gz' : ''}"`;
  const headers: Record<string, string> = {
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

const page = defineRoute(ROUTES.docs, renderPage);
const asset = defineRoute(ROUTES.docsAsset, ({ params, event }) => serveAsset(params.file, event));

/** One Lambda for both docs routes: an asset request is the one with a `file` path parameter. */
export const handler = (event: APIGatewayProxyEventV2, context: Context) =>
  event.pathParameters?.file === undefined ? page(event, context) : asset(event, context);
