import type { OperationId } from '../../infra/routes.js';
import { CALLEE, CREATED, EXAMPLE_IDS, id, page, UPDATED, WS, type OperationExamples } from './shared.js';

/** The example campaign: a week of reminders, two callers at once, weekday hours in each contact's zone. */
const campaignView = {
  _id: EXAMPLE_IDS.campaign,
  name: 'June appointment reminders',
  agentId: EXAMPLE_IDS.agent,
  phoneNumberIds: [EXAMPLE_IDS.phoneNumber],
  contacts: { contactIds: [EXAMPLE_IDS.contact] },
  schedule: { startAt: '2025-06-02T13:00:00.000Z', endAt: '2025-06-09T01:00:00.000Z' },
  callingWindow: { start: '09:00', end: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
  concurrency: 2,
  retry: {
    no_answer: { retries: 2, delayMinutes: 60 },
    busy: { retries: 2, delayMinutes: 15 },
    voicemail: { retries: 1, delayMinutes: 240 },
    failed: { retries: 1, delayMinutes: 30 },
  },
  status: 'running',
  workspaceId: WS,
  createdAt: CREATED,
  updatedAt: UPDATED,
};
const campaignCounts = (answered: number, voicemail: number, busy: number, noAnswer: number) => ({ answered, voicemail, busy, no_answer: noAnswer, failed: 0 });
const campaignDetail = {
  ...campaignView,
  progress: {
    status: 'running',
    contacts: { total: 2, pending: 1, inFlight: 0, finished: 1, skipped: 0 },
    outcomes: campaignCounts(1, 0, 0, 0),
    attempts: campaignCounts(1, 0, 1, 0),
    nextAttempts: [{ contactId: EXAMPLE_IDS.contact2, at: '2025-06-02T15:35:45.000Z' }],
  },
};
const dncEntry = { phoneNumber: '+14155550188', source: 'api', reason: 'Asked by email not to be called', workspaceId: WS, createdAt: CREATED };

/** The campaign and do-not-call examples (docs/campaigns.md). */
export const CAMPAIGN_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  createCampaign: {
    request: {
      name: campaignView.name,
      agentId: EXAMPLE_IDS.agent,
      phoneNumberIds: [EXAMPLE_IDS.phoneNumber],
      contacts: { contactIds: [EXAMPLE_IDS.contact] },
      callingWindow: { start: '09:00', end: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
      concurrency: 2,
      retry: { no_answer: { retries: 2, delayMinutes: 60 } },
      variables: { clinic: 'Bayview Dental' },
    },
    response: {
      ...campaignDetail,
      variables: { clinic: 'Bayview Dental' },
      status: 'draft',
      progress: { ...campaignDetail.progress, status: 'draft', contacts: { total: 1, pending: 1, inFlight: 0, finished: 0, skipped: 0 }, outcomes: campaignCounts(0, 0, 0, 0), attempts: campaignCounts(0, 0, 0, 0), nextAttempts: [{ contactId: EXAMPLE_IDS.contact, at: CREATED }] },
    },
  },
  listCampaigns: { response: page({ _id: EXAMPLE_IDS.campaign, name: campaignView.name, agentId: EXAMPLE_IDS.agent, status: 'running', workspaceId: WS, createdAt: CREATED }) },
  getCampaign: { params: { id: EXAMPLE_IDS.campaign }, response: campaignDetail },
  listCampaignResults: {
    params: { id: EXAMPLE_IDS.campaign },
    response: page({ contactId: EXAMPLE_IDS.contact, contactName: 'Ada Lovelace', phoneNumber: CALLEE, state: 'done', attempts: 2, lastOutcome: 'answered', callIds: [id('call', '01JWRFYC3R5N8QW2HT7XK4BD9E'), EXAMPLE_IDS.call] }),
  },
  startCampaign: { params: { id: EXAMPLE_IDS.campaign }, response: { ...campaignDetail, status: 'scheduled', progress: { ...campaignDetail.progress, status: 'scheduled' } } },
  pauseCampaign: { params: { id: EXAMPLE_IDS.campaign }, response: { ...campaignDetail, status: 'paused', progress: { ...campaignDetail.progress, status: 'paused' } } },
  resumeCampaign: { params: { id: EXAMPLE_IDS.campaign }, response: { ...campaignDetail, status: 'scheduled', progress: { ...campaignDetail.progress, status: 'scheduled' } } },
  cancelCampaign: { params: { id: EXAMPLE_IDS.campaign }, response: { ...campaignDetail, status: 'cancelled', progress: { ...campaignDetail.progress, status: 'cancelled', nextAttempts: [] } } },
  addDoNotCall: { request: { phoneNumber: dncEntry.phoneNumber, reason: dncEntry.reason }, response: dncEntry },
  listDoNotCall: { response: page(dncEntry) },
  uploadDoNotCall: { response: { added: 120, existing: 3, errors: [{ row: 7, value: '12345', message: 'not a phone number in E.164 form (or set defaultCountry)' }] } },
  getDoNotCall: { params: { number: dncEntry.phoneNumber }, response: dncEntry },
  deleteDoNotCall: { params: { number: dncEntry.phoneNumber } },
};
