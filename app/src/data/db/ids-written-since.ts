// The ids of a table's rows written since a rev (their rev above it), kept in memory and read on from the
// last rev read, rather than read whole on every call. Chromium's on-disk IndexedDB reads each record a walk
// of an index passes, so a walk of the rows written since a rev costs in proportion to them:
// - the cards' offline marks ask for the articles and bodies written since the image scan last looked, and
//   while a new device's bodies come in the scan lags thousands behind them (0.4 to 0.8 s of IndexedDB's
//   thread a call, after every batch of bodies);
// - the move of staged cards into rows asks, for each slice, for the rows written since the page was staged,
//   the slices moved before it among them.
import type { Table } from 'dexie';
import type { LecternDb } from './lectern-db';

/** Ids read up to a rev: every row written at or below it and above the mark of the read is among them. */
interface Chunk {
  upTo: number;
  ids: readonly string[];
}

/** Where the ids written since a rev are read: a table keyed by id (rowsByRev), or the bodies (bodiesByRev). */
export interface WrittenByRev {
  /** The highest rev written, 0 if none. */
  lastRev(): Promise<number>;
  /** The ids of the rows written above `rev`. */
  idsAbove(rev: number): Promise<string[]>;
}

/** A table keyed by id with a `rev` index, as createIdsWrittenSince reads it. */
export function rowsByRev<Row>(table: Table<Row, string>): WrittenByRev {
  return {
    lastRev: async () => ((await table.orderBy('rev').lastKey()) as number | undefined) ?? 0,
    idsAbove: (rev) => table.where('rev').above(rev).primaryKeys(),
  };
}

/**
 * A reader of the ids whose rev is above a mark in `source`, each call reading only the rows written since
 * the last. It answers every row above the mark, and may answer rows at or below
 * it until the mark passes the whole chunk they were read in (an offline mark waits a little longer, never
 * shows early).
 */
export function createIdsWrittenSince(db: LecternDb, source: WrittenByRev) {
  let chunks: Chunk[] = [];
  let readUpTo = 0;
  let wipes = db.wipes;
  return async function idsWrittenSince(mark: number): Promise<Set<string>> {
    if (wipes !== db.wipes) {
      chunks = [];
      readUpTo = 0;
      wipes = db.wipes;
    }
    // The highest rev first, then every row above what was read: a row committed between the two reads is
    // read now and again next time, never missed (revs are handed out in the order of their commits).
    const top = await source.lastRev();
    const after = Math.max(mark, readUpTo);
    const ids = await source.idsAbove(after);
    chunks = chunks.filter((chunk) => chunk.upTo > mark);
    if (top > after) {
      chunks.push({ upTo: top, ids });
      readUpTo = top;
    }
    const answer = new Set(ids);
    for (const chunk of chunks) for (const id of chunk.ids) answer.add(id);
    return answer;
  };
}
