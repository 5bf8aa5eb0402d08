// The webhook helpers and TwiML builder by their own paths: the package root pulls in the whole REST client
// (megabytes), which the webhook handlers never use.
import VoiceResponse from 'twilio/lib/twiml/VoiceResponse.js';
import * as webhooks from 'twilio/lib/webhooks/webhooks.js';
import * as z from 'zod';
import { ANSWERED_BY } from '../../domain/voicemail.js';

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
  const response = new VoiceResponse();
  const stream = response.connect().stream({ url: streamUrl });
  for (const [name, value] of Object.entries(parameters)) stream.parameter({ name, value });
  return response.toString();
}

/** TwiML that says one sentence and hangs up. */
export function sayAndHangUpTwiml(message: string): string {
  const response = new VoiceResponse();
  response.say(message);
  response.hangup();
  return response.toString();
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * TwiML that moves a live call to `destination` (a cold transfer): `<Dial>` with the number, or `<Sip>`
 * for a SIP URI. Built by hand, without the XML declaration, to stay far under the 4,000 characters Twilio
 * accepts in `Twiml`.
 */
export function dialTwiml(destination: string): string {
  const target = /^sips?:/.test(destination) ? `<Sip>${escapeXml(destination)}</Sip>` : escapeXml(destination);
  return `<Response><Dial>${target}</Dial></Response>`;
}

/** The conference a warm transfer bridges the caller and the target in (one per call). */
export const transferConference = (callId: string) => `transfer-${callId}`;

/** TwiML that puts a call in the warm transfer's conference; the call ends when either side leaves. */
export function conferenceTwiml(room: string): string {
  return `<Response><Dial><Conference beep="false" endConferenceOnExit="true">${escapeXml(room)}</Conference></Dial></Response>`;
}

/**
 * What the target of a warm transfer hears when they answer: the summary, then a choice of one key
 * (1 takes the call; anything else, or nothing within 10 s, declines). The key goes to `actionUrl`.
 */
export function warmTransferTwiml(summary: string, actionUrl: string): string {
  const said = summary.slice(0, 1_500);
  return (
    `<Response><Gather numDigits="1" timeout="10" method="POST" action="${escapeXml(actionUrl)}">` +
    `<Say>${escapeXml(said)}</Say><Say>Press 1 to take the call, or 2 to decline.</Say></Gather>` +
    `<Say>No answer. Goodbye.</Say><Hangup/></Response>`
  );
}

/** The form of a warm transfer's `<Gather>` action: the target's leg and the key pressed. */
export const TwilioGatherParams = TwilioVoiceParams.extend({ Digits: z.string().max(64).optional() });

/** TwiML content type. */
export const TWIML_CONTENT_TYPE = 'text/xml; charset=utf-8';
