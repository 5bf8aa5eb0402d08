import type { CallStatus, ProviderCall, TelephonyAccount } from './port.js';
import { twilioAdapter, type TwilioPart } from './twilio-client.js';

/**
 * Placing, steering and reading calls through the SDK's `Version` (Api v2010): its `create`/`update`/`fetch`
 * build the request, send it through our transport and raise `RestException` on an HTTP error, exactly as
 * the generated Calls resource does when it calls them.
 *
 * Why not the generated resource (`CallListInstance`): `call.js` requires every call sub-resource (events,
 * feedback, notifications, payments, recordings, siprec, streams, transcriptions, user-defined messages), ~120
 * KB in every Lambda that places or steers a call, for three operations. What it adds over `Version` is the
 * parameter names, written here from Twilio's REST reference (the same names `call.js` writes), and the
 * response wrapped in a `CallInstance`; we read the JSON fields directly.
 */

/** The fields of Twilio's Call resource (JSON, snake_case) the platform reads. */
interface CallPayload {
  sid: string;
  account_sid: string;
  to: string;
  from: string;
  status: string;
  direction: string;
  duration?: string | null;
}

const toProviderCall = (c: CallPayload): ProviderCall => ({
  sid: c.sid,
  accountSid: c.account_sid,
  to: c.to,
  from: c.from,
  status: c.status as CallStatus,
  direction: c.direction,
  durationSeconds: c.duration === null || c.duration === undefined || c.duration === '' ? null : Number(c.duration),
});

const callsUri = (account: TelephonyAccount) => `/Accounts/${encodeURIComponent(account.accountSid)}/Calls.json`;
const callUri = (account: TelephonyAccount, sid: string) =>
  `/Accounts/${encodeURIComponent(account.accountSid)}/Calls/${encodeURIComponent(sid)}.json`;

/** The headers the generated resource sends with a write. */
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' } as const;

/** Form fields with `undefined` left out (the transport skips them too; this keeps the request readable in logs). */
const defined = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

/** Placing, steering and reading calls on Twilio's Calls resource. */
export const twilioCalls: TwilioPart = ({ api, run }) => ({
  createCall(account, request) {
    const amd = request.machineDetection;
    const data = defined({
      To: request.to,
      From: request.from,
      Url: request.url || undefined,
      Method: request.url ? 'POST' : undefined,
      Twiml: request.twiml || undefined,
      StatusCallback: request.statusCallback || undefined,
      StatusCallbackMethod: request.statusCallback ? 'POST' : undefined,
      StatusCallbackEvent: request.statusCallback && request.statusCallbackEvents ? [...request.statusCallbackEvents] : undefined,
      Timeout: request.timeoutSeconds,
      TimeLimit: request.timeLimitSeconds,
      Record: request.record,
      MachineDetection: amd || undefined,
      AsyncAmd: amd && request.asyncAmdStatusCallback ? 'true' : undefined,
      AsyncAmdStatusCallback: amd ? request.asyncAmdStatusCallback || undefined : undefined,
      AsyncAmdStatusCallbackMethod: amd && request.asyncAmdStatusCallback ? 'POST' : undefined,
      MachineDetectionTimeout: request.machineDetectionTimeoutSeconds,
    });
    return run(async () => {
      const payload = (await api(account).create({ uri: callsUri(account), method: 'post', data, headers: { ...FORM } })) as CallPayload;
      return toProviderCall(payload);
    }, false);
  },

  updateCall(account, sid, request) {
    const data = defined({
      Twiml: request.twiml || undefined,
      Url: request.url || undefined,
      Method: request.url ? 'POST' : undefined,
      Status: request.status || undefined,
    });
    return run(async () => {
      const payload = (await api(account).update({ uri: callUri(account, sid), method: 'post', data, headers: { ...FORM } })) as CallPayload;
      return toProviderCall(payload);
    }, true);
  },

  fetchCall(account, sid) {
    return run(async () => {
      const payload = (await api(account).fetch({ uri: callUri(account, sid), method: 'get', headers: { Accept: 'application/json' } })) as CallPayload;
      return toProviderCall(payload);
    }, true);
  },
});

/** The adapter of the entry points that place or steer calls (dispatch, answering-machine verdicts, transfers). */
export const createTwilioCalls = twilioAdapter(twilioCalls);
