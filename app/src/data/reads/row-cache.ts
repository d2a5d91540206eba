// Each tab keeps the article and highlight rows in memory, caught up on every read by the rows' `rev`
// (so writes from any tab are seen), with deletions found by comparing counts. Reading 5,000 rows out of
// IndexedDB on every dashboard render would cost far more than the 50 ms a render may take.
import type { Table } from 'dexie';
import type { LecternDb } from '../db/lectern-db';
import type { ArticleRow, HighlightRow } from '../db/rows';

export interface RowCache<Row> {
  /** Every row of the table as it is now. Reads through Dexie, so live queries re-run on changes. */
  rows(): Promise<ReadonlyMap<string, Row>>;
}

function createRowCache<Row extends { id: string; rev: number }>(table: Table<Row, string>): RowCache<Row> {
  const cached = new Map<string, Row>();
  let seenRev = 0;
  return {
    async rows() {
      const changed = await table.where('rev').above(seenRev).toArray();
      for (const row of changed) {
        cached.set(row.id, row);
        if (row.rev > seenRev) seenRev = row.rev;
      }
      // Every row there is now is cached; more cached rows than rows means some were deleted.
      const count = await table.count();
      if (cached.size !== count) {
        const present = new Set(await table.toCollection().primaryKeys());
        for (const id of cached.keys()) if (!present.has(id)) cached.delete(id);
        if (cached.size !== count) {
          cached.clear();
          for (const row of await table.toArray()) cached.set(row.id, row);
        }
      }
      return cached;
    },
  };
}

const caches = new WeakMap<
  LecternDb,
  { articles: RowCache<ArticleRow>; highlights: RowCache<HighlightRow> }
>();

function cachesOf(db: LecternDb) {
  let found = caches.get(db);
  if (!found) {
    found = { articles: createRowCache(db.articles), highlights: createRowCache(db.highlights) };
    caches.set(db, found);
  }
  return found;
}

export const articleRows = (db: LecternDb) => cachesOf(db).articles.rows();
export const highlightRows = (db: LecternDb) => cachesOf(db).highlights.rows();
