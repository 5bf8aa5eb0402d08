import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { actOnCampaign } from '../../lib/services/campaigns.js';

/** POST /api/campaigns/{id}/cancel (docs/campaigns.md, "Lifecycle"). */
export const handler = defineRoute(ROUTES.cancelCampaign, ({ deps, workspaceId, params }) => actOnCampaign(deps, workspaceId, params.id, 'cancel'));
