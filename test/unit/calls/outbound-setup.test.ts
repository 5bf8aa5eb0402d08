/**
 * Invariant: a stream of an outbound call started through the API runs as that call: the history id is
 * the claimed call's id, and the contact is the one the call was started for (by id), even when its number
 * differs from the number dialed; a call that names no contact (inbound) finds it by the caller's number.
 */
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../lib/domain/agent.js';
import type { Contact } from '../../../lib/domain/contact.js';
import { loadCallSetup, type CallLoader, type CallRef } from '../../../streaming-service/src/admission.js';

const contact = (id: string, phoneNumber: string): Contact => ({
  _id: id, contactName: `Name ${id}`, phoneNumber, region: 'US', workspaceId: 'ws_1', externalFields: {}, createdAt: '', updatedAt: '',
});
const loader: CallLoader = {
  agent: async (_ws, id) => ({ _id: id }) as Agent,
  contactByPhone: async (_ws, e164) => (e164 === '+14155550100' ? contact('ct_byphone', e164) : undefined),
  contactById: async (_ws, id) => (id === 'ct_named' ? contact('ct_named', '+14155550999') : undefined),
  tools: async () => [],
};
const start = { kind: 'start', streamSid: 'MZ1', callSid: 'CA1', accountSid: 'AC1', customParameters: {}, encoding: 'audio/x-mulaw', sampleRate: 8000 } as const;
/** The claimed call as the streaming service reads it from the store (the token names only its id). */
const claims = (extra: Partial<CallRef>): CallRef => ({
  workspaceId: 'ws_1', agentId: 'agt_1', callId: 'call_01J0000000000000000000000B', from: '+14155550100', ...extra,
});

describe('loadCallSetup for outbound calls', () => {
  it('uses the token\'s call id and the contact it names', async () => {
    const setup = await loadCallSetup(claims({ callId: 'call_01J0000000000000000000000A', contactId: 'ct_named' }), start, loader);
    expect(setup.callId).toBe('call_01J0000000000000000000000A');
    expect(setup.contact?._id).toBe('ct_named');
  });

  it('without a contact id: the token\'s call id and the contact by number', async () => {
    const setup = await loadCallSetup(claims({}), start, loader);
    expect(setup.callId).toBe('call_01J0000000000000000000000B');
    expect(setup.contact?._id).toBe('ct_byphone');
  });
});
