import type { Schemas } from './api.js';

/** What the campaign routes answer, as the OpenAPI document types it. */

export type CampaignListItem = Schemas['CampaignListItem'];
export type CampaignDetail = Schemas['CampaignDetail'];
export type CampaignResult = Schemas['CampaignResult'];
export type CampaignStatus = CampaignDetail['status'];
