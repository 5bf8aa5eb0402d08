import * as z from 'zod';
import { CampaignCreate, CampaignDetail, CampaignListItem, CampaignResult, CampaignResultsQuery } from '../../domain/campaign.js';
import { IdParams, pageEnvelope } from '../../domain/common.js';
import { listQuery, route, type RouteSpec } from '../route-spec.js';

/** The campaigns routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const CAMPAIGNS_ROUTES = {
  // Campaigns (docs/campaigns.md): the lifecycle moves are POSTs without a body on the campaign.
  createCampaign: route({ method: 'POST', path: '/api/campaigns', entry: 'functions/campaigns/routes.ts', summary: 'Create a campaign (draft): an agent calling a list of contacts within their hours, with retries', tag: 'Campaigns', auth: true, body: CampaignCreate, status: 201, response: CampaignDetail }),
  listCampaigns: route({ method: 'GET', path: '/api/campaigns', entry: 'functions/campaigns/routes.ts', summary: 'List campaigns, newest first', tag: 'Campaigns', auth: true, query: listQuery(z.object({})), status: 200, response: pageEnvelope(CampaignListItem) }),
  getCampaign: route({ method: 'GET', path: '/api/campaigns/{id}', entry: 'functions/campaigns/routes.ts', summary: 'Get a campaign and its progress (counts per outcome, calls in flight, next attempts)', tag: 'Campaigns', auth: true, params: IdParams, status: 200, response: CampaignDetail }),
  listCampaignResults: route({ method: 'GET', path: '/api/campaigns/{id}/results', entry: 'functions/campaigns/routes.ts', summary: "Per-contact results of a campaign with their call ids", tag: 'Campaigns', auth: true, params: IdParams, query: listQuery(CampaignResultsQuery), status: 200, response: pageEnvelope(CampaignResult) }),
  startCampaign: route({ method: 'POST', path: '/api/campaigns/{id}/start', entry: 'functions/campaigns/routes.ts', summary: 'Start a draft campaign: it dials from its start time', tag: 'Campaigns', auth: true, params: IdParams, bodyKind: 'none', errors: [409], status: 200, response: CampaignDetail }),
  pauseCampaign: route({ method: 'POST', path: '/api/campaigns/{id}/pause', entry: 'functions/campaigns/routes.ts', summary: 'Pause a campaign: no new dials; calls in flight finish', tag: 'Campaigns', auth: true, params: IdParams, bodyKind: 'none', errors: [409], status: 200, response: CampaignDetail }),
  resumeCampaign: route({ method: 'POST', path: '/api/campaigns/{id}/resume', entry: 'functions/campaigns/routes.ts', summary: 'Resume a paused campaign', tag: 'Campaigns', auth: true, params: IdParams, bodyKind: 'none', errors: [409], status: 200, response: CampaignDetail }),
  cancelCampaign: route({ method: 'POST', path: '/api/campaigns/{id}/cancel', entry: 'functions/campaigns/routes.ts', summary: 'Cancel a campaign for good: nobody more is dialed', tag: 'Campaigns', auth: true, params: IdParams, bodyKind: 'none', errors: [409], status: 200, response: CampaignDetail }),
} as const satisfies Record<string, RouteSpec>;
