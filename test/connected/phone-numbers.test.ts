/**
 * Invariant: phone numbers are searched, bought, imported (BYOT), listed, read, assigned and released
 * through the HTTP API with the fields API_SPEC.md lists; a number belongs to at most one workspace; the
 * provider sees exactly the requests each operation implies (and none when we refuse first); BYOT auth
 * tokens never leave the store unsealed.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TwilioStandin } from '../../lib/local/standins/twilio/standin.js';
import { key } from '../../lib/store/model.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let twilio: TwilioStandin;
let platformSid: string;

const agentBody = (workspaceId: string) => ({
  name: 'Front desk',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'deepgram',
  stt_provider: 'deepgram',
  workspaceId,
});

/** A free number of the stand-in's pool in area code `area` (distinct per test to keep them apart). */
let nextSuffix = 0;
const freshNumber = (area = '628') => `+1${area}55501${String(nextSuffix++).padStart(2, '0')}`;

beforeAll(async () => {
  t = await startTestPlatform();
  twilio = t.platform.twilio!;
  platformSid = (await t.deps.telephony.platformAccount())!.accountSid;
});
afterAll(() => t?.stop());

const hooks = () => ({ voiceUrl: `${t.baseUrl}/twilio/voice`, statusCallback: `${t.baseUrl}/twilio/status` });

describe('search', () => {
  it('lists numbers for sale in the platform account, with the view fields', async () => {
    const ws = await t.workspace();
    const res = await t.api(ws.apiKey, 'GET', '/api/phone-numbers/available?country=us&areaCode=303&limit=3');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toHaveLength(3);
    for (const n of res.body.data) {
      expect(n.number).toMatch(/^\+1303\d{7}$/);
      expect(Object.keys(n).sort()).toEqual(['capabilities', 'country', 'friendlyName', 'locality', 'number', 'postalCode', 'region'].sort());
      expect(n.capabilities).toEqual({ voice: true, sms: true, mms: true });
    }
    expect(twilio.requests.at(-1)).toMatchObject({ method: 'GET', authAccountSid: platformSid, query: { AreaCode: '303', PageSize: '3' } });
  });

  it('refuses bad queries and unsupported countries with 400', async () => {
    const ws = await t.workspace();
    for (const q of ['areaCode=41', 'country=USA', 'limit=51', 'contains=12-34']) {
      const res = await t.api(ws.apiKey, 'GET', `/api/phone-numbers/available?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const res = await t.api(ws.apiKey, 'GET', '/api/phone-numbers/available?country=ZZ');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('country_not_supported');
  });
});

describe('buy', () => {
  it('buys into the platform account pointed at our webhooks; answers exactly _id, number, status, workspaceId', async () => {
    const ws = await t.workspace();
    const number = freshNumber();
    const res = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: number, workspaceId: ws.workspaceId });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['_id', 'number', 'status', 'workspaceId']);
    expect(res.body).toMatchObject({ number, status: 'active', workspaceId: ws.workspaceId });
    expect(res.body._id).toMatch(/^pn_/);
    expect(twilio.number(number)).toMatchObject({ accountSid: platformSid, ...hooks(), voiceMethod: 'POST', statusCallbackMethod: 'POST' });
    expect(twilio.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/2010-04-01/Accounts/${platformSid}/IncomingPhoneNumbers.json`,
      form: { PhoneNumber: number, VoiceUrl: hooks().voiceUrl, StatusCallback: hooks().statusCallback },
      authAccountSid: platformSid,
    });
  });

  it('normalizes the number typed with punctuation', async () => {
    const ws = await t.workspace();
    const number = freshNumber('720');
    const typed = `+1 (${number.slice(2, 5)}) ${number.slice(5, 8)}-${number.slice(8)}`;
    const res = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: typed, workspaceId: ws.workspaceId });
    expect(res.status).toBe(201);
    expect(res.body.number).toBe(number);
  });

  it('a number held by a workspace here is 409 for every workspace, before the provider is asked', async () => {
    const [a, b] = [await t.workspace(), await t.workspace()];
    const number = freshNumber();
    expect((await t.api(a.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: number, workspaceId: a.workspaceId })).status).toBe(201);
    twilio.clearRequests();
    for (const w of [a, b]) {
      const res = await t.api(w.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: number, workspaceId: w.workspaceId });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('phone_number_taken');
    }
    expect(twilio.requests).toHaveLength(0);
    expect((await t.api(b.apiKey, 'GET', '/api/phone-numbers')).body.total).toBe(0);
  });

  it('a number the provider will not sell is 409 number_unavailable; nothing is stored', async () => {
    const ws = await t.workspace();
    const elsewhere = twilio.addAccount();
    const number = freshNumber();
    twilio.addNumber(elsewhere.sid, number);
    const res = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: number, workspaceId: ws.workspaceId });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('number_unavailable');
    expect((await t.api(ws.apiKey, 'GET', '/api/phone-numbers')).body.total).toBe(0);
  });

  it('rejects malformed bodies and another workspace in the body', async () => {
    const [ws, other] = [await t.workspace(), await t.workspace()];
    for (const body of [{ phoneNumber: '12345', workspaceId: ws.workspaceId }, { workspaceId: ws.workspaceId }, { phoneNumber: freshNumber(), workspaceId: ws.workspaceId, type: 'byot' }]) {
      const res = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const foreign = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: freshNumber(), workspaceId: other.workspaceId });
    expect(foreign.status).toBe(403);
  });
});

describe('import (BYOT)', () => {
  const customer = () => {
    const account = twilio.addAccount();
    return { account, body: (ws: string, phoneNumber: string, token = account.authToken) => ({ phoneNumber, telephonyAccountSid: account.sid, telephonyAuthToken: token, workspaceId: ws }) };
  };

  it('points the number at our webhooks and answers exactly _id, number, status, type, workspaceId', async () => {
    const ws = await t.workspace();
    const { account, body } = customer();
    const number = '+13125550111';
    twilio.addNumber(account.sid, number, { voiceUrl: 'https://customer.test/old-voice', statusCallback: 'https://customer.test/old-status' });
    twilio.clearRequests();
    const res = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/import', body(ws.workspaceId, number));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['_id', 'number', 'status', 'type', 'workspaceId']);
    expect(res.body).toMatchObject({ number, status: 'active', type: 'byot', workspaceId: ws.workspaceId });
    expect(twilio.number(number)).toMatchObject({ accountSid: account.sid, ...hooks() });
    const [find, configure] = twilio.requests;
    expect(find).toMatchObject({ method: 'GET', path: `/2010-04-01/Accounts/${account.sid}/IncomingPhoneNumbers.json`, query: { PhoneNumber: number }, authAccountSid: account.sid });
    expect(configure).toMatchObject({
      method: 'POST',
      path: `/2010-04-01/Accounts/${account.sid}/IncomingPhoneNumbers/${twilio.number(number)!.sid}.json`,
      form: { VoiceUrl: hooks().voiceUrl, VoiceMethod: 'POST', StatusCallback: hooks().statusCallback, StatusCallbackMethod: 'POST' },
      authAccountSid: account.sid,
    });
    expect(twilio.requests).toHaveLength(2);
  });

  it('stores the auth token sealed and never returns it', async () => {
    const ws = await t.workspace();
    const { account, body } = customer();
    const number = '+13125550112';
    twilio.addNumber(account.sid, number);
    const created = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/import', body(ws.workspaceId, number));
    const stored = await t.deps.db.doc.send(new GetCommand({ TableName: t.deps.db.table, Key: key.phoneNumber(ws.workspaceId, created.body._id) }));
    expect(JSON.stringify(stored.Item)).not.toContain(account.authToken);
    expect(t.deps.secrets.open(stored.Item!.authTokenSealed as string, ws.workspaceId)).toBe(account.authToken);
    for (const path of [`/api/phone-numbers/${created.body._id}`, '/api/phone-numbers']) {
      const res = await t.api(ws.apiKey, 'GET', path);
      expect(JSON.stringify(res.body)).not.toContain(account.authToken);
      expect(JSON.stringify(res.body)).not.toContain('authToken');
    }
  });

  it('wrong credentials: 422 telephony_credentials_invalid; nothing stored or changed', async () => {
    const ws = await t.workspace();
    const { account, body } = customer();
    const number = '+13125550113';
    twilio.addNumber(account.sid, number, { voiceUrl: 'https://customer.test/v' });
    const res = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/import', body(ws.workspaceId, number, '0'.repeat(32)));
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'telephony_credentials_invalid', details: [{ field: 'telephonyAuthToken' }] });
    expect(twilio.number(number)!.voiceUrl).toBe('https://customer.test/v');
    expect((await t.api(ws.apiKey, 'GET', '/api/phone-numbers')).body.total).toBe(0);
  });

  it('a number not in the account: 422 number_not_in_account', async () => {
    const ws = await t.workspace();
    const { body } = customer();
    const other = twilio.addAccount();
    twilio.addNumber(other.sid, '+13125550114');
    for (const number of ['+13125550114', '+13125550199']) {
      const res = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/import', body(ws.workspaceId, number));
      expect(res.status, number).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'number_not_in_account', details: [{ field: 'phoneNumber' }] });
    }
  });

  it('a number routed to a voice application or a SIP trunk is refused with 409 and left as it is', async () => {
    const ws = await t.workspace();
    const { account, body } = customer();
    twilio.addNumber(account.sid, '+13125550115', { voiceApplicationSid: `AP${'a'.repeat(32)}` });
    twilio.addNumber(account.sid, '+13125550116', { trunkSid: `TK${'b'.repeat(32)}` });
    for (const [number, what] of [['+13125550115', 'VoiceApplicationSid'], ['+13125550116', 'TrunkSid']] as const) {
      twilio.clearRequests();
      const res = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/import', body(ws.workspaceId, number));
      expect(res.status, number).toBe(409);
      expect(res.body.error.code).toBe('number_routed_elsewhere');
      expect(res.body.error.message).toContain(what);
      expect(twilio.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
      expect(twilio.number(number)!.voiceUrl).toBe('');
    }
  });

  it('a number another workspace holds is 409 without touching the customer account', async () => {
    const [a, b] = [await t.workspace(), await t.workspace()];
    const { account, body } = customer();
    const number = '+13125550117';
    twilio.addNumber(account.sid, number);
    expect((await t.api(a.apiKey, 'POST', '/api/phone-numbers/import', body(a.workspaceId, number))).status).toBe(201);
    twilio.clearRequests();
    const res = await t.api(b.apiKey, 'POST', '/api/phone-numbers/import', body(b.workspaceId, number));
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('phone_number_taken');
    expect(twilio.requests).toHaveLength(0);
  });

  it('two workspaces importing one number at once: exactly one wins', async () => {
    const { account, body } = customer();
    const number = '+13125550118';
    twilio.addNumber(account.sid, number);
    const spaces = await Promise.all([1, 2, 3, 4].map(() => t.workspace()));
    const results = await Promise.all(spaces.map((w) => t.api(w.apiKey, 'POST', '/api/phone-numbers/import', body(w.workspaceId, number))));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const totals = await Promise.all(spaces.map((w) => t.api(w.apiKey, 'GET', '/api/phone-numbers')));
    expect(totals.map((r) => r.body.total).sort()).toEqual([0, 0, 0, 1]);
  });

  it('validates the account sid shape', async () => {
    const ws = await t.workspace();
    const res = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/import', { phoneNumber: '+13125550119', telephonyAccountSid: 'SK123', telephonyAuthToken: 'x'.repeat(32), workspaceId: ws.workspaceId });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe('telephonyAccountSid');
  });
});

describe('list, get, assign, release', () => {
  it('lists newest first in the paginated envelope; get shows the same view', async () => {
    const ws = await t.workspace();
    const bought = [freshNumber(), freshNumber()];
    const ids: string[] = [];
    for (const n of bought) ids.push((await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: n, workspaceId: ws.workspaceId })).body._id);
    const account = twilio.addAccount();
    twilio.addNumber(account.sid, '+13125550120');
    const imported = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/import', { phoneNumber: '+13125550120', telephonyAccountSid: account.sid, telephonyAuthToken: account.authToken, workspaceId: ws.workspaceId });
    ids.push(imported.body._id);

    const page = await t.api(ws.apiKey, 'GET', `/api/phone-numbers?workspaceId=${ws.workspaceId}&limit=2`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(page.body.data.map((n: { _id: string }) => n._id)).toEqual([ids[2], ids[1]]);
    const [byot, own] = page.body.data;
    expect(Object.keys(byot).sort()).toEqual(['_id', 'agentId', 'agent_version', 'createdAt', 'number', 'status', 'telephonyAccountSid', 'type', 'updatedAt', 'workspaceId']);
    expect(byot).toMatchObject({ type: 'byot', telephonyAccountSid: account.sid, agentId: null, status: 'active' });
    // Bought numbers carry no type and never show the platform's account.
    expect(Object.keys(own).sort()).toEqual(['_id', 'agentId', 'agent_version', 'createdAt', 'number', 'status', 'updatedAt', 'workspaceId']);
    const page2 = await t.api(ws.apiKey, 'GET', '/api/phone-numbers?page=2&limit=2');
    expect(page2.body.data.map((n: { _id: string }) => n._id)).toEqual([ids[0]]);

    const got = await t.api(ws.apiKey, 'GET', `/api/phone-numbers/${ids[0]}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(page2.body.data[0]);
    expect(JSON.stringify(got.body)).not.toContain(platformSid);
  });

  it('another workspace\'s number is 404 everywhere; a foreign workspaceId is 403', async () => {
    const [a, b] = [await t.workspace(), await t.workspace()];
    const created = await t.api(a.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: freshNumber(), workspaceId: a.workspaceId });
    const id = created.body._id;
    expect((await t.api(b.apiKey, 'GET', `/api/phone-numbers/${id}`)).status).toBe(404);
    expect((await t.api(b.apiKey, 'PATCH', `/api/phone-numbers/${id}`, { agentId: null })).status).toBe(404);
    expect((await t.api(b.apiKey, 'DELETE', `/api/phone-numbers/${id}`)).status).toBe(404);
    expect((await t.api(b.apiKey, 'GET', `/api/phone-numbers?workspaceId=${a.workspaceId}`)).status).toBe(403);
    expect((await t.api(b.apiKey, 'PATCH', `/api/phone-numbers/${id}`, { agentId: null, workspaceId: a.workspaceId })).status).toBe(403);
    expect((await t.api(a.apiKey, 'GET', `/api/phone-numbers/${id}`)).status).toBe(200);
    expect(twilio.number(created.body.number)).toBeDefined();
  });

  it('assigns an agent of the workspace, refuses others with 422, unassigns with null', async () => {
    const [ws, other] = [await t.workspace(), await t.workspace()];
    const agent = (await t.api(ws.apiKey, 'POST', '/api/agents', agentBody(ws.workspaceId))).body;
    const foreignAgent = (await t.api(other.apiKey, 'POST', '/api/agents', agentBody(other.workspaceId))).body;
    const number = (await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: freshNumber(), workspaceId: ws.workspaceId })).body;

    const assigned = await t.api(ws.apiKey, 'PATCH', `/api/phone-numbers/${number._id}`, { agentId: agent._id });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ _id: number._id, agentId: agent._id });
    expect(assigned.body.updatedAt >= assigned.body.createdAt).toBe(true);
    expect((await t.api(ws.apiKey, 'GET', `/api/phone-numbers/${number._id}`)).body.agentId).toBe(agent._id);

    for (const agentId of [foreignAgent._id, 'agt_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const res = await t.api(ws.apiKey, 'PATCH', `/api/phone-numbers/${number._id}`, { agentId });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'unknown_agent', details: [{ field: 'agentId' }] });
    }
    expect((await t.api(ws.apiKey, 'GET', `/api/phone-numbers/${number._id}`)).body.agentId).toBe(agent._id);

    const cleared = await t.api(ws.apiKey, 'PATCH', `/api/phone-numbers/${number._id}`, { agentId: null });
    expect(cleared.body.agentId).toBeNull();
    expect((await t.api(ws.apiKey, 'PATCH', `/api/phone-numbers/${number._id}`, {})).status).toBe(400);
    expect((await t.api(ws.apiKey, 'PATCH', `/api/phone-numbers/${number._id}`, { agentId: agent._id, number: '+1' })).status).toBe(400);
  });

  it('releasing a bought number gives it back to the provider; it can then be bought again', async () => {
    const ws = await t.workspace();
    const number = freshNumber();
    const created = (await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: number, workspaceId: ws.workspaceId })).body;
    const sid = twilio.number(number)!.sid;
    const del = await t.api(ws.apiKey, 'DELETE', `/api/phone-numbers/${created._id}`);
    expect(del.status).toBe(204);
    expect(twilio.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/2010-04-01/Accounts/${platformSid}/IncomingPhoneNumbers/${sid}.json`, authAccountSid: platformSid });
    expect(twilio.number(number)).toBeUndefined();
    expect((await t.api(ws.apiKey, 'GET', `/api/phone-numbers/${created._id}`)).status).toBe(404);
    expect((await t.api(ws.apiKey, 'DELETE', `/api/phone-numbers/${created._id}`)).status).toBe(404);
    expect((await t.api(ws.apiKey, 'GET', '/api/phone-numbers')).body.total).toBe(0);
    const again = await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: number, workspaceId: ws.workspaceId });
    expect(again.status).toBe(201);
  });

  it('a bought number already gone at the provider is still released here', async () => {
    const ws = await t.workspace();
    const number = freshNumber();
    const created = (await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: number, workspaceId: ws.workspaceId })).body;
    twilio.injectFault({ status: 404, code: 20404, method: 'DELETE' });
    expect((await t.api(ws.apiKey, 'DELETE', `/api/phone-numbers/${created._id}`)).status).toBe(204);
    expect((await t.api(ws.apiKey, 'GET', `/api/phone-numbers/${created._id}`)).status).toBe(404);
  });

  it('a provider outage keeps the number (500), so the client can retry', async () => {
    const ws = await t.workspace();
    const created = (await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: freshNumber(), workspaceId: ws.workspaceId })).body;
    twilio.injectFault({ status: 503, code: 20503, method: 'DELETE', times: 3 });
    const res = await t.api(ws.apiKey, 'DELETE', `/api/phone-numbers/${created._id}`);
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('internal_error');
    expect((await t.api(ws.apiKey, 'GET', `/api/phone-numbers/${created._id}`)).status).toBe(200);
    expect((await t.api(ws.apiKey, 'DELETE', `/api/phone-numbers/${created._id}`)).status).toBe(204);
  });

  it('releasing an imported number restores its previous routing and leaves it in the customer account', async () => {
    const ws = await t.workspace();
    const account = twilio.addAccount();
    const number = '+13125550121';
    twilio.addNumber(account.sid, number, { voiceUrl: 'https://customer.test/v', statusCallback: '' });
    const created = (await t.api(ws.apiKey, 'POST', '/api/phone-numbers/import', { phoneNumber: number, telephonyAccountSid: account.sid, telephonyAuthToken: account.authToken, workspaceId: ws.workspaceId })).body;
    expect(twilio.number(number)).toMatchObject(hooks());
    twilio.clearRequests();
    expect((await t.api(ws.apiKey, 'DELETE', `/api/phone-numbers/${created._id}`)).status).toBe(204);
    expect(twilio.number(number)).toMatchObject({ accountSid: account.sid, voiceUrl: 'https://customer.test/v', statusCallback: '' });
    expect(twilio.requests.map((r) => `${r.method} ${r.authAccountSid}`)).toEqual([`GET ${account.sid}`, `POST ${account.sid}`]);
    expect(twilio.requests[1]!.form).toMatchObject({ VoiceUrl: 'https://customer.test/v', StatusCallback: '' });
    // Released here, so another workspace may import it now.
    const other = await t.workspace();
    const res = await t.api(other.apiKey, 'POST', '/api/phone-numbers/import', { phoneNumber: number, telephonyAccountSid: account.sid, telephonyAuthToken: account.authToken, workspaceId: other.workspaceId });
    expect(res.status).toBe(201);
  });

  it('an imported number whose routing the customer changed since is left alone on release', async () => {
    const ws = await t.workspace();
    const account = twilio.addAccount();
    const number = '+13125550122';
    twilio.addNumber(account.sid, number);
    const created = (await t.api(ws.apiKey, 'POST', '/api/phone-numbers/import', { phoneNumber: number, telephonyAccountSid: account.sid, telephonyAuthToken: account.authToken, workspaceId: ws.workspaceId })).body;
    twilio.number(number)!.voiceUrl = 'https://customer.test/new';
    expect((await t.api(ws.apiKey, 'DELETE', `/api/phone-numbers/${created._id}`)).status).toBe(204);
    expect(twilio.number(number)).toMatchObject({ voiceUrl: 'https://customer.test/new', statusCallback: '' });
  });
});
