/**
 * Invariant: a text chat is a first-class channel with the same agent (docs/chat.md). `POST /api/chats`
 * (a full key) and `POST /widget/chat` (a widget key, from its origin) create a `chat` call with its
 * `not_joined` record and hand out a credential; the chat runs on `/web-chat` with the agent's system
 * prompt (contact placeholders empty), its first message, its http tools and the same turn loop as a call,
 * the reply streamed as deltas. Each visitor message is charged once; a workspace that cannot pay gets 402
 * at creation and "unavailable" in the chat, and a refused message changes nothing. The same tab comes
 * back after a reload and gets the conversation so far; any other socket is refused. The end leaves a
 * `chat` history record with transcript, summary and cost. A transfer becomes a hand-off message, and
 * end-call ends the chat. A widget key's sessions hold leases: one never opened frees its place within the
 * pending window (and can no longer be opened), one address holds at most its share, and a 429 names the
 * true wait.
 */
import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebSession, WEB_SESSION_KEY_PURPOSE, type WebSessionClaims } from '../../lib/domain/web-session-token.js';
import { findCall } from '../../lib/store/calls.js';
import { listLedger, readBalance } from '../../lib/store/credits.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { createApiKey, createWorkspace, hashApiKey } from '../../lib/store/workspaces.js';
import { claimChat, startChat } from '../../lib/services/chats.js';
import { widgetVisitor } from '../../lib/services/widget-leases.js';
import { TooManyWidgetSessionsError } from '../../lib/domain/widget.js';
import { startToolBackend, type ToolBackend } from '../support/tool-backend.js';
import { raiseLoopbackIpLimits } from '../support/platform.js';
import { startVoicePlatform, type VoicePlatform } from './voice-harness.js';
import { ChatPage } from '../support/chat-page.js';

let vp: VoicePlatform;
let orders: ToolBackend;
const ORIGIN = 'https://shop.example';

beforeAll(async () => {
  orders = await startToolBackend('{"status":"shipped"}');
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${orders.port}`;
  process.env.CHAT_CREDITS_PER_MESSAGE = '0.5';
  process.env.WIDGET_MAX_SESSIONS_PER_KEY = '2';
  raiseLoopbackIpLimits();
  vp = await startVoicePlatform({
    llm: {
      ttftMs: 20,
      tokensPerSecond: 400,
      reply: (req) => {
        const { system, turns, endsWithToolResult, toolResults } = req.messages;
        if (/summar/i.test(system)) return { text: 'The visitor asked about an order.' };
        if (endsWithToolResult) return { text: /shipped/.test(toolResults.at(-1)?.content ?? '') ? 'Your order has shipped.' : 'No idea.' };
        const last = turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';
        if (/order/i.test(last)) return { toolCalls: [{ name: 'check_order', arguments: { order_id: 'A17' } }] };
        if (/person|human/i.test(last)) return { toolCalls: [{ name: 'front_desk', arguments: {} }] };
        if (/bye/i.test(last)) return { text: 'Goodbye, and thanks!', toolCalls: [{ name: 'end_call', arguments: {} }] };
        if (/prompt/i.test(last)) return { text: `My instructions: ${system}` };
        return { text: `You wrote: ${last}. How can I help with that?` };
      },
    },
  });
  const tools = [
    { name: 'Check order', type: 'http', description: 'Look an order up', config: { method: 'GET', url: `http://127.0.0.1:${orders.port}/orders/{order_id}` }, parameters: [{ name: 'order_id', description: 'the order', required: true }] },
    { name: 'Front desk', type: 'transfer', description: 'Transfer to the front desk', config: { url: 'tel:+14155550142' } },
  ];
  for (const tool of tools) expect((await vp.api('POST', '/api/tools', { ...tool, workspaceId: vp.workspaceId })).status).toBe(201);
});
afterAll(async () => {
  await vp?.stop();
  orders?.server.close();
  delete process.env.TOOL_ALLOWED_HOSTS;
  delete process.env.CHAT_CREDITS_PER_MESSAGE;
  delete process.env.WIDGET_MAX_SESSIONS_PER_KEY;
});

const chatUrl = () => `${vp.platform.baseUrl.replace(/^http/, 'ws')}/web-chat`;

async function createChat(apiKey: string, body: Record<string, unknown>) {
  const res = await fetch(`${vp.platform.baseUrl}/api/chats`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

/** The next chat whose history record was written. */
const nextChatEnded = () =>
  new Promise<{ chatId: string; error?: unknown }>((resolve) => {
    const off = vp.platform.voice.streaming.onChatEnded((e) => {
      off();
      resolve(e);
    });
  });

describe('text chat through the API', () => {
  it('streams replies from the same agent, runs its tools, keeps the chat over a reload, bills per message and leaves a chat record', async () => {
    const agent = await vp.agent({ name: 'Ava', system_prompt: 'You help {{contactName|}} at the shop.', first_message: 'Hi{{contactName|}}! Ask me anything.' });
    const before = await readBalance(vp.deps.db, vp.workspaceId);
    const created = await createChat(vp.apiKey, { agentId: agent._id, contactName: 'Ada' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ agentName: 'Ava', chatUrl: chatUrl() });
    // The model is the platform's stand-in: the answer says so, for the model only (a chat has no speech).
    expect(created.body.standIns.parts).toEqual([{ capability: 'llm', vendor: agent.llm_provider, keyVariable: `${agent.llm_provider.toUpperCase()}_API_KEY` }]);
    expect(created.body.standIns.message).toMatch(/^Simulated: the language model \(\w+\) is a local stand-in\./);
    const chatId = created.body.chatId as string;
    // Created, not started: a placeholder record, nothing charged.
    expect((await getHistoryRecord(vp.deps.db, vp.workspaceId, chatId)).callEndReason).toBe('not_joined');
    expect(await readBalance(vp.deps.db, vp.workspaceId)).toBe(before);

    const page = await ChatPage.open(chatUrl(), created.body.credential);
    const ready = await page.waitFor((f) => f.type === 'ready');
    // The first message, contact placeholders empty (a chat has no contact).
    expect(ready).toMatchObject({ chatId, agentName: 'Ava', resumed: false, messages: [{ role: 'agent', text: 'Hi! Ask me anything.' }] });

    // A plain question: the reply streamed in several deltas, then the whole reply.
    const answer = await page.ask('What are your hours?');
    const deltas = answer.filter((f) => f.type === 'delta');
    expect(deltas.length).toBeGreaterThan(1);
    const reply = answer.find((f) => f.type === 'reply')!;
    expect(reply.text).toBe('You wrote: What are your hours?. How can I help with that?');
    expect(deltas.map((d) => d.text).join('')).toBe(reply.text);
    expect(new Set(answer.filter((f) => f.turn !== undefined).map((f) => f.turn))).toEqual(new Set([reply.turn]));

    // The system prompt reached the model, contact placeholder empty.
    expect((await page.ask('Show me your prompt')).find((f) => f.type === 'reply')!.text).toBe('My instructions: You help  at the shop.');
    // The model saw the conversation so far: the first message and its own earlier reply.
    const seen = vp.platform.voice.llm.control.requestsFor('openai').at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(seen.messages.map((m) => [m.role, m.content])).toEqual([
      ['system', 'You help  at the shop.'],
      ['assistant', 'Hi! Ask me anything.'],
      ['user', 'What are your hours?'],
      ['assistant', 'You wrote: What are your hours?. How can I help with that?'],
      ['user', 'Show me your prompt'],
    ]);

    // An http tool, as in a call.
    const orderAnswer = await page.ask("Where is my order?");
    expect(orderAnswer.find((f) => f.type === "reply")!.text).toBe("Your order has shipped.");
    expect(orders.seen.map((r) => r.url)).toEqual(['/orders/A17']);

    // Refusals: too long, empty. Nothing charged, nothing added to the conversation.
    const charged = await readBalance(vp.deps.db, vp.workspaceId);
    expect((await page.ask('x'.repeat(2_001))).at(-1)).toMatchObject({ type: 'error', code: 'message_too_long' });
    expect((await page.ask('   ')).at(-1)).toMatchObject({ type: 'error', code: 'empty_message' });
    expect(await readBalance(vp.deps.db, vp.workspaceId)).toBe(charged);

    // A reload: the same credential comes back to the same chat and gets the conversation so far.
    page.drop();
    const again = await ChatPage.open(chatUrl(), created.body.credential);
    const resumed = await again.waitFor((f) => f.type === 'ready');
    expect(resumed.resumed).toBe(true);
    expect(resumed.messages.map((m: { role: string }) => m.role)).toEqual(['agent', 'user', 'agent', 'user', 'agent', 'user', 'agent']);
    expect(resumed.messages.at(-1)).toEqual({ role: 'agent', text: 'Your order has shipped.' });
    // Another tab (another session id) is refused; the chat goes on.
    const claims = JSON.parse(Buffer.from(created.body.credential.split('.')[1], 'base64url').toString('utf8')) as WebSessionClaims;
    const otherTab = signWebSession({ ...claims, sessionId: randomBytes(16).toString('base64url') }, vp.deps.secrets.deriveKey(WEB_SESSION_KEY_PURPOSE));
    const other = await ChatPage.open(chatUrl(), otherTab);
    expect(await other.waitFor((f) => f.type === 'error')).toMatchObject({ code: 'already_connected' });
    expect(await other.closed).toBe(1008);

    // The visitor ends the chat.
    const ended = nextChatEnded();
    again.ws.send(JSON.stringify({ type: 'end' }));
    expect(await again.waitFor((f) => f.type === 'ended')).toMatchObject({ reason: 'customer_hangup' });
    expect((await ended).chatId).toBe(chatId);

    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, chatId)) as unknown as Record<string, any>;
    expect(record).toMatchObject({ agentType: 'chat', callEndReason: 'customer_hangup', fullName: 'Ada', callSummary: 'The visitor asked about an order.', callCost: 1.5 });
    expect(String(record.callTranscript).split('\n')).toEqual([
      'agent: Hi! Ask me anything.',
      'user: What are your hours?',
      'agent: You wrote: What are your hours?. How can I help with that?',
      'user: Show me your prompt',
      'agent: My instructions: You help  at the shop.',
      'user: Where is my order?',
      'agent: Your order has shipped.',
    ]);
    // Three messages answered, each charged once in the ledger, and nothing else.
    expect(await readBalance(vp.deps.db, vp.workspaceId)).toBeCloseTo(before - 1.5, 4);
    const ledger = (await listLedger(vp.deps.db, vp.workspaceId)).filter((e) => e.callId === chatId);
    expect(ledger.map((e) => [e.reason, e.amount])).toEqual([
      ['chat_message', -0.5],
      ['chat_message', -0.5],
      ['chat_message', -0.5],
    ]);
    expect((await findCall(vp.deps.db, vp.workspaceId, chatId))?.status).toBe('completed');
    // An ended chat cannot be opened again.
    const late = await ChatPage.open(chatUrl(), created.body.credential);
    expect(await late.waitFor((f) => f.type === 'error')).toMatchObject({ code: 'ended' });
  });

  it('answers a transfer with a hand-off message and ends the chat on end-call', async () => {
    const agent = await vp.agent({ first_message: '' });
    const created = await createChat(vp.apiKey, { agentId: agent._id });
    const page = await ChatPage.open(chatUrl(), created.body.credential);
    expect(await page.waitFor((f) => f.type === 'ready')).toMatchObject({ messages: [] });
    const handoff = (await page.ask('Can I talk to a person?')).find((f) => f.type === 'reply')!;
    expect(handoff.handoff).toBe(true);
    expect(handoff.text).toMatch(/^I can\u2019t hand a chat over to a person/);
    const ended = nextChatEnded();
    const bye = await page.ask('Bye');
    expect(bye.find((f) => f.type === 'reply')!.text).toBe('Goodbye, and thanks!');
    expect(await page.waitFor((f) => f.type === 'ended')).toMatchObject({ reason: 'agent_hangup' });
    expect(await page.closed).toBe(1000);
    await ended;
    const record = await getHistoryRecord(vp.deps.db, vp.workspaceId, created.body.chatId);
    expect(record).toMatchObject({ agentType: 'chat', callEndReason: 'agent_hangup', fullName: 'Chat visitor', callCost: 1 });
  });

  it('opens as the agent says: the first message answering the visitor (wait_for_caller), or a greeting the model writes', async () => {
    const requests = () => vp.platform.voice.llm.control.requestsFor('openai').length;
    const waiting = await vp.agent({ first_message: 'Hi, I am Ava.', first_message_mode: 'wait_for_caller' });
    const page = await ChatPage.open(chatUrl(), (await createChat(vp.apiKey, { agentId: waiting._id })).body.credential);
    expect(await page.waitFor((f) => f.type === 'ready')).toMatchObject({ messages: [] });
    const before = requests();
    expect((await page.ask('Hello?')).find((f) => f.type === 'reply')!.text).toBe('Hi, I am Ava.');
    expect(requests()).toBe(before);
    expect((await page.ask('What are your hours?')).find((f) => f.type === 'reply')!.text).toMatch(/^You wrote: What are your hours\?/);

    const writer = await vp.agent({ first_message: '', first_message_mode: 'model_generated' });
    const second = await ChatPage.open(chatUrl(), (await createChat(vp.apiKey, { agentId: writer._id })).body.credential);
    // The scripted model echoes the last user message: here the instruction only the model sees.
    const greeting = await second.waitFor((f) => f.type === 'reply');
    expect(greeting.text).toMatch(/^You wrote: \(The conversation has just started/);
    const answer = (await second.ask('Thanks')).find((f) => f.type === 'reply')!;
    expect(answer.text).toBe('You wrote: Thanks. How can I help with that?');
  });

  it('a workspace without credits gets 402 and changes nothing; credits running out mid-chat make the agent unavailable', async () => {
    const poor = await createWorkspace(vp.deps.db, { name: 'poor', credits: 0 });
    const poorAgent = await vp.agent({ name: 'Bo', workspaceId: poor.workspaceId });
    const refused = await createChat(poor.apiKey, { agentId: poorAgent._id });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: 'insufficient_credits', details: { required: 0.5, available: 0 } });
    const history = await fetch(`${vp.platform.baseUrl}/api/history`, { headers: { 'x-api-key': poor.apiKey } });
    expect(((await history.json()) as { data: unknown[] }).data).toEqual([]);

    // Enough for one message: the second is refused in the chat, and not charged.
    const tight = await createWorkspace(vp.deps.db, { name: 'tight', credits: 0.5 });
    const tightAgent = await vp.agent({ name: 'Ty', workspaceId: tight.workspaceId });
    const created = await createChat(tight.apiKey, { agentId: tightAgent._id });
    expect(created.status).toBe(201);
    const page = await ChatPage.open(chatUrl(), created.body.credential);
    await page.waitFor((f) => f.type === 'ready');
    expect((await page.ask('Hello')).some((f) => f.type === 'reply')).toBe(true);
    expect((await page.ask('Hello again')).at(-1)).toMatchObject({ type: 'error', code: 'insufficient_credits', message: 'The agent is unavailable right now.' });
    expect(await readBalance(vp.deps.db, tight.workspaceId)).toBe(0);
    page.ws.send(JSON.stringify({ type: 'end' }));
    await page.closed;
  });

  it('refuses bad bodies, unknown and foreign agents, and a widget key, changing nothing', async () => {
    const other = await createWorkspace(vp.deps.db, { name: 'other', credits: 100 });
    const foreignId = (await vp.agent({ name: 'Theirs', workspaceId: other.workspaceId }))._id;
    const before = await readBalance(vp.deps.db, vp.workspaceId);
    expect((await createChat(vp.apiKey, { agentId: foreignId })).status).toBe(404);
    expect((await createChat(vp.apiKey, { agentId: 'agent_nope' })).status).toBe(404);
    const unknownField = await createChat(vp.apiKey, { agentId: foreignId, extra: 1 });
    expect(unknownField.status).toBe(400);
    expect((await createChat(vp.apiKey, {})).status).toBe(400);
    const agent = await vp.agent();
    const { apiKey: widgetKey } = await createApiKey(vp.deps.db, vp.workspaceId, 'site', { agentIds: [agent._id], origins: [ORIGIN] });
    const byWidget = await createChat(widgetKey, { agentId: agent._id });
    expect(byWidget.status).toBe(403);
    expect(byWidget.body.error.code).toBe('widget_key');
    expect(await readBalance(vp.deps.db, vp.workspaceId)).toBe(before);
    // A voice credential is not a chat's, and a chat's is not a call's.
    const created = await createChat(vp.apiKey, { agentId: agent._id });
    const viaVoice = new WebSocket(`${vp.platform.baseUrl.replace(/^http/, 'ws')}/web-stream`);
    await new Promise((r) => viaVoice.once('open', r));
    viaVoice.send(JSON.stringify({ type: 'hello', credential: created.body.credential }));
    const code = await new Promise<number>((r) => viaVoice.on('close', (c) => r(c)));
    expect(code).toBe(1008);
    expect((await findCall(vp.deps.db, vp.workspaceId, created.body.chatId))?.status).toBe('initiated');
  });
});

describe('text chat through the widget', () => {
  it('starts a chat for a widget key from its origin, and refuses other origins and full keys', async () => {
    const agent = await vp.agent({ name: 'Widgetta', first_message: 'Hello from the widget.' });
    const { apiKey } = await createApiKey(vp.deps.db, vp.workspaceId, 'site', { agentIds: [agent._id], origins: [ORIGIN] });
    const post = (origin: string, body: unknown) =>
      fetch(`${vp.platform.baseUrl}/widget/chat`, { method: 'POST', headers: { 'content-type': 'text/plain', origin }, body: JSON.stringify(body) });
    const foreign = await post('https://evil.example', { apiKey, agentId: agent._id });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as any).error.code).toBe('origin_not_allowed');
    const full = await post(ORIGIN, { apiKey: vp.apiKey, agentId: agent._id });
    expect(((await full.json()) as any).error.code).toBe('full_key_in_page');

    const res = await post(ORIGIN, { apiKey, agentId: agent._id });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const chat = (await res.json()) as { chatId: string; credential: string; chatUrl: string };
    const page = await ChatPage.open(chat.chatUrl, chat.credential);
    expect(await page.waitFor((f) => f.type === 'ready')).toMatchObject({ agentName: 'Widgetta', messages: [{ role: 'agent', text: 'Hello from the widget.' }] });
    expect((await page.ask('Hi')).find((f) => f.type === 'reply')!.text).toBe('You wrote: Hi. How can I help with that?');
    const ended = nextChatEnded();
    page.ws.send(JSON.stringify({ type: 'end' }));
    await ended;
    const record = await getHistoryRecord(vp.deps.db, vp.workspaceId, chat.chatId);
    expect(record).toMatchObject({ agentType: 'chat', fullName: `Web visitor (${ORIGIN})` });
  });

  it('holds a key to its concurrent sessions: over the limit 429 with Retry-After, and an ended chat frees its place', async () => {
    const agent = await vp.agent();
    const { apiKey } = await createApiKey(vp.deps.db, vp.workspaceId, 'busy site', { agentIds: [agent._id], origins: [ORIGIN] });
    const post = () => fetch(`${vp.platform.baseUrl}/widget/chat`, { method: 'POST', headers: { 'content-type': 'text/plain', origin: ORIGIN }, body: JSON.stringify({ apiKey, agentId: agent._id }) });
    const first = (await (await post()).json()) as { chatId: string; credential: string; chatUrl: string };
    expect((await post()).status).toBe(200);
    const over = await post();
    expect(over.status).toBe(429);
    // The true wait: the first place frees when the first (still unopened) session's pending lease runs out.
    const wait = Number(over.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(30);
    expect(over.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const refusal = ((await over.json()) as any).error;
    expect(refusal).toMatchObject({ code: 'rate_limited', details: [{ policy: 'widget-sessions', limit: 2, retryAfterSeconds: wait }] });
    expect(refusal.message).toContain(`within ${wait} seconds`);
    // The refused one left nothing: the key's two chats are the workspace's only new chats.
    const page = await ChatPage.open(first.chatUrl, first.credential);
    await page.waitFor((f) => f.type === 'ready');
    const ended = nextChatEnded();
    page.ws.send(JSON.stringify({ type: 'end' }));
    await ended;
    expect((await post()).status).toBe(200);
  });

  it('leases: an unopened session frees its place within seconds, one address cannot take every place, an opened one holds its place', async () => {
    const agent = await vp.agent();
    const { apiKey } = await createApiKey(vp.deps.db, vp.workspaceId, 'forged origin', { agentIds: [agent._id], origins: [ORIGIN] });
    const keyHash = hashApiKey(apiKey);
    // Time is passed in: the pending window (30 s) passes without waiting for it.
    const deps = { ...vp.deps, config: { ...vp.deps.config, WIDGET_MAX_SESSIONS_PER_KEY: 4, WIDGET_MAX_SESSIONS_PER_IP: 2, WIDGET_PENDING_LEASE_SECONDS: 30 } };
    const t0 = Date.now();
    const start = (ip: string, atMs: number) =>
      startChat(deps, { workspaceId: vp.workspaceId, widget: { keyHash, visitor: widgetVisitor(keyHash, ip) }, agent, contactName: `Web visitor (${ORIGIN})` }, atMs);
    const refusal = (p: Promise<unknown>) => p.then(() => { throw new Error('not refused'); }, (e: unknown) => e as TooManyWidgetSessionsError & { details: Record<string, unknown>[] });
    const attacker = '203.0.113.9';

    // A script with a forged Origin at one address that never opens a socket: its share, then 429 with the true wait.
    const first = await start(attacker, t0);
    await start(attacker, t0 + 1_000);
    const byAddress = await refusal(start(attacker, t0 + 2_000));
    expect(byAddress).toBeInstanceOf(TooManyWidgetSessionsError);
    expect(byAddress.details[0]).toMatchObject({ policy: 'widget-sessions-ip', limit: 2, retryAfterSeconds: 28 });
    expect(byAddress.headers['retry-after']).toBe('28');
    // A visitor at another address is not locked out; the key's own limit still counts everyone.
    const visitor = await start('198.51.100.7', t0 + 2_000);
    await start('192.0.2.1', t0 + 3_000);
    const byKey = await refusal(start('192.0.2.2', t0 + 3_000));
    expect(byKey.details[0]).toMatchObject({ policy: 'widget-sessions', limit: 4, retryAfterSeconds: 27 });
    expect(byKey.message).toContain('within 27 seconds');

    // The visitor's socket opens: its claim extends the lease to the chat's length.
    expect(await claimChat(deps, { workspaceId: vp.workspaceId, callId: visitor.chatId }, t0 + 4_000)).toBe(deps.config.CHAT_MAX_DURATION_SECONDS);
    // Past the pending window the unopened sessions have freed their places (the same address gets in again)
    // and can no longer be opened; the visitor's place is still held.
    await start(attacker, t0 + 34_000);
    await start(attacker, t0 + 34_000);
    await start('192.0.2.3', t0 + 34_000);
    const stillFull = await refusal(start('192.0.2.4', t0 + 34_000));
    expect(stillFull.details[0]).toMatchObject({ policy: 'widget-sessions', retryAfterSeconds: 30 });
    expect(await claimChat(deps, { workspaceId: vp.workspaceId, callId: first.chatId }, t0 + 34_000)).toBeUndefined();
    expect((await findCall(vp.deps.db, vp.workspaceId, first.chatId))?.status).toBe('initiated');
  });
});
