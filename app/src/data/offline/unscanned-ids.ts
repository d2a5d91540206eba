// The ids of rows written since the image scan last looked (their rev above its mark), for the cards'
// offline marks: kept in memory and read on from the last rev read, rather than read whole on every call.
// Chromium's on-disk IndexedDB reads each record a walk of an index passes (a body of 25 KB for each id),
// and while a new device's bodies come in the scan lags thousands of bodies behind them: reading them all
// took 0.4 to 0.8 s of IndexedDB's thread a call, and the dashboard asks after every batch of bodies.
import type { Table } from 'dexie';
import type { LecternDb } from '../db/lectern-db';

/** Ids read up to a rev: every row written at or below it and above the mark of the read is among them. */
interface Chunk {
  upTo: number;
  ids: readonly string[];
}

/**
 * A reader of `table`'s ids whose rev is above a mark (the scan's), each call reading only the rows written
 * since the last. An id the scan has passed may be answered until the scan passes the whole chunk it was
 * read in: its mark waits a little longer, never shows early.
 */
export function createUnscannedIds<Row>(db: LecternDb, table: Table<Row, string>) {
  let chunks: Chunk[] = [];
  let readUpTo = 0;
  let wipes = db.wipes;
  return async function unscannedIds(scannedRev: number): Promise<Set<string>> {
    if (wipes !== db.wipes) {
      chunks = [];
      readUpTo = 0;
      wipes = db.wipes;
    }
    // The highest rev first, then every row above what was read: a row committed between the two reads is
    // read now and again next time, never missed (revs are handed out in the order of their commits).
    const top = ((await table.orderBy('rev').lastKey()) as number | undefined) ?? 0;
    const from = Math.max(scannedRev, readUpTo);
    const ids = await table.where('rev').above(from).primaryKeys();
    chunks = chunks.filter((chunk) => chunk.upTo > scannedRev);
    if (top > from) {
      chunks.push({ upTo: top, ids });
      readUpTo = top;
    }
    const answer = new Set<string>(top > from ? [] : ids);
    for (const chunk of chunks) for (const id of chunk.ids) answer.add(id);
    return answer;
  };
}
