import type { Logger } from '../../../lib/observability/log.js';
import type { EndCause } from '../frames.js';
import type { AudioOut } from './audio-out.js';
import type { SaidLine } from './lines.js';
import type { SpeechHandle } from './speech-handle.js';
import type { CallStateMachine } from './state.js';
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

/**
 * The few things every part of a call may ask of the call itself: its state (to read, and for a transfer
 * to enter `transferring`), the utterance under way, cutting it, saying a fixed line, ending the call.
 */
export interface CallControl {
  /** Bound to the call: every line carries its id and workspace. */
  readonly log: Logger;
  readonly state: CallStateMachine;
  /** The utterance the agent is speaking (or thinking towards) now, if any. */
  current(): SpeechHandle | undefined;
  /** Cuts the current utterance, as a barge-in would. */
  interrupt(): void;
  /** Says a fixed line as its own utterance (lines.ts). */
  say(text: string): SaidLine;
  end(cause: EndCause): void;
  /** The call's end is decided: what happens now changes nothing. */
  isEnded(): boolean;
}

/** A keypad shortcut acts with the action context and the call's control (shortcut.ts). */
export type ShortcutContext = ActionContext & Pick<CallControl, 'state' | 'interrupt' | 'say'>;
