import { defineRoute } from '../../lib/http/handler.js';
import { HISTORY_ROUTES } from '../../lib/infra/routes/history.js';
import { recordingDownload } from '../../lib/services/recordings.js';

export const handler = defineRoute(HISTORY_ROUTES.getRecordingUrl, ({ deps, workspaceId, params }) => recordingDownload(deps, workspaceId, params.id));
