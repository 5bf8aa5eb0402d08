/**
 * Invariant: agent handoffs (docs/handoffs.md). An agent's `handoffs` name other agents of its workspace:
 * itself, an unknown id or another workspace's agent is a 400 naming the entry, and nothing changes; a loop
 * through other agents (triage → booking → triage) is allowed. In a chat the model is offered one
 * `handoff_to_<name>` tool per destination; taking it switches prompt, first line, tools and model to the
 * destination within the same chat, carrying the context the handoff names (a summary and nothing else, or
 * the whole conversation) and the variables the model gathered (as `{{variables}}` of the destination's
 * texts and in what its model is told). The chat leaves one record with a segment per agent, is charged per
 * visitor message as any chat, and each switch sends `call.handoff`. A destination deleted after the save
 * makes the tool answer the model that it is unavailable, and nothing switches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getHistoryRecord } from '../../lib/store/history.js';
import { listLedger } from '../../lib/store/credits.js';
import { createWorkspace } from '../../lib/store/workspaces.js';
import { putNewAgent } from '../../lib/store/agents.js';
import type { ScriptRequest } from '../../lib/local/standins/llm.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { ChatPage } from '../support/chat-page.js';
import { startVoicePlatform, type VoicePlatform } from './voice-harness.js';

let vp: VoicePlatform;
const receiver = new WebhookReceiver();

const lastUser = (req: ScriptRequest) => req.messages.turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';

/** The stand-in model: which agent it is comes from the system prompt, what it does from the visitor's words. */
function reply(req: ScriptRequest) {
  const { system, endsWithToolResult, toolResults } = req.messages;
  if (/Summarize/.test(system)) return { text: 'The visitor booked a visit.' };
  if (endsWithToolResult) return { text: `Tool said: ${toolResults.at(-1)?.content}` };
  // The greeting instruction (first_message_mode: model_generated) reaches the stand-in as a user turn.
  const last = lastUser(req).startsWith('(The conversation has just started') ? '' : lastUser(req);
  if (/^You are Triage/.test(system)) {
    if (/half/i.test(last)) return { toolCalls: [{ name: 'handoff_to_booking', arguments: { summary: 'Ada wants a visit.' } }] };
    if (/book/i.test(last) && req.tools.includes('handoff_to_booking')) {
      return { toolCalls: [{ name: 'handoff_to_booking', arguments: { visit_date: 'Friday', party_size: 4, summary: 'Ada wants a visit on Friday for four.' } }] };
    }
    return { text: last ? `Triage again, after: ${last}` : 'Triage here. How can I help?' };
  }
  if (/^You are Booking/.test(system)) {
    if (/back/i.test(last)) return { toolCalls: [{ name: 'handoff_to_triage', arguments: {} }] };
    return { text: `Booking answers: ${last}` };
  }
  if (/^You are Concierge/.test(system) && /gone/i.test(last)) return { toolCalls: [{ name: 'handoff_to_spare', arguments: {} }] };
  return { text: 'Hello.' };
}

beforeAll(async () => {
  await receiver.start();
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${receiver.port}`;
  process.env.CHAT_CREDITS_PER_MESSAGE = '0.5';
  vp = await startVoicePlatform({ llm: { ttftMs: 5, tokensPerSecond: 0, reply } });
  expect((await vp.api('POST', '/api/webhooks', { url: receiver.url('/hooks'), eventTypes: ['call.handoff'] })).status).toBe(201);
});
afterAll(async () => {
  await vp?.stop();
  await receiver.stop();
  delete process.env.TOOL_ALLOWED_HOSTS;
  delete process.env.CHAT_CREDITS_PER_MESSAGE;
});

const agentBody = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'elevenlabs',
  stt_provider: 'deepgram',
  workspaceId: vp.workspaceId,
  ...extra,
});

const bookingHandoff = (agentId: string) => ({
  agent_id: agentId,
  description: 'the visitor wants to book a visit',
  context: 'summary',
  variables: [
    { name: 'visit_date', type: 'string', description: 'the day of the visit' },
    { name: 'party_size', type: 'number', description: 'how many people come' },
  ],
});

async function createChat(agentId: string) {
  const res = await fetch(`${vp.platform.baseUrl}/api/chats`, { method: 'POST', headers: { 'x-api-key': vp.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ agentId, contactName: 'Ada' }) });
  expect(res.status).toBe(201);
  return (await res.json()) as { chatId: string; credential: string };
}

const chatUrl = () => `${vp.platform.baseUrl.replace(/^http/, 'ws')}/web-chat`;

const chatEnded = () =>
  new Promise<{ chatId: string; error?: unknown }>((resolve) => {
    const off = vp.platform.voice.streaming.onChatEnded((e) => {
      off();
      resolve(e);
    });
  });

/** The model requests made since `from`, as the OpenAI stand-in received them. */
const requestsSince = (from: number) => vp.platform.voice.llm.control.requestsFor('openai').slice(from).map((r) => r.body as { messages: { role: string; content: string }[]; tools?: { function: { name: string } }[] });

describe('handoffs at save', () => {
  it('refuses itself, unknown and foreign destinations with a 400 naming the entry, changes nothing, and allows a loop through others', async () => {
    const booking = await vp.api('POST', '/api/agents', agentBody('Booking'));
    expect(booking.status).toBe(201);
    const bookingId = (booking.body as { _id: string })._id;
    const triage = await vp.api('POST', '/api/agents', agentBody('Triage', { handoffs: [bookingHandoff(bookingId)] }));
    expect(triage.status).toBe(201);
    const triageId = (triage.body as { _id: string })._id;
    // Stored with its defaults, and read back.
    const read = (await vp.api('GET', `/api/agents/${triageId}`, undefined)).body as { handoffs: unknown[] };
    expect(read.handoffs).toEqual([{ ...bookingHandoff(bookingId), variables: bookingHandoff(bookingId).variables.map((v) => ({ ...v, required: true })) }]);
    // Booking hands back to triage: a loop through another agent is a path a call may take.
    expect((await vp.api('PATCH', `/api/agents/${bookingId}`, { handoffs: [{ agent_id: triageId, description: 'the booking is done' }] })).status).toBe(200);

    const other = await createWorkspace(vp.deps.db, { name: 'other', credits: 10 });
    const now = new Date().toISOString();
    const foreign = { _id: 'agent_foreign_handoff', name: 'Theirs', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', tts_voice_id: 'x', stt_provider: 'deepgram', system_prompt: '', first_message: '', recording_enabled: false, ambience_enabled: false, workspaceId: other.workspaceId, createdAt: now, updatedAt: now } as const;
    await putNewAgent(vp.deps.db, foreign);
    const refusals: [unknown, string, RegExp][] = [
      [[{ agent_id: triageId, description: 'again' }], 'handoffs.0.agent_id', /cannot hand off to itself/],
      [[bookingHandoff(bookingId), { agent_id: 'agent_nope', description: 'x' }], 'handoffs.1.agent_id', /not an agent of this workspace/],
      [[{ agent_id: foreign._id, description: 'x' }], 'handoffs.0.agent_id', /not an agent of this workspace/],
      [[bookingHandoff(bookingId), bookingHandoff(bookingId)], 'handoffs.1.agent_id', /listed twice/],
      [[{ agent_id: bookingId, description: 'x', context: 'everything' }], 'handoffs.0.context', /./],
    ];
    for (const [handoffs, field, message] of refusals) {
      const res = await vp.api('PATCH', `/api/agents/${triageId}`, { handoffs });
      expect(res.status).toBe(400);
      const details = (res.body as { error: { code: string; details: { field: string; message: string }[] } }).error.details;
      expect(details.find((d) => d.field === field)?.message).toMatch(message);
    }
    // A create naming another workspace's agent is refused the same way, and creates nothing.
    const before = (await vp.api('GET', '/api/agents?limit=100', undefined)).body as { data: unknown[] };
    expect((await vp.api('POST', '/api/agents', agentBody('Sneaky', { handoffs: [{ agent_id: foreign._id, description: 'x' }] }))).status).toBe(400);
    expect(((await vp.api('GET', '/api/agents?limit=100', undefined)).body as { data: unknown[] }).data.length).toBe(before.data.length);
    // Nothing changed.
    expect(((await vp.api('GET', `/api/agents/${triageId}`, undefined)).body as { handoffs: unknown }).handoffs).toEqual(read.handoffs);
  });
});

describe('handoffs in a chat', () => {
  it('hands off twice (triage → booking → triage) with the context rule and the variables reaching the destination, segments on one record and call.handoff', async () => {
    const booking = await vp.agent({ name: 'Booking', system_prompt: 'You are Booking. The visit is on {{visit_date}} for {{party_size}}.', first_message: 'Booking desk: {{visit_date}} for {{party_size}}.' });
    const triage = await vp.agent({ name: 'Triage', system_prompt: 'You are Triage.', first_message: '', first_message_mode: 'model_generated', handoffs: [bookingHandoff(booking._id) as never] });
    await vp.api('PATCH', `/api/agents/${booking._id}`, { handoffs: [{ agent_id: triage._id, description: 'the booking is done or the visitor wants something else', context: 'full' }] });

    const { chatId, credential } = await createChat(triage._id);
    const page = await ChatPage.open(chatUrl(), credential);
    await page.waitFor((f) => f.type === 'reply');
    const firstRequests = vp.platform.voice.llm.control.requestsFor('openai').length;

    // A variable missing: the tool answers the model, nothing switches.
    const half = await page.ask('Half a booking');
    expect(half.find((f) => f.type === 'agent')).toBeUndefined();
    expect(half.find((f) => f.type === 'reply')!.text).toMatch(/not handed off: visit_date is required .*party_size is required/);

    // Triage hands over to booking: the page is told, booking's first line is said with the gathered variables.
    const toBooking = await page.ask('I want to book a visit');
    expect(toBooking.find((f) => f.type === 'agent')).toMatchObject({ agentId: booking._id, agentName: 'Booking' });
    expect(toBooking.filter((f) => f.type === 'reply').map((f) => f.text)).toEqual(['Booking desk: Friday for 4.']);
    // The triage model was offered the handoff tool, its parameters the variables and the summary.
    const triageRequest = requestsSince(firstRequests).find((r) => r.messages.at(-1)?.content === 'I want to book a visit')! as any;
    const tool = triageRequest.tools.find((t: any) => t.function.name === 'handoff_to_booking');
    expect(tool.function.description).toBe('Hand the conversation over to Booking: the visitor wants to book a visit');
    expect(tool.function.parameters).toMatchObject({ required: ['visit_date', 'party_size', 'summary'], properties: { party_size: { type: 'number' } } });

    // Booking's model: its own prompt filled with the variables, the summary and nothing said before it (context: summary).
    const beforeBooking = vp.platform.voice.llm.control.requestsFor('openai').length;
    expect((await page.ask('Which times do you have?')).find((f) => f.type === 'reply')!.text).toBe('Booking answers: Which times do you have?');
    const bookingRequest = requestsSince(beforeBooking)[0]!;
    expect(bookingRequest.messages.map((m) => [m.role, m.content])).toEqual([
      ['system', 'You are Booking. The visit is on Friday for 4.'],
      ['system', '(The conversation was handed over to you by Triage: the visitor wants to book a visit)\nSummary of the conversation so far: Ada wants a visit on Friday for four.\nGathered before the handoff: {"visit_date":"Friday","party_size":4}'],
      ['assistant', 'Booking desk: Friday for 4.'],
      ['user', 'Which times do you have?'],
    ]);
    expect(bookingRequest.tools!.map((t) => t.function.name)).toContain('handoff_to_triage');
    expect(bookingRequest.tools!.map((t) => t.function.name)).not.toContain('handoff_to_booking');

    // Booking hands back (context: full): triage's model writes its first line with the whole conversation.
    const beforeBack = vp.platform.voice.llm.control.requestsFor('openai').length;
    const back = await page.ask('Thanks, take me back');
    expect(back.find((f) => f.type === 'agent')).toMatchObject({ agentId: triage._id });
    expect(back.filter((f) => f.type === 'reply').map((f) => f.text)).toEqual(['Triage again, after: Thanks, take me back']);
    const backRequest = requestsSince(beforeBack).at(-1)!;
    expect(backRequest.messages[0]).toEqual({ role: 'system', content: 'You are Triage.' });
    const userLines = backRequest.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(userLines).toEqual(['Half a booking', 'I want to book a visit', 'Which times do you have?', 'Thanks, take me back']);

    const ended = chatEnded();
    page.ws.send(JSON.stringify({ type: 'end' }));
    expect((await ended).error).toBeUndefined();
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, chatId)) as unknown as Record<string, any>;
    // One record, the chat's agent, every line of every agent, charged per visitor message (four).
    expect(record).toMatchObject({ agentType: 'chat', agentId: triage._id, callCost: 2 });
    expect(String(record.callTranscript).split('\n')).toEqual([
      'agent: Triage here. How can I help?',
      'user: Half a booking',
      expect.stringMatching(/^agent: Tool said: .*not handed off/),
      'user: I want to book a visit',
      'agent: Booking desk: Friday for 4.',
      'user: Which times do you have?',
      'agent: Booking answers: Which times do you have?',
      'user: Thanks, take me back',
      'agent: Triage again, after: Thanks, take me back',
    ]);
    expect((await listLedger(vp.deps.db, vp.workspaceId)).filter((e) => e.callId === chatId)).toHaveLength(4);
    const segments = record.segments as any[];
    expect(segments.map((s) => [s.agentId, s.agentName, s.handoff?.fromAgentId, s.handoff?.context])).toEqual([
      [triage._id, 'Triage', undefined, undefined],
      [booking._id, 'Booking', triage._id, 'summary'],
      [triage._id, 'Triage', booking._id, 'full'],
    ]);
    expect(segments[1].handoff).toEqual({ fromAgentId: triage._id, reason: 'the visitor wants to book a visit', context: 'summary', variables: { visit_date: 'Friday', party_size: 4 }, summary: 'Ada wants a visit on Friday for four.' });
    for (const [i, s] of segments.entries()) {
      expect(s.endSecond).toBeGreaterThanOrEqual(s.startSecond);
      if (i > 0) expect(s.startSecond).toBe(segments[i - 1].endSecond);
    }
    // The API shows them.
    expect(((await vp.api('GET', `/api/history/${chatId}`, undefined)).body as { segments: unknown }).segments).toEqual(segments);

    // call.handoff, once per switch, in order.
    await receiver.waitFor((h) => h.json.data.callId === chatId && h.json.data.toAgentId === triage._id);
    const hooks = receiver.received.filter((h) => h.json.type === 'call.handoff' && h.json.data.callId === chatId).map((h) => h.json.data);
    expect(hooks.map((d) => [d.fromAgentId, d.toAgentId, d.context])).toEqual([
      [triage._id, booking._id, 'summary'],
      [booking._id, triage._id, 'full'],
    ]);
    expect(hooks[0]).toMatchObject({ reason: 'the visitor wants to book a visit', variables: { visit_date: 'Friday', party_size: 4 } });
  });

  it('answers the model that a destination deleted since is unavailable, and stays with the same agent', async () => {
    const spare = await vp.agent({ name: 'Spare' });
    const concierge = await vp.agent({ name: 'Concierge', system_prompt: 'You are Concierge.', first_message: 'Concierge.', handoffs: [{ agent_id: spare._id, description: 'anything', context: 'none', variables: [] }] });
    const { chatId, credential } = await createChat(concierge._id);
    const page = await ChatPage.open(chatUrl(), credential);
    await page.waitFor((f) => f.type === 'ready');
    expect((await vp.api('DELETE', `/api/agents/${spare._id}`, undefined)).status).toBe(204);
    const answer = await page.ask('Send me to the gone agent');
    expect(answer.find((f) => f.type === 'agent')).toBeUndefined();
    expect(answer.find((f) => f.type === 'reply')!.text).toBe('Tool said: {"error":"Spare is unavailable; carry on with the caller yourself"}');
    const ended = chatEnded();
    page.ws.send(JSON.stringify({ type: 'end' }));
    await ended;
    expect((await getHistoryRecord(vp.deps.db, vp.workspaceId, chatId)).segments).toBeUndefined();
  });
});
