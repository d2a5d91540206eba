// GET /articles, /articles/{id}, /articles/search and /tags/{id}/articles, answered from the device.
import {
  compareNewestFirst,
  computeArticleStats,
  matchesArticleFilter,
  SEARCH_RESULT_LIMIT,
  SERVER_ERRORS,
  type Article,
  type ArticleStats,
  type ArticleSummary,
  type ArticlesQuery,
} from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import type { ArticleRow } from '../db/rows';
import { createdIdOf, isArticleSave } from '../outbox/operations';
import type { ArticleSearch } from '../search/article-search';
import { articleRows } from './row-cache';
import { notFound } from './not-found';

/** A save still on its way to the server, or refused by it (then `error` says why). */
export interface PendingSave {
  state: 'saving' | 'failed';
  error: string | null;
  /** The outbox entry, for Retry and Delete. */
  seq: number;
}

/** An article as the server serves it, plus the state of its save while the server doesn't have it. */
export type LocalArticleSummary = ArticleSummary & { pendingSave?: PendingSave };
/**
 * `bodyMissing`: the article came as a card (a new device's first sync) and its body isn't on this device
 * yet; `content` is null until it comes (articles.fetchBody, or the background download).
 */
export type LocalArticle = Article & { pendingSave?: PendingSave; bodyMissing?: true };

export async function pendingSaves(db: LecternDb): Promise<Map<string, PendingSave>> {
  const saves = new Map<string, PendingSave>();
  for (const row of await db.outbox.toArray()) {
    const id = createdIdOf(row.op);
    if (id === undefined || !isArticleSave(row.op) || row.seq === undefined) continue;
    saves.set(id, { state: row.status === 'failed' ? 'failed' : 'saving', error: row.error, seq: row.seq });
  }
  return saves;
}

export function toSummary(row: ArticleRow, saves?: Map<string, PendingSave>): LocalArticleSummary {
  const { tag_keys: _tagKeys, rev: _rev, content_hash: _contentHash, ...summary } = row;
  const pendingSave = saves?.get(row.id);
  return pendingSave ? { ...summary, pendingSave } : summary;
}

export async function listArticles(
  db: LecternDb,
  query: ArticlesQuery = {},
): Promise<{ articles: LocalArticleSummary[]; stats: ArticleStats }> {
  const [cached, saves] = await Promise.all([articleRows(db), pendingSaves(db)]);
  const rows = [...cached.values()];
  const articles = rows
    .filter((row) => matchesArticleFilter(row, query))
    .sort(compareNewestFirst)
    .map((row) => toSummary(row, saves));
  return { articles, stats: computeArticleStats(rows) };
}

export async function getArticle(db: LecternDb, id: string): Promise<{ article: LocalArticle }> {
  const [row, content, saves] = await Promise.all([
    db.articles.get(id),
    db.article_contents.get(id),
    pendingSaves(db),
  ]);
  if (!row) throw notFound(SERVER_ERRORS.articleNotFound);
  const article: LocalArticle = { ...toSummary(row, saves), content: content?.content ?? null };
  if (!content) article.bodyMissing = true;
  return { article };
}

export async function searchArticles(
  db: LecternDb,
  search: ArticleSearch,
  q: string,
): Promise<{ articles: LocalArticleSummary[] }> {
  const ids = await search.search(q);
  const [rows, saves] = await Promise.all([articleRows(db), pendingSaves(db)]);
  const articles: LocalArticleSummary[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) search.forget(id);
    else if (articles.push(toSummary(row, saves)) >= SEARCH_RESULT_LIMIT) break;
  }
  return { articles };
}

export async function articlesWithTag(db: LecternDb, tagKey: string): Promise<LocalArticleSummary[]> {
  const [rows, saves] = await Promise.all([
    db.articles.where('tag_keys').equals(tagKey).toArray(),
    pendingSaves(db),
  ]);
  return rows.sort(compareNewestFirst).map((row) => toSummary(row, saves));
}

/** Some article is still being worked on by the server: its page fetched (an import, a Retry), or its images archived. */
export async function hasPendingFetches(db: LecternDb): Promise<boolean> {
  // A page still being fetched, or images still being archived (their new addresses come by the feed).
  for (const row of (await articleRows(db)).values())
    if (row.fetch_state === 'pending' || row.images_pending === true) return true;
  return false;
}
