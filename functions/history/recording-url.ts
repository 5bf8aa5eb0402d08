import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { recordingDownload } from '../../lib/services/recordings.js';

export const handler = defineRoute(ROUTES.getRecordingUrl, ({ deps, workspaceId, params }) => recordingDownload(deps, workspaceId, params.id));
