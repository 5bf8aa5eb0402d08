import * as IncomingModule from 'twilio/lib/rest/api/v2010/account/incomingPhoneNumber.js';
import type { NumberRouting, ProviderNumber, TelephonyAccount } from './port.js';
import { emptyToNull, twilioAdapter, type TwilioPart } from './twilio-client.js';

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

/** Buying, finding, configuring and releasing the account's numbers, on the SDK's IncomingPhoneNumbers resource. */
export const twilioNumbers: TwilioPart = ({ api, run }) => {
  const numbers = (account: TelephonyAccount) => IncomingModule.IncomingPhoneNumberListInstance(api(account), account.accountSid);
  return {
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
  };
};

/** The adapter of the entry points that manage numbers (buy, import, release). */
export const createTwilioNumbers = twilioAdapter(twilioNumbers);
