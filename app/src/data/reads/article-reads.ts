// GET /articles, /articles/{id}, /articles/search and /tags/{id}/articles, answered from the device.
import {
  compareNewestFirst,
  SEARCH_RESULT_LIMIT,
  tagNameKey,
  SERVER_ERRORS,
  type Article,
  type ArticleStats,
  type ArticleSummary,
  type ArticlesQuery,
} from '@lectern/shared-schema';
import { statsOf } from '../db/article-counts';
import { bodyOf } from '../db/bodies';
import { presentKeys } from '../db/present-keys';
import { rowsOrStagedCards, stagedCards, stagedTables } from '../db/staged-cards';
import type { LecternDb } from '../db/lectern-db';
import { LIST_KEYS_INDEX, PENDING_FETCH_KEY } from '../db/list-keys';
import type { ArticleRow } from '../db/rows';
import { createdIdOf, isArticleSave } from '../outbox/operations';
import type { ArticleSearch } from '../search/article-search';
import type { ArticleOrder } from './article-order';
import { articleView } from './article-view';
import { notFound } from './not-found';

export const SEARCH_MEASURE = 'lectern:article-search';

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

/**
 * One summary per row object (rows are replaced, never changed, when an article changes): the same article
 * unchanged is the same object in every answer, so a card built for it isn't built again.
 */
const summaries = new WeakMap<ArticleRow, ArticleSummary>();

export function toSummary(row: ArticleRow, saves?: Map<string, PendingSave>): LocalArticleSummary {
  let summary = summaries.get(row);
  if (!summary) {
    const {
      tag_keys: _tagKeys,
      rev: _rev,
      content_hash: _contentHash,
      list_keys: _listKeys,
      ...fields
    } = row;
    summary = fields;
    summaries.set(row, summary);
  }
  const pendingSave = saves?.get(row.id);
  return pendingSave ? { ...summary, pendingSave } : summary;
}

/** The dashboard filter of spec section 4 on a row: its tag by the row's tag keys, computed on write. */
export function filterOf(query: ArticlesQuery): (row: ArticleRow) => boolean {
  const { archived, favorite, is_read } = query;
  const tag = query.tag_name === undefined ? undefined : tagNameKey(query.tag_name);
  return (row) =>
    (archived === undefined || row.is_archived === archived) &&
    (favorite === undefined || row.is_favorite === favorite) &&
    (is_read === undefined || row.is_read === is_read) &&
    (tag === undefined || row.tag_keys.includes(tag));
}

/** GET /articles from the device, newest first as the server lists them, or in the dashboard's `order`. */
export async function listArticles(
  db: LecternDb,
  query: ArticlesQuery = {},
  order: ArticleOrder = 'newest',
): Promise<{ articles: LocalArticleSummary[]; stats: ArticleStats }> {
  const [view, saves, counts] = await Promise.all([articleView(db), pendingSaves(db), db.articleCounts()]);
  const matches = filterOf(query);
  const rows = order === 'title' ? view.byTitle() : view.newestFirst;
  const articles: LocalArticleSummary[] = [];
  if (order === 'oldest') {
    for (let i = rows.length - 1; i >= 0; i -= 1) {
      const row = rows[i]!;
      if (matches(row)) articles.push(toSummary(row, saves));
    }
  } else {
    for (const row of rows) if (matches(row)) articles.push(toSummary(row, saves));
  }
  return { articles, stats: statsOf(counts) };
}

export async function getArticle(db: LecternDb, id: string): Promise<{ article: LocalArticle }> {
  const [row, content, saves] = await Promise.all([db.articles.get(id), bodyOf(db, id), pendingSaves(db)]);
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
  const started = performance.now();
  const savesRead = pendingSaves(db);
  // Only the rows shown are read, best match first: the whole library is never read for a query.
  const best = async (): Promise<LocalArticleSummary[]> => {
    // A first sync's card not moved into a row yet is found too (rowsOrStagedCards).
    const { ids, rows } = (await peekedMatches(db, search, q)) ?? (await searchedMatches(db, search, q));
    const saves = await savesRead;
    if (rows.every((row) => row !== undefined)) return rows.map((row) => toSummary(row, saves));
    // Articles deleted meanwhile: forgotten, and the best matches asked for again.
    ids.forEach((id, i) => {
      if (!rows[i]) search.forget(id);
    });
    return best();
  };
  const articles = await best();
  // What a query costs on the device, for the Performance API (the bench reads it).
  performance.clearMeasures(SEARCH_MEASURE);
  performance.measure(SEARCH_MEASURE, { start: started });
  return { articles };
}

interface Matches {
  ids: string[];
  rows: (ArticleRow | undefined)[];
}

/**
 * The index's best matches as it stands and their rows, read beside the check that nothing was written
 * since it last looked, all in one transaction (one step where a search then a read were two, and one
 * transaction where each read was its own); null if something was.
 */
function peekedMatches(db: LecternDb, search: ArticleSearch, q: string): Promise<Matches | null> {
  return db.transaction('r', [db.articles, db.bodies, ...stagedTables(db)], async () => {
    const peeked = search.peek(q, SEARCH_RESULT_LIMIT);
    if (!peeked) return null;
    const [fresh, rows] = await Promise.all([peeked.fresh, rowsOrStagedCards(db, peeked.ids, peeked.staged)]);
    return fresh ? { ids: peeked.ids, rows } : null;
  });
}

/** The best matches once the index has taken in what was written since it last looked, and their rows. */
async function searchedMatches(db: LecternDb, search: ArticleSearch, q: string): Promise<Matches> {
  const ids = await search.search(q, SEARCH_RESULT_LIMIT);
  return { ids, rows: await rowsOrStagedCards(db, ids) };
}

export async function articlesWithTag(db: LecternDb, tagKey: string): Promise<LocalArticleSummary[]> {
  const [rows, staged, saves] = await Promise.all([
    db.articles.where('tag_keys').equals(tagKey).toArray(),
    stagedCards(db),
    pendingSaves(db),
  ]);
  // A first sync's cards not moved into rows yet carry the tag too (the tag index knows only rows; a
  // card's row, written meanwhile, wins).
  if (staged) {
    const tagged = [...staged.values()].filter((card) => card.tag_keys.includes(tagKey));
    const written = await presentKeys(
      db.articles,
      tagged.map((card) => card.id),
    );
    rows.push(...tagged.filter((card) => !written.has(card.id)));
  }
  return rows.sort(compareNewestFirst).map((row) => toSummary(row, saves));
}

/** Some article is still being worked on by the server: its page fetched (an import, a Retry), or its images archived. */
export async function hasPendingFetches(db: LecternDb): Promise<boolean> {
  // A page still being fetched, or images still being archived (their new addresses come by the feed):
  // such rows carry the pending key (db/list-keys.ts).
  return (await db.articles.where(LIST_KEYS_INDEX).equals(PENDING_FETCH_KEY).count()) > 0;
}
