// The offline library looks again once for each sync that ended: this device's end (told with its time
// stamp), another tab's stamp, and nothing while this device syncs or is offline.
import { describe, expect, it } from 'vitest';
import { createSyncEnds } from './sync-ends';

const idle = (lastSyncedAt: string | null, online = true) => ({ syncing: false, lastSyncedAt, online });
const running = (lastSyncedAt: string | null) => ({ syncing: true, lastSyncedAt, online: true });

describe('createSyncEnds', () => {
  it("counts this device's sync once: its end comes with its stamp", () => {
    const ended = createSyncEnds(idle(null));
    expect(ended(running(null))).toBe(false);
    expect(ended(idle('10:00'))).toBe(true);
    // Other things the engine tells of (a write queued, the stamp read back) are no sync.
    expect(ended(idle('10:00'))).toBe(false);
    // A failed sync ends without a stamp: it still looks again (bodies may still be missing).
    expect(ended(running('10:00'))).toBe(false);
    expect(ended(idle('10:00'))).toBe(true);
  });

  it("counts another tab's sync by its stamp alone; one while this device syncs is covered by its end", () => {
    const ended = createSyncEnds(idle('09:00'));
    expect(ended(idle('09:30'))).toBe(true);
    expect(ended(running('09:30'))).toBe(false);
    expect(ended(running('09:40'))).toBe(false);
    expect(ended(idle('09:45'))).toBe(true);
    expect(ended(idle('09:50'))).toBe(true);
  });

  it('looks at nothing while offline; the next stamp once reachable again does', () => {
    const ended = createSyncEnds(idle('09:00'));
    expect(ended(running('09:00'))).toBe(false);
    expect(ended(idle('09:00', false))).toBe(false);
    expect(ended(idle('09:02', false))).toBe(false);
    expect(ended(idle('09:02'))).toBe(false);
    expect(ended(idle('09:05'))).toBe(true);
  });
});
