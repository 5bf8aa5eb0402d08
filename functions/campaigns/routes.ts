import { defineRoute } from '../../lib/http/handler.js';
import { routeSwitch } from '../../lib/http/route-group.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { actOnCampaign, campaignDetail, campaignPage, campaignResults, createCampaign } from '../../lib/services/campaigns.js';

/** The campaign routes (docs/campaigns.md), one function: create, list, get, results and the lifecycle moves. */
export const handler = routeSwitch({
  createCampaign: defineRoute(ROUTES.createCampaign, ({ deps, workspaceId, body }) => createCampaign(deps, workspaceId, body)),
  listCampaigns: defineRoute(ROUTES.listCampaigns, ({ deps, workspaceId, query }) => campaignPage(deps, workspaceId, query)),
  getCampaign: defineRoute(ROUTES.getCampaign, ({ deps, workspaceId, params }) => campaignDetail(deps, workspaceId, params.id)),
  listCampaignResults: defineRoute(ROUTES.listCampaignResults, ({ deps, workspaceId, params, query }) => campaignResults(deps, workspaceId, params.id, query)),
  startCampaign: defineRoute(ROUTES.startCampaign, ({ deps, workspaceId, params }) => actOnCampaign(deps, workspaceId, params.id, 'start')),
  pauseCampaign: defineRoute(ROUTES.pauseCampaign, ({ deps, workspaceId, params }) => actOnCampaign(deps, workspaceId, params.id, 'pause')),
  resumeCampaign: defineRoute(ROUTES.resumeCampaign, ({ deps, workspaceId, params }) => actOnCampaign(deps, workspaceId, params.id, 'resume')),
  cancelCampaign: defineRoute(ROUTES.cancelCampaign, ({ deps, workspaceId, params }) => actOnCampaign(deps, workspaceId, params.id, 'cancel')),
});
