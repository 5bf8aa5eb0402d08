/**
 * Invariant: the telephony port behaves the same against every implementation it meets: the local Twilio
 * stand-in (always) and the real Twilio (when TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are set in the
 * environment). Results come back in the port's shape, failures as TelephonyErrors of the right kind and
 * retryability. The stand-in variant also pins what each operation sends on the wire, and how the adapter
 * retries.
 *
 * The real variant only reads (search, lookups, auth failures) unless TWILIO_CONTRACT_PURCHASE=1, which
 * lets it buy one number, reconfigure it and release it again (this costs money).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as IncomingModule from 'twilio/lib/rest/api/v2010/account/incomingPhoneNumber.js';
import { startTwilioStandin, type TwilioStandin } from '../../lib/local/standins/twilio/standin.js';
import { isTelephonyError, TelephonyError, type TelephonyAccount, type TelephonyPort } from '../../lib/vendors/telephony/port.js';
import { createTwilioTelephony } from '../../lib/vendors/telephony/twilio.js';
import { twilioApi } from '../../lib/vendors/telephony/twilio-client.js';

interface Subject {
  readonly port: TelephonyPort;
  readonly account: TelephonyAccount;
  /** Lets the suite buy, reconfigure and release a number. */
  readonly provisioning: boolean;
  /** Lets the suite place calls (the stand-in only records them). */
  readonly calls: boolean;
}

const E164 = /^\+[1-9]\d{6,14}$/;
const UNKNOWN_CALL = `CA${'0'.repeat(32)}`;
const NOT_OURS = '+15005550199';

async function expectTelephonyError(promise: Promise<unknown>, kind: TelephonyError['kind'], retryable: boolean) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected a ${kind} TelephonyError`).toBeInstanceOf(TelephonyError);
  expect((error as TelephonyError).kind).toBe(kind);
  expect((error as TelephonyError).retryable).toBe(retryable);
}

function contractSuite(name: string, makeSubject: () => Promise<Subject>) {
  describe(name, () => {
    let s: Subject;
    beforeAll(async () => {
      s = await makeSubject();
    });

    it('searches available numbers: E.164, in the country, voice capable, honouring contains', async () => {
      const found = await s.port.searchAvailable(s.account, { country: 'US', limit: 5 });
      expect(found.length).toBeGreaterThan(0);
      expect(found.length).toBeLessThanOrEqual(5);
      for (const n of found) {
        expect(n.number).toMatch(E164);
        expect(n.number.startsWith('+1')).toBe(true);
        expect(n.country).toBe('US');
        expect(n.capabilities.voice).toBe(true);
      }
      const pattern = found[0]!.number.slice(-3);
      const narrowed = await s.port.searchAvailable(s.account, { country: 'US', contains: pattern, limit: 5 });
      for (const n of narrowed) expect(n.number).toContain(pattern);
    });

    it('finds no number the account does not hold', async () => {
      expect(await s.port.findNumber(s.account, NOT_OURS)).toBeUndefined();
    });

    it('reports wrong credentials as a non-retryable auth error', async () => {
      const wrong = { accountSid: s.account.accountSid, authToken: 'f'.repeat(32) };
      await expectTelephonyError(s.port.findNumber(wrong, NOT_OURS), 'auth', false);
    });

    it('reports an unknown call as not_found', async () => {
      await expectTelephonyError(s.port.fetchCall(s.account, UNKNOWN_CALL), 'not_found', false);
    });

    describe('provisioning', () => {
      it('buys a number routed as asked, reconfigures, clears and releases it', async ({ skip }) => {
        if (!s.provisioning) return skip('provisioning not enabled for this implementation');
        const [offer] = await s.port.searchAvailable(s.account, { country: 'US', limit: 1 });
        const routing = { voiceUrl: 'https://example.test/twilio/voice', statusCallback: 'https://example.test/twilio/status' };
        const bought = await s.port.buyNumber(s.account, offer!.number, routing);
        try {
          expect(bought).toMatchObject({ number: offer!.number, accountSid: s.account.accountSid, ...routing });
          expect(bought.sid).toMatch(/^PN[0-9a-f]{32}$/);
          const found = await s.port.findNumber(s.account, offer!.number);
          expect(found).toMatchObject({ sid: bought.sid, voiceUrl: routing.voiceUrl, voiceApplicationSid: null, trunkSid: null });
          const moved = await s.port.configureNumber(s.account, bought.sid, { voiceUrl: 'https://example.test/other' });
          expect(moved.voiceUrl).toBe('https://example.test/other');
          expect(moved.statusCallback).toBe(routing.statusCallback);
          const cleared = await s.port.configureNumber(s.account, bought.sid, { voiceUrl: null, statusCallback: null });
          expect(cleared).toMatchObject({ voiceUrl: null, statusCallback: null });
        } finally {
          await s.port.releaseNumber(s.account, bought.sid);
        }
        expect(await s.port.findNumber(s.account, offer!.number)).toBeUndefined();
        await expectTelephonyError(s.port.releaseNumber(s.account, bought.sid), 'not_found', false);
      });

      it('reports a number that cannot be bought as unavailable', async ({ skip }) => {
        if (!s.provisioning) return skip('provisioning not enabled for this implementation');
        const [offer] = await s.port.searchAvailable(s.account, { country: 'US', limit: 1 });
        const bought = await s.port.buyNumber(s.account, offer!.number, {});
        try {
          await expectTelephonyError(s.port.buyNumber(s.account, offer!.number, {}), 'unavailable', false);
        } finally {
          await s.port.releaseNumber(s.account, bought.sid);
        }
      });
    });

    it('creates, fetches, redirects and hangs up a call', async ({ skip }) => {
      if (!s.calls) return skip('calls not enabled for this implementation');
      const [offer] = await s.port.searchAvailable(s.account, { country: 'US', limit: 1 });
      const from = await s.port.buyNumber(s.account, offer!.number, {});
      try {
        const call = await s.port.createCall(s.account, {
          to: '+14155550123',
          from: from.number,
          url: 'https://example.test/twilio/voice',
          statusCallback: 'https://example.test/twilio/status',
          statusCallbackEvents: ['initiated', 'answered', 'completed'],
          timeoutSeconds: 20,
        });
        expect(call).toMatchObject({ to: '+14155550123', from: from.number, status: 'queued', direction: 'outbound-api', durationSeconds: null });
        expect(call.sid).toMatch(/^CA[0-9a-f]{32}$/);
        expect(await s.port.fetchCall(s.account, call.sid)).toMatchObject({ sid: call.sid, status: 'queued' });
        await s.port.updateCall(s.account, call.sid, { twiml: '<Response><Say>hi</Say></Response>' });
        const ended = await s.port.updateCall(s.account, call.sid, { status: 'completed' });
        expect(ended.status).toBe('completed');
        expect(ended.durationSeconds).toBe(0);
        // Hanging up an ended call: twilio-oai documents only 200 (the call) for this operation; whatever the
        // real service answers must be the call, completed, or a 4xx the platform reads as "already over".
        const again = await s.port.updateCall(s.account, call.sid, { status: 'completed' }).catch((e: unknown) => e);
        if (again instanceof TelephonyError) {
          expect(['not_found', 'invalid']).toContain(again.kind);
          expect(again.retryable).toBe(false);
        } else {
          expect(again).toMatchObject({ sid: call.sid, status: 'completed' });
        }
      } finally {
        await s.port.releaseNumber(s.account, from.sid);
      }
    });
  });
}

let standin: TwilioStandin;
let standinAccount: TelephonyAccount;

beforeAll(async () => {
  standin = await startTwilioStandin();
  const a = standin.addAccount();
  standinAccount = { accountSid: a.sid, authToken: a.authToken };
});
afterAll(() => standin?.stop());

contractSuite('telephony port: Twilio adapter against the local stand-in', async () => ({
  port: createTwilioTelephony({ baseUrl: standin.baseUrl }),
  account: standinAccount,
  provisioning: true,
  calls: true,
}));

// Tests read the real credentials straight from the environment: they are not the platform's config.
const real = { accountSid: process.env.TWILIO_ACCOUNT_SID ?? '', authToken: process.env.TWILIO_AUTH_TOKEN ?? '' };
describe.runIf(Boolean(real.accountSid && real.authToken))('real Twilio', () => {
  contractSuite('telephony port: Twilio adapter against api.twilio.com', async () => ({
    port: createTwilioTelephony(),
    account: real,
    provisioning: process.env.TWILIO_CONTRACT_PURCHASE === '1',
    calls: false,
  }));
});

describe('Twilio adapter on the wire (stand-in)', () => {
  let port: TelephonyPort;
  let account: TelephonyAccount;
  const auth = () => ({ authAccountSid: account.accountSid });

  beforeAll(() => {
    port = createTwilioTelephony({ baseUrl: standin.baseUrl });
    const a = standin.addAccount();
    account = { accountSid: a.sid, authToken: a.authToken };
  });

  const lastRequest = () => standin.requests.at(-1)!;
  const base = () => `/2010-04-01/Accounts/${account.accountSid}`;

  it('search: GET AvailablePhoneNumbers/{Country}/Local.json with AreaCode, Contains, VoiceEnabled, PageSize', async () => {
    await port.searchAvailable(account, { country: 'us', areaCode: '212', contains: '01', limit: 7 });
    expect(lastRequest()).toMatchObject({
      method: 'GET',
      path: `${base()}/AvailablePhoneNumbers/US/Local.json`,
      query: { AreaCode: '212', Contains: '01', VoiceEnabled: 'true', PageSize: '7' },
      ...auth(),
      status: 200,
    });
  });

  it('buy: POST IncomingPhoneNumbers.json with PhoneNumber and the routing form fields', async () => {
    const [offer] = await port.searchAvailable(account, { country: 'US', limit: 1 });
    const bought = await port.buyNumber(account, offer!.number, { voiceUrl: 'https://h.test/v', statusCallback: 'https://h.test/s' });
    expect(lastRequest()).toMatchObject({
      method: 'POST',
      path: `${base()}/IncomingPhoneNumbers.json`,
      form: { PhoneNumber: offer!.number, VoiceUrl: 'https://h.test/v', VoiceMethod: 'POST', StatusCallback: 'https://h.test/s', StatusCallbackMethod: 'POST' },
      ...auth(),
      status: 201,
    });
    await port.findNumber(account, offer!.number);
    expect(lastRequest()).toMatchObject({
      method: 'GET',
      path: `${base()}/IncomingPhoneNumbers.json`,
      query: { PhoneNumber: offer!.number, PageSize: '20' },
      ...auth(),
    });
    await port.configureNumber(account, bought.sid, { voiceUrl: null, statusCallback: 'https://h.test/s2', voiceApplicationSid: null, trunkSid: null });
    expect(lastRequest()).toMatchObject({
      method: 'POST',
      path: `${base()}/IncomingPhoneNumbers/${bought.sid}.json`,
      form: { VoiceUrl: '', StatusCallback: 'https://h.test/s2', StatusCallbackMethod: 'POST', VoiceApplicationSid: '', TrunkSid: '' },
      ...auth(),
    });
    expect(lastRequest().form).not.toHaveProperty('VoiceMethod');
    await port.releaseNumber(account, bought.sid);
    expect(lastRequest()).toMatchObject({ method: 'DELETE', path: `${base()}/IncomingPhoneNumbers/${bought.sid}.json`, form: {}, ...auth(), status: 204 });
  });

  it('calls: POST Calls.json with To, From, Url, StatusCallbackEvent repeated; POST Calls/{Sid}.json; GET', async () => {
    const [offer] = await port.searchAvailable(account, { country: 'US', limit: 1 });
    const from = await port.buyNumber(account, offer!.number, {});
    const call = await port.createCall(account, {
      to: '+14155550100',
      from: from.number,
      url: 'https://h.test/v',
      statusCallback: 'https://h.test/s',
      statusCallbackEvents: ['initiated', 'completed'],
      timeoutSeconds: 25,
      timeLimitSeconds: 600,
      record: true,
      machineDetection: 'Enable',
    });
    expect(lastRequest()).toMatchObject({
      method: 'POST',
      path: `${base()}/Calls.json`,
      form: {
        To: '+14155550100',
        From: from.number,
        Url: 'https://h.test/v',
        Method: 'POST',
        StatusCallback: 'https://h.test/s',
        StatusCallbackMethod: 'POST',
        StatusCallbackEvent: ['initiated', 'completed'],
        Timeout: '25',
        TimeLimit: '600',
        Record: 'true',
        MachineDetection: 'Enable',
      },
      ...auth(),
      status: 201,
    });
    expect(standin.call(call.sid)).toMatchObject({ url: 'https://h.test/v', statusCallbackEvents: ['initiated', 'completed'], record: true });
    await port.updateCall(account, call.sid, { twiml: '<Response><Hangup/></Response>' });
    expect(lastRequest()).toMatchObject({ method: 'POST', path: `${base()}/Calls/${call.sid}.json`, form: { Twiml: '<Response><Hangup/></Response>' } });
    await port.updateCall(account, call.sid, { status: 'completed' });
    expect(lastRequest().form).toEqual({ Status: 'completed' });
    await port.fetchCall(account, call.sid);
    expect(lastRequest()).toMatchObject({ method: 'GET', path: `${base()}/Calls/${call.sid}.json`, ...auth(), status: 200 });
  });

  it('a call that already ended: hanging up answers 200 with the call (twilio-oai documents only that), a redirect 400 21220 `invalid`', async () => {
    const [offer] = await port.searchAvailable(account, { country: 'US', limit: 1 });
    const from = await port.buyNumber(account, offer!.number, {});
    const call = await port.createCall(account, { to: '+14155550109', from: from.number, url: 'https://h.test/v' });
    await port.updateCall(account, call.sid, { status: 'completed' });
    // Hung up twice: the second answer is the ended call, as the first.
    expect(await port.updateCall(account, call.sid, { status: 'completed' })).toMatchObject({ sid: call.sid, status: 'completed' });
    expect(lastRequest().status).toBe(200);
    const redirect = await port.updateCall(account, call.sid, { twiml: '<Response><Say>Late.</Say></Response>' }).catch((e: unknown) => e);
    expect(redirect).toBeInstanceOf(TelephonyError);
    expect(redirect).toMatchObject({ kind: 'invalid', retryable: false, vendorCode: 21220 });
    await port.releaseNumber(account, from.sid);
  });

  it('retries an idempotent request on a 503, and a purchase only on a 429', async () => {
    standin.injectFault({ status: 503, code: 20500, method: 'GET', pathIncludes: '/IncomingPhoneNumbers.json' });
    standin.clearRequests();
    expect(await port.findNumber(account, NOT_OURS)).toBeUndefined();
    expect(standin.requests.map((r) => r.status)).toEqual([503, 200]);

    const [offer] = await port.searchAvailable(account, { country: 'US', limit: 1 });
    standin.injectFault({ status: 503, code: 20500, method: 'POST', pathIncludes: '/IncomingPhoneNumbers.json' });
    standin.clearRequests();
    await expectTelephonyError(port.buyNumber(account, offer!.number, {}), 'provider_error', true);
    expect(standin.requests).toHaveLength(1);

    standin.injectFault({ status: 429, code: 20429, method: 'POST', pathIncludes: '/IncomingPhoneNumbers.json' });
    standin.clearRequests();
    const bought = await port.buyNumber(account, offer!.number, {});
    expect(standin.requests.map((r) => r.status)).toEqual([429, 201]);
    await port.releaseNumber(account, bought.sid);
  });

  it('gives up after three attempts and says the failure is retryable', async () => {
    standin.injectFault({ status: 500, code: 20500, method: 'GET', times: 3 });
    standin.clearRequests();
    await expectTelephonyError(port.fetchCall(account, UNKNOWN_CALL), 'provider_error', true);
    expect(standin.requests).toHaveLength(3);
  });

  it('maps an unreachable host to a retryable network error', async () => {
    const dead = createTwilioTelephony({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 500 });
    const error = await dead.findNumber(account, NOT_OURS).catch((e: unknown) => e);
    expect(isTelephonyError(error, 'network')).toBe(true);
    expect((error as TelephonyError).retryable).toBe(true);
  });

  it('answers errors in Twilio shape: {code, message, more_info, status}', async () => {
    const res = await fetch(`${standin.baseUrl}${base()}/Calls/${UNKNOWN_CALL}.json`, {
      headers: { authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}` },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 20404,
      message: `The requested resource ${base()}/Calls/${UNKNOWN_CALL}.json was not found`,
      more_info: 'https://www.twilio.com/docs/errors/20404',
      status: 404,
    });
    const denied = await fetch(`${standin.baseUrl}${base()}/Calls/${UNKNOWN_CALL}.json`);
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ code: 20003, status: 401 });
  });

  it('never lets one account read another account\'s resources', async () => {
    const other = standin.addAccount();
    const res = await fetch(`${standin.baseUrl}/2010-04-01/Accounts/${other.sid}/IncomingPhoneNumbers.json`, {
      headers: { authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}` },
    });
    expect(res.status).toBe(401);
  });

  it('follows Twilio\'s absolute next-page links to the configured origin', async () => {
    const owner = standin.addAccount();
    for (let i = 0; i < 5; i += 1) standin.addNumber(owner.sid, `+1646555010${i}`);
    const api = twilioApi({ accountSid: owner.sid, authToken: owner.authToken }, { baseUrl: standin.baseUrl, timeoutMs: 5_000 });
    standin.clearRequests();
    const all = await IncomingModule.IncomingPhoneNumberListInstance(api, owner.sid).list({ pageSize: 2 });
    expect(all.map((n) => n.phoneNumber).sort()).toEqual(['+16465550100', '+16465550101', '+16465550102', '+16465550103', '+16465550104']);
    expect(standin.requests.map((r) => r.query.Page ?? '0')).toEqual(['0', '1', '2']);
  });
});
