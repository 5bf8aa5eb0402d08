/**
 * Invariant: during a call, an `http` tool the model calls sends exactly the configured request — method,
 * URL with each `{param}` URL-encoded, the decrypted header values, the JSON body with each argument in
 * its parameter's type — and its answer reaches the model (with a filler phrase spoken while a slow tool
 * runs); typed parameters reach the model's tool schema; a tool whose URL points at a metadata, link-local
 * or loopback address not on TOOL_ALLOWED_HOSTS cannot be saved, and one saved before that rule is refused
 * at call time: the model is told it was refused and nothing is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { putNewTool } from '../../lib/store/tools.js';
import { startToolBackend, type ToolBackend } from '../support/tool-backend.js';
import { startVoicePlatform, type VoicePlatform, waitUntil } from './voice-harness.js';
import { toolModel } from '../support/tool-model.js';

let vp: VoicePlatform;
let backend: ToolBackend;
let forbidden: ToolBackend;

beforeAll(async () => {
  // The backend answers after 0.7 s: long enough that the filler phrase (after 0.3 s here) must be spoken.
  backend = await startToolBackend('{"status":"shipped"}', 700);
  forbidden = await startToolBackend('{"secret":"do not leak"}');
  // Only the backend's exact host:port is allowed; the other loopback server is not.
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${backend.port}`;
  vp = await startVoicePlatform({
    stt: {
      transcripts: ({ utterance }) => ['Where is my order?', 'Read the metadata.', 'Call the local admin.'][utterance] ?? 'Bye.',
      finalDelayMs: 50,
    },
    llm: toolModel({
      summary: 'Summary: order status and two refused tools.',
      // Short answers keep the played audio (and the test) short; the tool results are asserted below.
      afterTool: (content) => (/refused/.test(content) ? 'Refused.' : /shipped/.test(content) ? 'Shipped.' : 'No idea.'),
      call: (last) => {
        // The model writes the integer as a string, as models often do: the tool sends a number.
        if (/order/i.test(last)) return { name: 'check_order', arguments: { order_id: 'A 17/ü?', note: 'He said "hi"', quantity: '2' } };
        if (/metadata/i.test(last)) return { name: 'instance_metadata', arguments: {} };
        if (/admin/i.test(last)) return { name: 'local_admin', arguments: {} };
        return undefined;
      },
    }),
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
    session: { fillerAfterMs: 300, fillerPhrases: ['One sec.'] },
  });
});
afterAll(async () => {
  await vp?.stop();
  delete process.env.TOOL_ALLOWED_HOSTS;
  backend?.server.close();
  forbidden?.server.close();
});

describe('tools during a call', () => {
  it('sends the exact configured request, speaks a filler while waiting, and refuses private targets', async () => {
    const created = await vp.api('POST', '/api/tools', {
      name: 'Check order',
      type: 'http',
      description: 'Look up the status of an order',
      config: {
        method: 'POST',
        url: `http://127.0.0.1:${backend.port}/orders/{order_id}?source=voice`,
        headers: { 'X-Api-Key': 'secret-123' },
        body: { order: '{order_id}', note: '{note}', quantity: '{quantity}', channel: 'voice' },
      },
      parameters: [
        { name: 'order_id', description: 'The order number', required: true },
        { name: 'note', description: 'A note', required: false },
        { name: 'quantity', description: 'How many items', required: false, type: 'integer' },
      ],
      workspaceId: vp.workspaceId,
    });
    expect(created.status).toBe(201);
    const risky = [
      { name: 'Instance metadata', description: 'Reads metadata', url: 'http://169.254.169.254/latest/meta-data/' },
      { name: 'Local admin', description: 'Calls the admin service', url: `http://localhost:${forbidden.port}/admin` },
    ];
    for (const tool of risky) {
      const refused = await vp.api('POST', '/api/tools', {
        name: tool.name, type: 'http', description: tool.description, config: { method: 'GET', url: tool.url }, workspaceId: vp.workspaceId,
      });
      expect(refused.status).toBe(400);
      expect((refused.body as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe('config.url');
      // Saved as a tool written before the save-time rule existed: the call-time guard must still hold.
      const now = new Date().toISOString();
      await putNewTool(vp.deps.db, vp.deps.secrets, {
        _id: `tool_${tool.name.replace(/\W/g, '')}`, workspaceId: vp.workspaceId, name: tool.name, type: 'http', description: tool.description,
        config: { method: 'GET', url: tool.url }, parameters: [], createdAt: now, updatedAt: now,
      });
    }

    const agent = await vp.agent({ first_message: 'Hello, orders desk.' });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'mark');
    await caller.whenIdle();

    for (let turn = 0; turn < 3; turn += 1) {
      const before = caller.echoed.length;
      await caller.play(tone(300));
      // Each turn ends with the answer's last phrase played.
      await waitUntil(() => (vp.platform.voice.llm.control.requestsFor('openai').length >= (turn + 1) * 2 ? true : undefined));
      await waitUntil(() => (caller.echoed.length > before ? true : undefined));
      await caller.whenIdle();
      await caller.pause(300);
      await caller.whenIdle();
    }
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    // Exactly one request reached the backend, exactly as configured.
    expect(backend.seen).toHaveLength(1);
    const seen = backend.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe(`/orders/${encodeURIComponent('A 17/ü?')}?source=voice`);
    expect(seen.headers['x-api-key']).toBe('secret-123');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen.body)).toEqual({ order: 'A 17/ü?', note: 'He said "hi"', quantity: 2, channel: 'voice' });
    // Nothing reached the loopback server that is not allow-listed.
    expect(forbidden.seen).toHaveLength(0);

    const requests = vp.platform.voice.llm.control.requestsFor('openai');
    const offered = (requests[0]!.body as { tools: { function: { name: string; parameters: { properties: Record<string, unknown> } } }[] }).tools;
    expect(offered.find((tl) => tl.function.name === 'check_order')!.function.parameters.properties.quantity).toEqual({
      type: 'integer',
      description: 'How many items',
    });
    const toolMessages = requests.flatMap((r) => (r.body as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'tool'));
    const contents = [...new Set(toolMessages.map((m) => m.content))];
    expect(contents[0]).toContain('shipped');
    expect(contents.filter((c) => /refused/.test(c))).toHaveLength(2);
    expect(contents.some((c) => /do not leak/.test(c))).toBe(false);

    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    const lines = String(record.callTranscript).split('\n');
    expect(lines[0]).toBe('agent: Hello, orders desk.');
    expect(lines[1]).toBe('user: Where is my order?');
    // The filler was spoken (and heard) before the answer.
    expect(lines[2]).toBe('agent: One sec. Shipped.');
    // A refused target is decided on the machine, usually before the filler is due (300 ms) and sometimes,
    // on a loaded one, after: whether "One sec." comes first is timing, not behaviour. The refusal reaching
    // the model (above) and the caller (here) with nothing sent (forbidden.seen) is what is tested.
    expect(lines.slice(3)).toEqual([
      'user: Read the metadata.',
      expect.stringMatching(/^agent: (One sec\. )?Refused\.$/),
      'user: Call the local admin.',
      expect.stringMatching(/^agent: (One sec\. )?Refused\.$/),
    ]);

    // The call's timeline has each tool call with its status and duration, and none of the tool's secrets.
    const timeline = await vp.api('GET', `/api/history/${ended.callId}/events`, undefined);
    expect(timeline.status).toBe(200);
    const events = (timeline.body as { data: { type: string; name?: string; status?: string; durationMs?: number }[] }).data;
    const tools = events.filter((e) => e.type === 'tool_call');
    expect(tools.map((e) => [e.name, e.status])).toEqual([
      ['check_order', 'ok'],
      [expect.any(String), 'error'],
      [expect.any(String), 'error'],
    ]);
    for (const t of tools) expect(t.durationMs).toBeGreaterThanOrEqual(0);
    expect(events.filter((e) => e.type === 'turn')).toHaveLength(3);
    expect(JSON.stringify(events)).not.toContain('secret-123');
  });
});
