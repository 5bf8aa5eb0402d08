import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { campaignDetail } from '../../lib/services/campaigns.js';

export const handler = defineRoute(ROUTES.getCampaign, ({ deps, workspaceId, params }) => campaignDetail(deps, workspaceId, params.id));
