// The webhook helpers by their own path: the package root pulls in the whole REST client (megabytes), which
// the webhook handlers never use. TwiML is written by ./twiml.ts, not the SDK's xmlbuilder-based VoiceResponse.
import * as webhooks from 'twilio/lib/webhooks/webhooks.js';
import * as z from 'zod';
import { ANSWERED_BY } from '../../domain/voicemail.js';
import { element, response, text } from './twiml.js';

/**
 * Twilio's side of the webhooks it sends us: the form fields of the voice and status requests, the
 * `X-Twilio-Signature` check, and the TwiML we answer with. Everything Twilio-shaped about webhooks is here,
 * so the service that routes calls deals in plain values.
 */

/** The decoded form body: a name sent twice (Twilio does this for some lists) becomes an array. */
export type FormParams = Record<string, string | string[]>;

/** Parses an `application/x-www-form-urlencoded` body. */
export function parseForm(body: string): FormParams {
  // A Map: field names are client text, and a plain object would find "constructor" on its prototype.
  const out = new Map<string, string | string[]>();
  for (const [name, value] of new URLSearchParams(body)) {
    const prior = out.get(name);
    out.set(name, prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value]);
  }
  return Object.fromEntries(out);
}

/**
 * Whether `signature` is Twilio's HMAC of `url` and the form parameters under `authToken` (the SDK's own
 * check: sorted names, constant-time comparison, with and without a default port in the URL).
 */
export function isValidTwilioSignature(authToken: string, signature: string | undefined, url: string, params: FormParams): boolean {
  if (!signature) return false;
  return webhooks.validateRequest(authToken, signature, url, params);
}

/** Computes the signature Twilio would send; the stand-in and tests sign with it. */
export const twilioSignature = (authToken: string, url: string, params: FormParams): string =>
  webhooks.getExpectedTwilioSignature(authToken, url, params);

const Sid = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[0-9a-fA-F]{32}$`));

export const CALL_STATUSES = ['queued', 'initiated', 'ringing', 'in-progress', 'completed', 'busy', 'failed', 'no-answer', 'canceled'] as const;

/** The fields of a voice webhook we rely on; Twilio sends many more (caller location, SIP data), kept loose. */
export const TwilioVoiceParams = z.looseObject({
  CallSid: Sid('CA'),
  AccountSid: Sid('AC'),
  /** Caller: usually E.164, but may be `anonymous`, a client id or a SIP URI. */
  From: z.string().max(256).default(''),
  /** The number called; for inbound calls one of ours. */
  To: z.string().min(1).max(256),
  CallStatus: z.enum(CALL_STATUSES),
  Direction: z.string().max(32).optional(),
});
export type TwilioVoiceParams = z.infer<typeof TwilioVoiceParams>;

/** A call status callback: the voice fields plus how it ended. */
export const TwilioStatusParams = TwilioVoiceParams.extend({
  CallDuration: z.coerce.number().int().min(0).optional(),
  SequenceNumber: z.coerce.number().int().min(0).optional(),
  Timestamp: z.string().max(64).optional(),
  AnsweredBy: z.string().max(64).optional(),
});
export type TwilioStatusParams = z.infer<typeof TwilioStatusParams>;

/**
 * The asynchronous answering-machine callback (`AsyncAmdStatusCallback`). Twilio documents only these
 * fields (no `To`/`From`/`CallStatus`), so the number whose token signs it is found through the call.
 */
export const TwilioAmdParams = z.looseObject({
  CallSid: Sid('CA'),
  AccountSid: Sid('AC'),
  AnsweredBy: z.enum(ANSWERED_BY),
  MachineDetectionDuration: z.coerce.number().int().min(0).optional(),
});
export type TwilioAmdParams = z.infer<typeof TwilioAmdParams>;

/**
 * TwiML that bridges the call to a bidirectional Media Stream. Values for the stream go in `<Parameter>`
 * elements (they arrive in the `start` message), never in the URL query, which Twilio does not allow.
 */
export function connectStreamTwiml(streamUrl: string, parameters: Record<string, string>): string {
  const params = Object.entries(parameters).map(([name, value]) => element('Parameter', { name, value }));
  return response([element('Connect', {}, element('Stream', { url: streamUrl }, ...params))]);
}

/** TwiML that refuses a ringing call without answering it: the caller hears a busy tone (`busy`) or a network message. */
export function rejectTwiml(reason: 'busy' | 'rejected'): string {
  return response([element('Reject', { reason })]);
}

/** TwiML that says one sentence and hangs up. */
export function sayAndHangUpTwiml(message: string): string {
  return response([element('Say', {}, text(message)), element('Hangup')]);
}

/** Documents sent inline as a call's `Twiml` parameter: without the XML declaration (Twilio's 4,000 characters). */
const INLINE = { declaration: false } as const;

/**
 * TwiML that moves a live call to `destination` (a cold transfer): `<Dial>` with the number, or `<Sip>`
 * for a SIP URI.
 */
export function dialTwiml(destination: string): string {
  const target = /^sips?:/.test(destination) ? element('Sip', {}, text(destination)) : text(destination);
  return response([element('Dial', {}, target)], INLINE);
}

/** The conference a warm transfer bridges the caller and the target in (one per call). */
export const transferConference = (callId: string) => `transfer-${callId}`;

/** TwiML that puts a call in the warm transfer's conference; the call ends when either side leaves. */
export function conferenceTwiml(room: string): string {
  const conference = element('Conference', { beep: 'false', endConferenceOnExit: 'true' }, text(room));
  return response([element('Dial', {}, conference)], INLINE);
}

/**
 * What the target of a warm transfer hears when they answer: the summary, then a choice of one key
 * (1 takes the call; anything else, or nothing within 10 s, declines). The key goes to `actionUrl`.
 */
export function warmTransferTwiml(summary: string, actionUrl: string): string {
  const said = summary.slice(0, 1_500);
  const gather = element(
    'Gather',
    { numDigits: '1', timeout: '10', method: 'POST', action: actionUrl },
    element('Say', {}, text(said)),
    element('Say', {}, text('Press 1 to take the call, or 2 to decline.')),
  );
  return response([gather, element('Say', {}, text('No answer. Goodbye.')), element('Hangup')], INLINE);
}

/** The form of a warm transfer's `<Gather>` action: the target's leg and the key pressed. */
export const TwilioGatherParams = TwilioVoiceParams.extend({ Digits: z.string().max(64).optional() });

/** TwiML content type. */
export const TWIML_CONTENT_TYPE = 'text/xml; charset=utf-8';
