import type { OperationId } from '../../infra/routes.js';
import { CREATED, UPDATED, type OperationExamples } from './shared.js';

/** A workspace's own Deepgram key as the API shows it: the last four characters only (docs/provider-keys.md). */
const providerKeyView = { provider: 'deepgram', last4: '9a0f', createdAt: CREATED, updatedAt: UPDATED, lastTestedAt: UPDATED, lastTestResult: 'valid' };

export const PROVIDER_KEY_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  listProviderKeys: { response: { data: [providerKeyView, { ...providerKeyView, provider: 'elevenlabs', last4: 'c41d' }] } },
  setProviderKey: {
    params: { provider: 'deepgram' },
    // A made-up key in Deepgram's shape (40 hex characters); a real one is never shown back.
    request: { apiKey: '3f1b9c0d2e7a48f5b6c1d09e8a7f2b4c5d6e9a0f' },
    response: { provider: 'deepgram', last4: '9a0f', createdAt: CREATED, updatedAt: CREATED },
  },
  testProviderKey: {
    params: { provider: 'deepgram' },
    response: { provider: 'deepgram', result: 'valid', vendorStatus: 200, message: 'deepgram accepted the key.', testedAt: UPDATED },
  },
  deleteProviderKey: { params: { provider: 'deepgram' } },
};
