// Timers that only record what they are asked for, for tests that read the delays a device picks (its
// sync engine's backoff, its live-update stream's) instead of waiting them out.
import type { SyncTimers } from '../sync/sync-engine';

/** `fire` runs the timers waiting, as time passing would; `random` is what the dice always show. */
export function manualTimers(random = 0.5) {
  const waiting = new Map<number, { run: () => void; ms: number }>();
  let ids = 0;
  const timers: SyncTimers = {
    now: () => 1_000_000,
    setTimeout(run, ms) {
      ids += 1;
      waiting.set(ids, { run, ms });
      return ids;
    },
    clearTimeout: (handle) => void waiting.delete(handle as number),
    random: () => random,
  };
  return {
    timers,
    /** The delays of the timers waiting, in ms. */
    delays: () => [...waiting.values()].map((timer) => timer.ms),
    /** Runs every waiting timer. */
    fire() {
      const due = [...waiting.values()];
      waiting.clear();
      for (const timer of due) timer.run();
    },
  };
}
