import { fileURLToPath } from 'node:url';
import { defineRoute } from '../../lib/http/handler.js';
import { CROSS_ORIGIN_ASSET_HEADERS, staticAssets } from '../../lib/http/static-assets.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { MEETING_ASSETS_DIR, MEETING_ASSETS_SOURCE, MEETING_ASSET_FILES } from '../../lib/web/meeting/assets.js';

/**
 * GET /meeting/assets/{file}: the meeting page's script, worklets and stylesheet, from `meeting-assets/`
 * beside the Lambda bundle (copied there by the CDK bundling), or from the source folder when unbundled.
 */
const assets = staticAssets(
  new Map(Object.entries(MEETING_ASSET_FILES).map(([file, contentType]) => [file, { contentType }])),
  () => [fileURLToPath(new URL(`./${MEETING_ASSETS_DIR}/`, import.meta.url)), fileURLToPath(new URL(`../../${MEETING_ASSETS_SOURCE}/`, import.meta.url))],
  'That meeting asset',
  // The widget (docs/widget.md) loads the audio module and worklets from other sites' pages: module scripts
  // and worklets are fetched in CORS mode. They are public code and carry no credentials.
  CROSS_ORIGIN_ASSET_HEADERS,
);

export const handler = defineRoute(CALLS_ROUTES.meetingAsset, ({ params, event }) => assets.serve(params.file, event));
