/**
 * The little TwiML the call simulator reads, the way Twilio reads it: `<Connect><Stream>` with its
 * `<Parameter>`s, `<Say>`, and where a `<Dial>` goes.
 */

/** XML entities back to text (our TwiML escapes attribute values and `<Say>` text). */
export const unescape = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** What `<Say>` verbs speak, in order. */
export const saysIn = (twiml: string) => [...twiml.matchAll(/<Say\b[^>]*>([\s\S]*?)<\/Say>/g)].map((m) => unescape(m[1]!.trim()));

/** Where a `<Dial>` goes: its number, SIP URI or `conference:<name>`. */
export function dialTarget(twiml: string): string | undefined {
  const dial = /<Dial\b[^>]*>([\s\S]*?)<\/Dial>/.exec(twiml)?.[1];
  if (dial === undefined) return undefined;
  const conference = /<Conference\b[^>]*>([\s\S]*?)<\/Conference>/.exec(dial)?.[1];
  if (conference !== undefined) return `conference:${unescape(conference.trim())}`;
  const inner = /<(?:Number|Sip)\b[^>]*>([\s\S]*?)<\/(?:Number|Sip)>/.exec(dial)?.[1];
  return unescape((inner ?? dial).trim());
}

/** The `<Stream url>` and its `<Parameter>`s from `<Connect><Stream>` TwiML; undefined for any other TwiML. */
export function parseStreamTwiml(twiml: string): { url: string; parameters: Record<string, string> } | undefined {
  const attr = (tag: string, name: string) => {
    const m = new RegExp(`\\b${name}="([^"]*)"`).exec(tag);
    return m ? unescape(m[1]!) : undefined;
  };
  const stream = /<Connect>\s*<Stream\b([^>]*)>([\s\S]*?)<\/Stream>|<Connect>\s*<Stream\b([^>]*)\/>/.exec(twiml);
  if (!stream) return undefined;
  const url = attr(stream[1] ?? stream[3] ?? '', 'url');
  if (!url) return undefined;
  const parameters: Record<string, string> = {};
  for (const p of (stream[2] ?? '').matchAll(/<Parameter\b([^>]*)\/?>/g)) {
    const name = attr(p[1]!, 'name');
    const value = attr(p[1]!, 'value');
    if (name !== undefined && value !== undefined) parameters[name] = value;
  }
  return { url, parameters };
}

/** Loopback hosts: what the simulator lets a `ws://` stream URL name (see {@link streamUrlRefusal}). */
const LOOPBACK = /^(127(?:\.\d{1,3}){3}|\[::1\]|localhost)$/i;

/**
 * Why Twilio would refuse a `<Stream url>`, or undefined when it would connect:
 * - the scheme must be `wss`: "wss is the only supported protocol for the <Stream> url attribute", error
 *   31922 "Stream - WebSocket - URL Schema Not Supported" (twilio.com/docs/api/errors/31922);
 * - no query string: "do not add query string parameters to the url. Use nested <Parameter> values
 *   instead" (the same page; TwiML <Stream>, twilio.com/docs/voice/twiml/stream).
 * One allowance Twilio does not make: plain `ws://` to a loopback host, because Twilio can never reach
 * loopback at all and the local platform serves its streaming socket there without TLS. Any other host
 * needs `wss://`, so a deployment that would hand Twilio a `ws://` URL fails here as it would there.
 */
export function streamUrlRefusal(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `31922 Stream - WebSocket - URL Schema Not Supported: ${url} is not a URL`;
  }
  const loopbackWs = parsed.protocol === 'ws:' && LOOPBACK.test(parsed.hostname);
  if (parsed.protocol !== 'wss:' && !loopbackWs) return `31922 Stream - WebSocket - URL Schema Not Supported: ${parsed.protocol}// (wss is the only supported protocol)`;
  if (parsed.search !== '' || url.includes('?')) return 'the <Stream> url has a query string: Twilio passes values in nested <Parameter> elements, not in the url';
  return undefined;
}
