// Places of a list in the list keys' index (db/list-keys.ts) already read, so a window deep in a long list
// starts from the nearest one before it rather than from the list's first key: IndexedDB walks every
// entry a cursor skips, and a window 30,000 articles down took 270 to 330 ms of its thread in Chromium,
// for each chunk a scroll through a large library reads.
//
// A place is a position where a run of equal keys begins (rows created in the same instant share a key,
// and the index walks their run by id), so a key range starting at that key starts exactly there. Places
// hold only while the list stays as it was: they are kept with a stamp of the library (its newest rev and
// its count) read in the same transaction as the rows they come from, and a read with another stamp finds
// none. Every write of an article row carries a new, highest rev (db/local-store.ts nextRev, the staged
// cards' move too), and every delete changes the count.

/** A run of equal keys starting at `position` of the list, with that key. */
export interface ListPlace {
  position: number;
  key: string;
}

interface KnownPlaces {
  stamp: string;
  /** Position → key, for the starts of runs seen. */
  places: Map<number, string>;
}

/** Places kept per list, and lists kept per database: a few screens of scrolling each, bounded. */
const PLACES_PER_LIST = 4_000;
const LISTS_KEPT = 16;

const known = new WeakMap<object, Map<string, KnownPlaces>>();

function placesOf(db: object, list: string, stamp: string): Map<number, string> | null {
  const found = known.get(db)?.get(list);
  return found && found.stamp === stamp ? found.places : null;
}

/** The known place nearest before `position` (or at it) in `list` as `stamp` says the library is. */
export function nearestPlace(db: object, list: string, stamp: string, position: number): ListPlace | null {
  const places = placesOf(db, list, stamp);
  if (!places) return null;
  let best: ListPlace | null = null;
  for (const [at, key] of places)
    if (at <= position && (best === null || at > best.position)) best = { position: at, key };
  return best;
}

/**
 * Keeps the places that `keys` (the list keys of the rows read from `from` on, in the list's order) show:
 * each row whose key differs from the row before it begins a run.
 */
export function rememberPlaces(
  db: object,
  list: string,
  stamp: string,
  from: number,
  keys: readonly string[],
): void {
  let lists = known.get(db);
  if (!lists) known.set(db, (lists = new Map()));
  let found = lists.get(list);
  if (!found || found.stamp !== stamp) {
    if (!found && lists.size >= LISTS_KEPT) lists.clear();
    found = { stamp, places: new Map() };
    lists.set(list, found);
  }
  if (found.places.size >= PLACES_PER_LIST) found.places.clear();
  // The last run start of the window is the one the next window down needs; one per window is enough.
  for (let i = keys.length - 1; i > 0; i -= 1) {
    if (keys[i] !== keys[i - 1]) {
      found.places.set(from + i, keys[i]!);
      return;
    }
  }
}

/** Forgets every place of `db`'s lists (the lists are read another way meanwhile, or the device wiped). */
export function forgetPlaces(db: object): void {
  known.delete(db);
}
