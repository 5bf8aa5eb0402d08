import { defineRoute } from '../../lib/http/handler.js';
import { routeSwitch } from '../../lib/http/route-group.js';
import { CAMPAIGNS_ROUTES } from '../../lib/infra/routes/campaigns.js';
import { actOnCampaign, campaignDetail, campaignPage, campaignResults, createCampaign } from '../../lib/services/campaigns.js';

/** The campaign routes (docs/campaigns.md), one function: create, list, get, results and the lifecycle moves. */
export const handler = routeSwitch(CAMPAIGNS_ROUTES, {
  createCampaign: defineRoute(CAMPAIGNS_ROUTES.createCampaign, ({ deps, workspaceId, body }) => createCampaign(deps, workspaceId, body)),
  listCampaigns: defineRoute(CAMPAIGNS_ROUTES.listCampaigns, ({ deps, workspaceId, query }) => campaignPage(deps, workspaceId, query)),
  getCampaign: defineRoute(CAMPAIGNS_ROUTES.getCampaign, ({ deps, workspaceId, params }) => campaignDetail(deps, workspaceId, params.id)),
  listCampaignResults: defineRoute(CAMPAIGNS_ROUTES.listCampaignResults, ({ deps, workspaceId, params, query }) => campaignResults(deps, workspaceId, params.id, query)),
  startCampaign: defineRoute(CAMPAIGNS_ROUTES.startCampaign, ({ deps, workspaceId, params }) => actOnCampaign(deps, workspaceId, params.id, 'start')),
  pauseCampaign: defineRoute(CAMPAIGNS_ROUTES.pauseCampaign, ({ deps, workspaceId, params }) => actOnCampaign(deps, workspaceId, params.id, 'pause')),
  resumeCampaign: defineRoute(CAMPAIGNS_ROUTES.resumeCampaign, ({ deps, workspaceId, params }) => actOnCampaign(deps, workspaceId, params.id, 'resume')),
  cancelCampaign: defineRoute(CAMPAIGNS_ROUTES.cancelCampaign, ({ deps, workspaceId, params }) => actOnCampaign(deps, workspaceId, params.id, 'cancel')),
});
