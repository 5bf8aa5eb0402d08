import { GREETING_DEFAULTS, type Agent, type FirstMessageMode } from '../../../lib/domain/agent.js';
import type { SpeechHandle } from './speech-handle.js';

/**
 * How a call opens (docs/calls.md, "The greeting"): the agent's first message at once, the first message
 * as the answer to the caller's first words, or a greeting the model writes; and, unless the agent says
 * `first_message_interruptible`, a greeting the caller cannot cut: words said over it are held and answered
 * once it has played.
 */
/** The agent's greeting settings (their defaults for agents stored before them), `text` its first message filled. */
export function greetingOf(agent: Pick<Agent, 'first_message_mode' | 'first_message_interruptible'>, text: string): Greeting {
  return new Greeting(agent.first_message_mode ?? GREETING_DEFAULTS.first_message_mode, text.trim(), agent.first_message_interruptible ?? GREETING_DEFAULTS.first_message_interruptible);
}

export class Greeting {
  /** `wait_for_caller`: the first message, said as the answer to the caller's first turn. */
  private opener: string | undefined;
  /** Caller turns that ended while a greeting that cannot be cut was playing, merged. */
  private held: { text: string; atMs: number } | undefined;

  constructor(
    readonly mode: FirstMessageMode,
    /** The first message, its variables filled. */
    readonly text: string,
    private readonly interruptible: boolean,
  ) {
    if (mode === 'wait_for_caller' && text) this.opener = text;
  }

  /** Whether the call opens by speaking: the first message now, or the model's greeting. */
  get speaksFirst(): 'line' | 'model' | undefined {
    if (this.mode === 'model_generated') return 'model';
    return this.mode === 'agent_speaks_first' && this.text ? 'line' : undefined;
  }

  /** The caller may not cut `handle`: it is a greeting still playing, and the agent keeps greetings whole. */
  protects(handle: SpeechHandle | undefined): boolean {
    return !this.interruptible && handle?.purpose === 'greeting' && !handle.interrupted && !handle.settled;
  }

  /**
   * Holds a caller turn until the utterance it came over has played: the greeting, or any utterance the
   * words did not interrupt (floor.ts); the session answers it then, or leads the caller's next turn with it.
   */
  hold(text: string, atMs: number): void {
    this.held = this.held ? { text: `${this.held.text} ${text}`, atMs } : { text, atMs };
  }

  /** Whether a caller turn is waiting for the greeting to end. */
  get holding(): boolean {
    return this.held !== undefined;
  }

  /** The turn held over the greeting, once: to be answered now that it has played. */
  release(): { text: string; atMs: number } | undefined {
    const held = this.held;
    this.held = undefined;
    return held;
  }

  /** `wait_for_caller`: the first message, the first time the caller has spoken; then nothing. */
  takeOpener(): string | undefined {
    const opener = this.opener;
    this.opener = undefined;
    return opener;
  }
}
