/**
 * The contract between the CDK stack and the meeting asset handler (functions/meeting/assets.ts) about the
 * meeting page's static files: the page's script, its two audio worklets and its stylesheet, kept as plain
 * files in `lib/web/meeting/assets/` (browser code, served as is: no build step, nothing from a CDN). The
 * stack copies them into `meeting-assets/` beside the Lambda bundle; the handler reads them from there, and
 * from the source folder when run unbundled (`npm start`, tests).
 * No CDK import here: the handler may import this module without pulling aws-cdk-lib into its bundle.
 */
export const MEETING_ASSETS_DIR = 'meeting-assets';

/** Where the files are, relative to the project root. */
export const MEETING_ASSETS_SOURCE = 'lib/web/meeting/assets';

/** The URL path the files are served under (GET /meeting/assets/{file}). */
export const MEETING_ASSET_BASE = '/meeting/assets/';

const JS = 'text/javascript; charset=utf-8';

/** Every file served, with its content type; any other name is 404. */
export const MEETING_ASSET_FILES = {
  'meeting.js': JS,
  'meeting-media.js': JS,
  'web-call.js': JS,
  'stand-ins.js': JS,
  'capture-worklet.js': JS,
  'playback-worklet.js': JS,
  'meeting.css': 'text/css; charset=utf-8',
} as const;
