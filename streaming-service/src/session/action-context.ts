import type { AudioOut } from './audio-out.js';
import type { TransferResult } from './transfer.js';

/**
 * What an action taken in a call (a reply's built-in tool, a keypad shortcut) may do there, and nothing
 * else: the shape of livekit agents-js `RunContext`. The action sees its own utterance and these few
 * capabilities, never the session, so it cannot reach the loop, the state or another utterance.
 */
export interface ActionContext {
  /** The call has a phone line: only then is there anyone to transfer to or a keypad at the other end. */
  readonly hasPhoneLine: boolean;
  /** Adds the other party to the workspace's do-not-call list (the `opt_out` tool); absent when not offered. */
  readonly optOut?: () => Promise<void>;
  /** Moves the caller (session/transfers.ts); on success the call ends as `transferred`. */
  transfer(to: string, mode?: 'cold' | 'warm', summary?: string): Promise<TransferResult>;
  /** Ends the call as the agent's hang-up. */
  hangUp(): void;
  /** Queues audio (keypad tones) and a mark into an utterance's outbound stream. */
  readonly out: Pick<AudioOut, 'enqueueAudio' | 'enqueueMark'>;
}

/** The call's side of a keypad shortcut: the action context, plus saying a line over whatever was playing. */
export interface ShortcutContext extends ActionContext {
  /** The call is ending or being transferred: a shortcut pressed now does nothing. */
  isBusy(): boolean;
  isEnding(): boolean;
  /** Cuts the agent's current utterance, as a barge-in would. */
  interrupt(): void;
  /** Says a fixed line and waits until it has played. */
  say(text: string): Promise<void>;
}
