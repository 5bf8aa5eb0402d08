import * as z from 'zod';
import { WIDEBAND_AUDIO, bytesPerMs } from '../../../lib/vendors/shared/audio-format.js';
import type { MediaTransport, SessionNotice } from './port.js';

/**
 * The browser as the session's transport (docs/meeting.md): PCM16 16 kHz mono in binary frames both ways,
 * everything else JSON text frames. The page's socket may drop and come back (a reload, a network blip):
 * the transport outlives it. While no socket is attached, agent audio and notices go nowhere and the
 * session is told nothing new arrives; a rejoining socket is attached in its place.
 */

/** The socket of one page; `ws` from the `ws` package satisfies it. */
export interface PageSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(data: string | Uint8Array): void;
  close(code: number, reason: string): void;
}

export class WebTransport implements MediaTransport {
  readonly format = WIDEBAND_AUDIO;
  private socket: PageSocket | undefined;
  /** Caller media time (ms since the call started) as counted in received samples, for the recording. */
  private mediaMs = 0;
  private readonly bytesPerMs = bytesPerMs(WIDEBAND_AUDIO);

  constructor(private readonly startedAtMs: number) {}

  /** Whether `socket` is the one attached now (a replaced socket's input is ignored). */
  holds(socket: PageSocket): boolean {
    return this.socket === socket;
  }

  /** Attaches the page's socket; returns the one it replaces, if any (a reload racing its old socket's close). */
  attach(socket: PageSocket): PageSocket | undefined {
    const previous = this.socket;
    this.socket = socket;
    return previous;
  }

  /** Forgets `socket` if it is the attached one (a stale socket closing late changes nothing). */
  detach(socket: PageSocket): boolean {
    if (this.socket !== socket) return false;
    this.socket = undefined;
    return true;
  }

  private send(data: string | Uint8Array): void {
    const ws = this.socket;
    if (ws && ws.readyState === ws.OPEN) ws.send(data);
  }

  sendAudio(audio: Uint8Array): void {
    this.send(audio);
  }

  sendMark(name: string): void {
    this.send(JSON.stringify({ type: 'mark', name }));
  }

  clear(): void {
    this.send(JSON.stringify({ type: 'clear' }));
  }

  notify(notice: SessionNotice): void {
    this.send(JSON.stringify(notice));
  }

  close(code: number, reason: string): void {
    this.socket?.close(code, reason);
  }

  /**
   * The media timestamp of a received frame: its position in the caller's audio, counted in samples, but
   * never behind the wall clock (after a rejoin, the time the page was away is silence in the recording).
   */
  callerTimestamp(bytes: number, nowMs: number): number {
    const wall = nowMs - this.startedAtMs - bytes / this.bytesPerMs;
    // More than 200 ms behind the wall clock: frames were lost or the page was away; resynchronize.
    if (wall - this.mediaMs > 200) this.mediaMs = wall;
    const at = this.mediaMs;
    this.mediaMs += bytes / this.bytesPerMs;
    return Math.max(0, at);
  }
}

/** The page's first message. Only wideband PCM16 is offered: the page resamples whatever its device gives. */
export const HelloMessage = z.strictObject({
  type: z.literal('hello'),
  credential: z.string().min(1).max(2048),
  format: z.strictObject({ encoding: z.literal('linear16'), sampleRate: z.literal(16_000) }).optional(),
});

/** What the page sends after `hello`; anything else is ignored. */
export type PageMessage =
  | { readonly type: 'mark'; readonly name: string }
  | { readonly type: 'hangup' }
  | { readonly type: 'mute'; readonly muted: boolean };

const PageMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('mark'), name: z.string().max(128) }),
  z.object({ type: z.literal('hangup') }),
  z.object({ type: z.literal('mute'), muted: z.boolean() }),
]);

/** Parses a JSON text frame against `schema`; undefined for anything malformed. */
function parseFrame<S extends z.ZodType>(schema: S, text: string): z.infer<S> | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a text frame from the page; undefined for anything malformed or unknown. */
export const decodePageMessage = (text: string): PageMessage | undefined => parseFrame(PageMessageSchema, text);

/** Parses the first message; undefined when it is not a well-formed hello. */
export const decodeHello = (text: string): z.infer<typeof HelloMessage> | undefined => parseFrame(HelloMessage, text);
