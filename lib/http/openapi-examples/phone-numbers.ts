import type { OperationId } from '../../infra/routes.js';
import { CREATED, EXAMPLE_IDS, id, IMPORTED, page, UPDATED, WS, type OperationExamples } from './shared.js';

/** A number the local Twilio stand-in sells (US +1 <area> 555-01xx). */
const BOUGHT = '+14155550123';
const ACCOUNT_SID = 'AC3f9c2a71d4e85b06a7c1e9d2b4f60a58';

const phoneNumberView = {
  _id: EXAMPLE_IDS.phoneNumber,
  number: BOUGHT,
  status: 'active',
  workspaceId: WS,
  agentId: EXAMPLE_IDS.agent,
  agent_version: null,
  createdAt: CREATED,
  updatedAt: UPDATED,
};

export const PHONE_NUMBER_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  searchPhoneNumbers: {
    params: { country: 'US', areaCode: '415' },
    response: {
      data: [
        {
          number: BOUGHT,
          friendlyName: '(415) 555-0123',
          locality: 'San Francisco',
          region: 'CA',
          postalCode: '94103',
          country: 'US',
          capabilities: { voice: true, sms: true, mms: true },
        },
      ],
    },
  },
  buyPhoneNumber: {
    request: { phoneNumber: BOUGHT },
    response: { _id: EXAMPLE_IDS.phoneNumber, number: BOUGHT, status: 'active', workspaceId: WS },
  },
  importPhoneNumber: {
    request: { phoneNumber: IMPORTED, telephonyAccountSid: ACCOUNT_SID, telephonyAuthToken: '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b' },
    response: { _id: EXAMPLE_IDS.phoneNumber, number: IMPORTED, status: 'active', workspaceId: WS, type: 'byot' },
  },
  listPhoneNumbers: { response: page(phoneNumberView) },
  getPhoneNumber: { params: { id: EXAMPLE_IDS.phoneNumber }, response: phoneNumberView },
  updatePhoneNumber: {
    params: { id: EXAMPLE_IDS.phoneNumber },
    request: { agentId: EXAMPLE_IDS.agent, inbound_webhook_url: 'https://crm.example.com/voice/inbound' },
    // The secret is in the answer of the update that sets the URL only (docs/telephony.md, "Inbound webhook").
    response: { ...phoneNumberView, inbound_webhook_url: 'https://crm.example.com/voice/inbound', inbound_webhook_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  },
  listInboundDeliveries: {
    params: { id: EXAMPLE_IDS.phoneNumber },
    response: {
      data: [
        { _id: id('delivery', '01JWRFXQ4R7N2KD5TB8MZ3VC6W'), eventId: id('event', '01JWRFXQ3R9H4BD6QT1NZ8KC2V'), callId: id('call', '01JWRFXQ3RK2M7TV5B9QD4XN8C'), outcome: 'fallback', agentId: EXAMPLE_IDS.agent, reason: 'HTTP 503: only a 2xx answer is used', status: 503, latencyMs: 48, responseExcerpt: '{"error":"maintenance"}', createdAt: '2025-06-02T16:12:09.310Z' },
        { _id: EXAMPLE_IDS.delivery, eventId: EXAMPLE_IDS.event, callId: EXAMPLE_IDS.call, outcome: 'routed', agentId: EXAMPLE_IDS.agent, status: 200, latencyMs: 112, responseExcerpt: '{"variables":{"first_name":"Ada"},"metadata":{"crm_id":"lead-42"}}', createdAt: '2025-06-02T15:41:27.804Z' },
      ],
      total: 2,
      page: 1,
      limit: 10,
    },
  },
  deletePhoneNumber: { params: { id: EXAMPLE_IDS.phoneNumber } },
};
