import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { campaignPage } from '../../lib/services/campaigns.js';

export const handler = defineRoute(ROUTES.listCampaigns, ({ deps, workspaceId, query }) => campaignPage(deps, workspaceId, query));
