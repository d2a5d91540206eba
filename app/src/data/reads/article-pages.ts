// The dashboard's list read a window at a time from the list keys' index (db/list-keys.ts): a filter,
// tag or sort switched, or a scroll, reads the list's count and the rows on screen, never the library.
import type { ArticlesQuery } from '@lectern/shared-schema';
import { statsOf } from '../db/article-counts';
import type { LecternDb } from '../db/lectern-db';
import { isListQuery, LIST_KEYS_INDEX, listRange, type ListQuery } from '../db/list-keys';
import type { ArticleOrder } from './article-order';
import { filterOf, listArticles, pendingSaves, toSummary, type LocalArticleSummary } from './article-reads';

/** The rows [start, start + articles.length) of a list, and how many articles the whole list holds. */
export interface ArticlePage {
  total: number;
  start: number;
  articles: LocalArticleSummary[];
}

function listCollection(db: LecternDb, query: ListQuery, order: ArticleOrder) {
  const { lower, upper, reverse } = listRange(query, order);
  const range = db.articles.where(LIST_KEYS_INDEX).between(lower, upper, true, true);
  return reverse ? range.reverse() : range;
}

/**
 * The list's size: from the counts kept with each write when they say it (the tabs and Archived without a
 * tag or Favorites), else the range's count in the database, without reading a row.
 */
async function listTotal(db: LecternDb, query: ListQuery): Promise<number> {
  if (query.tag_name === undefined && query.favorite === undefined) {
    const { total, archived, unread } = statsOf(await db.articleCounts());
    if (query.archived && query.is_read === undefined) return archived;
    if (!query.archived) {
      if (query.is_read === undefined) return total - archived;
      return query.is_read ? total - archived - unread : unread;
    }
  }
  const { lower, upper } = listRange(query, 'newest');
  return db.articles.where(LIST_KEYS_INDEX).between(lower, upper, true, true).count();
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
  if (!isListQuery(query)) {
    // Not a list the dashboard shows (no archived flag): the whole list, cut.
    const { articles } = await listArticles(db, query, order);
    return { total: articles.length, start: from, articles: articles.slice(from, from + limit) };
  }
  const [total, rows, saves] = await Promise.all([
    listTotal(db, query),
    limit === 0 ? [] : listCollection(db, query, order).offset(from).limit(limit).toArray(),
    pendingSaves(db),
  ]);
  return { total, start: from, articles: rows.map((row) => toSummary(row, saves)) };
}

/** Every id of the list in `order` (the index's keys only, no row read): what Select All selects. */
export async function listedIds(db: LecternDb, query: ArticlesQuery, order: ArticleOrder): Promise<string[]> {
  if (!isListQuery(query))
    return (await listArticles(db, query, order)).articles.map((article) => article.id);
  return listCollection(db, query, order).primaryKeys();
}

/** Which of `ids` are in the list (the selection's part the screen shows), in the order given. */
export async function idsInList(
  db: LecternDb,
  query: ArticlesQuery,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const matches = filterOf(query);
  const rows = await db.articles.bulkGet([...ids]);
  return rows.flatMap((row) => (row && matches(row) ? [row.id] : []));
}
