/** Where a progress bar draws: stderr, so stdout keeps only the command's one JSON line. */
export interface ProgressSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface ProgressBar {
  /** Shows `done` of `total` with a label; cheap to call often (redraws at most every {@link REDRAW_MS}). */
  update(done: number, total: number, label: string): void;
  /** Draws the final state and ends the line. */
  finish(): void;
}

/** Redraw interval: smooth to the eye, and a terminal is never the bottleneck of a fast import. */
const REDRAW_MS = 100;
const WIDTH = 30;

/**
 * A one-line progress bar. On a terminal it redraws in place; in a log (no TTY) it prints a line at each
 * tenth, so CI logs stay short.
 */
export function progressBar(sink: ProgressSink, now: () => number = Date.now): ProgressBar {
  let last = 0;
  let lastTenth = -1;
  let state = { done: 0, total: 0, label: '' };
  const render = () => {
    const ratio = state.total > 0 ? Math.min(1, state.done / state.total) : 1;
    const filled = Math.round(ratio * WIDTH);
    return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}% ${state.done}/${state.total} ${state.label}`;
  };
  return {
    update(done, total, label) {
      state = { done, total, label };
      if (sink.isTTY) {
        if (now() - last < REDRAW_MS && done < total) return;
        last = now();
        sink.write(`\r${render()}`);
        return;
      }
      const tenth = total > 0 ? Math.floor((done / total) * 10) : 10;
      if (tenth !== lastTenth) {
        lastTenth = tenth;
        sink.write(`${render()}\n`);
      }
    },
    finish() {
      if (sink.isTTY) sink.write(`\r${render()}\n`);
      else if (lastTenth !== 10) sink.write(`${render()}\n`);
    },
  };
}
