/**
 * The widget's loader script (docs/widget.md), a plain browser file like the meeting page's assets: served
 * as is, no build step. The CDK bundling copies it beside the loader's Lambda bundle as `widget-assets/`.
 * Its audio comes from the meeting page's shared module and worklets (lib/web/meeting/assets/).
 * No CDK import here: the handler imports this module.
 */
export const WIDGET_ASSETS_DIR = 'widget-assets';
export const WIDGET_ASSETS_SOURCE = 'lib/web/widget/assets';
export const WIDGET_SCRIPT = 'widget.js';
