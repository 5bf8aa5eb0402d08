import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { actOnCampaign } from '../../lib/services/campaigns.js';

/** POST /api/campaigns/{id}/start (docs/campaigns.md, "Lifecycle"). */
export const handler = defineRoute(ROUTES.startCampaign, ({ deps, workspaceId, params }) => actOnCampaign(deps, workspaceId, params.id, 'start'));
