/**
 * A first hour with the API, written as a user of the client would write it (docs/sdk.md): an agent with only
 * its required fields, an HTTP tool and a transfer tool, contacts from a CSV file, a call, and its outcome.
 * test/unit/sdk.test.ts compiles it with `tsc --strict --noEmit`: a document that regresses (a default
 * forced required, an upload typed string, a bare-string code) fails that test. It contains no cast.
 */
import { createClient, formData, type ApiErrorBody, type CallEndReason, type Client, type ErrorCode, type paths, type Schemas } from '../src/index.js';

// The document lists the values of codes and outcomes: these stop compiling if one became a bare string.
type Listed<T extends string> = string extends T ? never : T;
export const retryable: readonly Listed<ErrorCode>[] = ['rate_limited', 'service_unavailable'];
export const machine: Listed<NonNullable<Schemas['HistoryRecord']['answeredBy']>> = 'machine_end_beep';
export const ended: Listed<NonNullable<Schemas['HistoryRecord']['callStatus']>> = 'completed';

/** What to tell the user about a refusal: branch on the stable code, never on the message. */
function explain({ error }: ApiErrorBody): string {
  switch (error.code) {
    case 'validation_failed':
      return `fix the request: ${JSON.stringify(error.details)}`;
    case 'unauthorized':
      return 'set API_KEY to a key from the dashboard';
    case 'insufficient_credits':
      return 'add credits to the workspace first';
    case 'do_not_call':
      return 'that number is on the do-not-call list';
    case 'rate_limited':
    case 'service_unavailable':
      return 'wait and send the same request again';
    default:
      return `${error.code}: ${error.message}`;
  }
}

function outcome(reason: CallEndReason): string {
  switch (reason) {
    case 'customer_hangup':
    case 'agent_hangup':
      return 'the conversation ended normally';
    case 'transferred':
      return 'the caller was handed over';
    case 'ended_by_api':
      return 'it was ended through the API';
    case 'voicemail':
      return 'a machine answered';
    case 'busy':
    case 'no_answer':
    case 'failed':
    case 'canceled':
    case 'do_not_call':
      return 'the call never connected';
    case 'max_duration':
    case 'silence_timeout':
    case 'link_expired':
    case 'not_joined':
    case 'error':
      return `the call was cut short (${reason})`;
    case 'telephony_failed':
      return 'the telephony provider could not place the call';
    case 'tts_voice_not_found':
    case 'tts_auth_failed':
    case 'tts_unavailable':
    case 'stt_auth_failed':
    case 'stt_unavailable':
    case 'llm_auth_failed':
    case 'llm_rate_limited':
    case 'llm_unavailable':
      // The record's callError says which vendor and what it answered.
      return `a vendor failed the call (${reason})`;
    default: {
      // Every reason is handled above: a new one in the document makes this line fail to compile.
      const unhandled: never = reason;
      return unhandled;
    }
  }
}

/** The steps, each checked; what they did, as lines to print. test/connected/sdk.test.ts runs it on a platform. */
export async function quickstart(api: Client<paths>, workspaceId: string, phoneNumberId: string): Promise<string[]> {
  const said: string[] = [];
  // Only the required fields: every other one has a default.
  const agent = await api.POST('/api/agents', {
    body: { name: 'Ava', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram' },
  });
  if (agent.error) throw new Error(explain(agent.error));
  const assistantId = agent.data._id;

  const lookup = await api.POST('/api/tools', {
    body: {
      name: 'check_order_status',
      type: 'http',
      description: 'Looks up the delivery status of an order by its number.',
      config: { method: 'GET', url: 'https://api.example.com/orders/{order_id}/status' },
      parameters: [{ name: 'order_id', description: 'The order number the caller reads out', required: true }],
    },
  });
  if (lookup.error) throw new Error(explain(lookup.error));
  const transfer = await api.POST('/api/tools', {
    body: { name: 'transfer_to_sales', type: 'transfer', description: 'Hands the caller to sales.', config: { url: 'tel:+14155550123' } },
  });
  if (transfer.error) throw new Error(explain(transfer.error));

  const csv = new File(['contactName,phoneNumber\nAda Lovelace,+14155552671\n'], 'contacts.csv', { type: 'text/csv' });
  const upload = await api.POST('/api/contacts/upload', { body: { file: csv, workspaceId }, bodySerializer: formData });
  if (upload.error) throw new Error(explain(upload.error));
  said.push(`imported ${upload.data.imported}, skipped ${upload.data.skipped}`);

  const call = await api.POST('/api/optimus/phone-call', {
    body: { assistantId, phoneNumberId, phoneNumber: '+14155552671', contactName: 'Ada Lovelace' },
    params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
  });
  if (call.error) throw new Error(explain(call.error));
  said.push(`call ${call.data.call_id} is ${call.data.status}`);

  const history = await api.GET('/api/history', { params: { query: { agentId: assistantId, startDate: '2026-01-31', limit: 10 } } });
  if (history.error) throw new Error(explain(history.error));
  for (const record of history.data.data) said.push(`${record.fullName}: ${outcome(record.callEndReason)}`);

  const record = await api.GET('/api/history/{id}', { params: { path: { id: call.data.call_id } } });
  if (record.error) {
    if (record.error.error.code === 'not_found') said.push('the call is still going on');
    else throw new Error(explain(record.error));
  } else said.push(`${record.data.fullName}: ${outcome(record.data.callEndReason)}${record.data.answeredBy === 'human' ? ', a person answered' : ''}`);
  said.push(`agent ${assistantId}, tools ${lookup.data._id} and ${transfer.data._id}`);
  return said;
}

// Run as a program: API_URL, API_KEY, WORKSPACE_ID and PHONE_NUMBER_ID from the environment.
if (import.meta.url === `file://${process.argv[1]}`) {
  const api = createClient({ baseUrl: process.env.API_URL ?? 'http://127.0.0.1:3000', apiKey: process.env.API_KEY ?? '' });
  for (const line of await quickstart(api, process.env.WORKSPACE_ID ?? '', process.env.PHONE_NUMBER_ID ?? '')) console.log(line);
}
