// A sliding-window counter in memory: enough for one server process, and reset on restart.

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const kept = (this.hits.get(key) ?? []).filter((at) => now - at < this.windowMs);
    if (kept.length === 0) this.hits.delete(key);
    else this.hits.set(key, kept);
    return kept;
  }

  /** Seconds until another hit is allowed, or 0 when one is allowed now. */
  retryAfterSeconds(key: string, now = Date.now()): number {
    const kept = this.recent(key, now);
    if (kept.length < this.limit) return 0;
    const oldest = kept[kept.length - this.limit] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  hit(key: string, now = Date.now()): void {
    const kept = this.recent(key, now);
    kept.push(now);
    this.hits.set(key, kept);
    if (this.hits.size > 100_000) this.sweep(now);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private sweep(now: number): void {
    for (const key of [...this.hits.keys()]) this.recent(key, now);
  }
}
