/**
 * Key hashes the table does not know or knows as revoked, answered 401 from memory for a short TTL
 * (UNKNOWN_KEY_CACHE_TTL_MS), so repeating a bad key costs no table read. Bounded: when full, the oldest
 * entries go first.
 */
export class UnknownKeyCache {
  private readonly entries = new Map<string, { expiresMs: number; revoked: boolean }>();

  constructor(private readonly maxEntries = 10_000) {}

  /** What is cached for the hash, if it has not expired. */
  get(hash: string, nowMs = Date.now()): { revoked: boolean } | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresMs <= nowMs) {
      this.entries.delete(hash);
      return undefined;
    }
    return { revoked: entry.revoked };
  }

  add(hash: string, revoked: boolean, ttlMs: number, nowMs = Date.now()): void {
    if (ttlMs <= 0) return;
    this.entries.delete(hash);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { expiresMs: nowMs + ttlMs, revoked });
  }
}
