// The offline library looks again once for each sync that ended: this device's end and its time stamp read
// back a moment later are one sync, another tab's time stamp is one more, and an end offline is none.
import { describe, expect, it } from 'vitest';
import { createSyncEnds } from './sync-ends';

const idle = (lastSyncedAt: string | null, online = true) => ({ syncing: false, lastSyncedAt, online });
const running = (lastSyncedAt: string | null) => ({ syncing: true, lastSyncedAt, online: true });

describe('createSyncEnds', () => {
  it("counts this device's sync once, whether its time stamp comes after its end or before", () => {
    const ended = createSyncEnds(idle(null));
    expect(ended(running(null))).toBe(false);
    // The end first, then the stamp read back (as the sync engine tells it).
    expect(ended(idle(null))).toBe(true);
    expect(ended(idle('10:00'))).toBe(false);
    // The next sync stamps while it still runs: its end is all there is.
    expect(ended(running('10:00'))).toBe(false);
    expect(ended(running('10:01'))).toBe(false);
    expect(ended(idle('10:01'))).toBe(true);
    // End and stamp told at once.
    expect(ended(running('10:01'))).toBe(false);
    expect(ended(idle('10:02'))).toBe(true);
  });

  it("counts another tab's sync by its stamp alone, also right after a sync of this device", () => {
    const ended = createSyncEnds(idle('09:00'));
    expect(ended(idle('09:30'))).toBe(true);
    // Other things the engine tells of (a write queued) are no sync.
    expect(ended(idle('09:30'))).toBe(false);
    expect(ended(running('09:30'))).toBe(false);
    expect(ended(idle('09:30'))).toBe(true);
    expect(ended(idle('10:00'))).toBe(false);
    expect(ended(idle('10:05'))).toBe(true);
  });

  it('counts an end while offline by its stamp once back online; a failed sync waits for no stamp beyond the next sync', () => {
    const ended = createSyncEnds(idle('09:00'));
    expect(ended(running('09:00'))).toBe(false);
    expect(ended(idle('09:00', false))).toBe(false);
    // The stamp of that sync, told once the device is reachable again: the pass it didn't have.
    expect(ended(idle('09:05'))).toBe(true);
    // A failed sync (no stamp) followed by the next one, whose stamp comes after its end.
    expect(ended(running('09:00'))).toBe(false);
    expect(ended(idle('09:00'))).toBe(true);
    expect(ended(running('09:00'))).toBe(false);
    expect(ended(idle('09:00'))).toBe(true);
    expect(ended(idle('09:10'))).toBe(false);
    expect(ended(idle('09:20'))).toBe(true);
  });
});
