import * as RestExceptionModule from 'twilio/lib/base/RestException.js';
import * as AvailableModule from 'twilio/lib/rest/api/v2010/account/availablePhoneNumberCountry.js';
import * as CallModule from 'twilio/lib/rest/api/v2010/account/call.js';
import * as IncomingModule from 'twilio/lib/rest/api/v2010/account/incomingPhoneNumber.js';
import { withRetry } from './base.js';
import {
  TelephonyError,
  type AvailableNumber,
  type CallStatus,
  type NumberRouting,
  type ProviderCall,
  type ProviderNumber,
  type TelephonyAccount,
  type TelephonyPort,
} from './port.js';
import { sdkDefault, TWILIO_API_ORIGIN, twilioApi } from './twilio-client.js';

export { TWILIO_API_ORIGIN } from './twilio-client.js';

export interface TwilioAdapterOptions {
  /** Twilio's REST origin, or a stand-in's (`http://127.0.0.1:port`). */
  readonly baseUrl?: string;
  /**
   * Per-request timeout. Twilio answers REST calls in well under a second; 10 s leaves room for a slow
   * purchase while keeping a stuck socket from eating the API Gateway's 29 s budget.
   */
  readonly timeoutMs?: number;
}

const DEFAULTS = { baseUrl: TWILIO_API_ORIGIN, timeoutMs: 10_000 } as const satisfies TwilioAdapterOptions;

const RATE_LIMITED = 20429;
const NOT_FOUND = 20404;
const AUTHENTICATE = 20003;
/** 21422: that number is not available; 21452: no numbers left in that area code. */
const UNAVAILABLE = new Set([21422, 21452]);

/** Translates whatever the SDK threw into a {@link TelephonyError}. */
export function toTelephonyError(error: unknown): TelephonyError | unknown {
  if (error instanceof TelephonyError) return error;
  if (error instanceof sdkDefault(RestExceptionModule.default)) {
    const status = error.status;
    const code = error.code;
    const init = { vendor: 'twilio', status, vendorCode: code, cause: error };
    const message = error.message || `Twilio answered HTTP ${status}`;
    if (status === 401 || code === AUTHENTICATE) return new TelephonyError(message, { ...init, kind: 'auth' });
    if (status === 404 || code === NOT_FOUND) return new TelephonyError(message, { ...init, kind: 'not_found' });
    if (status === 429 || code === RATE_LIMITED) return new TelephonyError(message, { ...init, kind: 'rate_limited' });
    if (code !== undefined && UNAVAILABLE.has(code)) return new TelephonyError(message, { ...init, kind: 'unavailable' });
    if (status >= 500) return new TelephonyError(message, { ...init, kind: 'provider_error' });
    return new TelephonyError(message, { ...init, kind: 'invalid' });
  }
  return error;
}

const emptyToNull = (v: string | null | undefined): string | null => (v === undefined || v === null || v === '' ? null : v);

interface NumberLike {
  sid: string;
  accountSid: string;
  phoneNumber: string;
  voiceUrl?: string | null;
  voiceMethod?: string | null;
  statusCallback?: string | null;
  statusCallbackMethod?: string | null;
  voiceApplicationSid?: string | null;
  trunkSid?: string | null;
}

const toProviderNumber = (n: NumberLike): ProviderNumber => ({
  sid: n.sid,
  accountSid: n.accountSid,
  number: n.phoneNumber,
  voiceUrl: emptyToNull(n.voiceUrl),
  voiceMethod: emptyToNull(n.voiceMethod),
  statusCallback: emptyToNull(n.statusCallback),
  statusCallbackMethod: emptyToNull(n.statusCallbackMethod),
  voiceApplicationSid: emptyToNull(n.voiceApplicationSid),
  trunkSid: emptyToNull(n.trunkSid),
});

interface CallLike {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  status: string;
  direction: string;
  duration?: string | null;
}

const toProviderCall = (c: CallLike): ProviderCall => ({
  sid: c.sid,
  accountSid: c.accountSid,
  to: c.to,
  from: c.from,
  status: c.status as CallStatus,
  direction: c.direction,
  durationSeconds: c.duration === null || c.duration === undefined || c.duration === '' ? null : Number(c.duration),
});

/** Twilio clears a setting when it is sent as an empty string. */
const routingParams = (routing: NumberRouting) => {
  const out: Record<string, string> = {};
  if (routing.voiceUrl !== undefined) {
    out.voiceUrl = routing.voiceUrl ?? '';
    if (routing.voiceUrl) out.voiceMethod = routing.voiceMethod ?? 'POST';
  }
  if (routing.statusCallback !== undefined) {
    out.statusCallback = routing.statusCallback ?? '';
    if (routing.statusCallback) out.statusCallbackMethod = routing.statusCallbackMethod ?? 'POST';
  }
  if (routing.voiceApplicationSid === null) out.voiceApplicationSid = '';
  if (routing.trunkSid === null) out.trunkSid = '';
  return out;
};

/** Only a 429 proves Twilio did not act; a timeout on a purchase may still have bought the number. */
const onlyIfNotActedOn = (e: unknown) => e instanceof TelephonyError && e.kind === 'rate_limited';

/**
 * The Twilio adapter of the telephony port, on the official SDK's Api v2010 resources (twilio-client.ts says
 * why not the whole `Twilio` client). fetch's pool keeps the sockets alive across accounts; the SDK objects
 * are made per call because each call may act for a different account.
 */
export function createTwilioTelephony(options: TwilioAdapterOptions = {}): TelephonyPort {
  const { baseUrl, timeoutMs } = { ...DEFAULTS, ...options };
  const api = (account: TelephonyAccount) => twilioApi(account, { baseUrl, timeoutMs });
  const numbers = (account: TelephonyAccount) => IncomingModule.IncomingPhoneNumberListInstance(api(account), account.accountSid);
  const calls = (account: TelephonyAccount) => CallModule.CallListInstance(api(account), account.accountSid);

  async function run<T>(fn: () => Promise<T>, idempotent: boolean): Promise<T> {
    return withRetry(
      async () => {
        try {
          return await fn();
        } catch (error) {
          throw toTelephonyError(error);
        }
      },
      idempotent ? {} : { canRetry: onlyIfNotActedOn },
    );
  }

  return {
    searchAvailable(account, query) {
      return run(async () => {
        const found = await AvailableModule.AvailablePhoneNumberCountryListInstance(api(account), account.accountSid)(query.country.toUpperCase())
          .local.list({
            ...(query.areaCode ? { areaCode: Number(query.areaCode) } : {}),
            ...(query.contains ? { contains: query.contains } : {}),
            voiceEnabled: true,
            limit: query.limit ?? 20,
          });
        return found.map(
          (n): AvailableNumber => ({
            number: n.phoneNumber,
            friendlyName: n.friendlyName,
            locality: emptyToNull(n.locality),
            region: emptyToNull(n.region),
            postalCode: emptyToNull(n.postalCode),
            country: n.isoCountry,
            capabilities: {
              voice: Boolean(n.capabilities?.voice),
              sms: Boolean(n.capabilities?.sms ?? (n.capabilities as { SMS?: boolean } | undefined)?.SMS),
              mms: Boolean(n.capabilities?.mms ?? (n.capabilities as { MMS?: boolean } | undefined)?.MMS),
            },
          }),
        );
      }, true);
    },

    buyNumber(account, number, routing) {
      return run(async () => {
        const created = await numbers(account).create({ phoneNumber: number, ...routingParams(routing) });
        return toProviderNumber(created);
      }, false);
    },

    findNumber(account, number) {
      return run(async () => {
        // PhoneNumber is a partial match at Twilio ("+1415" finds many), so keep only the exact number.
        const found = await numbers(account).list({ phoneNumber: number, limit: 20 });
        const exact = found.find((n) => n.phoneNumber === number);
        return exact ? toProviderNumber(exact) : undefined;
      }, true);
    },

    configureNumber(account, sid, routing) {
      return run(async () => toProviderNumber(await numbers(account)(sid).update(routingParams(routing))), true);
    },

    releaseNumber(account, sid) {
      return run(async () => {
        await numbers(account)(sid).remove();
      }, true);
    },

    createCall(account, request) {
      return run(async () => {
        const call = await calls(account).create({
          to: request.to,
          from: request.from,
          ...(request.url ? { url: request.url, method: 'POST' } : {}),
          ...(request.twiml ? { twiml: request.twiml } : {}),
          ...(request.statusCallback
            ? {
                statusCallback: request.statusCallback,
                statusCallbackMethod: 'POST',
                ...(request.statusCallbackEvents ? { statusCallbackEvent: [...request.statusCallbackEvents] } : {}),
              }
            : {}),
          ...(request.timeoutSeconds !== undefined ? { timeout: request.timeoutSeconds } : {}),
          ...(request.timeLimitSeconds !== undefined ? { timeLimit: request.timeLimitSeconds } : {}),
          ...(request.record !== undefined ? { record: request.record } : {}),
          ...(request.machineDetection ? { machineDetection: request.machineDetection } : {}),
          ...(request.machineDetection && request.asyncAmdStatusCallback
            ? { asyncAmd: 'true', asyncAmdStatusCallback: request.asyncAmdStatusCallback, asyncAmdStatusCallbackMethod: 'POST' }
            : {}),
          ...(request.machineDetectionTimeoutSeconds !== undefined ? { machineDetectionTimeout: request.machineDetectionTimeoutSeconds } : {}),
        });
        return toProviderCall(call);
      }, false);
    },

    updateCall(account, sid, request) {
      return run(async () => {
        const call = await calls(account)(sid)
          .update({
            ...(request.twiml ? { twiml: request.twiml } : {}),
            ...(request.url ? { url: request.url, method: 'POST' } : {}),
            ...(request.status ? { status: request.status } : {}),
          });
        return toProviderCall(call);
      }, true);
    },

    fetchCall(account, sid) {
      return run(async () => toProviderCall(await calls(account)(sid).fetch()), true);
    },
  };
}
