/**
 * Waiting on progress, not on a stopwatch (docs/testing.md, "Time"): a long test fails when nothing has
 * moved for a bounded time, and says what was stuck, never because the machine is slower than ours.
 */

/**
 * vitest's own timeout for a test whose waits are all {@link untilDone} or {@link watchProgress}: far past any
 * machine's pace, so that only a stall ends the test.
 */
export const PROGRESS_BOUNDED_TEST_MS = 30 * 60_000;

/**
 * How long a test waits for one thing the platform does in about a second on an idle machine (a call's
 * record, a page's render, a stand-in's frame): ninety times that. Fixed waits of 20-30 s failed on a
 * slower machine of our kind running the whole suite (a docs page's render, an ended call's record,
 * 2 December). A wait that is met returns at once; only a wait for what never comes costs this much.
 */
export const WAIT_MS = 90_000;

/** How long nothing may move before a long test fails: ten times the slowest step seen on a loaded machine. */
export const DEFAULT_STALL_MS = 60_000;

/**
 * Calls `step` every `intervalMs` until it returns `done`. Fails only when the `progress` it returns (any
 * JSON value: counts, states) has stayed the same for `stallMs`, with the last progress in the message.
 */
export async function untilDone<T>(
  step: () => Promise<{ readonly done?: T; readonly progress: unknown }>,
  options: { readonly what: string; readonly stallMs?: number; readonly intervalMs?: number },
): Promise<T> {
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  let last: string | undefined;
  let movedAt = Date.now();
  for (;;) {
    const { done, progress } = await step();
    if (done !== undefined) return done;
    const now = JSON.stringify(progress);
    if (now !== last) {
      last = now;
      movedAt = Date.now();
    } else if (Date.now() - movedAt > stallMs) {
      throw new Error(`${options.what}: nothing moved for ${Math.round(stallMs / 1000)} s; its progress then: ${now}`);
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
  }
}

/**
 * Runs `work` while watching `progress()` (checked every second): rejects when it has stayed the same for
 * `stallMs`, naming what `describe()` says was in flight; otherwise settles as `work` does.
 */
export async function watchProgress<T>(
  work: Promise<T>,
  options: { readonly what: string; readonly progress: () => unknown; readonly describe?: () => string; readonly stallMs?: number },
): Promise<T> {
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    let last = JSON.stringify(options.progress());
    let movedAt = Date.now();
    timer = setInterval(() => {
      const now = JSON.stringify(options.progress());
      if (now !== last) {
        last = now;
        movedAt = Date.now();
      } else if (Date.now() - movedAt > stallMs) {
        reject(new Error(`${options.what}: nothing moved for ${Math.round(stallMs / 1000)} s at ${now}${options.describe ? `; ${options.describe()}` : ''}`));
      }
    }, 1_000);
  });
  try {
    return await Promise.race([work, stalled]);
  } finally {
    clearInterval(timer);
  }
}
