// The dashboard's list read a window at a time from the list keys' index (db/list-keys.ts): a filter,
// tag or sort switched, or a scroll, reads the list's count and the rows on screen, never the library.
import type { ArticleSummary, ArticlesQuery } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import { isListQuery, LIST_KEYS_INDEX, listRange, type ListQuery } from '../db/list-keys';
import { hasStagedCards } from '../db/staged-cards';
import { articleView, forgetArticleView } from './article-view';
import { countedListTotal } from './counted-list-total';
import { forgetPlaces, nearestPlace, rememberPlaces } from './list-places';
import { forgetArticles } from './row-cache';
import type { ArticleOrder } from './article-order';
import { filterOf, listArticles, pendingSaves, toSummary, type LocalArticleSummary } from './article-reads';

/** The rows [start, start + articles.length) of a list, and how many articles the whole list holds. */
export interface ArticlePage {
  total: number;
  start: number;
  articles: LocalArticleSummary[];
}

/** Summaries kept to answer again: about a few screens of windows each way. */
const KEPT_SUMMARIES = 4_000;
const kept = new WeakMap<LecternDb, Map<string, ArticleSummary>>();

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((item, i) => item === b[i]);
}

/**
 * The summary answered last for this article when nothing in it changed: each read of a window decodes
 * new row objects, and the same object for an unchanged article lets its card skip rendering again.
 */
function keptSummary(db: LecternDb, fresh: ArticleSummary): ArticleSummary {
  let summaries = kept.get(db);
  if (!summaries) kept.set(db, (summaries = new Map()));
  const last = summaries.get(fresh.id);
  if (last) {
    const keys = Object.keys(fresh) as (keyof ArticleSummary)[];
    if (keys.length === Object.keys(last).length && keys.every((key) => sameValue(fresh[key], last[key])))
      return last;
  }
  if (summaries.size >= KEPT_SUMMARIES) summaries.clear();
  summaries.set(fresh.id, fresh);
  return fresh;
}

function listCollection(db: LecternDb, query: ListQuery, order: ArticleOrder) {
  const { lower, upper, reverse } = listRange(query, order);
  const range = db.articles.where(LIST_KEYS_INDEX).between(lower, upper, true, true);
  return reverse ? range.reverse() : range;
}

/** Windows starting this near the list's start are read by skipping from it. */
export const READ_FROM_START_BELOW = 200;

/**
 * The rows [from, from + limit) of the list, read from the nearest place of it known before `from`
 * (list-places.ts) rather than a cursor advanced from its start, and the places this read shows kept.
 * One transaction: the library's stamp is the one the rows were read under.
 */
function windowRows(db: LecternDb, query: ListQuery, order: ArticleOrder, from: number, limit: number) {
  // The first screens (the first card, a switch of list) read as they are: skipping this few costs less
  // than reading the stamp.
  if (from < READ_FROM_START_BELOW)
    return listCollection(db, query, order).offset(from).limit(limit).toArray();
  const { lower, upper, reverse } = listRange(query, order);
  return db.transaction('r', [db.articles, db.article_counts], async () => {
    const [newestRev, counts] = await Promise.all([db.articles.orderBy('rev').lastKey(), db.articleCounts()]);
    const stamp = `${String(newestRev)}:${counts.total}`;
    // Newest and Oldest walk the same keys: each way is a list of its own places.
    const list = `${lower}${reverse ? '<' : '>'}`;
    const place = nearestPlace(db, list, stamp, from);
    const range = db.articles.where(LIST_KEYS_INDEX);
    const start = place?.position ?? 0;
    const collection = !place
      ? listCollection(db, query, order)
      : reverse
        ? range.between(lower, place.key, true, true).reverse()
        : range.between(place.key, upper, true, true);
    const rows = await collection
      .offset(from - start)
      .limit(limit)
      .toArray();
    const keys = rows.map((row) => row.list_keys?.find((key) => key >= lower && key <= upper) ?? '');
    if (!keys.includes('')) rememberPlaces(db, list, stamp, from, keys);
    return rows;
  });
}

/**
 * The list's size: from the counts kept with each write when they say it (the tabs and Archived without a
 * tag or Favorites), else the range's count in the database, without reading a row.
 */
async function listTotal(db: LecternDb, query: ListQuery): Promise<number> {
  if (query.tag_name === undefined && query.favorite === undefined) {
    const counted = countedListTotal(query, await db.articleCounts());
    if (counted !== undefined) return counted;
  }
  const { lower, upper } = listRange(query, 'newest');
  return db.articles.where(LIST_KEYS_INDEX).between(lower, upper, true, true).count();
}

/** The databases whose lists were last read in memory, staged cards and all. */
const readWithStaged = new WeakSet<LecternDb>();

/**
 * Whether cards are staged (the lists are then read in memory); once every card is moved, the rows held
 * in memory for that go.
 */
function readsStaged(db: LecternDb): PromiseLike<boolean> {
  return hasStagedCards(db).then((staged) => {
    if (staged) {
      readWithStaged.add(db);
      forgetPlaces(db);
    } else if (readWithStaged.delete(db)) {
      forgetArticles(db);
      forgetArticleView(db);
    }
    return staged;
  });
}

/** The articles from `start` up to `end` (excluded) of the list in `order`, and the list's total. */
export async function pageArticles(
  db: LecternDb,
  query: ArticlesQuery,
  order: ArticleOrder,
  start: number,
  end: number,
): Promise<ArticlePage> {
  const from = Math.max(0, Math.floor(start));
  const limit = Math.max(0, Math.floor(end) - from);
  if (!isListQuery(query) || (await readsStaged(db))) {
    // Not a list the dashboard shows (no archived flag), or cards staged by a first sync, which the list
    // keys' index doesn't hold yet: the library in memory, counted, and only the window made summaries.
    const [view, saves] = await Promise.all([articleView(db), pendingSaves(db)]);
    const matches = filterOf(query);
    const rows = order === 'title' ? view.byTitle() : view.newestFirst;
    const articles: LocalArticleSummary[] = [];
    let total = 0;
    for (let i = 0; i < rows.length; i += 1) {
      const row = rows[order === 'oldest' ? rows.length - 1 - i : i]!;
      if (!matches(row)) continue;
      if (total >= from && total < from + limit) articles.push(toSummary(row, saves));
      total += 1;
    }
    return { total, start: from, articles };
  }
  const [total, rows, saves] = await Promise.all([
    listTotal(db, query),
    limit === 0 ? [] : windowRows(db, query, order, from, limit),
    pendingSaves(db),
  ]);
  const articles = rows.map((row) => {
    const summary = keptSummary(db, toSummary(row));
    const pendingSave = saves.get(row.id);
    return pendingSave ? { ...summary, pendingSave } : summary;
  });
  return { total, start: from, articles };
}

/** Every id of the list in `order` (the index's keys only, no row read): what Select All selects. */
export async function listedIds(db: LecternDb, query: ArticlesQuery, order: ArticleOrder): Promise<string[]> {
  if (!isListQuery(query) || (await readsStaged(db)))
    return (await listArticles(db, query, order)).articles.map((article) => article.id);
  return listCollection(db, query, order).primaryKeys();
}

/** Above this many selected, the list's ids are read (keys only) rather than each selected row. */
const SELECTION_BY_ROWS = 200;

/** Which of `ids` are in the list (the selection's part the screen shows), in the order given. */
export async function idsInList(
  db: LecternDb,
  query: ArticlesQuery,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  if (ids.length > SELECTION_BY_ROWS && isListQuery(query) && !(await readsStaged(db))) {
    // Select All over a large list: its keys, not thousands of rows decoded.
    const listed = new Set(await listCollection(db, query, 'newest').primaryKeys());
    return ids.filter((id) => listed.has(id));
  }
  const matches = filterOf(query);
  const rows = await db.articles.bulkGet([...ids]);
  return rows.flatMap((row) => (row && matches(row) ? [row.id] : []));
}
