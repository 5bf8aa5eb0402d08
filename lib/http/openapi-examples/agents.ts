import type { OperationId } from '../../infra/routes.js';
import { CREATED, EXAMPLE_IDS, IMPORTED, page, UPDATED, WS, type OperationExamples } from './shared.js';

/**
 * The example agent's call controls (docs/telephony.md): a message left after the beep, a ten-minute
 * limit, 0 on the keypad for the front desk, and warm transfers.
 */
const callControls = {
  voicemail_detection: 'detect_message_end',
  voicemail_action: 'leave_message',
  voicemail_message: 'Hi {{contactName}}, this is Bayview Dental about your appointment tomorrow. Please call us back. Thank you!',
  max_duration_seconds: 600,
  dtmf_shortcuts: { '0': { action: 'transfer', destination: IMPORTED, mode: 'warm' } },
  transfer_mode: 'warm',
};
/** The agent the examples create: one provider of each kind, with a voice that provider has. */
const agentBase = {
  name: 'Appointment reminder',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'elevenlabs',
  tts_voice_id: '21m00Tcm4TlvDq8ikWAM',
  stt_provider: 'deepgram',
  system_prompt: 'You call patients of Bayview Dental to confirm tomorrow\'s appointment. Be brief and friendly; offer to reschedule if they cannot come.',
  first_message: 'Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?',
  recording_enabled: true,
};
/**
 * How the voice says the practice's words (docs/api.md, "Pronunciations"): a product name spelled as it
 * sounds, and the dentist's name in IPA (ElevenLabs reads phoneme tags).
 */
const pronunciations = [
  { word: 'Invisalign', say_as: 'in vizz a line' },
  { word: 'Nguyen', phoneme: 'wɪn', alphabet: 'ipa' },
];
const agentCreate = { ...agentBase, language: 'en-US', ...callControls, pronunciations };
/** The update example moves the agent to the practice's own model server (docs/vendors-llm.md, "Custom"). */
const ownModel = { llm_provider: 'custom', llm_base_url: 'https://llm.bayviewdental.example/v1', llm_model: 'bayview-receptionist-8b' };
const { tts_voice_id: _voice, ...agentCommon } = agentBase;
const agentCreated = { _id: EXAMPLE_IDS.agent, ...agentCommon, workspaceId: WS, createdAt: CREATED };
const agentView = { ...agentCreated, tts_voice_id: agentBase.tts_voice_id, language: 'en-US', first_message_mode: 'agent_speaks_first', first_message_interruptible: false, ambience_enabled: false, pronunciations, ...callControls, updatedAt: UPDATED, published_version: 2, has_unpublished_changes: false };
const agentListItem = {
  _id: EXAMPLE_IDS.agent,
  name: agentCreate.name,
  llm_provider: agentCreate.llm_provider,
  llm_model: agentCreate.llm_model,
  tts_provider: agentCreate.tts_provider,
  stt_provider: agentCreate.stt_provider,
  workspaceId: WS,
  createdAt: CREATED,
};

/** Calls answered by OpenAI's speech-to-speech model, the cascade above as the fallback (docs/realtime.md). */
const realtime = { provider: 'openai', model: 'gpt-realtime', voice: 'marin' };
/**
 * The update example hands a patient who wants another day over to the practice's booking agent
 * (docs/handoffs.md), with a summary and the day they asked for; written with every default spelled out,
 * so it reads back as sent.
 */
const handoffs = [
  {
    agent_id: EXAMPLE_IDS.bookingAgent,
    description: 'the patient cannot come tomorrow and wants another day',
    context: 'summary',
    variables: [{ name: 'preferred_day', type: 'string', description: 'the day the patient would rather come', required: false }],
  },
];
/** The agent after the update example: on the practice's own model, greeting when the callee speaks. */
const updatedView = { ...agentView, first_message: 'Hello from Bayview Dental! I am calling to confirm your appointment tomorrow.', first_message_mode: 'wait_for_caller', ambience_enabled: true, ambience: { sound: 'office', volume: 0.25 }, interruption: { min_words: 3 }, turn_taking: { unfinished_wait_ms: 2500 }, ...ownModel, llm_api_key: '********', realtime, handoffs };

export const AGENT_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  createAgent: { request: agentCreate, response: agentCreated },
  listAgents: { response: page(agentListItem) },
  getAgent: { params: { id: EXAMPLE_IDS.agent }, response: agentView },
  updateAgent: {
    params: { id: EXAMPLE_IDS.agent },
    request: { first_message: 'Hello from Bayview Dental! I am calling to confirm your appointment tomorrow.', first_message_mode: 'wait_for_caller', ambience_enabled: true, ambience: { sound: 'office', volume: 0.25 }, interruption: { min_words: 3 }, turn_taking: { unfinished_wait_ms: 2500 }, ...ownModel, llm_api_key: 'sk-bayview-2f9c41d7e8a0', realtime, handoffs },
    response: updatedView,
  },
  publishAgent: {
    params: { id: EXAMPLE_IDS.agent },
    request: { note: 'Offers to reschedule before ending the call' },
    response: { agentId: EXAMPLE_IDS.agent, version: 3, note: 'Offers to reschedule before ending the call', publishedAt: UPDATED, agent: { ...agentView, published_version: null } },
  },
  listAgentVersions: {
    params: { id: EXAMPLE_IDS.agent },
    response: page({ agentId: EXAMPLE_IDS.agent, version: 2, note: 'Warm transfers to the front desk', publishedAt: UPDATED }),
  },
  getAgentVersion: {
    params: { id: EXAMPLE_IDS.agent, version: '2' },
    response: { agentId: EXAMPLE_IDS.agent, version: 2, note: 'Warm transfers to the front desk', publishedAt: UPDATED, agent: { ...agentView, published_version: null } },
  },
  restoreAgentVersion: {
    params: { id: EXAMPLE_IDS.agent, version: '1' },
    request: { publish: true, note: 'Back to the first script' },
    response: { ...updatedView, published_version: 3 },
  },
  diffAgent: {
    params: { id: EXAMPLE_IDS.agent },
    response: { from: 2, to: 'draft', changes: [{ field: 'first_message', before: agentBase.first_message, after: 'Hello from Bayview Dental! I am calling to confirm your appointment tomorrow.' }] },
  },
  deleteAgent: { params: { id: EXAMPLE_IDS.agent } },
  listVoices: {
    params: { provider: 'elevenlabs' },
    response: {
      provider: 'elevenlabs',
      data: [
        { id: '21m00Tcm4TlvDq8ikWAM', name: 'Rachel', language: 'en', gender: 'female', previewUrl: 'https://storage.googleapis.com/eleven-public-prod/premade/voices/21m00Tcm4TlvDq8ikWAM/preview.mp3' },
        { id: 'pNInz6obpgDQGcFmaJgB', name: 'Adam', language: 'en', gender: 'male', previewUrl: null },
      ],
    },
  },
};
