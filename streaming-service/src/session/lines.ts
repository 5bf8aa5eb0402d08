import type { Conversation } from '../conversation/conversation.js';
import type { Speaker } from './speaker.js';
import type { SpeechHandle } from './speech-handle.js';
import type { CallStateMachine } from './state.js';

/** What saying a fixed line needs of the call: a new utterance, its place in the conversation, a voice. */
export interface LineContext {
  readonly state: CallStateMachine;
  readonly conversation: Conversation<SpeechHandle>;
  /** A new utterance, which becomes the call's current one. */
  newHandle(purpose: SpeechHandle['purpose']): SpeechHandle;
  /** A speaker for the utterance, or undefined when speech is down (the call is then failing). */
  speakerFor(handle: SpeechHandle): Promise<Speaker | undefined>;
  /** The utterance is over: back to listening unless something else took over. */
  afterUtterance(handle: SpeechHandle): void;
}

/** A spoken fixed line: its utterance (to interrupt or wait for) and the end of its playout. */
export interface SaidLine {
  readonly handle: SpeechHandle;
  readonly done: Promise<void>;
}

/**
 * Fixed lines (the greeting, goodbyes, apologies, re-prompts, the closing line): no model, but each is its
 * own utterance, kept in the transcript and in the model's history like anything the agent said, and cut
 * by a barge-in like any other.
 */
export function sayLine(ctx: LineContext, text: string, purpose: SpeechHandle['purpose'] = 'line'): SaidLine {
  const handle = ctx.newHandle(purpose);
  const entry = ctx.conversation.addAgent(handle);
  entry.rounds.push({ generated: text, toolCalls: [], results: new Map() });
  // The greeting has its own state (the call starts in it); any other line is the agent taking the turn.
  if (purpose !== 'greeting' && ctx.state.canGo('thinking')) ctx.state.go('thinking');
  const done = speakLine(ctx, handle, text).then(() => ctx.afterUtterance(handle));
  return { handle, done };
}

/** Speaks `text` as the whole of `handle`'s utterance and waits until it has played (or was cut). */
async function speakLine(ctx: LineContext, handle: SpeechHandle, text: string): Promise<void> {
  const speaker = await ctx.speakerFor(handle);
  if (!speaker) return;
  speaker.say(text, 0);
  speaker.end();
  await handle.whenSettled();
}

/**
 * The closing line before the duration limit, after whatever the agent is saying now; not said when the
 * call is already ending or being transferred.
 */
export async function sayClosingLine(ctx: LineContext, current: SpeechHandle | undefined, text: string): Promise<void> {
  await current?.whenSettled();
  if (ctx.state.isEnding || ctx.state.state === 'transferring') return;
  await sayLine(ctx, text).done;
}
