// Timestamps as both sides write them: ISO 8601 in UTC with milliseconds ("2026-11-23T14:37:03.120Z"),
// so that comparing two of them as text orders them in time (SQL's ORDER BY and the device's sorts do).

/** The moment as stored in created_at, updated_at, added_at and the change feed. */
export function nowIso(now: Date = new Date()): string {
  return now.toISOString();
}
