/**
 * A TwiML writer for the few verbs the platform answers with.
 *
 * Why not the SDK's `VoiceResponse`: it builds on xmlbuilder (~75 KB with the verb classes), which every
 * Lambda that answers a call or steers one carried for a handful of fixed documents (docs/benchmarks.md,
 * "Cold start"). TwiML is plain XML; this writes the same bytes the SDK does: the same escaping as
 * xmlbuilder's (text: `&`, `<`, `>`, CR; attributes: `&`, `<`, `"`, tab, LF, CR), empty elements
 * self-closed. test/unit/telephony/twiml.test.ts compares every document we produce with the SDK's.
 */

/** The declaration the SDK's `toString()` starts with. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/**
 * Characters XML 1.0 cannot carry at all (controls other than tab, LF and CR, lone surrogates, U+FFFE/FFFF).
 * xmlbuilder throws on them; a voicemail message or a summary with one should still be said, so they are dropped.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export const escapeText = (s: string): string =>
  s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');

export const escapeAttribute = (s: string): string =>
  s
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#x9;')
    .replace(/\n/g, '&#xA;')
    .replace(/\r/g, '&#xD;');

/** A verb's or noun's attributes in the order written; `undefined` leaves one out. */
export type TwimlAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * One element: `content` is already TwiML (child elements, or {@link text}); no content closes it as `<Name/>`.
 * Names are ours, never caller input, so they are not checked.
 */
export function element(name: string, attributes: TwimlAttributes = {}, ...content: readonly string[]): string {
  const attrs = Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}="${escapeAttribute(String(value))}"`)
    .join('');
  const inner = content.join('');
  return inner === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${inner}</${name}>`;
}

/** Text content of an element (`<Say>`, `<Dial>`'s number), escaped. */
export const text = escapeText;

/**
 * A `<Response>` document of the given verbs. `declaration: false` leaves out the XML declaration, for
 * documents sent inline as a call's `Twiml` parameter, where Twilio counts every character (4,000 at most).
 */
export function response(verbs: readonly string[], options: { declaration?: boolean } = {}): string {
  return `${options.declaration === false ? '' : XML_DECLARATION}${element('Response', {}, ...verbs)}`;
}
