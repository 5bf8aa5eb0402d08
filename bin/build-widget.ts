/** `npm run build:widget`: writes the widget's served script from its sources (lib/web/widget/build.ts). */
import { writeFileSync } from 'node:fs';
import { buildWidgetScript, WIDGET_BUNDLE } from '../lib/web/widget/build.js';

writeFileSync(WIDGET_BUNDLE, await buildWidgetScript());
process.stdout.write(`wrote ${WIDGET_BUNDLE}\n`);
