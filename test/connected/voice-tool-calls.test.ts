/**
 * Invariant: within one call a tool call is idempotent — the same tool with the same arguments (in any key
 * order) re-issued by the model a turn later gets the first result without a second request to the
 * customer's backend, unless the first attempt failed or timed out (then it runs again); while a slow tool
 * runs the caller hears a filler and then a "still working" phrase, varied rather than repeated word for
 * word across the call; a tool that times out reaches the model as a clear error result it speaks about.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { startToolBackend, type ToolBackend } from '../support/tool-backend.js';
import { startVoicePlatform, type VoicePlatform, waitUntil } from './voice-harness.js';
import { toolModel } from '../support/tool-model.js';

let vp: VoicePlatform;
let orders: ToolBackend;
let stock: ToolBackend;
let hung: ToolBackend;

// The caller's turns, in order; the scripted model answers each as commented.
const CALLER = [
  'Where is my order?', // check_order {order_id, channel}: fast backend
  'Can you check my order again?', // the same call, keys in the other order: served from the first result
  'Is the blue chair in stock?', // check_stock: slow backend, filler then "still working"
  'And the red chair?', // check_stock with other arguments: slow again, the phrases differ from the first time
  'Check the warehouse.', // warehouse: never answers, times out
  'Try the warehouse once more.', // the same call after a timeout: runs again
];

// Short waiting phrases (the defaults are 1.3 to 2.8 s of audio each, played in real time), two of each so
// the test sees them vary.
const FILLERS = ['One sec.', 'Hold on.'];
/** Phrases the agent speaks per turn: the answer alone, or a filler, "still working" and the answer. */
const PHRASES_PER_ANSWER = [1, 1, 3, 3, 3, 3];
const STILL = ['Still on it.', 'Nearly there.'];

beforeAll(async () => {
  orders = await startToolBackend('{"status":"shipped"}');
  // Well past both filler thresholds below and below the tool timeout. The backend's timer and the
  // session's filler timers share this process's event loop, so they fire in deadline order under load too.
  stock = await startToolBackend('{"in_stock":true}', 2_000);
  hung = await startToolBackend('', Infinity);
  process.env.TOOL_ALLOWED_HOSTS = [orders, stock, hung].map((s) => `127.0.0.1:${s.port}`).join(',');
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => CALLER[utterance] ?? 'Bye.', finalDelayMs: 50 },
    llm: toolModel({
      summary: 'Summary.',
      afterTool: (content) => {
        if (/timed out/.test(content)) return 'No answer.';
        if (/shipped/.test(content)) return 'Shipped.';
        if (/in_stock/.test(content)) return 'In stock.';
        return 'No idea.';
      },
      call: (last) => {
        if (/again/i.test(last)) return { name: 'check_order', arguments: { channel: 'phone', order_id: 'A17' } };
        if (/order/i.test(last)) return { name: 'check_order', arguments: { order_id: 'A17', channel: 'phone' } };
        if (/blue/i.test(last)) return { name: 'check_stock', arguments: { item: 'blue chair' } };
        if (/red/i.test(last)) return { name: 'check_stock', arguments: { item: 'red chair' } };
        if (/warehouse/i.test(last)) return { name: 'warehouse', arguments: { item: 'chair' } };
        return undefined;
      },
    }),
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
    // Short thresholds keep the test quick; the slow backend (2 s) answers well after both. The filler waits
    // 1 s: a fast lookup (two model requests and a loopback HTTP call) took over 500 ms on a loaded machine,
    // and its turns must have no filler.
    session: { fillerAfterMs: 1_000, stillWorkingAfterMs: 1_400, toolTimeoutMs: 3_000, fillerPhrases: FILLERS, stillWorkingPhrases: STILL },
  });
});
afterAll(async () => {
  await vp?.stop();
  delete process.env.TOOL_ALLOWED_HOSTS;
  for (const s of [orders, stock, hung]) s?.server.close();
});

describe('tool calls during a call', () => {
  it('runs a repeated call once, varies the waiting phrases, and reports a timeout to the model', async () => {
    const tools = [
      { name: 'Check order', url: `http://127.0.0.1:${orders.port}/orders/{order_id}?channel={channel}`, params: ['order_id', 'channel'] },
      { name: 'Check stock', url: `http://127.0.0.1:${stock.port}/stock?item={item}`, params: ['item'] },
      { name: 'Warehouse', url: `http://127.0.0.1:${hung.port}/warehouse?item={item}`, params: ['item'] },
    ];
    for (const t of tools) {
      const created = await vp.api('POST', '/api/tools', {
        name: t.name,
        type: 'http',
        description: `${t.name} lookup`,
        config: { method: 'GET', url: t.url },
        parameters: t.params.map((name) => ({ name, description: name, required: true })),
        workspaceId: vp.workspaceId,
      });
      expect(created.status).toBe(201);
    }

    const agent = await vp.agent({ first_message: 'Hi, shop.' });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'mark');
    await caller.whenIdle();
    for (let turn = 0; turn < CALLER.length; turn += 1) {
      const before = caller.echoed.length;
      await caller.play(tone(300));
      // Each turn has an LLM request for the tool call and one after its result.
      await waitUntil(() => (vp.platform.voice.llm.control.requestsFor('openai').length >= (turn + 1) * 2 ? true : undefined));
      // The answer's last phrase played (a mark is echoed per phrase, named `<utterance>.<index>`): a slow
      // lookup's line can go quiet between its fillers and its answer, and a question asked then would
      // interrupt the answer.
      const last = `.${PHRASES_PER_ANSWER[turn]! - 1}`;
      await waitUntil(() => (caller.echoed.slice(before).some((e) => e.name.endsWith(last) && !e.flushed) ? true : undefined));
      await caller.whenIdle();
      await caller.pause(300);
      await caller.whenIdle();
    }
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    // The repeated order lookup reached the backend once; the timed-out lookup ran twice.
    expect(orders.seen.map((r) => r.url)).toEqual(['/orders/A17?channel=phone']);
    expect(stock.seen.map((r) => r.url)).toEqual(['/stock?item=blue%20chair', '/stock?item=red%20chair']);
    expect(hung.seen).toHaveLength(2);

    const requests = vp.platform.voice.llm.control.requestsFor('openai');
    // The conversation's last request (not the end-of-call summary) carries every tool result of the call.
    const toolMessages = requests
      .map((q) => (q.body as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'tool'))
      .reduce((a, b) => (b.length > a.length ? b : a));
    expect(toolMessages).toHaveLength(6);
    // Both order lookups got the first result.
    expect(JSON.parse(toolMessages[1]!.content)).toEqual(JSON.parse(toolMessages[0]!.content));
    expect(toolMessages[1]!.content).toContain('shipped');
    // The timeout is a clear error result, every time it happens.
    expect(JSON.parse(toolMessages[4]!.content)).toEqual({ error: 'timed out after 3 s' });
    expect(JSON.parse(toolMessages[5]!.content)).toEqual({ error: 'timed out after 3 s' });

    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    const lines = String(record.callTranscript).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'agent: Hi, shop.',
      'user: Where is my order?',
      'agent: Shipped.',
      'user: Can you check my order again?',
      'agent: Shipped.',
    ]);
    // The slow lookups: a filler, then "still working", then the answer, in that order, and not the same
    // words the second time.
    expect(lines[6]).toBe(`agent: ${FILLERS[0]} ${STILL[0]} In stock.`);
    expect(lines[8]).toBe(`agent: ${FILLERS[1]} ${STILL[1]} In stock.`);
    // The model spoke about the timeout instead of leaving silence.
    expect(lines[10]).toMatch(/No answer\.$/);
    expect(lines[12]).toMatch(/No answer\.$/);
  });
});
