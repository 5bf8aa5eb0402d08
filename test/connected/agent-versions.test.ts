/**
 * Invariant: publishing freezes an agent as a numbered version (docs/agent-versions.md). Once an agent is
 * published, new calls and chats run its latest published version whatever its draft says, or the version
 * they pin (`agent_version`), and record which one ran; edits change only the draft until it is published.
 * Versions are listed, read, compared and restored; bad versions, another workspace's agent and a draft that
 * no longer validates are clear 4xx that change nothing; deleting the agent deletes its versions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getHistoryRecord } from '../../lib/store/history.js';
import { createWorkspace } from '../../lib/store/workspaces.js';
import { ChatPage } from '../support/chat-page.js';
import { startVoicePlatform, type VoicePlatform, waitUntil } from './voice-harness.js';

let vp: VoicePlatform;

beforeAll(async () => {
  vp = await startVoicePlatform({ llm: { ttftMs: 20, tokensPerSecond: 400, reply: () => ({ text: 'Sure.' }) }, tts: { firstByteDelayMs: 20, realtimeFactor: 8 } });
});
afterAll(() => vp?.stop());

const api = async (method: string, path: string, body?: unknown) => (await vp.api(method, path, body)) as { status: number; body: any };

async function chatGreeting(body: Record<string, unknown>): Promise<{ chatId: string; greeting: string }> {
  const res = await api('POST', '/api/chats', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const page = await ChatPage.open(`${vp.platform.baseUrl.replace(/^http/, 'ws')}/web-chat`, res.body.credential);
  const ready = await page.waitFor((f) => f.type === 'ready');
  page.drop();
  return { chatId: res.body.chatId, greeting: ready.messages[0]?.text };
}

describe('agent versions', () => {
  it('publish, edit the draft, compare, pin, restore: calls run what was published', async () => {
    const agent = await vp.agent({ first_message: 'Hello from version one.' });
    const path = `/api/agents/${agent._id}`;
    expect((await api('GET', path)).body).toMatchObject({ published_version: null, has_unpublished_changes: false });
    // Never published: a chat runs the record, and records no version.
    const before = await chatGreeting({ agentId: agent._id });
    expect(before.greeting).toBe('Hello from version one.');
    expect((await getHistoryRecord(vp.deps.db, vp.workspaceId, before.chatId))?.agentVersion).toBeUndefined();

    const v1 = await api('POST', `${path}/publish`, { note: 'First script' });
    expect(v1.status).toBe(201);
    expect(v1.body).toMatchObject({ agentId: agent._id, version: 1, note: 'First script', agent: { first_message: 'Hello from version one.' } });
    expect((await api('PATCH', path, { first_message: 'Hello from the draft.' })).body).toMatchObject({ published_version: 1, has_unpublished_changes: true });

    // The draft's edit reaches no new conversation until it is published.
    const live = await chatGreeting({ agentId: agent._id });
    expect(live.greeting).toBe('Hello from version one.');
    expect((await getHistoryRecord(vp.deps.db, vp.workspaceId, live.chatId))?.agentVersion).toBe(1);
    // A try-out of the draft, as the dashboard's test call does.
    const tryout = await chatGreeting({ agentId: agent._id, agent_version: 'draft' });
    expect(tryout.greeting).toBe('Hello from the draft.');
    expect((await getHistoryRecord(vp.deps.db, vp.workspaceId, tryout.chatId))?.agentVersion).toBeUndefined();
    expect((await api('GET', `${path}/diff`)).body).toEqual({ from: 1, to: 'draft', changes: [{ field: 'first_message', before: 'Hello from version one.', after: 'Hello from the draft.' }] });

    expect((await api('POST', `${path}/publish`, {})).body).toMatchObject({ version: 2, note: '', agent: { first_message: 'Hello from the draft.' } });
    expect((await api('GET', path)).body).toMatchObject({ published_version: 2, has_unpublished_changes: false });
    expect((await chatGreeting({ agentId: agent._id })).greeting).toBe('Hello from the draft.');
    // A pinned version runs instead of the latest.
    const pinned = await chatGreeting({ agentId: agent._id, agent_version: 1 });
    expect(pinned.greeting).toBe('Hello from version one.');
    expect((await getHistoryRecord(vp.deps.db, vp.workspaceId, pinned.chatId))?.agentVersion).toBe(1);

    const list = await api('GET', `${path}/versions`);
    expect(list.body).toMatchObject({ total: 2, page: 1, data: [{ version: 2 }, { version: 1, note: 'First script' }] });
    expect((await api('GET', `${path}/versions/1`)).body.agent.first_message).toBe('Hello from version one.');
    expect((await api('GET', `${path}/diff?from=1&to=2`)).body.changes.map((c: { field: string }) => c.field)).toEqual(['first_message']);

    // Restore: the draft only, then as a new published version (a rollback).
    expect((await api('POST', `${path}/versions/1/restore`, {})).body).toMatchObject({ first_message: 'Hello from version one.', published_version: 2, has_unpublished_changes: true });
    expect((await chatGreeting({ agentId: agent._id })).greeting).toBe('Hello from the draft.');
    expect((await api('POST', `${path}/versions/1/restore`, { publish: true, note: 'Rollback' })).body).toMatchObject({ first_message: 'Hello from version one.', published_version: 3 });
    expect((await api('GET', `${path}/versions/3`)).body).toMatchObject({ note: 'Rollback', agent: { first_message: 'Hello from version one.' } });
    expect((await chatGreeting({ agentId: agent._id })).greeting).toBe('Hello from version one.');
  });

  it('a phone call runs the version it was started with and records it', async () => {
    const agent = await vp.agent({ first_message: 'Version one speaking.' });
    expect((await api('POST', `/api/agents/${agent._id}/publish`, {})).status).toBe(201);
    expect((await api('PATCH', `/api/agents/${agent._id}`, { first_message: 'The draft speaking.' })).status).toBe(200);
    const caller = await vp.call(agent, { agentVersion: 1 });
    // The greeting's mark comes back once its audio has played.
    await waitUntil(() => (caller.echoed.some((e) => !e.flushed) ? true : undefined));
    await caller.whenIdle();
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(String(ended.record?.callTranscript).split('\n')[0]).toBe('agent: Version one speaking.');
    expect(ended.record?.agentVersion).toBe(1);
  });

  it('refuses bad versions, drafts that no longer validate and other workspaces, changing nothing', async () => {
    const tool = await api('POST', '/api/tools', { name: 'Front desk', type: 'transfer', description: 'Transfer to the front desk', config: { url: 'tel:+14155550142' } });
    const agent = await vp.agent({ first_message: 'Hi.', tool_ids: [tool.body._id] });
    const path = `/api/agents/${agent._id}`;
    // Never published: nothing to pin, nothing to compare.
    const unpublished = await api('POST', '/api/chats', { agentId: agent._id, agent_version: 1 });
    expect(unpublished.status).toBe(400);
    expect(unpublished.body.error.details).toEqual([{ field: 'agent_version', message: `agent ${agent._id} has no published version` }]);
    expect((await api('GET', `${path}/diff`)).status).toBe(400);
    expect((await api('POST', `${path}/publish`, { note: 'x'.repeat(501) })).status).toBe(400);
    expect((await api('POST', `${path}/publish`, { note: 'ok', extra: true })).status).toBe(400);

    expect((await api('POST', `${path}/publish`, {})).body.version).toBe(1);
    for (const bad of [0, -1, 1.5]) expect((await api('POST', '/api/chats', { agentId: agent._id, agent_version: bad })).status).toBe(400);
    const missing = await api('POST', '/api/optimus/meeting-link', { assistantId: agent._id, agent_version: 7 });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0]).toEqual({ field: 'agent_version', message: `agent ${agent._id} has no version 7 (versions 1 to 1)` });
    expect((await api('GET', `${path}/versions/7`)).status).toBe(404);
    expect((await api('GET', `${path}/versions/zero`)).status).toBe(400);
    expect((await api('POST', `${path}/versions/7/restore`, {})).status).toBe(404);

    // The draft names a tool deleted since: publishing it is refused and the published version stays.
    expect((await api('DELETE', `/api/tools/${tool.body._id}`)).status).toBe(204);
    const refused = await api('POST', `${path}/publish`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].field).toBe('tool_ids.0');
    expect((await api('GET', path)).body.published_version).toBe(1);

    // Another workspace reads this agent's versions as unknown.
    const key = (await createWorkspace(vp.deps.db, { name: 'Other', credits: 10 })).apiKey;
    const foreign = (method: string, p: string, body?: unknown) =>
      fetch(`${vp.platform.baseUrl}${p}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, ...(body !== undefined && { body: JSON.stringify(body) }) });
    expect((await foreign('GET', `${path}/versions`)).status).toBe(404);
    expect((await foreign('GET', `${path}/versions/1`)).status).toBe(404);
    expect((await foreign('POST', `${path}/publish`, {})).status).toBe(404);
    expect((await foreign('POST', '/api/chats', { agentId: agent._id, agent_version: 1 })).status).toBe(404);
    expect((await api('GET', path)).body.published_version).toBe(1);

    // A number and a campaign pin a version that exists, or are refused.
    const available = await api('GET', '/api/phone-numbers/available?areaCode=415&limit=1');
    const bought = await api('POST', '/api/phone-numbers/buy', { phoneNumber: available.body.data[0].number });
    const numberPath = `/api/phone-numbers/${bought.body._id}`;
    expect((await api('PATCH', numberPath, { agentId: agent._id, agent_version: 1 })).body).toMatchObject({ agentId: agent._id, agent_version: 1 });
    const badPin = await api('PATCH', numberPath, { agent_version: 4 });
    expect(badPin.status).toBe(400);
    expect(badPin.body.error.details[0].field).toBe('agent_version');
    expect((await api('GET', numberPath)).body).toMatchObject({ agentId: agent._id, agent_version: 1 });
    expect((await api('PATCH', numberPath, { agent_version: null })).body.agent_version).toBeNull();
    const campaign = await api('POST', '/api/campaigns', { name: 'Reminders', agentId: agent._id, agent_version: 4, phoneNumberIds: [bought.body._id], contacts: { search: 'nobody' } });
    expect(campaign.status).toBe(400);
    expect(campaign.body.error.details[0].field).toBe('agent_version');

    // Deleting the agent deletes its versions.
    expect((await api('DELETE', path)).status).toBe(204);
    expect((await api('GET', `${path}/versions/1`)).status).toBe(404);
  });
});
