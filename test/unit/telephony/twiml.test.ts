/**
 * Invariant: every TwiML document the platform produces is, byte for byte, what the Twilio SDK's
 * `VoiceResponse` writes for the same verbs (lib/vendors/telephony/twiml.ts replaces it in production to keep
 * xmlbuilder out of the bundles); the inline documents differ only by the XML declaration they leave out.
 */
import VoiceResponse from 'twilio/lib/twiml/VoiceResponse.js';
import { describe, expect, it } from 'vitest';
import {
  conferenceTwiml,
  connectStreamTwiml,
  dialTwiml,
  sayAndHangUpTwiml,
  warmTransferTwiml,
} from '../../../lib/vendors/telephony/twilio-webhook.js';
import { XML_DECLARATION } from '../../../lib/vendors/telephony/twiml.js';

/** Text that exercises every escape of text and attributes, and the characters left as they are. */
const AWKWARD = [
  'Hello',
  '',
  `a<b>c & d "quoted" it's`,
  'tab\there\nline\r\nend',
  '&amp; already an entity',
  'émoji 👋 and ünïcode',
];

const inline = (sdk: VoiceResponse) => sdk.toString().slice(XML_DECLARATION.length);

describe('TwiML without the SDK', () => {
  it('connects a Media Stream with its parameters as the SDK does', () => {
    for (const value of AWKWARD) {
      const url = `wss://example.test/media-stream?x=${value}`;
      const sdk = new VoiceResponse();
      const stream = sdk.connect().stream({ url });
      stream.parameter({ name: 'token', value });
      stream.parameter({ name: 'callId', value: 'call_01' });
      expect(connectStreamTwiml(url, { token: value, callId: 'call_01' })).toBe(sdk.toString());
    }
    const empty = new VoiceResponse();
    empty.connect().stream({ url: 'wss://example.test/s' });
    expect(connectStreamTwiml('wss://example.test/s', {})).toBe(empty.toString());
  });

  it('says a message and hangs up as the SDK does', () => {
    for (const message of AWKWARD.filter((m) => m !== '')) {
      const sdk = new VoiceResponse();
      sdk.say(message);
      sdk.hangup();
      expect(sayAndHangUpTwiml(message)).toBe(sdk.toString());
    }
  });

  it('dials a number or a SIP URI as the SDK does, without the declaration', () => {
    const number = new VoiceResponse();
    number.dial('+15550100123');
    expect(dialTwiml('+15550100123')).toBe(inline(number));
    const sip = new VoiceResponse();
    sip.dial().sip('sip:agent@example.test;transport=tls&x=<1>');
    expect(dialTwiml('sip:agent@example.test;transport=tls&x=<1>')).toBe(inline(sip));
  });

  it('joins the warm transfer conference as the SDK does, without the declaration', () => {
    const sdk = new VoiceResponse();
    sdk.dial().conference({ beep: 'false', endConferenceOnExit: true }, 'transfer-call_<&>');
    expect(conferenceTwiml('transfer-call_<&>')).toBe(inline(sdk));
  });

  it('offers the warm transfer to its target as the SDK does, without the declaration', () => {
    for (const summary of AWKWARD.filter((m) => m !== '')) {
      const action = `https://api.example.test/twilio/transfer?callId=c1&leg="t"`;
      const sdk = new VoiceResponse();
      const gather = sdk.gather({ numDigits: 1, timeout: 10, method: 'POST', action });
      gather.say(summary);
      gather.say('Press 1 to take the call, or 2 to decline.');
      sdk.say('No answer. Goodbye.');
      sdk.hangup();
      expect(warmTransferTwiml(summary, action)).toBe(inline(sdk));
    }
  });

  it('drops the characters XML cannot carry, where the SDK throws', () => {
    expect(() => new VoiceResponse().say('bell\u0007')).toThrow();
    const sdk = new VoiceResponse();
    sdk.say('bell');
    sdk.hangup();
    expect(sayAndHangUpTwiml('bell\u0007')).toBe(sdk.toString());
  });
});
