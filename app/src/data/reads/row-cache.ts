// Each tab keeps the article and highlight rows in memory, caught up on every read by the rows' `rev`
// (so writes from any tab are seen), with deletions found by comparing counts. Reading 50,000 rows out of
// IndexedDB on every dashboard render would cost far more than the 100 ms a filter switch may take.
import type { Table } from 'dexie';
import type { LecternDb } from '../db/lectern-db';
import type { ArticleRow, HighlightRow } from '../db/rows';

export interface CachedRows<Row> {
  rows: ReadonlyMap<string, Row>;
  /**
   * Raised in the same moment as any row comes, changes or goes (another read may be changing `rows`
   * meanwhile, so read it when deriving, not before): what is derived from `rows` can be kept until it moves.
   */
  readonly version: number;
}

export interface RowCache<Row> {
  /** Every row of the table as it is now. Reads through Dexie, so live queries re-run on changes. */
  read(): Promise<CachedRows<Row>>;
}

/** Rows read at a time on the first read: each step's decoding stays a short task, so a page can paint between. */
const FIRST_READ_CHUNK = 2_000;

/**
 * The whole table in steps by primary key. Answers the rev to catch up from: the highest there was before
 * the first step, so a row written meanwhile (behind or ahead of the steps) is read again next time.
 */
async function readAll<Row extends { id: string; rev: number }>(
  table: Table<Row, string>,
  into: Map<string, Row>,
  changed: () => void,
): Promise<number> {
  const newest = await table.orderBy('rev').last();
  let after: string | null = null;
  for (;;) {
    const rows: Row[] = await (after === null ? table.orderBy(':id') : table.where(':id').above(after))
      .limit(FIRST_READ_CHUNK)
      .toArray();
    for (const row of rows) into.set(row.id, row);
    changed();
    if (rows.length < FIRST_READ_CHUNK) break;
    after = rows[rows.length - 1]!.id;
  }
  return newest?.rev ?? 0;
}

function createRowCache<Row extends { id: string; rev: number }>(table: Table<Row, string>): RowCache<Row> {
  const cached = new Map<string, Row>();
  let seenRev = 0;
  let version = 0;
  // Every change to `cached` raises the version in the same synchronous step: two reads may run at once
  // (the list and the analytics), and a view derived between an await and a change must not be kept.
  const changed = () => {
    version += 1;
  };
  const answer: CachedRows<Row> = {
    rows: cached,
    get version() {
      return version;
    },
  };
  return {
    async read() {
      if (seenRev === 0 && cached.size === 0) seenRev = await readAll(table, cached, changed);
      const written = await table.where('rev').above(seenRev).toArray();
      for (const row of written) {
        cached.set(row.id, row);
        if (row.rev > seenRev) seenRev = row.rev;
      }
      if (written.length > 0) changed();
      // Every row there is now is cached; more cached rows than rows means some were deleted.
      const count = await table.count();
      if (cached.size !== count) {
        const present = new Set(await table.toCollection().primaryKeys());
        for (const id of cached.keys()) if (!present.has(id)) cached.delete(id);
        changed();
        if (cached.size !== count) {
          const rows = await table.toArray();
          cached.clear();
          for (const row of rows) cached.set(row.id, row);
          changed();
        }
      }
      return answer;
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

export const cachedArticles = (db: LecternDb) => cachesOf(db).articles.read();
export const articleRows = async (db: LecternDb) => (await cachedArticles(db)).rows;
export const highlightRows = async (db: LecternDb) => (await cachesOf(db).highlights.read()).rows;

/**
 * Lets the articles held in memory go (read again when next asked for): the dashboard's lists read them
 * all only while a first sync's cards are staged (reads/article-pages.ts), and need them no more after.
 */
export function forgetArticles(db: LecternDb): void {
  const found = caches.get(db);
  if (found) found.articles = createRowCache(db.articles);
}
