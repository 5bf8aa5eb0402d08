/**
 * A caller turn that ended on an unfinished-looking fragment ("I'd like to book a table for"), held back for
 * the agent's `unfinished_wait_ms` (end-of-turn.ts) in case the caller goes on. Either the wait runs out and
 * the fragment is answered as it is, or the caller's next words arrive and the fragment is handed back to
 * lead them.
 */
export class HeldTurn {
  private held: { readonly text: string; readonly sinceMs: number; readonly timer: NodeJS.Timeout } | undefined;

  constructor(
    private readonly waitMs: number,
    /** The wait ran out: the fragment is the turn, ending now (latency figures count from here). */
    private readonly onDue: (text: string, atMs: number) => void,
  ) {}

  /**
   * (Re)starts the wait on a fragment. Voiced caller audio restarts it ({@link onVoice}), so a caller slow
   * to get going again is not cut off; but never past twice the wait in all, or a loud room (a television,
   * traffic) would hold the turn forever: real words reach the recognizer well within that and take over.
   */
  hold(text: string, sinceMs = performance.now()): void {
    this.cancel();
    const timer = setTimeout(
      () => {
        this.held = undefined;
        this.onDue(text, performance.now());
      },
      Math.max(0, Math.min(this.waitMs, sinceMs + 2 * this.waitMs - performance.now())),
    );
    timer.unref?.();
    this.held = { text, sinceMs, timer };
  }

  /** The caller is talking again: a held fragment waits for the words that follow. */
  onVoice(): void {
    if (this.held) this.hold(this.held.text, this.held.sinceMs);
  }

  /** The caller went on: the held words, if any, to put in front of theirs; nothing is held after. */
  take(): string | undefined {
    const text = this.held?.text;
    this.cancel();
    return text;
  }

  cancel(): void {
    if (this.held) clearTimeout(this.held.timer);
    this.held = undefined;
  }
}
