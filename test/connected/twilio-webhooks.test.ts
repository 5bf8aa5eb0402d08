/**
 * Invariant: the Twilio webhooks act only on requests signed with the auth token of the account the call
 * belongs to (the platform's for bought numbers, the customer's for imported ones) over the URL rebuilt
 * from PUBLIC_BASE_URL; anything else is 403 and changes nothing. An inbound call to a number with an agent
 * is bridged to the media stream with a signed, short-lived token passed as a <Parameter>; any other call
 * hears a short message and is hung up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_CREDITS_MESSAGE } from '../../lib/services/twilio-webhooks.js';
import { signStreamToken, STREAM_TOKEN_KEY_PURPOSE, STREAM_TOKEN_TTL_SECONDS, verifyStreamToken } from '../../lib/domain/stream-token.js';
import type { StandinAccount } from '../../lib/local/standins/twilio/state.js';
import type { TwilioStandin } from '../../lib/local/standins/twilio/standin.js';
import { twilioSignature } from '../../lib/vendors/telephony/twilio-webhook.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { findCall } from '../../lib/store/calls.js';

let t: TestPlatform;
let twilio: TwilioStandin;
let platform: { accountSid: string; authToken: string };
let ws: { workspaceId: string; apiKey: string };
let agentId: string;
let assigned: { _id: string; number: string };
let unassigned: { _id: string; number: string };
let customer: StandinAccount;
let imported: { _id: string; number: string };

const callSid = (n: number) => `CA${String(n).padStart(32, '0')}`;
const voiceParams = (to: string, extra: Record<string, string> = {}) => ({
  AccountSid: platform.accountSid,
  ApiVersion: '2010-04-01',
  CallSid: callSid(1),
  CallStatus: 'ringing',
  Direction: 'inbound',
  From: '+14155550142',
  To: to,
  ...extra,
});

/** POSTs a webhook the way Twilio does; `sign` decides which token and URL the signature covers. */
async function post(path: string, params: Record<string, string>, sign: { token?: string; url?: string; signature?: string | null } = {}) {
  const url = `${t.baseUrl}${path}`;
  const signature = sign.signature === null ? undefined : sign.signature ?? twilioSignature(sign.token ?? platform.authToken, sign.url ?? url, params);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

const streamKey = () => t.deps.secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE);
const tokenIn = (twiml: string) => /<Parameter name="token" value="([^"]+)"\/>/.exec(twiml)?.[1];
const isHangUp = (twiml: string) => /^<\?xml[^>]*\?><Response><Say>[^<]+<\/Say><Hangup\/><\/Response>$/.test(twiml);

beforeAll(async () => {
  t = await startTestPlatform();
  twilio = t.platform.twilio!;
  platform = (await t.deps.telephony.platformAccount())!;
  ws = await t.workspace();
  agentId = (await t.api(ws.apiKey, 'POST', '/api/agents', { name: 'Reception', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram', workspaceId: ws.workspaceId })).body._id;
  const [a, b] = (await t.api(ws.apiKey, 'GET', '/api/phone-numbers/available?areaCode=505&limit=2')).body.data;
  assigned = (await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: a.number, workspaceId: ws.workspaceId })).body;
  unassigned = (await t.api(ws.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: b.number, workspaceId: ws.workspaceId })).body;
  await t.api(ws.apiKey, 'PATCH', `/api/phone-numbers/${assigned._id}`, { agentId });
  customer = twilio.addAccount();
  twilio.addNumber(customer.sid, '+13125550177');
  imported = (await t.api(ws.apiKey, 'POST', '/api/phone-numbers/import', { phoneNumber: '+13125550177', telephonyAccountSid: customer.sid, telephonyAuthToken: customer.authToken, workspaceId: ws.workspaceId })).body;
  await t.api(ws.apiKey, 'PATCH', `/api/phone-numbers/${imported._id}`, { agentId });
});
afterAll(() => t?.stop());

describe('inbound calls (rung through the stand-in, signed as Twilio signs)', () => {
  it('a number with an agent connects to the media stream with a signed token parameter', async () => {
    const before = Date.now();
    const res = await twilio.ringInbound(assigned.number, '+14155550142');
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/xml/);
    const stream = new URL(t.baseUrl);
    const expectedUrl = `ws://${stream.host}/media-stream`;
    expect(res.body).toMatch(new RegExp(`^<\\?xml version="1.0" encoding="UTF-8"\\?><Response><Connect><Stream url="${expectedUrl}"><Parameter name="token" value="[^"]+"/></Stream></Connect></Response>$`));
    const token = tokenIn(res.body)!;
    const verified = verifyStreamToken(token, streamKey());
    expect(verified).toMatchObject({ ok: true, claims: { callSid: res.callSid, workspaceId: ws.workspaceId } });
    // The token names only the call; the agent, our number and the caller are the live call's.
    const claims = (verified as { claims: { callId: string } }).claims;
    expect(Object.keys(claims).sort()).toEqual(['callId', 'callSid', 'exp', 'workspaceId']);
    expect(await findCall(t.deps.db, ws.workspaceId, claims.callId)).toMatchObject({ agentId, phoneNumberId: assigned._id, to: '+14155550142' });
    // Answered at once, it is a call in progress: listed, inbound, from our number's side.
    const live = (await t.api(ws.apiKey, 'GET', '/api/calls')).body.data.find((c: { id: string }) => c.id === claims.callId);
    expect(live).toMatchObject({ agentId, type: 'voice', direction: 'inbound', state: 'in-progress', from: assigned.number, to: '+14155550142' });
    expect(Date.parse(live.answeredAt)).toBeGreaterThanOrEqual(before);
    const exp = (verified as { claims: { exp: number } }).claims.exp;
    expect(exp).toBeGreaterThanOrEqual(Math.floor(before / 1000) + STREAM_TOKEN_TTL_SECONDS);
    expect(exp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + STREAM_TOKEN_TTL_SECONDS);
    expect(verifyStreamToken(token, streamKey(), (exp + 1) * 1000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('a number without an agent says a short message and hangs up', async () => {
    const res = await twilio.ringInbound(unassigned.number, '+14155550142');
    expect(res.status).toBe(200);
    expect(isHangUp(res.body)).toBe(true);
    expect(res.body).not.toContain('<Connect>');
  });

  it('a workspace that cannot pay for a call hangs up politely instead of connecting', async () => {
    const broke = await t.workspace(0);
    const agent = (await t.api(broke.apiKey, 'POST', '/api/agents', { name: 'Broke', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram', workspaceId: broke.workspaceId })).body;
    const [offer] = (await t.api(broke.apiKey, 'GET', '/api/phone-numbers/available?areaCode=505&limit=1')).body.data;
    const number = (await t.api(broke.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: offer.number, workspaceId: broke.workspaceId })).body;
    await t.api(broke.apiKey, 'PATCH', `/api/phone-numbers/${number._id}`, { agentId: agent._id });
    const res = await twilio.ringInbound(number.number, '+14155550142');
    expect(isHangUp(res.body)).toBe(true);
    expect(res.body).toContain(NO_CREDITS_MESSAGE);
  });

  it('a number whose agent was deleted hangs up politely', async () => {
    const other = await t.workspace();
    const agent = (await t.api(other.apiKey, 'POST', '/api/agents', { name: 'Temp', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram', workspaceId: other.workspaceId })).body;
    const [offer] = (await t.api(other.apiKey, 'GET', '/api/phone-numbers/available?areaCode=575&limit=1')).body.data;
    const number = (await t.api(other.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: offer.number, workspaceId: other.workspaceId })).body;
    await t.api(other.apiKey, 'PATCH', `/api/phone-numbers/${number._id}`, { agentId: agent._id });
    await t.api(other.apiKey, 'DELETE', `/api/agents/${agent._id}`);
    expect(isHangUp((await twilio.ringInbound(number.number, '+14155550142')).body)).toBe(true);
  });

  it('an imported number is verified with the customer\'s token and connects to its agent', async () => {
    const res = await twilio.ringInbound(imported.number, '+14155550143');
    expect(res.status).toBe(200);
    const verified = verifyStreamToken(tokenIn(res.body)!, streamKey());
    expect(verified.ok).toBe(true);
    const { callId } = (verified as { claims: { callId: string } }).claims;
    expect(await findCall(t.deps.db, ws.workspaceId, callId)).toMatchObject({ phoneNumberId: imported._id, agentId });
  });

  it('a number that is not ours, called on the platform account, hangs up politely', async () => {
    const res = await post('/twilio/voice', voiceParams('+15055550199'));
    expect(res.status).toBe(200);
    expect(isHangUp(res.body)).toBe(true);
  });
});

describe('X-Twilio-Signature', () => {
  it('accepts the signature over the public URL and the exact parameters', async () => {
    const res = await post('/twilio/voice', voiceParams(assigned.number));
    expect(res.status).toBe(200);
    expect(tokenIn(res.body)).toBeDefined();
  });

  it('covers the query string of the URL', async () => {
    const params = voiceParams(assigned.number);
    const url = `${t.baseUrl}/twilio/voice?attempt=2`;
    const signed = twilioSignature(platform.authToken, url, params);
    const ok = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signed }, body: new URLSearchParams(params).toString() });
    expect(ok.status).toBe(200);
    const stripped = await post('/twilio/voice', params, { signature: signed });
    expect(stripped.status).toBe(403);
  });

  const refusals: [string, () => Promise<{ status: number; body: string }>][] = [
    ['a tampered parameter', async () => {
      const params = voiceParams(assigned.number);
      const signature = twilioSignature(platform.authToken, `${t.baseUrl}/twilio/voice`, params);
      return post('/twilio/voice', { ...params, From: '+14155550999' }, { signature });
    }],
    ['an added parameter', async () => {
      const params = voiceParams(assigned.number);
      const signature = twilioSignature(platform.authToken, `${t.baseUrl}/twilio/voice`, params);
      return post('/twilio/voice', { ...params, Extra: '1' }, { signature });
    }],
    ['the wrong token', () => post('/twilio/voice', voiceParams(assigned.number), { token: 'f'.repeat(32) })],
    ['the wrong URL (another host)', () => post('/twilio/voice', voiceParams(assigned.number), { url: 'https://attacker.test/twilio/voice' })],
    ['the wrong URL (another path)', () => post('/twilio/voice', voiceParams(assigned.number), { url: `${t.baseUrl}/twilio/status` })],
    ['no signature', () => post('/twilio/voice', voiceParams(assigned.number), { signature: null })],
    ['the platform token on a customer\'s number', () => post('/twilio/voice', voiceParams(imported.number, { AccountSid: customer.sid }))],
    ['the customer token claiming the platform account', () => post('/twilio/voice', voiceParams(imported.number), { token: customer.authToken })],
    ['an account we hold no token for', () => post('/twilio/voice', voiceParams('+15055550199', { AccountSid: `AC${'9'.repeat(32)}` }), { token: 'a'.repeat(32) })],
  ];
  for (const [what, send] of refusals) {
    it(`refuses ${what} with 403 and no TwiML`, async () => {
      const res = await send();
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body).error.code).toBe('invalid_signature');
      expect(res.body).not.toContain('<Response>');
    });
  }

  it('refuses a forged signature on the status callback too', async () => {
    const params = { ...voiceParams(assigned.number), CallStatus: 'completed', CallDuration: '12' };
    expect((await post('/twilio/status', params, { token: 'f'.repeat(32) })).status).toBe(403);
    expect((await post('/twilio/status', params, { signature: null })).status).toBe(403);
  });
});

describe('status callback', () => {
  it('accepts a signed status with 204', async () => {
    const res = await post('/twilio/status', { ...voiceParams(assigned.number), CallStatus: 'completed', CallDuration: '12', SequenceNumber: '0' });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
  });

  it('a signed request missing fields Twilio always sends is 400, after the signature check', async () => {
    const { CallSid: _dropped, ...params } = voiceParams(assigned.number);
    const res = await post('/twilio/status', { ...params, CallStatus: 'completed' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe('invalid_webhook');
    const weird = await post('/twilio/status', { ...voiceParams(assigned.number), CallStatus: 'exploded' });
    expect(weird.status).toBe(400);
  });
});

describe('stream token (as the streaming service will check it)', () => {
  it('is bound to the key derived from the data key', () => {
    const token = signStreamToken({ callSid: callSid(9), workspaceId: ws.workspaceId, callId: 'call_1' }, streamKey());
    expect(verifyStreamToken(token, streamKey()).ok).toBe(true);
    expect(verifyStreamToken(token, t.deps.secrets.deriveKey('other')).ok).toBe(false);
  });
});
