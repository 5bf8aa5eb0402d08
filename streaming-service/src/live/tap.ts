import { LISTEN_CHANNEL, listenFrame } from '../../../lib/domain/live-control.js';
import type { CallEndReason } from '../../../lib/domain/history.js';
import type { SessionNotice } from '../transport/port.js';

/**
 * A call's listeners (docs/live-calls.md, "Listen"): both sides' audio and the call's events, fanned out
 * to every socket that listens. A listener only receives: nothing it sends reaches the call, and a listener
 * that cannot keep up is dropped rather than slowing the call. With nobody listening every method returns
 * at once (the benchmark's baseline).
 */

/** What the tap needs of a listener's socket (a `ws` WebSocket). */
export interface ListenerSocket {
  readonly bufferedAmount: number;
  send(data: Buffer | string): void;
  close(code: number, reason: string): void;
}

/** The JSON events of the listen socket; audio goes in binary frames. */
export type ListenEvent =
  | Exclude<SessionNotice, { type: 'ended' }>
  | { readonly type: 'interruption'; readonly atMs: number }
  | { readonly type: 'tool_call'; readonly name: string; readonly phase: 'started' | 'finished'; readonly ok?: boolean }
  | { readonly type: 'transfer'; readonly to: string; readonly ok: boolean; readonly outcome: string }
  | { readonly type: 'ended'; readonly reason: CallEndReason };

/**
 * A listener more than this behind is dropped: 2 MB is ~30 s of both channels at 16 kHz, far past any
 * network hiccup, and bounds what one slow listener can make the task hold.
 */
export const MAX_LISTENER_BACKLOG_BYTES = 2 * 1024 * 1024;

/** WebSocket close 1013 (try again later, RFC 6455 §7.4.1 / IANA registry): the listener fell behind. */
const TRY_AGAIN_LATER = 1013;

export class CallTap {
  private readonly listeners = new Set<ListenerSocket>();
  private endReason: CallEndReason | undefined;

  get size(): number {
    return this.listeners.size;
  }

  /** Adds a listener; false when the call is already over (the socket is then told so and closed). */
  add(socket: ListenerSocket): boolean {
    if (this.endReason) {
      socket.send(JSON.stringify({ type: 'ended', reason: this.endReason }));
      socket.close(1000, 'ended');
      return false;
    }
    this.listeners.add(socket);
    return true;
  }

  remove(socket: ListenerSocket): void {
    this.listeners.delete(socket);
  }

  /** The caller's audio as PCM16 at the call's rate; `atMs` since the call started. */
  caller(pcm: Int16Array, atMs: number): void {
    if (this.listeners.size > 0) this.fanOut(listenFrame(LISTEN_CHANNEL.caller, atMs, pcm));
  }

  /** The agent's audio as PCM16, `atMs` being when it starts playing (it is sent ahead of playout). */
  agent(pcm: Int16Array, atMs: number): void {
    if (this.listeners.size > 0) this.fanOut(listenFrame(LISTEN_CHANNEL.agent, atMs, pcm));
  }

  event(event: ListenEvent): void {
    if (this.listeners.size > 0) this.fanOut(JSON.stringify(event));
  }

  /** The call is over: every listener is told why and closed; later listeners are told at once. */
  end(reason: CallEndReason): void {
    if (this.endReason) return;
    this.event({ type: 'ended', reason });
    this.endReason = reason;
    for (const socket of this.listeners) socket.close(1000, 'ended');
    this.listeners.clear();
  }

  private fanOut(data: Buffer | string): void {
    for (const socket of this.listeners) {
      if (socket.bufferedAmount > MAX_LISTENER_BACKLOG_BYTES) {
        this.listeners.delete(socket);
        socket.close(TRY_AGAIN_LATER, 'listener too slow');
        continue;
      }
      socket.send(data);
    }
  }
}
