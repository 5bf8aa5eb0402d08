import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { campaignResults } from '../../lib/services/campaigns.js';

export const handler = defineRoute(ROUTES.listCampaignResults, ({ deps, workspaceId, params, query }) => campaignResults(deps, workspaceId, params.id, query));
