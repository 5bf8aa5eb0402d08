// Invariant: the Twilio simulator opens a Media Stream only where Twilio would. Twilio connects `<Stream>`
// over `wss` alone (error 31922, "wss is the only supported protocol for the <Stream> url attribute") and
// takes no query string on the url (values go in nested `<Parameter>`s); the simulator refuses both, so
// TwiML that a real call would fail on fails here too. Its one allowance: `ws://` to a loopback host, where
// the local platform serves its stream without TLS and where Twilio itself could never connect.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createCallSimulator, type CallSimulator } from '../../lib/local/standins/twilio/call-simulator.js';
import { startTwilioStandin, type TwilioStandin } from '../../lib/local/standins/twilio/standin.js';
import { connectStreamTwiml } from '../../lib/vendors/telephony/twilio-webhook.js';

const FROM = '+14155550142';
const TO = '+14155550143';

let simulator: CallSimulator;
let twilio: TwilioStandin;
let account: { sid: string; authToken: string };
let voice: Server;
let media: WebSocketServer;
let mediaUrl: string;
/** What the voice webhook answers: the TwiML of the case under test. */
let answer = '';
let streamsOpened = 0;

beforeAll(async () => {
  simulator = createCallSimulator({ ringMs: 0, agentTurnTimeoutMs: 500 });
  twilio = await startTwilioStandin({ hooks: simulator.hooks });
  simulator.attach(twilio);
  account = twilio.addAccount();
  twilio.addNumber(account.sid, FROM);
  voice = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => voice.listen(0, '127.0.0.1', () => resolve()));
  // A stream that opens is counted and hung up at once: the case is only whether Twilio opened it.
  media = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => media.once('listening', resolve));
  media.on('connection', (ws) => {
    streamsOpened += 1;
    ws.close(1000);
  });
  mediaUrl = `ws://127.0.0.1:${(media.address() as AddressInfo).port}/media-stream`;
});

afterAll(async () => {
  await simulator?.drain();
  await twilio?.stop();
  voice?.close();
  media?.close();
});

/** Places a call whose voice webhook answers `twiml`; resolves with how the simulated call ended. */
async function callWith(twiml: string) {
  answer = twiml;
  const res = await fetch(`${twilio.baseUrl}/2010-04-01/Accounts/${account.sid}/Calls.json`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${account.sid}:${account.authToken}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ To: TO, From: FROM, Url: `http://127.0.0.1:${(voice.address() as AddressInfo).port}/voice` }).toString(),
  });
  expect(res.status).toBe(201);
  const { sid } = (await res.json()) as { sid: string };
  return simulator.finished(sid);
}

describe('Twilio simulator: <Stream url> as Twilio takes it', () => {
  it('refuses a ws:// stream url to a host that is not loopback with 31922, opening nothing', async () => {
    const result = await callWith(connectStreamTwiml('ws://stream.example.com/media-stream', { token: 't' }));
    expect(result.error).toMatch(/^stream refused: 31922 Stream - WebSocket - URL Schema Not Supported/);
    expect(result.status).toBe('completed');
  });

  it('refuses a stream url with a query string, even on loopback: values go in <Parameter>', async () => {
    const before = streamsOpened;
    const result = await callWith(connectStreamTwiml(`${mediaUrl}?token=t`, {}));
    expect(result.error).toMatch(/^stream refused: the <Stream> url has a query string/);
    expect(streamsOpened).toBe(before);
  });

  it('opens the stream for the platform\'s own TwiML: no query string, the token in a <Parameter>', async () => {
    const before = streamsOpened;
    const result = await callWith(connectStreamTwiml(mediaUrl, { token: 't' }));
    expect(result.error ?? '').not.toMatch(/stream refused/);
    expect(streamsOpened).toBe(before + 1);
  });
});
