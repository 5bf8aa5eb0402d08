/**
 * Invariant: an agent is offered only the workspace tools its `tool_ids` names (docs/api.md, "tool_ids"),
 * on every channel that offers tools to a model: a phone call and a text chat of one workspace's agents
 * with `[A]` and `[B]` each reach the model with only their own tool; an agent without `tool_ids` is
 * offered both; `[]` none. The built-ins (end_call, send_dtmf) stay whatever the list says. A tool
 * deleted after the agent listed it is simply no longer offered. Each call and chat leaves a history
 * record naming its agent, and the history filter by agent finds exactly those.
 */
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../lib/domain/agent.js';
import { startVoicePlatform, sayAndHearAnswer, type VoicePlatform, waitUntil } from './voice-harness.js';

let vp: VoicePlatform;
let toolA: string;
let toolB: string;

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'Hello there.', finalDelayMs: 50 },
    llm: { ttftMs: 20, tokensPerSecond: 400, reply: (req) => ({ text: /summar/i.test(req.messages.system) ? 'Summary.' : 'Sure.' }) },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
  const tool = async (name: string) => {
    const res = await vp.api('POST', '/api/tools', { name, type: 'transfer', description: `Transfer to ${name}`, config: { url: 'tel:+14155550142' }, workspaceId: vp.workspaceId });
    expect(res.status).toBe(201);
    return (res.body as { _id: string })._id;
  };
  toolA = await tool('Sales desk');
  toolB = await tool('Support desk');
});
afterAll(() => vp?.stop());

/** An agent made through the API, its system prompt naming it so its model requests can be told apart. */
async function agent(label: string, toolIds?: string[] | null): Promise<Agent> {
  const res = await vp.api('POST', '/api/agents', {
    name: label,
    llm_provider: 'openai',
    llm_model: 'gpt-4o-mini',
    tts_provider: 'elevenlabs',
    stt_provider: 'deepgram',
    system_prompt: `You are agent ${label}.`,
    first_message: 'Hi.',
    ...(toolIds !== undefined ? { tool_ids: toolIds } : {}),
    workspaceId: vp.workspaceId,
  });
  expect(res.status).toBe(201);
  return res.body as Agent;
}

/** The tool names of every conversation request the model got from `label`'s agent (summaries excluded). */
function toolsOffered(label: string): string[][] {
  return vp.platform.voice.llm.control
    .requestsFor('openai')
    .map((r) => r.body as { messages: { role: string; content: string }[]; tools?: { function: { name: string } }[] })
    .filter((b) => b.messages[0]?.content === `You are agent ${label}.`)
    .map((b) => (b.tools ?? []).map((t) => t.function.name).sort());
}

/** One chat with the agent: created through the API, one visitor message answered, then closed. */
async function chatOnce(a: Agent): Promise<string> {
  const created = await vp.api('POST', '/api/chats', { agentId: a._id });
  expect(created.status).toBe(201);
  const { chatId, credential } = created.body as { chatId: string; credential: string };
  const ws = new WebSocket(`${vp.platform.baseUrl.replace(/^http/, 'ws')}/web-chat`);
  const frames: { type: string }[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as { type: string }));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'hello', credential }));
  await waitUntil(() => frames.find((f) => f.type === 'ready'));
  ws.send(JSON.stringify({ type: 'message', text: 'Hello?' }));
  await waitUntil(() => frames.find((f) => f.type === 'reply' || f.type === 'error'));
  expect(frames.find((f) => f.type === 'error')).toBeUndefined();
  ws.close();
  return chatId;
}

/** One phone call with the agent: the caller speaks once, hears the answer, and hangs up. */
async function callOnce(a: Agent): Promise<string> {
  const caller = await vp.call(a);
  await waitUntil(() => caller.echoed.find((e) => !e.flushed));
  await caller.whenIdle();
  await sayAndHearAnswer(caller, 'Hello there.');
  caller.hangUp();
  const ended = await vp.nextCallEnded();
  return ended.callId;
}

describe('the tools an agent is offered', () => {
  it('follow its tool_ids on calls and chats; absent offers every tool; history names the agent', async () => {
    const sales = await agent('sales', [toolA]);
    const support = await agent('support', [toolB]);
    const everyone = await agent('everyone');
    const none = await agent('none', []);

    const callIds = { sales: await callOnce(sales), support: await callOnce(support), everyone: await callOnce(everyone) };
    const chatIds = { sales: await chatOnce(sales), support: await chatOnce(support), everyone: await chatOnce(everyone), none: await chatOnce(none) };

    // The built-ins as the registry offers them today on both channels (an inbound call has no opt_out).
    const offered = (...own: string[]) => ['end_call', 'send_dtmf', ...own].sort();
    // The call's request, then the chat's: each agent's model saw its own tool and no other.
    expect(toolsOffered('sales')).toEqual([offered('sales_desk'), offered('sales_desk')]);
    expect(toolsOffered('support')).toEqual([offered('support_desk'), offered('support_desk')]);
    expect(toolsOffered('everyone')).toEqual([offered('sales_desk', 'support_desk'), offered('sales_desk', 'support_desk')]);
    expect(toolsOffered('none')).toEqual([offered()]);

    // History records name their agent; the filter finds exactly each agent's call and chat.
    const byAgent = async (a: Agent) => {
      const res = await vp.api('GET', `/api/history?agentId=${a._id}&limit=100`, undefined);
      expect(res.status).toBe(200);
      const page = res.body as { data: { _id: string; agentId: string }[]; total: number };
      expect(page.data.every((r) => r.agentId === a._id)).toBe(true);
      return page.data.map((r) => r._id).sort();
    };
    expect(await byAgent(sales)).toEqual([callIds.sales, chatIds.sales].sort());
    expect(await byAgent(support)).toEqual([callIds.support, chatIds.support].sort());
    expect(await byAgent(none)).toEqual([chatIds.none]);
  });

  it('a tool deleted after the agent listed it is no longer offered, and the rest still are', async () => {
    const extra = await vp.api('POST', '/api/tools', { name: 'Billing desk', type: 'transfer', description: 'Transfer to billing', config: { url: 'tel:+14155550143' }, workspaceId: vp.workspaceId });
    const billing = (extra.body as { _id: string })._id;
    const both = await agent('both', [billing, toolA]);
    const deleted = await fetch(`${vp.platform.baseUrl}/api/tools/${billing}`, { method: 'DELETE', headers: { 'x-api-key': vp.apiKey } });
    expect(deleted.status).toBe(204);
    await chatOnce(both);
    expect(toolsOffered('both')).toEqual([['end_call', 'sales_desk', 'send_dtmf']]);
  });
});
