// Invariant: the Media Streams URL the platform hands Twilio in `<Connect><Stream url>` is one Twilio takes:
// no query string (values go in `<Parameter>`s: Twilio error 31922's page), `wss://` whenever the public base
// URL is https, and the stream token travels as a `<Parameter>`. A STREAM_URL with a query string is refused
// when the configuration loads, not at the first call.
import { describe, expect, it } from 'vitest';
import { loadConfig, streamUrl } from '../../lib/config.js';
import { streamUrlRefusal } from '../../lib/local/standins/twilio/twiml.js';
import { connectStreamTwiml } from '../../lib/vendors/telephony/twilio-webhook.js';

describe('the <Stream> url', () => {
  it('is wss:// without a query string for an https base URL, the token in a <Parameter>', () => {
    const url = streamUrl(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/?x=1' }));
    expect(url).toBe('wss://api.example.com/media-stream');
    expect(streamUrlRefusal(url)).toBeUndefined();
    expect(connectStreamTwiml(url, { token: 'a.b' })).toContain('<Stream url="wss://api.example.com/media-stream"><Parameter name="token" value="a.b"/></Stream>');
  });

  it('refuses a STREAM_URL with a query string or a fragment when the configuration loads', () => {
    expect(() => loadConfig({ STREAM_URL: 'wss://stream.example.com/media-stream?token=x' })).toThrow(/STREAM_URL must have no query string/);
    expect(() => loadConfig({ STREAM_URL: 'wss://stream.example.com/media-stream#x' })).toThrow(/STREAM_URL must have no query string/);
    expect(streamUrl(loadConfig({ STREAM_URL: 'wss://stream.example.com/media-stream' }))).toBe('wss://stream.example.com/media-stream');
  });

  it('the simulator takes ws:// only to loopback, as the local platform serves it', () => {
    expect(streamUrlRefusal(streamUrl(loadConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:3000' })))).toBeUndefined();
    expect(streamUrlRefusal('ws://10.0.0.5/media-stream')).toMatch(/^31922/);
    expect(streamUrlRefusal('http://api.example.com/media-stream')).toMatch(/^31922/);
  });
});
