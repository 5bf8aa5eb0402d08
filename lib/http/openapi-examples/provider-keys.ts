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
  // One agent's (`?agentId=`) under `npm start` with real Deepgram and Twilio keys: its model and voice are still stand-ins.
  listStandIns: {
    response: {
      simulated: true,
      notice: {
        parts: [
          { capability: 'llm', vendor: 'openai', keyVariable: 'OPENAI_API_KEY' },
          { capability: 'tts', vendor: 'elevenlabs', keyVariable: 'ELEVENLABS_API_KEY' },
        ],
        message:
          'Simulated: the language model (OpenAI) and the voice (ElevenLabs) are local stand-ins. The model repeats back what it is told and the voice is a tone. To make them real, set OPENAI_API_KEY and ELEVENLABS_API_KEY where the platform runs (npm start: in its environment) and restart it.',
      },
    },
  },
};
