/**
 * The call's one duration limit (docs/telephony.md, Duration limit). The limit itself comes from the call
 * record (the agent's `max_duration_seconds`, else the platform's), the same number Twilio's `TimeLimit`
 * was set from, plus a grace there so that this orderly end comes first: a closing line shortly before,
 * then the hang-up at the limit (`max_duration`).
 */
export interface CallLimitTimers {
  cancel(): void;
}

export function scheduleCallLimit(limitMs: number, closingLineBeforeMs: number, onClosing: () => void, onLimit: () => void): CallLimitTimers {
  const timers = [setTimeout(onLimit, limitMs)];
  // A limit too short for the closing line still gets it, halfway.
  const closingAt = limitMs > closingLineBeforeMs * 2 ? limitMs - closingLineBeforeMs : limitMs / 2;
  timers.push(setTimeout(onClosing, closingAt));
  for (const t of timers) t.unref?.();
  return { cancel: () => timers.forEach(clearTimeout) };
}

/**
 * How a stream that stopped is recorded: a stop at (or after) the limit is the provider's `TimeLimit`
 * cutting the call, not the caller hanging up. A second of slack absorbs the clocks' difference.
 */
export const stoppedAtLimit = (elapsedMs: number, limitMs: number) => elapsedMs >= limitMs - 1_000;
