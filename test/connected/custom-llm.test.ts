/**
 * Invariant: an agent with `llm_provider: "custom"` runs on the workspace's own OpenAI-compatible endpoint
 * (docs/vendors-llm.md). The endpoint here is written in this file (node:http on 127.0.0.1, not our
 * stand-in): it streams server-sent-event deltas, splits a tool call's arguments across chunks and ends with
 * `[DONE]`; the chat's tool runs and the answer is heard, the summary comes from the same endpoint, and the
 * endpoint receives the key and the call's context headers. The base URL is refused at save when it is
 * private, metadata, plain http outside TOOL_ALLOWED_HOSTS or not a URL (400, nothing stored); the key is
 * never returned; agent_overrides cannot name an endpoint; an endpoint that errors or answers non-JSON is a
 * clean per-turn failure, answered by the agent's fallback model when it has one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAgent } from '../../lib/store/agents.js';
import { CustomLlm } from '../../lib/vendors/llm/custom.js';
import type { LlmEvent } from '../../lib/vendors/llm/port.js';
import { VendorError } from '../../lib/vendors/shared/errors.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { startToolBackend, type ToolBackend } from '../support/tool-backend.js';
import { SimulatedWebCaller } from '../../lib/local/callers/simulated-web-caller.js';
import { startVoicePlatform, waitUntil, type VoicePlatform } from './voice-harness.js';

const KEY = 'sk-own-model-0123456789';

interface Seen {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: { model: string; stream: boolean; messages: { role: string; content: string | null; tool_calls?: unknown[] }[]; tools?: { function: { name: string } }[] };
}

/** A small OpenAI-compatible Chat Completions server: `mode` decides how it answers. */
class OwnModel {
  readonly seen: Seen[] = [];
  mode: 'ok' | 'error' | 'html' | 'stall' = 'ok';
  /** Resolves when a request's connection closed before its answer ended (a barge-in's abort). */
  closedEarly: Promise<void> = new Promise(() => undefined);
  private constructor(readonly server: Server) {}

  static async start(): Promise<OwnModel> {
    const model = new OwnModel(createServer((req, res) => void model.answer(req, res)));
    await new Promise<void>((resolve) => model.server.listen(0, '127.0.0.1', resolve));
    return model;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Seen['body'];
    this.seen.push({ path: req.url ?? '', headers: req.headers, body });
    if (this.mode === 'error') {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"model overloaded"}}');
      return;
    }
    if (this.mode === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to nginx!</body></html>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (this.mode === 'stall') {
      // One word, then nothing: the client must close the connection itself when it is interrupted.
      this.closedEarly = new Promise((resolve) => res.on('close', () => resolve()));
      res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta: { content: 'Well' }, finish_reason: null }] })}\n\n`);
      return;
    }
    const send = (delta: Record<string, unknown>, finish: string | null = null) =>
      res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    const last = body.messages.at(-1)!;
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    if (/summar/i.test(system)) {
      send({ role: 'assistant', content: 'Asked about order A17.' });
      send({}, 'stop');
    } else if (last.role === 'tool') {
      for (const piece of ['Your order ', 'has ', 'shipped.']) send({ content: piece });
      send({}, 'stop');
    } else {
      // The call's id and name first, then the arguments in three pieces, as vendors stream them.
      send({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'check_order', arguments: '' } }] });
      for (const piece of ['{"order_', 'id": "A1', '7"}']) send({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
      send({}, 'tool_calls');
    }
    res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [], usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 } })}\n\n`);
    res.end('data: [DONE]\n\n');
  }
}

let vp: VoicePlatform;
let own: OwnModel;
let orders: ToolBackend;

beforeAll(async () => {
  own = await OwnModel.start();
  orders = await startToolBackend('{"status":"shipped"}');
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${own.port},127.0.0.1:${orders.port}`;
  vp = await startVoicePlatform({
    llm: { reply: () => ({ text: 'The fallback model answered.' }) },
    stt: { transcripts: () => 'Where is my order?', finalDelayMs: 50 },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
  const tool = { name: 'Check order', type: 'http', description: 'Look an order up', config: { method: 'GET', url: `http://127.0.0.1:${orders.port}/orders/{order_id}` }, parameters: [{ name: 'order_id', description: 'the order', required: true }] };
  expect((await vp.api('POST', '/api/tools', { ...tool, workspaceId: vp.workspaceId })).status).toBe(201);
});
afterAll(async () => {
  await vp?.stop();
  own?.server.close();
  orders?.server.close();
  delete process.env.TOOL_ALLOWED_HOSTS;
});

const baseUrl = () => `http://127.0.0.1:${own.port}/v1`;
const customAgent = (extra: Record<string, unknown> = {}) => ({
  name: 'Own brain',
  llm_provider: 'custom',
  llm_base_url: baseUrl(),
  llm_model: 'my-finetune',
  tts_provider: 'deepgram',
  stt_provider: 'deepgram',
  first_message: 'Hi! Ask me about your order.',
  workspaceId: vp.workspaceId,
  ...extra,
});
const agentCount = async () => ((await vp.api('GET', '/api/agents?limit=1', undefined)).body as { total: number }).total;

/** Opens the chat page's socket for a chat created through the API; `ask` sends a message and waits for its reply. */
async function openChat(agentId: string, extra: Record<string, unknown> = {}) {
  const created = await vp.api('POST', '/api/chats', { agentId, ...extra });
  expect(created.status).toBe(201);
  const { chatId, credential, chatUrl } = created.body as { chatId: string; credential: string; chatUrl: string };
  const ws = new WebSocket(chatUrl);
  const frames: { type: string; [k: string]: any }[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    frames.push(JSON.parse(String(data)) as { type: string });
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ type: 'hello', credential }));
  /** The frames from `from` on, once one of `types` is among them. */
  const waitFor = async (types: readonly string[], from: number) => {
    while (!frames.slice(from).some((f) => types.includes(f.type))) await new Promise<void>((resolve) => waiters.push(resolve));
    return frames.slice(from);
  };
  await waitFor(['ready'], 0);
  return {
    chatId,
    ws,
    async ask(text: string) {
      const from = frames.length;
      ws.send(JSON.stringify({ type: 'message', text }));
      return (await waitFor(['reply', 'error'], from)).filter((f) => f.type === 'delta' || f.type === 'reply' || f.type === 'error');
    },
    async end() {
      const from = frames.length;
      ws.send(JSON.stringify({ type: 'end' }));
      await waitFor(['ended'], from);
    },
  };
}

describe('a custom model endpoint', () => {
  it('stores the key sealed and never returns it; a masked key sent back keeps it', async () => {
    const created = await vp.api('POST', '/api/agents', customAgent({ llm_api_key: KEY }));
    expect(created.status).toBe(201);
    const body = created.body as Record<string, unknown>;
    expect(body).toMatchObject({ llm_provider: 'custom', llm_base_url: baseUrl(), llm_api_key: '********' });
    expect(JSON.stringify(body)).not.toContain(KEY);
    const read = await vp.api('GET', `/api/agents/${String(body._id)}`, undefined);
    expect(read.body).toMatchObject({ llm_api_key: '********' });
    expect(JSON.stringify(read.body)).not.toContain(KEY);
    const stored = await getAgent(vp.deps.db, vp.workspaceId, String(body._id));
    expect(stored.llm_api_key).toMatch(/^v\d+:/);
    expect(vp.deps.secrets.open(stored.llm_api_key!, vp.workspaceId)).toBe(KEY);
    // The form sends back what it read: the key stays.
    const patched = await vp.api('PATCH', `/api/agents/${String(body._id)}`, { llm_api_key: '********', llm_model: 'my-finetune-2' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ llm_api_key: '********', llm_model: 'my-finetune-2' });
    expect(vp.deps.secrets.open((await getAgent(vp.deps.db, vp.workspaceId, String(body._id))).llm_api_key!, vp.workspaceId)).toBe(KEY);
    // A switch to a vendor removes the endpoint and the key.
    const switched = await vp.api('PATCH', `/api/agents/${String(body._id)}`, { llm_provider: 'openai', llm_model: 'gpt-4o-mini' });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ llm_base_url: null, llm_api_key: null });
  });

  it('refuses a private, metadata, plain-http or malformed base URL with a 400 and stores nothing', async () => {
    const before = await agentCount();
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ llm_base_url: 'http://10.0.0.7/v1' }, /private, loopback/],
      [{ llm_base_url: 'http://169.254.169.254/latest' }, /metadata/],
      [{ llm_base_url: 'https://metadata.google.internal/v1' }, /local or internal host/],
      [{ llm_base_url: 'http://llm.example.com/v1' }, /must use https/],
      [{ llm_base_url: 'not a url' }, /absolute https URL/],
      [{ llm_base_url: 'https://user:pw@llm.example.com/v1' }, /credentials/],
      [{ llm_base_url: undefined }, /needs llm_base_url/],
      [{ llm_provider: 'openai', llm_model: 'gpt-4o-mini' }, /belongs to llm_provider "custom"/],
    ];
    for (const [extra, message] of refused) {
      const res = await vp.api('POST', '/api/agents', customAgent(extra));
      expect(res.status, JSON.stringify(extra)).toBe(400);
      const error = (res.body as { error: { code: string; details: { field: string; message: string }[] } }).error;
      expect(error.code).toBe('validation_failed');
      expect(error.details.map((d) => d.message).join(' ')).toMatch(message);
    }
    expect(await agentCount()).toBe(before);
  });

  it('keeps a call from naming an endpoint through agent_overrides', async () => {
    const vendor = await vp.agent();
    const named = await vp.api('POST', '/api/chats', { agentId: vendor._id, agent_overrides: { llm_base_url: 'https://evil.example/v1' } });
    expect(named.status).toBe(400);
    const switched = await vp.api('POST', '/api/chats', { agentId: vendor._id, agent_overrides: { llm_provider: 'custom' } });
    expect(switched.status).toBe(400);
    expect(JSON.stringify(switched.body)).toMatch(/agent_overrides\.llm_provider/);
  });

  it('answers a chat through the endpoint: streamed deltas, a tool call split across chunks, the summary, the key and the context headers', async () => {
    const created = await vp.api('POST', '/api/agents', customAgent({ llm_api_key: KEY }));
    const agentId = String((created.body as { _id: string })._id);
    own.seen.length = 0;
    const chat = await openChat(agentId, { metadata: { crm_id: 'crm-9', note: 'café' }, variables: { tier: 'gold' } });
    const answer = await chat.ask('Where is my order?');
    expect(answer.filter((f) => f.type === 'delta').length).toBeGreaterThan(1);
    expect(answer.find((f) => f.type === 'reply')?.text).toBe('Your order has shipped.');
    // The tool ran with the arguments put back together.
    expect(orders.seen.map((r) => r.url)).toEqual(['/orders/A17']);
    const [first, second] = own.seen;
    expect(first!.path).toBe('/v1/chat/completions');
    expect(first!.body).toMatchObject({ model: 'my-finetune', stream: true });
    expect(first!.body.tools?.map((t) => t.function.name)).toContain('check_order');
    expect(first!.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'x-call-id': chat.chatId, 'x-agent-id': agentId });
    expect(JSON.parse(String(first!.headers['x-call-metadata']))).toEqual({ crm_id: 'crm-9', note: 'café' });
    expect(JSON.parse(String(first!.headers['x-call-variables']))).toMatchObject({ tier: 'gold' });
    // The follow-up carried the assistant's tool call and the tool's result.
    expect(second!.body.messages.at(-1)).toMatchObject({ role: 'tool' });
    expect(second!.body.messages.at(-2)?.tool_calls).toHaveLength(1);
    const ended = new Promise<void>((resolve) => {
      const off = vp.platform.voice.streaming.onChatEnded(() => {
        off();
        resolve();
      });
    });
    await chat.end();
    await ended;
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, chat.chatId)) as unknown as Record<string, unknown>;
    expect(record.callSummary).toBe('Asked about order A17.');
    expect(String(record.callTranscript)).toContain('agent: Your order has shipped.');
  });

  it('answers a browser call through the endpoint: the tool runs, the answer is heard, the usage is counted', async () => {
    const created = await vp.api('POST', '/api/agents', customAgent());
    const agent = await getAgent(vp.deps.db, vp.workspaceId, String((created.body as { _id: string })._id));
    own.seen.length = 0;
    orders.seen.length = 0;
    const meeting = await vp.meeting(agent, { metadata: { ticket: 'T-4' } });
    const page = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
    await waitUntil(() => (page.captions('agent').includes('Hi! Ask me about your order.') ? true : undefined));
    await page.whenIdle();
    await page.say('Where is my order?');
    await waitUntil(() => (page.captions('agent').includes('Your order has shipped.') ? true : undefined));
    await page.whenIdle();
    page.hangUp();
    const ended = await vp.nextCallEnded();
    expect(ended.callId).toBe(meeting.callId);
    expect(orders.seen.map((r) => r.url)).toEqual(['/orders/A17']);
    expect(own.seen[0]!.headers).toMatchObject({ 'x-call-id': meeting.callId, 'x-call-metadata': '{"ticket":"T-4"}' });
    // Two requests answered the turn (the tool call, then the answer), each reporting 42 + 7 tokens.
    expect(ended.outcome.llmUsage.inputTokens).toBeGreaterThanOrEqual(84);
    expect(ended.outcome.llmUsage.inputTokens % 42).toBe(0);
    const record = await getHistoryRecord(vp.deps.db, vp.workspaceId, meeting.callId);
    expect(String(record.callTranscript).split('\n')).toEqual(['agent: Hi! Ask me about your order.', 'user: Where is my order?', 'agent: Your order has shipped.']);
  });

  it('turns an erroring or non-JSON endpoint into a clean failed turn, and hands the turn to the fallback model', async () => {
    const alone = await vp.api('POST', '/api/agents', customAgent());
    const withFallback = await vp.api('POST', '/api/agents', customAgent({ fallback: { llm: [{ provider: 'openai', model: 'gpt-4o-mini' }] } }));
    for (const mode of ['error', 'html'] as const) {
      own.mode = mode;
      own.seen.length = 0;
      const chat = await openChat(String((alone.body as { _id: string })._id));
      expect((await chat.ask('Where is my order?')).find((f) => f.type === 'error' || f.type === 'reply')).toMatchObject({ type: 'error', code: 'reply_failed' });
      expect(own.seen.length).toBeGreaterThan(0);
      chat.ws.close();
      const rescued = await openChat(String((withFallback.body as { _id: string })._id));
      expect((await rescued.ask('Where is my order?')).find((f) => f.type === 'reply')?.text).toBe('The fallback model answered.');
      rescued.ws.close();
    }
    own.mode = 'ok';
  });
});

describe('the custom adapter on the wire', () => {
  const context = { callId: 'call_wire', agentId: 'agt_wire' };
  const request = { model: 'my-finetune', messages: [{ role: 'user' as const, content: 'Where is my order?' }], tools: [{ name: 'check_order', description: 'Look an order up', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } }] };
  const collect = async (llm: CustomLlm, signal = new AbortController().signal) => {
    const events: LlmEvent[] = [];
    for await (const event of llm.stream(request, signal)) events.push(event);
    return events;
  };

  it('connects to the address the guard resolved and checked (the name itself resolves nowhere) and joins the split tool call', async () => {
    own.mode = 'ok';
    own.seen.length = 0;
    // A name no resolver knows, answered by the guard's resolver with the loopback server (allow-listed).
    const llm = new CustomLlm({ baseUrl: `http://llm.wire.example:${own.port}/v1`, context, allowedHosts: [`llm.wire.example:${own.port}`], resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    const events = await collect(llm);
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.type === 'tool_call' && e.call)).toEqual([{ id: 'call_1', name: 'check_order', arguments: '{"order_id": "A17"}' }]);
    expect(events.at(-1)).toMatchObject({ type: 'done', finishReason: 'tool_calls', usage: { inputTokens: 42, outputTokens: 7 } });
    expect(own.seen[0]!.headers).toMatchObject({ host: `llm.wire.example:${own.port}`, 'x-call-id': 'call_wire' });
    // No key: no Authorization header at all.
    expect(own.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('refuses, without retrying, a name that resolves to a private address at call time', async () => {
    own.seen.length = 0;
    let lookups = 0;
    const llm = new CustomLlm({ baseUrl: 'https://llm.rebind.example/v1', context, allowedHosts: [], resolver: async () => (lookups++, [{ address: '10.0.0.7', family: 4 }]) });
    const error = await collect(llm).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ vendor: 'custom', retryable: false });
    expect(String((error as Error).message)).toMatch(/refused: llm\.rebind\.example is a private/);
    expect(lookups).toBe(1);
    expect(own.seen).toEqual([]);
  });

  it('closes the connection when the turn is interrupted', async () => {
    own.mode = 'stall';
    const llm = new CustomLlm({ baseUrl: baseUrl(), context, allowedHosts: [`127.0.0.1:${own.port}`] });
    const abort = new AbortController();
    const events: LlmEvent[] = [];
    for await (const event of llm.stream(request, abort.signal)) {
      events.push(event);
      abort.abort();
    }
    expect(events).toMatchObject([{ type: 'text', delta: 'Well' }]);
    await own.closedEarly;
    own.mode = 'ok';
  });
});
