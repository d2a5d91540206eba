// When the offline library should look again for bodies and images to download: once for each sync that
// ended, this device's or another tab's. This device's sync says so twice: its end (`syncing` turning
// false), then a moment later its time stamp (`lastSyncedAt`, read back from the database). Taken as two
// syncs, a first sync of 5,000 articles walked every body and scanned every body's images a second time,
// about 3 s for nothing. A new time stamp with no sync of this device ending before it is another tab's.
import type { SyncState } from '../sync/sync-engine';

type Seen = Pick<SyncState, 'syncing' | 'lastSyncedAt' | 'online'>;

/** Answers, for each state the sync engine tells of, whether a sync ended that the library hasn't seen. */
export function createSyncEnds(initial: Seen): (state: Seen) => boolean {
  let { syncing, lastSyncedAt } = initial;
  /** This device's sync stamped its time while still running: its end has nothing more to come. */
  let stampedWhileSyncing = false;
  /** This device's sync ended before its time stamp came: that stamp, when it comes, is the same sync. */
  let stampDue = false;
  return (state) => {
    const started = !syncing && state.syncing;
    const ended = syncing && !state.syncing;
    const stamped = state.lastSyncedAt !== lastSyncedAt;
    ({ syncing, lastSyncedAt } = state);
    if (started) {
      stampedWhileSyncing = false;
      stampDue = false;
    } else if (state.syncing && stamped) stampedWhileSyncing = true;
    if (state.syncing) return false;
    if (ended) {
      // Offline, it looks at nothing now: the stamp, when it comes, is its reason to look.
      stampDue = state.online && !stamped && !stampedWhileSyncing;
      return state.online;
    }
    if (!stamped) return false;
    if (stampDue) {
      stampDue = false;
      return false;
    }
    return state.online;
  };
}
