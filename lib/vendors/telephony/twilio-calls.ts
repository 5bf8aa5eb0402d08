import * as CallModule from 'twilio/lib/rest/api/v2010/account/call.js';
import type { CallStatus, ProviderCall, TelephonyAccount } from './port.js';
import { twilioAdapter, type TwilioPart } from './twilio-client.js';

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

/** Placing, steering and reading calls, on the SDK's Calls resource. */
export const twilioCalls: TwilioPart = ({ api, run }) => {
  const calls = (account: TelephonyAccount) => CallModule.CallListInstance(api(account), account.accountSid);
  return {
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
};

/** The adapter of the entry points that place or steer calls (dispatch, answering-machine verdicts, transfers). */
export const createTwilioCalls = twilioAdapter(twilioCalls);
