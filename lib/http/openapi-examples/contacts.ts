import type { OperationId } from '../../infra/routes.js';
import { CALLEE, CREATED, EXAMPLE_IDS, page, WS, type OperationExamples } from './shared.js';

const contactCreate = {
  contactName: 'Ada Lovelace',
  phoneNumber: CALLEE,
  region: 'US',
  externalFields: { company: 'Analytical Engines Ltd', plan: 'pro', seats: 12, vip: true },
};
const contactView = { _id: EXAMPLE_IDS.contact, ...contactCreate, workspaceId: WS, createdAt: CREATED };
const contactListItem = { _id: EXAMPLE_IDS.contact, contactName: contactCreate.contactName, phoneNumber: CALLEE, region: 'US', workspaceId: WS };

export const CONTACT_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  createContact: { request: contactCreate, response: contactView },
  listContacts: { response: page(contactListItem) },
  getContact: { params: { id: EXAMPLE_IDS.contact }, response: contactView },
  updateContact: {
    params: { id: EXAMPLE_IDS.contact },
    // A JSON merge patch: `vip: null` removes that field.
    request: { contactName: 'Ada King', externalFields: { plan: 'enterprise', vip: null } },
    response: { ...contactView, contactName: 'Ada King', externalFields: { company: 'Analytical Engines Ltd', plan: 'enterprise', seats: 12 } },
  },
  deleteContact: { params: { id: EXAMPLE_IDS.contact } },
  uploadContacts: {
    response: { imported: 2, skipped: 1, errors: [{ row: 4, column: 'phoneNumber', value: '555-0199', message: 'is not a valid phone number' }] },
  },
};
