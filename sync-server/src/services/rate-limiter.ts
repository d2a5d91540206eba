// Sliding-window limits counted in the database (the rate_limits table), so that every node of a server
// counts in the same place: a client can't escape a limit by reaching another node. One row per limit and
// key holds the times of its hits still in the window (at most the limit's count).
//
// Each check-and-count is one transaction that holds the key's row from its read to its write: on SQLite
// the transaction is the database's one writer (BEGIN IMMEDIATE); on PostgreSQL the first statement is an
// upsert, which locks the row (made if missing) until COMMIT, so a concurrent check of the same key on any
// node waits for this one's count instead of reading the count before it. Several keys checked together
// (a sign-in's email and network) are locked in one order, so two such checks can't deadlock.
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database';

/** How often at most each limit sweeps the rows whose hits have all left their window. */
export const RATE_LIMIT_SWEEP_INTERVAL_MS = 60_000;

/** One key of one limit, with what the limit allows. */
export interface LimitedKey {
  limit: RateLimiter;
  key: string;
}

/** Seconds until `hits` (oldest first) leave room for one more, or 0 when there is room now. */
function waitFor(hits: readonly number[], limit: number, windowMs: number, now: number): number {
  if (hits.length < limit) return 0;
  const oldest = hits[hits.length - limit] ?? now;
  // Never more than the window: a check that read the clock a moment before a concurrent one wrote its hit
  // would otherwise see that hit a millisecond in its future and answer 61 s for a minute's window.
  return Math.min(Math.ceil(windowMs / 1000), Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)));
}

function parseHits(text: string | undefined): number[] {
  if (!text) return [];
  const hits: unknown = JSON.parse(text);
  return Array.isArray(hits) ? hits.filter((at): at is number => typeof at === 'number') : [];
}

/** Locks the key's row (making it if missing) for the rest of the transaction, and answers its hits. */
async function lockedHits(tx: Queryable, name: string, key: string, now: number): Promise<number[]> {
  const { rateLimits } = tx.tables;
  const [row] = await tx.orm
    .insert(rateLimits)
    .values({ name, key, hits: '[]', expiresAt: now })
    // A write to the row it found, so that PostgreSQL locks it; it changes nothing.
    .onConflictDoUpdate({ target: [rateLimits.name, rateLimits.key], set: { name: sql`excluded.name` } })
    .returning({ hits: rateLimits.hits });
  return parseHits(row?.hits);
}

async function writeHits(tx: Queryable, name: string, key: string, hits: number[], expiresAt: number) {
  const { rateLimits } = tx.tables;
  await tx.orm
    .update(rateLimits)
    .set({ hits: JSON.stringify(hits), expiresAt })
    .where(and(eq(rateLimits.name, name), eq(rateLimits.key, key)));
}

/** One order for every caller: two checks locking the same rows lock them in the same sequence. */
function inLockOrder(keys: readonly LimitedKey[]): LimitedKey[] {
  const order = (each: LimitedKey) => `${each.limit.name}\n${each.key}`;
  return [...keys].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/**
 * Counts one hit on every key if all their limits allow one, else none: answers 0 when counted, else the
 * seconds until all of them would (the longest wait). One transaction, so concurrent requests on any node
 * can't all pass the check before any of them is counted.
 */
export async function takeTogether(db: Queryable, keys: readonly LimitedKey[], now = Date.now()) {
  const ordered = inLockOrder(keys);
  const wait = await db.transaction(async (tx) => {
    const found = [];
    for (const { limit, key } of ordered) {
      const kept = (await lockedHits(tx, limit.name, key, now)).filter((at) => now - at < limit.windowMs);
      found.push({ limit, key, kept, wait: waitFor(kept, limit.limit, limit.windowMs, now) });
    }
    const longest = Math.max(0, ...found.map((each) => each.wait));
    // Refused: nothing is counted (the rows made for the check expire at once and are swept).
    if (longest > 0) return longest;
    for (const { limit, key, kept } of found) {
      kept.push(now);
      await writeHits(tx, limit.name, key, kept, now + limit.windowMs);
    }
    return 0;
  });
  for (const { limit } of ordered) await limit.sweepNowAndThen(db, now);
  return wait;
}

/** Takes back one hit made at `at` on each key (a sign-in that turned out right doesn't count). */
export async function releaseTogether(db: Queryable, keys: readonly LimitedKey[], at: number) {
  const ordered = inLockOrder(keys);
  await db.transaction(async (tx) => {
    const { rateLimits } = tx.tables;
    for (const { limit, key } of ordered) {
      // An UPDATE that changes nothing, for its row lock on PostgreSQL; no row, nothing to give back.
      const [row] = await tx.orm
        .update(rateLimits)
        .set({ name: sql`${rateLimits.name}` })
        .where(and(eq(rateLimits.name, limit.name), eq(rateLimits.key, key)))
        .returning({ hits: rateLimits.hits, expiresAt: rateLimits.expiresAt });
      if (!row) continue;
      const hits = parseHits(row.hits);
      const index = hits.lastIndexOf(at);
      if (index < 0) continue;
      hits.splice(index, 1);
      await writeHits(tx, limit.name, key, hits, row.expiresAt);
    }
  });
}

/** A sliding-window limit: at most `limit` hits per key within `windowMs`, on every node together. */
export class RateLimiter {
  private lastSweep = 0;

  /** `name` tells this limit's rows from the others' (see the rate_limits table). */
  constructor(
    readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts a hit if the limit allows one: 0 when counted, else the seconds to wait (nothing counted). */
  async take(db: Queryable, key: string, now = Date.now()): Promise<number> {
    return await takeTogether(db, [{ limit: this, key }], now);
  }

  /** Takes back one hit made at `at` by `take`. */
  async release(db: Queryable, key: string, at: number): Promise<void> {
    await releaseTogether(db, [{ limit: this, key }], at);
  }

  /**
   * Deletes this limit's rows whose hits have all left the window, at most once a minute per node, so the
   * table holds only keys hit within the last window. On PostgreSQL rows another check holds are skipped
   * (the next sweep takes them): waiting for them could deadlock with a check locking two rows.
   */
  async sweepNowAndThen(db: Queryable, now = Date.now()): Promise<void> {
    if (now - this.lastSweep < Math.min(RATE_LIMIT_SWEEP_INTERVAL_MS, this.windowMs)) return;
    this.lastSweep = now;
    const { rateLimits } = db.tables;
    const expired = and(eq(rateLimits.name, this.name), lte(rateLimits.expiresAt, now));
    await db.transaction(async (tx) => {
      if (tx.dialect === 'postgres')
        await tx.run(sql`DELETE FROM ${rateLimits} WHERE (${rateLimits.name}, ${rateLimits.key}) IN
          (SELECT ${rateLimits.name}, ${rateLimits.key} FROM ${rateLimits} WHERE ${expired}
           FOR UPDATE SKIP LOCKED)`);
      else await tx.orm.delete(rateLimits).where(expired);
    });
  }
}

/**
 * Counts requests under way per key and refuses past a cap: sign-in hashes are expensive, so one email
 * or one network can't hold many of them at once. Kept in this process's memory on purpose: it guards this
 * node's CPU (the hashes it runs), not a count across nodes; the failures that make the sign-in limit are
 * counted in the database (RateLimiter).
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
