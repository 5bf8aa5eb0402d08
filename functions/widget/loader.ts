import { fileURLToPath } from 'node:url';
import { defineRoute } from '../../lib/http/handler.js';
import { CROSS_ORIGIN_ASSET_HEADERS, staticAssets } from '../../lib/http/static-assets.js';
import { WIDGET_ROUTES } from '../../lib/infra/routes/widget.js';
import { WIDGET_ASSETS_DIR, WIDGET_ASSETS_SOURCE, WIDGET_SCRIPT } from '../../lib/web/widget/assets.js';

/**
 * GET /widget/ (the route `/widget`): the loader script other sites' pages include with one tag. Gzipped and revalidated by
 * ETag (a site's visitors fetch it on every page view). No key is checked here: the script is public, and
 * each session it starts presents the key and the page's Origin (POST /widget/session).
 */
const assets = staticAssets(
  new Map([[WIDGET_SCRIPT, { contentType: 'text/javascript; charset=utf-8' }]]),
  () => [fileURLToPath(new URL(`./${WIDGET_ASSETS_DIR}/`, import.meta.url)), fileURLToPath(new URL(`../../${WIDGET_ASSETS_SOURCE}/`, import.meta.url))],
  'The widget script',
  CROSS_ORIGIN_ASSET_HEADERS,
);

export const handler = defineRoute(WIDGET_ROUTES.widgetLoader, ({ event }) => assets.serve(WIDGET_SCRIPT, event));
