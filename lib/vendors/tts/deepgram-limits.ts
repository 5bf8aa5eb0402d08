/**
 * The text limits of Deepgram Aura's socket, kept on our side so the socket is never closed for them
 * (deepgram/skills `text-to-speech/SKILL.md`, "Limits on the Aura socket"; the close codes are on
 * developers.deepgram.com/docs/tts-troubleshooting-websocket-net-and-data-errors):
 * - at most 2,000 characters in one `Speak` (close 1009 `BIG-0001`): longer text is cut at a sentence end,
 *   else at a space, never inside a word (Deepgram joins `Speak`s verbatim, so the cut loses nothing);
 * - at most 2,400 characters per minute into one socket, across all `Speak`s (close 1008 `DATA-0001`):
 *   text over the budget waits for the window to free.
 * Pure: the session (./deepgram.ts) decides when to send. Also here: which closes and refusals are
 * retryable, and the wire shapes the session reads.
 */
import { VendorError } from '../shared/errors.js';
import { isRetryableClose } from './connect.js';

/** Deepgram's limit on one `Speak`. */
export const DEEPGRAM_SPEAK_MAX_CHARS = 2_000;
/** Deepgram's limit on characters per 60 s into one socket. */
export const DEEPGRAM_CHARS_PER_MINUTE = 2_400;
/** The window we count characters in: Deepgram's 60 s plus a margin for the text's trip to Deepgram. */
export const DEEPGRAM_CHAR_WINDOW_MS = 61_000;

/** Deepgram's documented limit on `Flush` messages per 60 s (developers.deepgram.com/docs/tts-ws-flush). */
export const DEEPGRAM_FLUSHES_PER_MINUTE = 20;
/** The window we count flushes in: Deepgram's 60 s plus a margin for the flush's trip to Deepgram. */
export const DEEPGRAM_FLUSH_WINDOW_MS = 61_000;
/** Deepgram's limit on a connection's life from its connect (close 1011 `NET-0003`). */
export const DEEPGRAM_MAX_SOCKET_MS = 60 * 60_000;
/** How long before that cap a spare socket is opened and taken over at the next utterance. */
export const DEEPGRAM_ROTATE_AHEAD_MS = 5 * 60_000;

/** Characters as Deepgram counts them (code points); a UTF-16 length would over-count, never under. */
export const charCount = (text: string): number => [...text].length;

/**
 * The longest head of `text` of at most `max` characters that ends after a sentence end, else after a
 * space (so no word is cut), and the rest. Only a single "word" longer than `max` (a URL, a run of
 * digits) is cut at `max`, the only way to send it.
 */
export function cutAt(text: string, max: number): [string, string] {
  const chars = [...text];
  if (chars.length <= max) return [text, ''];
  let sentence = -1;
  let space = -1;
  // A whitespace at i ends a head of i + 1 characters (the head keeps it, the tail starts a word).
  for (let i = 0; i < max; i += 1) {
    if (!/\s/.test(chars[i]!)) continue;
    space = i;
    if (i > 0 && /[.!?;:]/.test(chars[i - 1]!)) sentence = i;
  }
  const boundary = sentence >= 0 ? sentence : space;
  const at = boundary >= 0 ? boundary + 1 : max;
  return [chars.slice(0, at).join(''), chars.slice(at).join('')];
}

/** `text` as `Speak` messages of at most `max` characters each, cut between words. */
export function splitForSpeak(text: string, max = DEEPGRAM_SPEAK_MAX_CHARS): string[] {
  const out: string[] = [];
  let rest = text;
  while (charCount(rest) > max) {
    const [head, tail] = cutAt(rest, max);
    out.push(head);
    rest = tail;
  }
  if (rest.length > 0) out.push(rest);
  return out;
}

/** Characters sent in a sliding window, on an injectable clock. */
export class CharWindow {
  private readonly sent: { at: number; chars: number }[] = [];

  constructor(
    private readonly now: () => number,
    private readonly limit = DEEPGRAM_CHARS_PER_MINUTE,
    private readonly windowMs = DEEPGRAM_CHAR_WINDOW_MS,
  ) {}

  /** Characters that may go now. */
  room(): number {
    const start = this.now() - this.windowMs;
    while (this.sent.length > 0 && this.sent[0]!.at <= start) this.sent.shift();
    return this.limit - this.sent.reduce((n, s) => n + s.chars, 0);
  }

  add(chars: number): void {
    this.sent.push({ at: this.now(), chars });
  }

  /** A new socket: Deepgram counts per socket. */
  reset(): void {
    this.sent.length = 0;
  }
}

/**
 * Closes a new socket fixes: the 1011s (the connection cap `NET-0003`, a server fault) and 1008 `DATA-0001`
 * (the character budget, which is per socket). Other 1008s and 1009 (`BIG-0001`: the same text would be
 * refused again) are not.
 */
export function closeRetryable(code: number, reason: string | undefined): boolean {
  return isRetryableClose(code) ? code !== 1009 : reason === 'DATA-0001';
}

/** The SDK reports a refused handshake as an error whose message carries the HTTP status. */
export function handshakeError(error: Error): VendorError {
  const status = /(\d{3})/.exec(error.message)?.[1];
  if (status) {
    const code = Number(status);
    return new VendorError('deepgram', `handshake refused: ${error.message}`, code === 408 || code === 429 || code >= 500, code);
  }
  return new VendorError('deepgram', `connection failed: ${error.message}`, true, undefined, { cause: error });
}

/** Our state per utterance (./deepgram.ts). */
export interface DeepgramUtterance {
  flushesSent: number;
  flushedReceived: number;
  /** Text waiting for the character budget, as `Speak`-sized pieces; `ends` on a phrase's last piece. */
  held: { text: string; ends: boolean }[];
  /** Phrases whose text has all gone out in `Speak`s. */
  phrases: number;
  /** Per flush sent, how many phrases it completes. */
  flushCovers: number[];
  /** Text sent with `Speak` but not yet flushed (a phrase flush coalesced or skipped for the budget). */
  unflushed: boolean;
  clearing: boolean;
  /** The end flush waits for a slot in the flush window. */
  endFlushHeld: boolean;
}

/** Deepgram's JSON messages as we read them. */
export interface DeepgramControl {
  type?: string;
  description?: string;
  code?: string;
  warn_code?: string;
  warn_msg?: string;
}

/** A binary frame's bytes, however the SDK hands it over. */
export async function audioBytes(message: Blob | ArrayBuffer | ArrayBufferView): Promise<Uint8Array> {
  if (message instanceof Blob) return new Uint8Array(await message.arrayBuffer());
  if (message instanceof ArrayBuffer) return new Uint8Array(message);
  return new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
}
