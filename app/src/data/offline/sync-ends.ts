// When the offline library should look again for bodies and images to download: once for each sync that
// ended, this device's or another tab's. This device's sync tells its end and its time stamp in one
// notification (the sync engine sets the stamp it wrote with `syncing` turning false); another tab's sync
// shows as a new stamp alone. Each is one sync: taken as two, a first sync of 5,000 articles walked every
// body and scanned every body's images a second time, about 3 s for nothing.
import type { SyncState } from '../sync/sync-engine';

type Seen = Pick<SyncState, 'syncing' | 'lastSyncedAt' | 'online'>;

/** Answers, for each state the sync engine tells of, whether a sync ended that the library hasn't seen. */
export function createSyncEnds(initial: Seen): (state: Seen) => boolean {
  let { syncing, lastSyncedAt } = initial;
  return (state) => {
    const ended = syncing && !state.syncing;
    const stamped = state.lastSyncedAt !== lastSyncedAt;
    ({ syncing, lastSyncedAt } = state);
    // Another tab's stamp while this device syncs: this device's end, to come, covers both. Offline, there
    // is nothing to fetch: the next sync once reachable again (it runs at once) is the reason to look.
    return !state.syncing && state.online && (ended || stamped);
  };
}
