// A sliding-window counter in memory: enough for one server process, and reset on restart. Its memory is
// bounded: each key keeps at most `limit` timestamps (a refused take adds none), expired keys are pruned as
// hits come, and past `maxKeys` keys the least recently hit go.

/** Keys kept by one limiter unless told otherwise: a few MB at most. */
export const RATE_LIMITER_MAX_KEYS = 100_000;

export class RateLimiter {
  /** Insertion order is recency order: every hit moves its key to the end. */
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = RATE_LIMITER_MAX_KEYS,
  ) {}

  /** How many keys are held now (for tests of the memory bound). */
  get size(): number {
    return this.hits.size;
  }

  private recent(key: string, now: number): number[] {
    const kept = (this.hits.get(key) ?? []).filter((at) => now - at < this.windowMs);
    if (kept.length === 0) this.hits.delete(key);
    else this.hits.set(key, kept);
    return kept;
  }

  private waitFor(kept: number[], now: number): number {
    if (kept.length < this.limit) return 0;
    const oldest = kept[kept.length - this.limit] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  /** Seconds until another hit is allowed, or 0 when one is allowed now. */
  retryAfterSeconds(key: string, now = Date.now()): number {
    return this.waitFor(this.recent(key, now), now);
  }

  /**
   * Counts a hit if the limit allows one, in the same synchronous step as the check, so concurrent
   * requests can't all pass the check before any of them is counted. Answers 0 when counted, else the
   * seconds to wait (and nothing is counted).
   */
  take(key: string, now = Date.now()): number {
    const kept = this.recent(key, now);
    const wait = this.waitFor(kept, now);
    if (wait > 0) return wait;
    this.hits.delete(key);
    kept.push(now);
    this.hits.set(key, kept);
    this.prune(now);
    return 0;
  }

  /** Counts a hit whatever the limit says (registrations: the check comes first). */
  hit(key: string, now = Date.now()): void {
    const kept = this.recent(key, now);
    this.hits.delete(key);
    kept.push(now);
    this.hits.set(key, kept);
    this.prune(now);
  }

  /** Takes back one hit made at `at` by `take` (a sign-in that turned out right doesn't count). */
  release(key: string, at: number): void {
    const kept = this.hits.get(key);
    if (!kept) return;
    const index = kept.lastIndexOf(at);
    if (index >= 0) kept.splice(index, 1);
    if (kept.length === 0) this.hits.delete(key);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  /**
   * Every hit moves its key to the end, so the map runs from the least to the most recently hit key: the
   * expired keys are at its front, and so are the ones to drop when it is full. Each call does only the
   * work of what it removes.
   */
  private prune(now: number): void {
    for (const [key, kept] of this.hits) {
      const last = kept[kept.length - 1] ?? 0;
      if (this.hits.size <= this.maxKeys && now - last < this.windowMs) break;
      this.hits.delete(key);
    }
  }
}

/**
 * Counts requests under way per key and refuses past a cap: sign-in hashes are expensive, so one email
 * or one network can't hold many of them at once.
 */
export class InFlightLimiter {
  private readonly running = new Map<string, number>();

  constructor(private readonly cap: number) {}

  /** True (and counted) when another request for `key` may start now. */
  enter(key: string): boolean {
    const count = this.running.get(key) ?? 0;
    if (count >= this.cap) return false;
    this.running.set(key, count + 1);
    return true;
  }

  leave(key: string): void {
    const count = (this.running.get(key) ?? 1) - 1;
    if (count <= 0) this.running.delete(key);
    else this.running.set(key, count);
  }

  get size(): number {
    return this.running.size;
  }
}
