import { twilioAdapter } from './twilio-client.js';
import { twilioCalls } from './twilio-calls.js';
import { twilioNumbers } from './twilio-numbers.js';
import { twilioSearch } from './twilio-search.js';

export { TWILIO_API_ORIGIN, toTelephonyError, type TwilioAdapterOptions } from './twilio-client.js';

/**
 * The whole Twilio adapter of the telephony port, on the official SDK's Api v2010 resources (twilio-client.ts
 * says why not the SDK's `Twilio` client), for the processes that need every operation: the local platform,
 * the streaming service, tests. A Lambda entry point names only its part (createTwilioSearch,
 * createTwilioNumbers, createTwilioCalls), so its bundle carries only that part's SDK resources.
 */
export const createTwilioTelephony = twilioAdapter(twilioSearch, twilioNumbers, twilioCalls);
