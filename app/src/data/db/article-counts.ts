// The library's counts (the dashboard's stats, each tag's articles) kept with every write of an article row
// rather than counted over the whole library at each read: at 50,000 articles a count is one row read.
// A Dexie middleware adds the counts' table to every read-write transaction over `articles` and updates
// the counts in the same transaction as the rows, so the two can never disagree, whoever writes (a local
// edit, a sync pull, a wipe, another tab).
import type {
  DBCore,
  DBCoreMutateRequest,
  DBCoreMutateResponse,
  DBCoreTable,
  DBCoreTransaction,
  Middleware,
} from 'dexie';
import type { ArticleStats } from '@lectern/shared-schema';
import type { ArticleCountsRow, ArticleRow } from './rows';
import { anyStaged, isMovingCards } from './staged-cards';
import { holdsStore, RANGE_ANY, RANGE_BETWEEN } from './dbcore';

export const ARTICLE_COUNTS_TABLE = 'article_counts';
export const ARTICLE_COUNTS_KEY = 'library';

type Counts = Omit<ArticleCountsRow, 'key'>;

export const noCounts = (): Counts => ({ total: 0, unread: 0, archived: 0, favorites: 0, tags: {} });

type CountedFields = Pick<ArticleRow, 'is_archived' | 'is_read' | 'is_favorite' | 'tag_keys'>;

/** Adds (`sign` 1) or takes away (-1) one article from the counts, as computeArticleStats counts it. */
export function countArticle(counts: Counts, row: CountedFields, sign: 1 | -1): void {
  counts.total += sign;
  if (row.is_archived) counts.archived += sign;
  else if (!row.is_read) counts.unread += sign;
  if (row.is_favorite) counts.favorites += sign;
  // The multi-entry index holds a key once per article however often it appears: counted the same way.
  for (const key of new Set(row.tag_keys)) {
    const count = (counts.tags[key] ?? 0) + sign;
    if (count === 0) delete counts.tags[key];
    else counts.tags[key] = count;
  }
}

/** The counts a stored row holds, as a copy to change (none stored: an empty library). */
export function countsOf(stored: ArticleCountsRow | undefined): Counts {
  if (!stored) return noCounts();
  const { key: _key, ...counts } = stored;
  return { ...counts, tags: { ...counts.tags } };
}

/** Every row counted from nothing: what the schema upgrade writes, and what the tests compare with. */
export function countAll(rows: Iterable<CountedFields>): Counts {
  const counts = noCounts();
  for (const row of rows) countArticle(counts, row, 1);
  return counts;
}

/** The stats of spec section 3 from the kept counts: read is total minus unread minus archived, floored at 0. */
export function statsOf(counts: Counts): ArticleStats {
  const { total, unread, archived, favorites } = counts;
  return { total, unread, read: Math.max(0, total - unread - archived), archived, favorites };
}

/**
 * From this many keys on, the rows there are under them are first found by one read of the keys between
 * the smallest and the largest (keys only, no row cloned), then only those rows are read: a sync page of a
 * thousand cards, new to the device, reads no row at all instead of making a thousand lookups for nothing.
 */
const KEYS_READ_AT_ONCE = 64;
/**
 * The key read stops after this many keys per key written (a key costs far less than a lookup); a range
 * holding more (a few writes spread over a large library) is looked up key by key as before.
 */
const KEYS_READ_PER_KEY = 32;

/** Rows of one mutation, before and after it, keyed by id (a key twice in one call counts once). */
async function rowsBefore(
  down: DBCore,
  table: DBCoreTable,
  trans: DBCoreTransaction,
  keys: readonly string[],
): Promise<Map<string, ArticleRow>> {
  // Moving staged cards writes only cards without a row (it checked in the same transaction).
  if (isMovingCards(trans)) return new Map();
  let unique = [...new Set(keys)];
  // A staged card (db/staged-cards.ts) is a row replaced too, but only a read by id finds it.
  if (unique.length >= KEYS_READ_AT_ONCE && !(await anyStaged(down, trans))) {
    const sorted = [...unique].sort();
    const limit = unique.length * KEYS_READ_PER_KEY;
    const present = await table.query({
      trans,
      values: false,
      limit,
      query: {
        index: table.schema.primaryKey,
        range: {
          type: RANGE_BETWEEN,
          lower: sorted[0],
          upper: sorted[sorted.length - 1],
          lowerOpen: false,
          upperOpen: false,
        },
      },
    });
    if (present.result.length < limit) {
      const there = new Set(present.result as string[]);
      unique = unique.filter((key) => there.has(key));
      if (unique.length === 0) return new Map();
    }
  }
  const rows = (await table.getMany({ trans, keys: unique })) as (ArticleRow | undefined)[];
  const before = new Map<string, ArticleRow>();
  unique.forEach((key, i) => {
    const row = rows[i];
    if (row) before.set(key, row);
  });
  return before;
}

/** What one mutation of `articles` does to the counts, worked out from the rows it replaces or removes. */
async function mutateCounting(
  down: DBCore,
  articles: DBCoreTable,
  countsTable: DBCoreTable,
  req: DBCoreMutateRequest,
): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  let current: Map<string, ArticleRow>;
  let cleared = false;
  if (req.type === 'deleteRange' && req.range.type === RANGE_ANY) {
    // clear(): nothing is left to count, and nothing needs reading first.
    cleared = true;
    current = new Map();
  } else if (req.type === 'deleteRange') {
    const removed = (await articles.query({
      trans,
      values: true,
      query: { index: articles.schema.primaryKey, range: req.range },
    })) as { result: ArticleRow[] };
    current = new Map(removed.result.map((row) => [row.id, row]));
  } else {
    const keys =
      req.type === 'delete'
        ? (req.keys as string[])
        : (req.values as ArticleRow[]).map((row, i) => (req.keys?.[i] as string | undefined) ?? row.id);
    current = await rowsBefore(down, articles, trans, keys);
  }
  const response = await articles.mutate(req);
  if (cleared) {
    // An empty library has no counts row (articleCounts reads its absence as zeros): a wipe leaves nothing.
    await countsTable.mutate({ type: 'delete', trans, keys: [ARTICLE_COUNTS_KEY] });
    return response;
  }
  const counts = countsOf(
    (await countsTable.get({ trans, key: ARTICLE_COUNTS_KEY })) as ArticleCountsRow | undefined,
  );
  if (req.type === 'add' || req.type === 'put') {
    (req.values as ArticleRow[]).forEach((row, i) => {
      if (response.failures[i] !== undefined) return;
      const previous = current.get(row.id);
      if (previous) countArticle(counts, previous, -1);
      countArticle(counts, row, 1);
      current.set(row.id, row);
    });
  } else {
    // delete and deleteRange: every row there was under those keys is gone.
    for (const row of current.values()) countArticle(counts, row, -1);
  }
  const row: ArticleCountsRow = { key: ARTICLE_COUNTS_KEY, ...counts };
  await countsTable.mutate({ type: 'put', trans, values: [row] });
  return response;
}

/**
 * Keeps `article_counts` in step with `articles`. Schema upgrades are left alone: an upgrade that rewrites
 * articles counts them again itself (see version 6 in lectern-db.ts).
 */
export const articleCountsMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'ArticleCounts',
  create(down) {
    // One mutation at a time per transaction: two bulkPuts started together must not read the same counts.
    const queues = new WeakMap<DBCoreTransaction, Promise<unknown>>();
    return {
      ...down,
      transaction(stores, mode, options) {
        const withCounts =
          mode === 'readwrite' && stores.includes('articles') && !stores.includes(ARTICLE_COUNTS_TABLE)
            ? [...stores, ARTICLE_COUNTS_TABLE]
            : stores;
        return down.transaction(withCounts, mode, options);
      },
      table(name) {
        const table = down.table(name);
        if (name !== 'articles') return table;
        return {
          ...table,
          mutate(req) {
            if (!holdsStore(req.trans, ARTICLE_COUNTS_TABLE)) return table.mutate(req);
            const countsTable = down.table(ARTICLE_COUNTS_TABLE);
            const queued = (queues.get(req.trans) ?? Promise.resolve()).then(() =>
              mutateCounting(down, table, countsTable, req),
            );
            queues.set(
              req.trans,
              queued.catch(() => undefined),
            );
            return queued;
          },
        };
      },
    };
  },
};
