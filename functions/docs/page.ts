import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { defineRoute, type RawResponse } from '../../lib/http/handler.js';
import { staticAssets, type AssetSpec } from '../../lib/http/static-assets.js';
import { DOCS_ROUTES } from '../../lib/infra/routes/docs.js';

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
const ASSETS = new Map<string, AssetSpec>([
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

const assets = staticAssets(ASSETS, assetDirectories, 'That docs asset');

async function renderPage(): Promise<RawResponse> {
  const url = async (name: string) => `${ASSET_BASE}${name}?v=${(await assets.load(name)).version}`;
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

const page = defineRoute(DOCS_ROUTES.docs, renderPage);
const asset = defineRoute(DOCS_ROUTES.docsAsset, ({ params, event }) => assets.serve(params.file, event));

/** One Lambda for both docs routes: an asset request is the one with a `file` path parameter. */
export const handler = (event: APIGatewayProxyEventV2, context: Context) =>
  event.pathParameters?.file === undefined ? page(event, context) : asset(event, context);
