// While a new device's first sync stores its pages of cards (one every tenth of a second or so), the
// screens' live reads run again at most every FIRST_SYNC_REFRESH_MS instead of after every page: each run
// goes over the whole staged library in memory (the lists, the counts, the tags), and a dozen runs in a row
// took about a third of the main thread while a 10,000-article library came in. In between, a live read
// answers what it last answered and waits for the next page (every page writes the cursor it reads). The
// lists still grow a few times a second, and the last page shows in full at once; a pull that ends without
// it has every live read run again (page-restore.ts rereadEverything).
import type { LecternDb } from '../db/lectern-db';

/** How often, at most, a live read runs again while a first sync's pages of cards come in. */
export const FIRST_SYNC_REFRESH_MS = 250;

/** Each database a first sync is storing pages of cards into, with what resolves when it is done. */
const pacing = new WeakMap<LecternDb, { ended: Promise<void>; end: () => void }>();

/** Turns the pacing on while a first sync stores a page that more will follow, off for its last page. */
export function paceLiveReads(db: LecternDb, on: boolean): void {
  if (on && !pacing.has(db)) {
    let end = () => {};
    const ended = new Promise<void>((resolve) => (end = resolve));
    pacing.set(db, { ended, end });
  } else if (!on) {
    pacing.get(db)?.end();
    pacing.delete(db);
  }
}

/**
 * Answers once no first sync is storing its pages of cards (at once when none is): work that can wait,
 * such as getting the search index ready, leaves the page to them.
 */
export function firstSyncPagesStored(db: LecternDb): Promise<void> {
  return pacing.get(db)?.ended ?? Promise.resolve();
}

/**
 * `querier` as a live read that runs at most every FIRST_SYNC_REFRESH_MS while the pacing is on; always
 * when it is off.
 */
export function pacedQuerier<T>(
  db: LecternDb,
  querier: () => T | Promise<T>,
  now: () => number = () => performance.now(),
): () => Promise<T> {
  let last: { value: T; at: number } | null = null;
  return async () => {
    if (last && pacing.has(db) && now() - last.at < FIRST_SYNC_REFRESH_MS) {
      // Read so the next page's write runs this again.
      await db.getMeta('cursor');
      return last.value;
    }
    const value = await querier();
    last = { value, at: now() };
    return value;
  };
}
