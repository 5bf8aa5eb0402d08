/**
 * Fixed-window request counting, the arithmetic shared by the API's rate limiter (lib/services/rate-limits.ts),
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
  /** Requests this instance admitted in the window. */
  count: number;
  /** Set when the authority (the table) refused: nothing more passes in this window. */
  full: boolean;
  /** Units this instance reserved in the authority's count and has not used yet (see admit). */
  leased: number;
  /** The authority's count at its last answer, this instance's unused reservations included. */
  authorityCount: number;
  /** A batch was refused this window: near the limit, reserve one unit at a time. */
  single: boolean;
  /** Reservations asked of the authority and not yet answered (see admit). */
  pending: number;
}

/**
 * The largest batch an instance reserves at once, as a share of the limit: 5 % (10 of the default 200 per
 * 10 s; 1, so exact counting, for limits under 40). What it bounds is the quota a busy instance can strand
 * unused at the end of a window (docs/api.md, "Rate limits").
 */
const MAX_BATCH_SHARE = 1 / 20;

/** What this instance decided alone, or how many units to reserve in the authority's count first. */
export interface Admission {
  /** Final when `reserve` is 0; provisional (allowed) otherwise, until the authority answers. */
  readonly decision: RateDecision;
  /** Units to reserve for this request and the next ones; 0 when memory decided. */
  readonly reserve: number;
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
      slot = { startMs, count: 0, full: false, leased: 0, authorityCount: 0, single: false, pending: 0 };
      if (this.slots.size >= this.maxPartitions) this.slots.delete(this.slots.keys().next().value!);
      this.slots.set(id, slot);
    }
    return slot;
  }

  /** Whether this partition's window is already known to be exhausted (no counting). */
  exhausted(policy: RatePolicy, partition: string, nowMs: number): boolean {
    const slot = this.slot(policy, partition, nowMs);
    return slot.full || slot.count >= policy.limit || (slot.leased === 0 && slot.authorityCount >= policy.limit);
  }

  /** Counts one request here; refused once this window holds `limit`. */
  take(policy: RatePolicy, partition: string, nowMs: number): RateDecision {
    const slot = this.slot(policy, partition, nowMs);
    const { resetSeconds } = windowAt(policy, nowMs);
    if (slot.full || slot.count >= policy.limit) return { policy, allowed: false, remaining: 0, resetSeconds };
    slot.count += 1;
    return { policy, allowed: true, remaining: policy.limit - slot.count, resetSeconds };
  }

  /**
   * One request against a window whose authoritative count lives elsewhere (the table): refused when this
   * instance knows the window is full, admitted from a unit it reserved earlier, or else told how many units
   * to reserve, this request's and spares for the next ones. The batch doubles with the instance's own
   * traffic in the window (1, 1, 2, 4, ...), up to MAX_BATCH_SHARE of the limit and half of what the
   * authority had left at its last answer, so a quiet key is counted exactly and a busy one costs one
   * write per batch. Every admitted request holds a unit of the authority's count: the limit is never
   * exceeded, only unused spares can make it refuse early.
   */
  admit(policy: RatePolicy, partition: string, nowMs: number): Admission {
    const slot = this.slot(policy, partition, nowMs);
    const { resetSeconds } = windowAt(policy, nowMs);
    if (this.exhausted(policy, partition, nowMs)) return { decision: { policy, allowed: false, remaining: 0, resetSeconds }, reserve: 0 };
    const admittedBefore = slot.count;
    slot.count += 1;
    if (slot.leased > 0) {
      slot.leased -= 1;
      return { decision: { policy, allowed: true, remaining: remainingOf(policy, slot), resetSeconds }, reserve: 0 };
    }
    const cap = Math.max(1, Math.floor(policy.limit * MAX_BATCH_SHARE));
    const room = Math.max(1, Math.floor((policy.limit - slot.authorityCount) / 2));
    // While a reservation is on its way, a concurrent request reserves only its own unit: the spares of
    // batches asked for at once by a burst (none answered, so none leased yet) added up past the limit,
    // and 100 concurrent requests of a 200-per-window key were answered 429.
    const reserve = slot.single || slot.pending > 0 ? 1 : Math.min(cap, room, Math.max(1, admittedBefore));
    slot.pending += 1;
    return { decision: { policy, allowed: true, remaining: Math.max(0, policy.limit - slot.count), resetSeconds }, reserve };
  }

  /** A reservation that got no answer (the authority unreachable): it is no longer on its way. */
  unanswered(policy: RatePolicy, partition: string, nowMs: number): void {
    const slot = this.slot(policy, partition, nowMs);
    slot.pending = Math.max(0, slot.pending - 1);
  }

  /** A batch did not fit in the authority's window: the rest of the window reserves one unit at a time. */
  narrow(policy: RatePolicy, partition: string, nowMs: number): void {
    this.slot(policy, partition, nowMs).single = true;
  }

  /**
   * Records the authority's answer to a reservation of `reserved` units (one for the request that asked,
   * the rest kept as spares) and returns that request's decision.
   */
  settle(
    policy: RatePolicy,
    partition: string,
    nowMs: number,
    reserved: number,
    authority: { allowed: boolean; count: number },
  ): RateDecision {
    const slot = this.slot(policy, partition, nowMs);
    const { resetSeconds } = windowAt(policy, nowMs);
    slot.pending = Math.max(0, slot.pending - 1);
    if (!authority.allowed) {
      slot.full = true;
      return { policy, allowed: false, remaining: 0, resetSeconds };
    }
    slot.leased += reserved - 1;
    slot.authorityCount = Math.max(slot.authorityCount, authority.count);
    return { policy, allowed: true, remaining: remainingOf(policy, slot), resetSeconds };
  }
}

/** What the client has left as far as this instance knows: the authority's room plus its own spares. */
function remainingOf(policy: RatePolicy, slot: Slot): number {
  return Math.max(0, policy.limit - slot.authorityCount + slot.leased);
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
