/**
 * Invariant: GET /api/calls lists exactly the workspace's calls that are not over (initiated, dialing,
 * ringing, in-progress), newest first, by agent and by page, in the LiveCall shape; a call placed through
 * the Twilio stand-in is listed while it runs and leaves the list when it ends; GET /api/calls/{id} shows a
 * call live or ended, with its history record's id once written; another workspace's call is a 404 and a
 * bad id or query a 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '../../../lib/domain/call.js';
import { newId } from '../../../lib/domain/ids.js';
import { accountFor } from '../../../lib/services/dispatch.js';
import { createCallWithReservation } from '../../../lib/store/call-creation.js';
import { settleReservation } from '../../../lib/store/call-settlement.js';
import { advanceCall, claimForDispatch, findCall } from '../../../lib/store/calls.js';
import { claimChatCall, claimWebStream, endChatCall } from '../../../lib/store/web-calls.js';
import { eventually, startCallsPlatform, type CallerSetup, type CallsPlatform } from '../../support/calls.js';
import { WAIT_MS } from '../../support/progress.js';

let p: CallsPlatform;
beforeAll(async () => {
  p = await startCallsPlatform();
});
afterAll(async () => p?.stop());

const LIVE_KEYS = ['agentId', 'answeredAt', 'createdAt', 'direction', 'from', 'id', 'state', 'to', 'type'];

/** A call written as the API writes one (reservation and all), but never queued: it stays where the test moves it. */
async function storedCall(s: CallerSetup, agentId: string, to: string): Promise<string> {
  const now = new Date().toISOString();
  const call: Call = {
    _id: newId('call'),
    workspaceId: s.workspaceId,
    agentId,
    agentType: 'voice',
    status: 'initiated',
    to,
    from: s.number,
    phoneNumberId: s.numberId,
    contactName: '',
    reserved: 10,
    maxDurationSeconds: 600,
    createdAt: now,
    updatedAt: now,
  };
  expect(await createCallWithReservation(p.deps.db, call)).toEqual({ kind: 'created' });
  return call._id;
}

async function secondAgent(apiKey: string): Promise<string> {
  const res = await p.api(apiKey, 'POST', '/api/agents', {
    name: 'Second',
    llm_provider: 'openai',
    llm_model: 'gpt-4o-mini',
    tts_provider: 'deepgram',
    stt_provider: 'deepgram',
    first_message: 'Hello.',
    system_prompt: 'You help.',
  });
  expect(res.status).toBe(201);
  return res.body._id as string;
}

describe('calls in progress', () => {
  let s: CallerSetup;
  let other: { apiKey: string; workspaceId: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    s = await p.callerSetup(100);
    other = await p.workspace(100);
    const agentB = await secondAgent(s.apiKey);
    const now = () => new Date().toISOString();
    ids.initiated = await storedCall(s, s.agentId, '+14155550301');
    ids.dialing = await storedCall(s, s.agentId, '+14155550302');
    expect(await claimForDispatch(p.deps.db, s.workspaceId, ids.dialing, 1, now())).toBeDefined();
    ids.ringing = await storedCall(s, s.agentId, '+14155550303');
    expect(await advanceCall(p.deps.db, s.workspaceId, ids.ringing, 'ringing', now())).toBeDefined();
    ids.inProgress = await storedCall(s, agentB, '+14155550304');
    expect(await advanceCall(p.deps.db, s.workspaceId, ids.inProgress, 'in-progress', now())).toBeDefined();
    ids.busy = await storedCall(s, s.agentId, '+14155550305');
    expect(await advanceCall(p.deps.db, s.workspaceId, ids.busy, 'busy', now(), { endReason: 'busy' })).toBeDefined();
    ids.agentB = agentB;
  });

  it('lists the calls not over, newest first, in the LiveCall shape; an ended one is not listed', async () => {
    const res = await p.api(s.apiKey, 'GET', '/api/calls');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, page: 1, limit: 10 });
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([ids.inProgress, ids.ringing, ids.dialing, ids.initiated]);
    expect(res.body.data.map((c: { state: string }) => c.state)).toEqual(['in-progress', 'ringing', 'dialing', 'initiated']);
    for (const c of res.body.data) expect(Object.keys(c).sort()).toEqual(LIVE_KEYS);
    const [answered, ringing] = res.body.data;
    expect(answered).toMatchObject({ agentId: ids.agentB, type: 'voice', direction: 'outbound', from: s.number, to: '+14155550304' });
    expect(Date.parse(answered.answeredAt)).toBeGreaterThanOrEqual(Date.parse(answered.createdAt));
    expect(ringing).toMatchObject({ agentId: s.agentId, answeredAt: null, to: '+14155550303' });
  });

  it('filters by agent and pages', async () => {
    const byAgent = await p.api(s.apiKey, 'GET', `/api/calls?agentId=${ids.agentB}`);
    expect(byAgent.status).toBe(200);
    expect(byAgent.body.total).toBe(1);
    expect(byAgent.body.data.map((c: { id: string }) => c.id)).toEqual([ids.inProgress]);
    const second = await p.api(s.apiKey, 'GET', '/api/calls?page=2&limit=2');
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ total: 4, page: 2, limit: 2 });
    expect(second.body.data.map((c: { id: string }) => c.id)).toEqual([ids.dialing, ids.initiated]);
  });

  it('shows one call live or ended; an ended call without its record yet has no historyId', async () => {
    const live = await p.api(s.apiKey, 'GET', `/api/calls/${ids.ringing}`);
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ id: ids.ringing, state: 'ringing', endReason: null, endedAt: null, historyId: null, answeredAt: null });
    const ended = await p.api(s.apiKey, 'GET', `/api/calls/${ids.busy}`);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ id: ids.busy, state: 'busy', endReason: 'busy', historyId: null });
    expect(Date.parse(ended.body.endedAt)).toBeGreaterThanOrEqual(Date.parse(ended.body.createdAt));
  });

  it("another workspace sees none of them: its list is empty and each call is a 404", async () => {
    const list = await p.api(other.apiKey, 'GET', '/api/calls');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ data: [], total: 0 });
    for (const id of Object.values(ids).filter((id) => id.startsWith('call_'))) {
      const res = await p.api(other.apiKey, 'GET', `/api/calls/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const foreign = await p.api(other.apiKey, 'GET', `/api/calls?workspaceId=${s.workspaceId}`);
    expect(foreign.status).toBe(403);
  });

  it('a bad id or query is a 4xx', async () => {
    expect((await p.api(s.apiKey, 'GET', '/api/calls/call_nope')).status).toBe(404);
    const long = await p.api(s.apiKey, 'GET', `/api/calls/${'c'.repeat(65)}`);
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('validation_failed');
    expect((await p.api(s.apiKey, 'GET', '/api/calls?state=ringing')).status).toBe(400);
    expect((await p.api(s.apiKey, 'GET', '/api/calls?limit=0')).status).toBe(400);
    expect((await p.api(s.apiKey, 'GET', `/api/calls?agentId=${'a'.repeat(101)}`)).status).toBe(400);
  });
});

describe('a call placed through the Twilio stand-in', () => {
  it('is listed while it runs, leaves the list when it ends, and then points at its history record', async () => {
    const s = await p.callerSetup(100);
    const to = '+14155550310';
    // A phone menu that waits for keys nobody presses: the call stays up until the test hangs it up.
    p.platform.callSimulator!.setRule(to, { kind: 'ivr', prompt: 'Thank you for calling. Press one for sales.', menu: {} });
    const started = await p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, phoneNumber: to, phoneNumberId: s.numberId });
    expect(started.status).toBe(202);
    const callId: string = started.body.call_id;

    const listed = await eventually(async () => {
      const res = await p.api(s.apiKey, 'GET', '/api/calls');
      const found = res.body.data.find((c: { id: string }) => c.id === callId);
      return found?.state === 'in-progress' ? found : undefined;
    }, WAIT_MS, 'the call listed in progress');
    expect(listed).toMatchObject({ agentId: s.agentId, type: 'voice', direction: 'outbound', from: s.number, to });
    expect(listed.answeredAt).not.toBeNull();
    const live = await p.api(s.apiKey, 'GET', `/api/calls/${callId}`);
    expect(live.body).toMatchObject({ state: 'in-progress', endReason: null, endedAt: null, historyId: null });
    expect((await p.api(s.apiKey, 'GET', `/api/history/${callId}`)).status).toBe(404);

    // The callee hangs up (Twilio ends the call; the stream's end settles it).
    const call = (await findCall(p.deps.db, s.workspaceId, callId))!;
    const { account } = await accountFor(p.deps, s.workspaceId, s.numberId);
    await p.deps.telephony.port.updateCall(account!, call.providerCallSid!, { status: 'completed' });

    const ended = await eventually(async () => {
      const res = await p.api(s.apiKey, 'GET', `/api/calls/${callId}`);
      return res.body.historyId !== null ? res.body : undefined;
    }, WAIT_MS, 'the ended call with its history record');
    expect(ended).toMatchObject({ id: callId, state: 'completed', historyId: callId });
    expect(ended.endReason).not.toBeNull();
    expect(Date.parse(ended.endedAt)).toBeGreaterThanOrEqual(Date.parse(ended.answeredAt));
    const list = await p.api(s.apiKey, 'GET', '/api/calls');
    expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(callId);
    expect(list.body.total).toBe(0);
    expect((await p.api(s.apiKey, 'GET', `/api/history/${ended.historyId}`)).status).toBe(200);
  });

  it('a meeting link nobody joined is not listed; the call shows its placeholder record', async () => {
    const s = await p.callerSetup(100);
    const link = await p.api(s.apiKey, 'POST', '/api/optimus/meeting-link', { assistantId: s.agentId, contactName: 'Ada' });
    expect(link.status).toBe(201);
    const list = await p.api(s.apiKey, 'GET', '/api/calls');
    expect(list.body.total).toBe(0);
    const one = await p.api(s.apiKey, 'GET', `/api/calls/${link.body.call_id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: link.body.call_id, type: 'video', state: 'initiated', from: null, answeredAt: null, historyId: link.body.call_id });
  });

  it('a meeting is listed once joined and leaves when settled; a chat once its socket opened, until it ends', async () => {
    const s = await p.callerSetup(100);
    const ids = async () => (await p.api(s.apiKey, 'GET', '/api/calls')).body.data.map((c: { id: string }) => c.id);
    const link = await p.api(s.apiKey, 'POST', '/api/optimus/meeting-link', { assistantId: s.agentId, contactName: 'Ada' });
    const meeting: string = link.body.call_id;
    // The meeting page's first socket claims the call (what the join's session does) and reserves.
    const joined = await claimWebStream(p.deps.db, s.workspaceId, meeting, 'web-stream-1', 10, new Date().toISOString());
    expect(joined.kind).toBe('claimed');
    expect(await ids()).toEqual([meeting]);
    const listed = (await p.api(s.apiKey, 'GET', '/api/calls')).body.data[0];
    expect(listed).toMatchObject({ type: 'video', state: 'in-progress', from: null });
    expect(listed.answeredAt).not.toBeNull();

    const chat = await p.api(s.apiKey, 'POST', '/api/chats', { agentId: s.agentId });
    expect(chat.status).toBe(201);
    const chatId: string = chat.body.chatId;
    expect(await ids()).toEqual([meeting]);
    expect(await claimChatCall(p.deps.db, s.workspaceId, chatId, new Date().toISOString())).toBeDefined();
    expect(await ids()).toEqual([chatId, meeting]);
    expect((await p.api(s.apiKey, 'GET', `/api/calls?agentId=${s.agentId}`)).body.data.map((c: { type: string }) => c.type)).toEqual(['chat', 'video']);

    expect(await endChatCall(p.deps.db, s.workspaceId, chatId, { endReason: 'customer_hangup', cost: 0.01, now: new Date().toISOString() })).toBeDefined();
    expect(await ids()).toEqual([meeting]);
    const settled = await settleReservation(p.deps.db, s.workspaceId, meeting, { cost: 0.5, billedSeconds: 30, complete: true }, 'customer_hangup', new Date().toISOString());
    expect(settled.kind).toBe('settled');
    expect(await ids()).toEqual([]);
    const ended = await p.api(s.apiKey, 'GET', `/api/calls/${meeting}`);
    expect(ended.body).toMatchObject({ state: 'completed', endReason: 'customer_hangup', historyId: meeting });
  });
});
