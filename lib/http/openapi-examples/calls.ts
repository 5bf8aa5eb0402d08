import type { OperationId } from '../../infra/routes.js';
import { CALLEE, CREATED, EXAMPLE_IDS, page, WS, type OperationExamples } from './shared.js';

const historyListItem = {
  _id: EXAMPLE_IDS.call,
  agentType: 'voice',
  agentId: EXAMPLE_IDS.agent,
  fullName: 'Ada Lovelace',
  mobileNumber: CALLEE,
  callDuration: 95,
  callEndReason: 'customer_hangup',
  callSummary: 'Confirmed the appointment for 3 June at 10:30.',
  callCost: 1.5833,
  workspace_id: WS,
  createdAt: CREATED,
  // Present for agents with an `analysis` section (docs/webhooks.md, "Post-call analysis").
  analysis: {
    status: 'completed',
    success: { pass: true, reason: 'The patient confirmed the appointment.' },
    data: { appointment_confirmed: true, reschedule_requested: false },
    analyzedAt: '2025-06-02T14:04:49.000Z',
  },
};
/** One turn's latency figures, as `turnLatencies` and a `turn` event carry them. */
const turnFigures = {
  sttMs: 310.2,
  llmFirstTokenMs: 402.5,
  llmFirstPhraseMs: 88.1,
  ttsFirstByteMs: 121.7,
  overheadMs: 9.4,
  callerWait: { totalMs: 932, endOfTurnMs: 310, llmFirstTokenMs: 403, llmFirstPhraseMs: 88, ttsFirstByteMs: 122, otherMs: 9 },
};
const historyView = {
  ...historyListItem,
  callTranscript: 'agent: Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?\nuser: Yes, I will be there at 10:30.\nagent: Perfect, see you then. Goodbye!',
  // Where the recording is kept; GET /api/history/{id}/recording-url turns it into a download URL.
  callRecordingUrl: `s3://voice-agents-recordings/recordings/${WS}/${EXAMPLE_IDS.call}.wav`,
  // Per caller turn: the stages (0.1 ms) and what the caller waited, end of speech to first agent audio (whole ms).
  turnLatencies: [{ ...turnFigures }],
  latencySummary: { turns: 1, measuredTurns: 1, callerWaitP50Ms: 932, callerWaitP90Ms: 932, callerWaitMaxMs: 932 },
};

/** A phone call in progress, as `GET /api/calls` lists it. */
const liveCall = {
  id: EXAMPLE_IDS.call,
  agentId: EXAMPLE_IDS.agent,
  type: 'voice',
  direction: 'outbound',
  state: 'in-progress',
  from: '+14155550123',
  to: CALLEE,
  createdAt: CREATED,
  answeredAt: '2025-06-02T14:03:19.000Z',
};

/** A chat session, as `POST /api/chats` and `POST /widget/chat` answer it. */
const chatStarted = {
  chatId: EXAMPLE_IDS.chat,
  agentName: 'Ava',
  chatUrl: 'wss://stream.example.com/web-chat',
  credential: 'wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28',
  expiresAt: '2026-11-23T16:10:00.000Z',
};

/** The call history, and the calls, meetings, chats and widget sessions a request starts. */
export const CALL_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  listHistory: { response: page(historyListItem) },
  getHistory: { params: { id: EXAMPLE_IDS.call }, response: historyView },
  listCalls: { response: page(liveCall) },
  getCall: {
    params: { id: EXAMPLE_IDS.call },
    response: {
      ...liveCall,
      endedAt: null,
      endReason: null,
      historyId: null,
      agentState: 'listening',
      transcript: [
        { role: 'agent', text: 'Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?' },
        { role: 'user', text: 'Yes, I will be there at 10:30.' },
      ],
      agent: { id: EXAMPLE_IDS.agent, name: 'Ava' },
    },
  },
  endCall: { params: { id: EXAMPLE_IDS.call }, request: { message: 'A colleague will call you back shortly. Goodbye.' }, response: { id: EXAMPLE_IDS.call, status: 'ending' } },
  sayOnCall: { params: { id: EXAMPLE_IDS.call }, request: { text: 'One moment, I am checking that for you.', mode: 'queue' }, response: { id: EXAMPLE_IDS.call, status: 'queued' } },
  addCallContext: { params: { id: EXAMPLE_IDS.call }, request: { message: 'The caller is a returning customer; offer the loyalty discount.' }, response: { id: EXAMPLE_IDS.call, status: 'context_added' } },
  transferCall: { params: { id: EXAMPLE_IDS.call }, request: { to: '+14155550142', mode: 'warm', summary: 'Ada wants to move her appointment.' }, response: { id: EXAMPLE_IDS.call, status: 'transferring' } },
  listenToCall: {
    params: { id: EXAMPLE_IDS.call },
    response: {
      url: 'wss://stream.example.com/live/listen?token=vlt1.eyJ3b3Jrc3BhY2VJZCI6IndzXzAxIn0.Qm9vb29vb29vb29vb29vb29vb29vb29vb28',
      expiresAt: '2025-06-02T14:09:19.000Z',
      format: { encoding: 'pcm_s16le', sampleRate: 8000, channels: ['caller', 'agent'], headerBytes: 8 },
    },
  },
  deleteHistory: { params: { id: EXAMPLE_IDS.call } },
  getHistoryEvents: {
    params: { id: EXAMPLE_IDS.call },
    response: {
      callId: EXAMPLE_IDS.call,
      data: [
        { atMs: 180, type: 'vendor_connected', stage: 'tts', vendor: 'elevenlabs' },
        { atMs: 210, type: 'vendor_connected', stage: 'stt', vendor: 'deepgram' },
        { atMs: 6420, type: 'turn', ...turnFigures },
        { atMs: 9050, type: 'tool_call', name: 'lookup_appointment', status: 'ok', durationMs: 640 },
        { atMs: 14100, type: 'interruption' },
        { atMs: 95000, type: 'ended', reason: 'customer_hangup' },
      ],
      truncated: false,
      limit: 500,
    },
  },
  getRecordingUrl: {
    params: { id: EXAMPLE_IDS.call },
    response: {
      url: `https://voice-agents-recordings.s3.us-east-1.amazonaws.com/recordings/${WS}/${EXAMPLE_IDS.call}.wav?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=3b1f0c9e`,
      expiresAt: '2025-06-02T14:18:11.000Z',
    },
  },

  startPhoneCall: {
    request: { assistantId: EXAMPLE_IDS.agent, phoneNumber: CALLEE, phoneNumberId: EXAMPLE_IDS.phoneNumber, contactName: 'Ada Lovelace', variables: { first_name: 'Ada', appointment: '3 June at 10:30' } },
    response: { call_id: EXAMPLE_IDS.call, status: 'initiated' },
  },
  startCall: {
    request: { assistantId: EXAMPLE_IDS.agent, phoneNumber: CALLEE, phoneNumberId: EXAMPLE_IDS.phoneNumber, contactName: 'Ada Lovelace', variables: { first_name: 'Ada', appointment: '3 June at 10:30' } },
    response: { call_id: EXAMPLE_IDS.call, status: 'initiated' },
  },
  createMeetingLink: {
    request: { assistantId: EXAMPLE_IDS.agent, contactName: 'Ada Lovelace', phoneNumber: CALLEE, variables: { first_name: 'Ada' } },
    response: { call_id: EXAMPLE_IDS.meeting, room_url: `https://api.example.com/meeting/${EXAMPLE_IDS.meeting}?token=q3ZJx0b8nq6Q2cT1vK9sWmYp4hR7uLdE5aFgN0oXyIc` },
  },
  createChat: {
    request: { agentId: EXAMPLE_IDS.agent, contactName: 'Ada Lovelace', variables: { contactName: 'Ada Lovelace', order_id: 'A-1042' } },
    response: chatStarted,
  },
  openMeeting: { params: { callId: EXAMPLE_IDS.meeting, token: 'q3ZJx0b8nq6Q2cT1vK9sWmYp4hR7uLdE5aFgN0oXyIc' } },
  joinMeeting: {
    params: { callId: EXAMPLE_IDS.meeting },
    response: {
      callId: EXAMPLE_IDS.meeting,
      agentName: 'Ava',
      streamUrl: 'wss://stream.example.com/web-stream',
      credential: 'wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28',
      expiresAt: '2026-11-23T15:20:00.000Z',
    },
  },
  meetingAsset: { params: { file: 'meeting.js' } },
  widgetLoader: {},
  startWidgetChat: {
    request: { apiKey: 'vak_widget_3Jb7Qm2xN9pL4sT8vW1yZ6cR0dF5gH', agentId: EXAMPLE_IDS.agent },
    response: chatStarted,
  },
  startWidgetSession: {
    request: { apiKey: 'vak_widget_3Jb7Qm2xN9pL4sT8vW1yZ6cR0dF5gH', agentId: EXAMPLE_IDS.agent },
    response: {
      callId: EXAMPLE_IDS.call,
      agentName: 'Ava',
      streamUrl: 'wss://stream.example.com/web-stream',
      credential: 'wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28',
      expiresAt: '2026-11-23T15:20:00.000Z',
    },
  },
};

/** The meeting page's answers when a link cannot be used (text/html, not the JSON error body). */
const meetingHtml = (title: string, text: string) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  `<title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
export const MEETING_PAGE_EXAMPLES = {
  404: meetingHtml('Link not found', 'This meeting link is not valid.'),
  410: meetingHtml('Link already used', 'This meeting link has already been opened. Ask for a new link.'),
} as const;
