// Which of some primary keys a table holds, without reading their rows. Keys asked together are mostly
// close together (ids are time-ordered, and the callers walk articles by date): the keys between the least
// and the greatest are read in one request, up to DENSE_FACTOR times as many as were asked. Only when that
// many or more lie between (keys far apart) is each key counted, all counts sent at once in one transaction: Dexie's
// anyOf walks a cursor from key to key (a round trip to IndexedDB for each: 100 to 500 ms for a thousand
// keys in Chromium), and a count per key is still a request per key (about 0.1 ms of the page's thread each
// in a new device's first sync, and more of IndexedDB's).
import type { Table } from 'dexie';

/** How many keys the range between the asked ones may hold, per key asked, before each is counted instead. */
const DENSE_FACTOR = 4;

export async function presentKeys<Row, Key extends string>(
  table: Table<Row, Key>,
  keys: readonly Key[],
): Promise<Set<Key>> {
  // IndexedDB orders strings by their UTF-16 code units, as sort() does.
  const unique = [...new Set(keys)].sort();
  const [least, greatest] = [unique[0], unique.at(-1)];
  if (least === undefined || greatest === undefined) return new Set();
  const most = unique.length * DENSE_FACTOR;
  return table.db.transaction('r', table, async () => {
    const between = await table.where(':id').between(least, greatest, true, true).limit(most).primaryKeys();
    if (between.length < most) {
      const held = new Set(between);
      return new Set(unique.filter((key) => held.has(key)));
    }
    const counts = await Promise.all(unique.map((key) => table.where(':id').equals(key).count()));
    return new Set(unique.filter((_, i) => counts[i]! > 0));
  });
}
