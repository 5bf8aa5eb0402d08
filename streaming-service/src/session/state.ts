/**
 * The call session's states and the only transitions allowed between them. The session drives it; the
 * machine refuses anything else, so a bug shows up as an error at the transition instead of a call that
 * talks over itself.
 *
 * - connecting: socket open, waiting for `start` and the token check;
 * - greeting: the first message is being spoken;
 * - listening: waiting for the caller's turn to end;
 * - thinking: the caller's turn ended, the LLM is working (or a tool is running);
 * - speaking: agent audio is going out;
 * - transferring: the caller is being moved to another number;
 * - ending: the call is over; history is being written. Terminal.
 */
export const CALL_STATES = ['connecting', 'greeting', 'listening', 'thinking', 'speaking', 'transferring', 'ending'] as const;
export type CallState = (typeof CALL_STATES)[number];

const TRANSITIONS: Readonly<Record<CallState, readonly CallState[]>> = {
  connecting: ['greeting', 'listening', 'ending'],
  // An empty first message goes straight to listening; a barge-in during the greeting too.
  greeting: ['listening', 'thinking', 'ending', 'transferring'],
  listening: ['thinking', 'ending', 'transferring'],
  // A reply that produced no audio (only a tool call, or an interruption) returns to listening.
  thinking: ['speaking', 'listening', 'thinking', 'transferring', 'ending'],
  speaking: ['listening', 'thinking', 'transferring', 'ending'],
  transferring: ['ending'],
  ending: [],
};

export class InvalidTransitionError extends Error {
  constructor(
    readonly from: CallState,
    readonly to: CallState,
  ) {
    super(`call state cannot go from ${from} to ${to}`);
    this.name = 'InvalidTransitionError';
  }
}

/** A state change, for logs and tests: what changed, when (performance.now()). */
export interface StateChange {
  readonly from: CallState;
  readonly to: CallState;
  readonly atMs: number;
}

/** The session's state with its transition table enforced. */
export class CallStateMachine {
  private current: CallState = 'connecting';
  readonly history: StateChange[] = [];

  constructor(private readonly onChange?: (change: StateChange) => void) {}

  get state(): CallState {
    return this.current;
  }

  get isEnding(): boolean {
    return this.current === 'ending';
  }

  /** Whether the agent holds the floor in a way caller speech can cut (greeting, thinking, speaking). */
  get interruptible(): boolean {
    return this.current === 'greeting' || this.current === 'thinking' || this.current === 'speaking';
  }

  canGo(to: CallState): boolean {
    return to === this.current || TRANSITIONS[this.current].includes(to);
  }

  /** Moves to `to`; staying in the same state is a no-op. Throws on a transition the table forbids. */
  go(to: CallState, atMs: number = performance.now()): void {
    if (to === this.current) return;
    if (!TRANSITIONS[this.current].includes(to)) throw new InvalidTransitionError(this.current, to);
    const change = { from: this.current, to, atMs };
    this.current = to;
    this.history.push(change);
    this.onChange?.(change);
  }
}
