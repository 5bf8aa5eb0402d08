/**
 * Invariant: a phone call and a campaign's calls speak the first message and run on the prompt filled from
 * their per-call variables (the request's; a campaign's defaults under each contact's columns), heard in the
 * call's transcript; a call start whose agent names a variable nobody supplies is a 400 listing the missing
 * names, with nothing stored and nothing dialed, for phone calls, meeting links and chats alike. A call's
 * `metadata` comes back on its history record, in every webhook about it, and through the history filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCampaignTick } from '../../../lib/services/campaign-scheduler.js';
import { expectRefusedUnchanged } from '../../support/invariants.js';
import { eventually, placeOutboundCall, startCallsPlatform, type CallsPlatform } from '../../support/calls.js';
import { untilDone, WAIT_MS } from '../../support/progress.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

let p: CallsPlatform;
const receiver = new WebhookReceiver();
beforeAll(async () => {
  await receiver.start();
  // The receiver is on loopback, which only an allow-listed host may be (local development and tests).
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${receiver.port}`;
  p = await startCallsPlatform({ campaignScheduler: false });
  // The model says its instructions back: the prompt a call ran on is then heard in its transcript.
  p.platform.voice.llm.control.set({
    ttftMs: 10,
    tokensPerSecond: 0,
    reply: (req) => (/summar/i.test(req.messages.system) ? { text: 'Summary: a call.' } : { text: `My instructions: ${req.messages.system.split('\n')[0]}` }),
  });
});
afterAll(async () => {
  await p?.stop();
  await receiver.stop();
  delete process.env.TOOL_ALLOWED_HOSTS;
});

const AGENT = {
  first_message: 'Hi {{first_name}}, about order {{order_id}}.',
  system_prompt: 'You help {{first_name|the caller}} with order {{order_id}} on a {{direction}} call, plan {{plan|none}}.',
};

const dialsTo = (to: string) => p.platform.twilio!.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Calls.json') && r.form.To === to).length;

describe('variables on a phone call', () => {
  it('fill the first message and the prompt, the call winning over the contact', async () => {
    const to = '+14155550611';
    const s = await p.callerSetup(100);
    await p.api(s.apiKey, 'POST', '/api/contacts', { contactName: 'Ada Lovelace', phoneNumber: to, externalFields: { first_name: 'Augusta', plan: 'gold' } });
    const { record, callId } = await placeOutboundCall(p, to, { kind: 'answer', lines: ['Hello?', 'Goodbye.'] }, {
      setup: s,
      agentPatch: AGENT,
      body: { variables: { first_name: 'Ada', order_id: 'A-1042' } },
    });
    expect(record.callTranscript).toContain('agent: Hi Ada, about order A-1042.');
    expect(record.callTranscript).toContain('My instructions: You help Ada with order A-1042 on a outbound call, plan gold.');
    expect(callId).toMatch(/^call_/);
  });

  it('refuses a start that leaves a named variable without a value: 400 listing it, nothing stored or dialed', async () => {
    const s = await p.callerSetup(100);
    expect((await p.api(s.apiKey, 'PATCH', `/api/agents/${s.agentId}`, AGENT)).status).toBe(200);
    const to = '+14155550612';
    const res = await expectRefusedUnchanged(
      p.deps.db,
      400,
      () => p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { assistantId: s.agentId, phoneNumber: to, phoneNumberId: s.numberId, variables: { order_id: 'A-1' } }),
      'missing_variables',
    );
    // first_name has a default in the prompt but not in the first message: it is still required.
    expect(res.body.error.details).toEqual([{ field: 'variables.first_name', message: 'required by the agent and not supplied' }]);
    expect(res.body.error.message).toContain('first_name');
    expect(dialsTo(to)).toBe(0);

    const meeting = await expectRefusedUnchanged(p.deps.db, 400, () => p.api(s.apiKey, 'POST', '/api/optimus/meeting-link', { assistantId: s.agentId, variables: { first_name: 'Ada' } }), 'missing_variables');
    expect(meeting.body.error.details.map((d: { field: string }) => d.field)).toEqual(['variables.order_id']);
    const chat = await expectRefusedUnchanged(p.deps.db, 400, () => p.api(s.apiKey, 'POST', '/api/chats', { agentId: s.agentId }), 'missing_variables');
    expect(chat.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['variables.first_name', 'variables.order_id']);
  });

  it('refuses ill-typed variables and built-in names with a 400 naming the field', async () => {
    const s = await p.callerSetup(100);
    const base = { assistantId: s.agentId, phoneNumber: '+14155550613', phoneNumberId: s.numberId };
    for (const variables of [{ a: { nested: 1 } }, { 'bad name': 'x' }, { call_id: 'mine' }, []]) {
      const res = await expectRefusedUnchanged(p.deps.db, 400, () => p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { ...base, variables }));
      expect(JSON.stringify(res.body.error.details)).toContain('variables');
    }
  });
});

describe('variables on a campaign', () => {
  it("fill each call from the campaign's defaults under the contact's columns", async () => {
    const s = await p.callerSetup(500);
    expect((await p.api(s.apiKey, 'PATCH', `/api/agents/${s.agentId}`, AGENT)).status).toBe(200);
    const people = [
      { contactName: 'Ada', phoneNumber: '+14155550621', externalFields: { first_name: 'Ada', plan: 'gold' } },
      { contactName: 'Bob', phoneNumber: '+14155550622', externalFields: { first_name: 'Bob' } },
    ];
    const ids: string[] = [];
    for (const c of people) {
      const created = await p.api(s.apiKey, 'POST', '/api/contacts', c);
      expect(created.status).toBe(201);
      ids.push(created.body._id);
      p.platform.callSimulator!.setRule(c.phoneNumber, { kind: 'answer', lines: ['Hello?', 'Goodbye.'] });
    }
    const created = await p.api(s.apiKey, 'POST', '/api/campaigns', {
      name: 'Orders',
      agentId: s.agentId,
      phoneNumberIds: [s.numberId],
      contacts: { contactIds: ids },
      callingWindow: { start: '00:00', end: '23:59', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], timeZone: 'UTC' },
      variables: { order_id: 'B-7', plan: 'basic' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ variables: { order_id: 'B-7', plan: 'basic' }, progress: { contacts: { skipped: 0 } } });
    expect((await p.api(s.apiKey, 'POST', `/api/campaigns/${created.body._id}/start`, {})).status).toBe(200);
    const results = await untilDone(async () => {
      await runCampaignTick(p.deps, { now: () => Date.now(), dialsPerSecond: 1_000 });
      const c = (await p.api(s.apiKey, 'GET', `/api/campaigns/${created.body._id}`)).body;
      if (c.status !== 'completed') return { progress: c.progress };
      return { progress: c.progress, done: (await p.api(s.apiKey, "GET", `/api/campaigns/${created.body._id}/results`)).body.data as { contactName: string; callIds: string[] }[] };
    }, { what: 'the campaign to complete', intervalMs: 250 });
    const transcripts = new Map<string, string>();
    for (const r of results) {
      const record = await eventually(async () => {
        const res = await p.api(s.apiKey, 'GET', `/api/history/${r.callIds[0]}`);
        return res.status === 200 && res.body.callTranscript ? res.body : undefined;
      }, WAIT_MS, 'the history record');
      transcripts.set(r.contactName, record.callTranscript);
    }
    expect(transcripts.get('Ada')).toContain('agent: Hi Ada, about order B-7.');
    expect(transcripts.get('Ada')).toContain('You help Ada with order B-7 on a outbound call, plan gold.');
    expect(transcripts.get('Bob')).toContain('agent: Hi Bob, about order B-7.');
    expect(transcripts.get('Bob')).toContain('You help Bob with order B-7 on a outbound call, plan basic.');
  });
});

describe('metadata', () => {
  it('is returned on the history record, sent in every webhook about the call, and filters the history list', async () => {
    const s = await p.callerSetup(100);
    expect((await p.api(s.apiKey, 'POST', '/api/webhooks', { url: receiver.url('/meta') })).status).toBe(201);
    const metadata = { crm_id: 'lead-42', attempt: 3, vip: true, tags: ['renewal'], owner: { team: 'east' } };
    const { callId, record } = await placeOutboundCall(p, '+14155550631', { kind: 'answer', lines: ['Hello?', 'Goodbye.'] }, { setup: s, body: { metadata } });
    expect(record.metadata).toEqual(metadata);
    const other = await placeOutboundCall(p, '+14155550632', { kind: 'answer', lines: ['Goodbye.'] }, { setup: s, body: { metadata: { crm_id: 'lead-43', attempt: 1 } } });

    for (const type of ['call.started', 'call.ended']) {
      const hook = await receiver.waitFor((h) => h.path === '/meta' && h.json.type === type && h.json.data.callId === callId, WAIT_MS);
      expect(hook.json.data.metadata, type).toEqual(metadata);
    }

    const list = async (query: string) => {
      const res = await p.api(s.apiKey, 'GET', `/api/history?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((r: { _id: string }) => r._id).sort();
    };
    expect(await list('metadata.crm_id=lead-42')).toEqual([callId]);
    expect(await list('metadata.attempt=3&metadata.vip=true')).toEqual([callId]);
    expect(await list('metadata.attempt=1')).toEqual([other.callId]);
    expect(await list('metadata.crm_id=nobody')).toEqual([]);
    expect((await p.api(s.apiKey, 'GET', '/api/history?metadata.bad%20key=x')).status).toBe(400);
    expect((await p.api(s.apiKey, 'GET', '/api/history?colour=red')).status).toBe(400);
  });

  it('over its limits is a 400 and stores nothing', async () => {
    const s = await p.callerSetup(100);
    const base = { assistantId: s.agentId, phoneNumber: '+14155550633', phoneNumberId: s.numberId };
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    const tooBig = { blob: 'x'.repeat(17 * 1024) };
    for (const metadata of [tooMany, tooBig, { 'not ok': 1 }, 'text']) {
      const res = await expectRefusedUnchanged(p.deps.db, 400, () => p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { ...base, metadata }));
      expect(JSON.stringify(res.body.error.details)).toContain('metadata');
    }
  });
});

describe('agent overrides', () => {
  it('take effect for the one call that names them, which the record lists, and leave the agent as it was', async () => {
    const s = await p.callerSetup(100);
    const { callId, record } = await placeOutboundCall(p, '+14155550641', { kind: 'answer', lines: ['Hello?', 'Goodbye.'] }, {
      setup: s,
      body: { agent_overrides: { first_message: 'This is the overridden greeting.', system_prompt: 'Speak for Bayview only.', max_duration_seconds: 120 } },
    });
    expect(record.callTranscript).toContain('agent: This is the overridden greeting.');
    expect(record.callTranscript).toContain('My instructions: Speak for Bayview only.');
    expect(record.agentOverrides).toEqual(['first_message', 'max_duration_seconds', 'system_prompt']);
    const dialed = p.platform.twilio!.requests.find((r) => r.method === 'POST' && r.path.endsWith('/Calls.json') && r.form.To === '+14155550641')!;
    expect(Number(dialed.form.TimeLimit)).toBeLessThan(200);
    expect(callId).toMatch(/^call_/);

    const plain = await placeOutboundCall(p, '+14155550642', { kind: 'answer', lines: ['Hello?', 'Goodbye.'] }, { setup: s });
    expect(plain.record.callTranscript).toContain('agent: Hello there, this is the clinic calling.');
    expect(plain.record.agentOverrides).toBeUndefined();
    const agent = await p.api(s.apiKey, 'GET', `/api/agents/${s.agentId}`);
    expect(agent.body).toMatchObject({ first_message: 'Hello {{contactName|there}}, this is the clinic calling.', system_prompt: 'You confirm appointments.' });
  });

  it('refuses unknown fields, ids, the workspace, ill-typed values and another workspace\'s tools: 400, nothing stored', async () => {
    const s = await p.callerSetup(100);
    const other = await p.callerSetup(100);
    const tool = await p.api(other.apiKey, 'POST', '/api/tools', { name: 'lookup', type: 'http', description: 'Looks an order up', config: { method: 'GET', url: 'https://api.example.com/orders' } });
    expect(tool.status).toBe(201);
    const base = { assistantId: s.agentId, phoneNumber: '+14155550643', phoneNumberId: s.numberId };
    for (const agent_overrides of [{ bogus: 1 }, { _id: 'agent_x' }, { workspaceId: other.workspaceId }, { max_duration_seconds: 'long' }, { tts_provider: 'nobody' }, { tool_ids: [tool.body._id] }]) {
      const res = await expectRefusedUnchanged(p.deps.db, 400, () => p.api(s.apiKey, 'POST', '/api/optimus/phone-call', { ...base, agent_overrides }));
      expect(JSON.stringify(res.body.error.details), JSON.stringify(agent_overrides)).toContain('agent_overrides');
    }
  });
});
