// GET /highlights and its variants from the device. A highlight's article title and image are its
// article's current ones.
import {
  computeHighlightStats,
  RECENT_HIGHLIGHTS_DEFAULT_LIMIT,
  SEARCH_RESULT_LIMIT,
  SERVER_ERRORS,
  type Highlight,
  type HighlightStats,
} from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import type { HighlightRow } from '../db/rows';
import type { HighlightSearch } from '../search/highlight-search';
import { articleRows, highlightRows } from './row-cache';
import { notFound } from './not-found';

function newestFirst(a: HighlightRow, b: HighlightRow): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** In reading order: by place in the article, then by creation. */
function inArticleOrder(a: HighlightRow, b: HighlightRow): number {
  return a.position_start - b.position_start || -newestFirst(a, b);
}

async function withArticles(db: LecternDb, rows: readonly HighlightRow[]): Promise<Highlight[]> {
  const byId = await articleRows(db);
  return rows.map(({ rev: _rev, ...row }) => {
    const article = byId.get(row.article_id);
    return { ...row, article_title: article?.title ?? '', article_image: article?.image_url ?? null };
  });
}

export async function listHighlights(db: LecternDb, now = new Date()) {
  const rows = [...(await highlightRows(db)).values()].sort(newestFirst);
  return { highlights: await withArticles(db, rows), stats: computeHighlightStats(rows, now) };
}

export async function articleHighlights(db: LecternDb, articleId: string) {
  const rows = await db.highlights.where('article_id').equals(articleId).toArray();
  return { highlights: await withArticles(db, rows.sort(inArticleOrder)) };
}

export async function getHighlight(db: LecternDb, id: string): Promise<{ highlight: Highlight }> {
  const row = await db.highlights.get(id);
  if (!row) throw notFound(SERVER_ERRORS.highlightNotFound);
  const [highlight] = await withArticles(db, [row]);
  return { highlight: highlight! };
}

export async function recentHighlights(db: LecternDb, limit = RECENT_HIGHLIGHTS_DEFAULT_LIMIT) {
  const rows = await db.highlights
    .orderBy('created_at')
    .reverse()
    .limit(limit * 2 + 10)
    .toArray();
  return { highlights: await withArticles(db, rows.sort(newestFirst).slice(0, limit)) };
}

export async function highlightStats(db: LecternDb, now = new Date()): Promise<{ stats: HighlightStats }> {
  const rows = [...(await highlightRows(db)).values()];
  return { stats: computeHighlightStats(rows, now) };
}

export async function searchHighlights(db: LecternDb, search: HighlightSearch, q: string) {
  const ids = await search.search(q);
  const rows = await highlightRows(db);
  const found: HighlightRow[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) search.forget(id);
    else if (found.push(row) >= SEARCH_RESULT_LIMIT) break;
  }
  return { highlights: await withArticles(db, found) };
}
