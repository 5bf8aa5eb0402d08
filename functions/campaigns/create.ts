import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { createCampaign } from '../../lib/services/campaigns.js';

export const handler = defineRoute(ROUTES.createCampaign, ({ deps, workspaceId, body }) => createCampaign(deps, workspaceId, body));
