import type { LiveServerGoAway, LiveServerSessionResumptionUpdate } from '@google/genai';

/**
 * When a Gemini Live call moves to a new connection (docs/realtime.md, "Session resumption"). What Google
 * documents (ai.google.dev/gemini-api/docs/live-session, "Session lifetime" and "Session resumption";
 * firebase.google.com/docs/ai-logic/live-api/sessions; the `@google/genai` 2.32 types):
 * - a connection lasts about 10 minutes; a `goAway` (`timeLeft`, a protobuf Duration such as `"50s"`) comes
 *   before it ends ("about 60 seconds before"), then the server closes it;
 * - with `setup.sessionResumption` set, the server sends `sessionResumptionUpdate {newHandle, resumable}`;
 *   a new connection whose setup carries `sessionResumption.handle` continues that session (its context);
 * - `resumable` is false (and `newHandle` empty) "at some points ... model executing function calls or just
 *   generating. Resuming session (using previous session token) in such state will result in some data loss".
 * So the newest resumable handle is kept, and after a `goAway` the move waits for a point where nothing is
 * in flight (no model turn, no unanswered function call, no caller words waiting for an answer), at the
 * latest until four fifths of `timeLeft` have passed (a fifth left for the new connection's setup). An
 * unexpected close with a handle moves at once. `transparent` (message indexes for replay) is Vertex AI
 * only: the SDK refuses it for the Gemini Developer API, so caller audio in the move's gap is buffered here.
 */
export class GeminiResumption {
  /** The newest handle Google marked resumable. */
  handle: string | undefined;
  private deadline: ReturnType<typeof setTimeout> | undefined;
  private leaving = false;

  constructor(private readonly move: (why: string) => void) {}

  update(u: LiveServerSessionResumptionUpdate): void {
    if (u.resumable && u.newHandle) this.handle = u.newHandle;
  }

  /** The server will close this connection: move now if idle, else at the next idle point or the deadline. */
  goAway(g: LiveServerGoAway, idle: boolean): void {
    if (this.leaving) return;
    this.leaving = true;
    if (idle) return this.moveNow('goAway');
    this.deadline = setTimeout(() => this.moveNow('goAway deadline'), Math.floor(durationMs(g.timeLeft) * 0.8));
  }

  /** Nothing in flight on the connection: a pending move happens now. */
  idle(): void {
    if (this.leaving) this.moveNow('goAway');
  }

  /** The move is done (or given up): the new connection starts afresh. */
  reset(): void {
    clearTimeout(this.deadline);
    this.deadline = undefined;
    this.leaving = false;
  }

  private moveNow(why: string): void {
    this.reset();
    this.move(why);
  }
}

/** A protobuf Duration in JSON (`"50s"`, `"1.5s"`) in milliseconds; 10 s when absent or unreadable. */
export function durationMs(d: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)s$/.exec(d ?? '');
  return m ? Math.round(Number(m[1]) * 1_000) : 10_000;
}
