import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { AudioFormat } from '../../vendors/shared/audio-format.js';
import {
  SegmentPlayer,
  keyAccepted,
  pendingBytes,
  receiveJson,
  sendJson,
  startStandinServer,
  type ConnectionRecord,
  type TtsStandin,
  type TtsStandinOptions,
  type Refusal,
} from './tts-audio.js';
import { DEEPGRAM_TTS_MODELS, isKnown } from './catalog.js';

/**
 * A stand-in for Deepgram Aura's streaming text-to-speech socket,
 * `GET /v1/speak?model=…&encoding=mulaw&sample_rate=8000` (only `/v1/speak`: Deepgram speech-to-text has
 * its own stand-in; this one is reached through DEEPGRAM_TTS_BASE_URL):
 *
 * - auth: `Authorization: Token <key>` (or `Bearer <token>`), or the browser form, subprotocols
 *   `token, <key>`; otherwise the handshake is refused with 401 and Deepgram's `{err_code, err_msg}` body;
 * - on open: `{type: "Metadata", request_id, model_name, model_version, model_uuid}`;
 * - `{type: "Speak", text}` buffers text; `{type: "Flush"}` speaks the buffer: binary audio frames, then
 *   `{type: "Flushed", sequence_id}`; `{type: "Clear"}` drops buffered text and queued or playing audio at
 *   once and answers `{type: "Cleared", sequence_id}`; `{type: "Close"}` lets queued audio finish, then
 *   closes the socket (1000);
 * - more than 20 flushes in 60 s on one socket (Deepgram's documented limit): the flush is ignored, the
 *   buffered text is kept, and Deepgram's warning is sent, `{type: "Warning", code: "EXCESSIVE_FLUSH",
 *   description: "Rate limit exceeded for flushes. Please try again later."}` (the current spec's
 *   `SpeakV1Warning` fields; older servers said `warn_code`/`warn_msg`); the socket stays open;
 * - the socket limits of Deepgram's text-to-speech reference (deepgram/skills `text-to-speech/SKILL.md`,
 *   "Limits on the Aura socket", and developers.deepgram.com/docs/tts-troubleshooting-websocket-net-and-data-errors):
 *   a `Speak` over 2,000 characters closes the socket 1009 `BIG-0001`; more than 2,400 characters in 60 s
 *   across all of a socket's `Speak`s closes it 1008 `DATA-0001`; 60 minutes after the connect it closes
 *   1011 `NET-0003` (`maxConnectionMs`, shorter in tests). Characters are counted as code points;
 * - anything else gets a `Warning`.
 *
 * Audio: `encoding` (default `linear16`) and `sample_rate` (default 24000) as Aura takes them: `linear16` at
 * 8000, 16000, 24000, 32000 or 48000 Hz, `mulaw` at 8000 or 16000 Hz; any other combination is refused
 * (400). Aura's `alaw` is refused too: the stand-in does not produce it.
 */

/** Sample rates Aura's streaming socket offers per raw encoding. */
const RATES: Readonly<Record<string, readonly number[]>> = {
  linear16: [8_000, 16_000, 24_000, 32_000, 48_000],
  mulaw: [8_000, 16_000],
};

/** The format a handshake asks for, or why it is refused. */
function requestedFormat(url: URL): AudioFormat | string {
  const encoding = url.searchParams.get('encoding') ?? 'linear16';
  const rate = Number(url.searchParams.get('sample_rate') ?? '24000');
  if (!(encoding in RATES)) return `the stand-in speaks encoding linear16 or mulaw, not ${encoding}`;
  if (!RATES[encoding]!.includes(rate)) return `sample_rate ${url.searchParams.get('sample_rate')} is not supported for encoding ${encoding}`;
  return { encoding: encoding as AudioFormat['encoding'], sampleRate: rate };
}

const FLUSH_LIMIT = 20;
const FLUSH_WINDOW_MS = 60_000;
/** Characters in one `Speak` (close 1009 `BIG-0001` past it). */
export const DEEPGRAM_SPEAK_MAX_CHARS = 2_000;
/** Characters per 60 s into one socket, all `Speak`s together (close 1008 `DATA-0001` past it). */
export const DEEPGRAM_CHARS_PER_MINUTE = 2_400;
/** A connection's life from its connect (close 1011 `NET-0003` at the end). */
export const DEEPGRAM_MAX_CONNECTION_MS = 60 * 60_000;

export interface DeepgramTtsStandinOptions extends TtsStandinOptions {
  /** The clock the flush and character limits are kept on (default `performance.now`): a test moves it to skip a minute. */
  readonly now?: () => number;
  /** How long a connection may live (default Deepgram's 60 minutes; real time, not `now`): a test shortens it. */
  readonly maxConnectionMs?: number;
}

/** Starts the stand-in on 127.0.0.1:0. */
export function startDeepgramTtsStandin(options: DeepgramTtsStandinOptions = {}): Promise<TtsStandin> {
  const now = options.now ?? (() => performance.now());
  return startStandinServer(
    'deepgram',
    options,
    (url, req) => {
      if (url.pathname !== '/v1/speak') return { refuse: { status: 404, body: { err_code: 'NOT_FOUND', err_msg: 'Not found' } } };
      if (!keyAccepted(options.apiKey, presentedKey(req.headers.authorization, req.headers['sec-websocket-protocol']), 'deepgram')) {
        return { refuse: { status: 401, body: { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.', request_id: randomUUID() } } };
      }
      const format = requestedFormat(url);
      if (typeof format === 'string') return { refuse: { status: 400, body: { err_code: 'Bad Request', err_msg: `Bad Request: ${format}` } } };
      // The voice is the model; an unknown one is refused at the handshake, as Deepgram does.
      const model = url.searchParams.get('model') ?? 'aura-asteria-en';
      if (!isKnown(DEEPGRAM_TTS_MODELS, model)) {
        const message = 'No such model/version/language combination found.';
        return { refuse: { status: 400, body: { err_code: 'INVALID_QUERY_PARAMETER', err_msg: message, request_id: randomUUID() }, headers: { 'dg-error': message } } };
      }
      return {};
    },
    (ws, record, url, standin) => runConnection(ws, record, url, standin, now, options.maxConnectionMs ?? DEEPGRAM_MAX_CONNECTION_MS),
    deepgramFault,
  );
}

/** Deepgram's answers to a refused request: `{err_code, err_msg, request_id}`, the message also in `dg-error`. */
export function deepgramFault(status: number): Refusal {
  const [code, message] = status === 429
    ? ['TOO_MANY_REQUESTS', 'Too many requests. Please try again later.']
    : ['INTERNAL_SERVER_ERROR', 'An internal server error occurred. Please try again later.'];
  return { status, body: { err_code: code, err_msg: message, request_id: randomUUID() }, headers: { 'dg-error': message } };
}

/** The key from `Authorization: Token|Bearer <key>` or from subprotocols `token, <key>`. */
function presentedKey(authorization: string | undefined, protocols: string | undefined): string | undefined {
  const header = /^(?:Token|Bearer)\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (header) return header;
  const parts = (protocols ?? '').split(',').map((p) => p.trim());
  const at = parts.findIndex((p) => p.toLowerCase() === 'token' || p.toLowerCase() === 'bearer');
  return at >= 0 ? parts[at + 1] : undefined;
}

/** Length as Deepgram counts it: Unicode code points, not UTF-16 units. */
const charCount = (text: string): number => [...text].length;

function runConnection(ws: WebSocket, record: ConnectionRecord, url: URL, standin: TtsStandin, now: () => number, maxConnectionMs: number): void {
  const format = requestedFormat(url) as AudioFormat;
  record.format = format;
  const player = new SegmentPlayer(
    () => standin.script,
    (chunk) => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(chunk, { binary: true });
      record.sent.push({ atMs: performance.now(), binaryBytes: chunk.length });
    },
    record.segments,
    format,
  );
  const flushTimes: number[] = [];
  /** Characters this socket took in the last 60 s: when, and how many. */
  const spoken: { at: number; chars: number }[] = [];
  let buffer = '';
  let sequenceId = 0;
  let closing = false;

  sendJson(ws, record, {
    type: 'Metadata',
    request_id: randomUUID(),
    model_name: url.searchParams.get('model') ?? 'aura-asteria-en',
    model_version: 'standin',
    model_uuid: randomUUID(),
  });
  const lifetime = setTimeout(() => ws.close(1011, 'NET-0003'), maxConnectionMs);
  lifetime.unref();
  ws.on('close', () => {
    clearTimeout(lifetime);
    player.clear();
  });

  ws.on('message', (data, isBinary) => {
    const message = receiveJson(data, isBinary, record.received);
    if (closing) return;
    switch (message?.type) {
      case 'Speak': {
        if (typeof message.text !== 'string') return;
        const chars = charCount(message.text);
        if (chars > DEEPGRAM_SPEAK_MAX_CHARS) {
          closing = true;
          ws.close(1009, 'BIG-0001');
          return;
        }
        const at = now();
        while (spoken.length > 0 && spoken[0]!.at <= at - FLUSH_WINDOW_MS) spoken.shift();
        if (spoken.reduce((n, s) => n + s.chars, 0) + chars > DEEPGRAM_CHARS_PER_MINUTE) {
          closing = true;
          ws.close(1008, 'DATA-0001');
          return;
        }
        spoken.push({ at, chars });
        buffer += message.text;
        return;
      }
      case 'Flush': {
        const at = now();
        while (flushTimes.length > 0 && flushTimes[0]! <= at - FLUSH_WINDOW_MS) flushTimes.shift();
        if (flushTimes.length >= FLUSH_LIMIT) {
          // Deepgram's own answer, in the fields of the current spec's `SpeakV1Warning` (deepgram/skills
          // api/references/speak.md).
          sendJson(ws, record, {
            type: 'Warning',
            code: 'EXCESSIVE_FLUSH',
            description: 'Rate limit exceeded for flushes. Please try again later.',
          });
          return;
        }
        flushTimes.push(at);
        const text = buffer;
        buffer = '';
        const id = sequenceId++;
        if (text.trim().length > 0) player.speak(text, /-([a-z]{2})$/.exec(url.searchParams.get('model') ?? '')?.[1]);
        player.then(() => sendJson(ws, record, { type: 'Flushed', sequence_id: id }));
        return;
      }
      case 'Clear':
        buffer = '';
        record.clears.push({ atMs: performance.now(), pendingBytes: pendingBytes(record.segments, format) });
        player.clear();
        sendJson(ws, record, { type: 'Cleared', sequence_id: sequenceId });
        return;
      case 'Close':
        closing = true;
        player.then(() => ws.close(1000));
        return;
      default:
        sendJson(ws, record, { type: 'Warning', description: 'Unknown message type', code: 'UNKNOWN_MESSAGE_TYPE' });
    }
  });
}
