/**
 * Fixed-window request counting, the arithmetic shared by the API's rate limiter (lib/http/rate-limit.ts),
 * which keeps the authoritative count in the table, and the streaming service's upgrade limit, which keeps
 * it in memory. Pure: no I/O, the clock is passed in.
 */

/** A quota: at most `limit` requests per window of `windowSeconds`, named as the RateLimit headers name it. */
export interface RatePolicy {
  /** The policy's name in `RateLimit` / `RateLimit-Policy` (a short token). */
  readonly name: string;
  readonly limit: number;
  readonly windowSeconds: number;
}

/** Where `nowMs` falls: the window's start and how many whole seconds remain until the next one. */
export function windowAt(policy: RatePolicy, nowMs: number): { startMs: number; resetSeconds: number } {
  const windowMs = policy.windowSeconds * 1000;
  const startMs = Math.floor(nowMs / windowMs) * windowMs;
  // Rounded up so a client that waits `resetSeconds` is always in the next window.
  return { startMs, resetSeconds: Math.max(1, Math.ceil((startMs + windowMs - nowMs) / 1000)) };
}

/** The outcome of counting one request. */
export interface RateDecision {
  readonly policy: RatePolicy;
  readonly allowed: boolean;
  /** Requests left in this window after this one (0 when refused). */
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly resetSeconds: number;
}

interface Slot {
  startMs: number;
  count: number;
  /** Set when the authority (the table) refused: nothing more passes in this window. */
  full: boolean;
}

/**
 * In-memory fixed windows per partition (an API key hash, an IP). Bounded: past `maxPartitions` the oldest
 * partitions are forgotten, which can only let a request through that a full memory would refuse.
 */
export class LocalWindows {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly maxPartitions = 10_000) {}

  private slot(policy: RatePolicy, partition: string, nowMs: number): Slot {
    const id = `${policy.name}\u0000${partition}`;
    const { startMs } = windowAt(policy, nowMs);
    let slot = this.slots.get(id);
    if (!slot || slot.startMs !== startMs) {
      if (slot) this.slots.delete(id);
      slot = { startMs, count: 0, full: false };
      if (this.slots.size >= this.maxPartitions) this.slots.delete(this.slots.keys().next().value!);
      this.slots.set(id, slot);
    }
    return slot;
  }

  /** Whether this partition's window is already known to be exhausted (no counting). */
  exhausted(policy: RatePolicy, partition: string, nowMs: number): boolean {
    const slot = this.slot(policy, partition, nowMs);
    return slot.full || slot.count >= policy.limit;
  }

  /** Counts one request here; refused once this window holds `limit`. */
  take(policy: RatePolicy, partition: string, nowMs: number): RateDecision {
    const slot = this.slot(policy, partition, nowMs);
    const { resetSeconds } = windowAt(policy, nowMs);
    if (slot.full || slot.count >= policy.limit) return { policy, allowed: false, remaining: 0, resetSeconds };
    slot.count += 1;
    return { policy, allowed: true, remaining: policy.limit - slot.count, resetSeconds };
  }

  /** Records what the authority said: its count for the window, or that it refused. */
  settle(policy: RatePolicy, partition: string, nowMs: number, authority: { allowed: boolean; count: number }): void {
    const slot = this.slot(policy, partition, nowMs);
    if (!authority.allowed) slot.full = true;
    else slot.count = Math.max(slot.count, authority.count);
  }
}

/**
 * Parses a policy written as `<requests>/<seconds>s` (for example `200/10s`), the form the environment uses.
 * Undefined when the text is not of that form.
 */
export function parseRate(text: string): { limit: number; windowSeconds: number } | undefined {
  const m = /^\s*(\d{1,7})\s*\/\s*(\d{1,6})\s*s\s*$/.exec(text);
  if (!m) return undefined;
  const limit = Number(m[1]);
  const windowSeconds = Number(m[2]);
  if (limit < 1 || windowSeconds < 1 || windowSeconds > 86_400) return undefined;
  return { limit, windowSeconds };
}
