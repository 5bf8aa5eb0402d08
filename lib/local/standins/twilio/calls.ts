import type { FormParams } from '../../../vendors/telephony/twilio-webhook.js';
import { friendly, rfc2822, TERMINAL, type CallHooks, type StandinAccount, type StandinCall, type TwilioState } from './state.js';
import { postSigned } from './webhooks.js';
import { API_VERSION, E164, many, notFound, one, TwilioFault, type Answer } from './wire.js';

/**
 * The Calls resource of Twilio's REST API (create, update, fetch) with the validation codes Twilio
 * answers, and inbound calls rung on one of the stand-in's numbers. What a call does once it exists is the
 * {@link CallHooks}' business.
 */

export interface InboundResult {
  readonly callSid: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

const callJson = (c: StandinCall) => ({
  account_sid: c.accountSid,
  annotation: null,
  answered_by: null,
  api_version: API_VERSION,
  caller_name: null,
  date_created: c.dateCreated,
  date_updated: c.dateUpdated,
  direction: c.direction,
  duration: c.duration === null ? null : String(c.duration),
  end_time: c.endTime,
  forwarded_from: null,
  from: c.from,
  from_formatted: friendly(c.from),
  group_sid: null,
  parent_call_sid: null,
  phone_number_sid: c.phoneNumberSid,
  price: null,
  price_unit: 'USD',
  queue_time: '0',
  sid: c.sid,
  start_time: c.startTime,
  status: c.status,
  subresource_uris: {
    notifications: `/${API_VERSION}/Accounts/${c.accountSid}/Calls/${c.sid}/Notifications.json`,
    recordings: `/${API_VERSION}/Accounts/${c.accountSid}/Calls/${c.sid}/Recordings.json`,
  },
  to: c.to,
  to_formatted: friendly(c.to),
  trunk_sid: null,
  uri: `/${API_VERSION}/Accounts/${c.accountSid}/Calls/${c.sid}.json`,
});

/** The call resources of one stand-in. */
export class CallResources {
  constructor(
    private readonly state: TwilioState,
    private readonly hooks: CallHooks = {},
  ) {}

  /** Answers a request under `/Accounts/{sid}` if it names a call resource, else undefined. */
  route(account: StandinAccount, method: string, path: string, rest: string, form: FormParams): Answer | undefined {
    if (rest === '/Calls.json' && method === 'POST') return [201, callJson(this.create(account, form))];
    const byId = /^\/Calls\/(CA[0-9a-f]{32})\.json$/.exec(rest);
    if (!byId) return undefined;
    const call = this.state.calls.get(byId[1]!);
    if (!call || call.accountSid !== account.sid) throw notFound(path);
    if (method === 'GET') return [200, callJson(call)];
    if (method === 'POST') return [200, callJson(this.update(account, path, call, form))];
    return undefined;
  }

  /**
   * Rings one of the stand-in's numbers the way Twilio does on an inbound call: POSTs the signed voice
   * webhook to the number's `voiceUrl` and returns our answer (TwiML). No media flows yet.
   */
  async ringInbound(phoneNumber: string, from: string, extra: Record<string, string> = {}): Promise<InboundResult> {
    const number = this.state.numberByPhone(phoneNumber);
    if (!number) throw new Error(`No stand-in number ${phoneNumber}`);
    const account = this.state.accounts[number.accountSid]!;
    if (!number.voiceUrl) throw new Error(`${phoneNumber} has no VoiceUrl`);
    const call = this.state.addCall({
      accountSid: account.sid,
      to: phoneNumber,
      from,
      phoneNumberSid: number.sid,
      status: 'ringing',
      direction: 'inbound',
      url: number.voiceUrl,
      method: number.voiceMethod,
      twiml: null,
      statusCallback: number.statusCallback || null,
      statusCallbackEvents: ['completed'],
      timeoutSeconds: 60,
      timeLimitSeconds: null,
      record: false,
      machineDetection: null,
      asyncAmdStatusCallback: null,
    });
    const params: Record<string, string> = {
      AccountSid: account.sid,
      ApiVersion: API_VERSION,
      CallSid: call.sid,
      CallStatus: 'ringing',
      Called: phoneNumber,
      Caller: from,
      Direction: 'inbound',
      From: from,
      To: phoneNumber,
      ...extra,
    };
    const answer = await postSigned(account.authToken, number.voiceUrl, params);
    return { callSid: call.sid, status: answer.status, contentType: answer.contentType, body: answer.text };
  }

  private create(account: StandinAccount, form: FormParams): StandinCall {
    const to = one(form.To);
    const from = one(form.From);
    const url = one(form.Url) ?? null;
    const twiml = one(form.Twiml) ?? null;
    if (!to) throw new TwilioFault(400, 21201, "No 'To' number is specified");
    if (!from) throw new TwilioFault(400, 21213, "No 'From' number is specified");
    if (!url && !twiml && !one(form.ApplicationSid)) throw new TwilioFault(400, 21205, 'Url parameter is required');
    if (twiml && twiml.length > 4000) throw new TwilioFault(400, 21236, 'Twiml must be at most 4000 characters');
    // Twilio dials SIP endpoints too (`sip:user@host`), for transfers to a PBX.
    if (!E164.test(to) && !/^sips?:[^\s@]+@[^\s@]+$/.test(to)) throw new TwilioFault(400, 21211, `Invalid 'To' Phone Number: ${to}`);
    const amd = one(form.MachineDetection);
    if (amd !== undefined && amd !== 'Enable' && amd !== 'DetectMessageEnd') throw new TwilioFault(400, 21263, `Invalid MachineDetection: ${amd}`);
    const fromNumber = this.state.numberByPhone(from);
    if (!fromNumber || fromNumber.accountSid !== account.sid) {
      throw new TwilioFault(400, 21210, `The source phone number provided, ${from}, is not yet verified for your account.`);
    }
    const timeLimit = one(form.TimeLimit);
    const call = this.state.addCall({
      accountSid: account.sid,
      to,
      from,
      phoneNumberSid: fromNumber.sid,
      status: 'queued',
      direction: 'outbound-api',
      url,
      method: (one(form.Method) ?? 'POST').toUpperCase(),
      twiml,
      statusCallback: one(form.StatusCallback) ?? null,
      statusCallbackEvents: many(form.StatusCallbackEvent),
      timeoutSeconds: Number(one(form.Timeout) ?? 60),
      timeLimitSeconds: timeLimit === undefined ? null : Number(timeLimit),
      record: one(form.Record) === 'true',
      machineDetection: one(form.MachineDetection) ?? null,
      asyncAmdStatusCallback: one(form.AsyncAmd) === 'true' ? (one(form.AsyncAmdStatusCallback) ?? null) : null,
    });
    this.hooks.onCreate?.(call, account);
    return call;
  }

  private update(account: StandinAccount, path: string, call: StandinCall, form: FormParams): StandinCall {
    const status = one(form.Status);
    const url = one(form.Url);
    const twiml = one(form.Twiml);
    if (status !== undefined && status !== 'completed' && status !== 'canceled') {
      throw new TwilioFault(400, 21218, `Invalid Status: ${status}`);
    }
    if (TERMINAL.has(call.status)) {
      // Hanging up a call that already ended: twilio-oai documents one answer for this operation, 200 with
      // the call (its example is a completed call), so the ended call is answered as it is. Redirecting one
      // is error 21220 (Invalid call state for update). Callers treat any 4xx here as "already over".
      if (status && twiml === undefined && url === undefined) return call;
      throw new TwilioFault(400, 21220, 'Call is not in-progress. Cannot redirect.');
    }
    if (url !== undefined) {
      call.url = url;
      call.twiml = null;
      call.method = (one(form.Method) ?? 'POST').toUpperCase();
    }
    if (twiml !== undefined) {
      call.twiml = twiml;
      call.url = null;
    }
    // `canceled` only stops a call that has not been answered; Twilio ignores it on a live call.
    if (status === 'completed' || (status === 'canceled' && (call.status === 'queued' || call.status === 'ringing'))) {
      this.state.setCallStatus(call.sid, status);
    } else {
      call.dateUpdated = rfc2822();
    }
    this.hooks.onUpdate?.(call, { ...(url !== undefined ? { url } : {}), ...(twiml !== undefined ? { twiml } : {}), ...(status ? { status } : {}) }, account);
    return call;
  }
}
