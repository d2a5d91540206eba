// Full-text search on SQLite: FTS5 tables kept by triggers (migrations 0001, 0004, 0009), queried with
// MATCH and ranked by bm25. SQLite-only SQL, kept here so each engine's search sits in one place; the
// services call these and read the rows they name through the query layer.
import {
  ftsMatchExpression,
  SEARCH_RANK_WINDOW,
  SEARCH_RESULT_LIMIT,
  searchTerms,
  type ArticleSummary,
} from '@lectern/shared-schema';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { summaryColumns, toArticleSummary, type ArticleRow } from './article-rows';

const SEARCHED_COLUMNS = '{title description author url content_text tags_text}';

/** The MATCH expression for the caller's rows (the owner is an indexed column), or undefined for no words. */
function ownedMatch(userId: string, text: string, columns: string): string | undefined {
  const terms = ftsMatchExpression(text);
  const owner = searchTerms(userId).at(-1);
  if (!terms || !owner) return undefined;
  return `user_id : "${owner}" AND ${columns} : (${terms})`;
}

/**
 * The caller's articles matching `query`, best first; the last word matches as a prefix. The owner is part
 * of the MATCH, so the index walks only the caller's matches, newest first, and ranks at most
 * SEARCH_RANK_WINDOW of them: a word found in nearly every article still answers in milliseconds (ranked
 * among the newest articles), and every rarer word is ranked over all of its matches.
 */
export async function searchArticleSummariesSqlite(
  db: Queryable,
  userId: string,
  query: string,
): Promise<ArticleSummary[]> {
  const match = ownedMatch(userId, query, SEARCHED_COLUMNS);
  if (!match) return [];
  // Ranked rows are picked first and only the best SEARCH_RESULT_LIMIT are then read in full: the
  // summary's counts and tags cost a lookup each, which the ranked-out rows must not pay.
  const rows = await db.all<ArticleRow>(sql`SELECT ${summaryColumns(db)} FROM (
         SELECT a.seq, f.rank, a.created_at FROM (
           SELECT rowid, rank FROM articles_fts WHERE articles_fts MATCH ${match}
           ORDER BY rowid DESC LIMIT ${SEARCH_RANK_WINDOW}
         ) f JOIN articles a ON a.seq = f.rowid WHERE a.user_id = ${userId}
         ORDER BY f.rank, a.created_at DESC LIMIT ${SEARCH_RESULT_LIMIT}
       ) best JOIN articles a ON a.seq = best.seq ORDER BY best.rank, best.created_at DESC`);
  return rows.map(toArticleSummary);
}

/**
 * The ids of the caller's highlights matching `text`, best first. The owner is part of the MATCH (see
 * migration 0004), so only the caller's matches are walked and ranked, never every user's.
 */
export async function rankedHighlightIds(db: Queryable, userId: string, text: string): Promise<string[]> {
  const match = ownedMatch(userId, text, '{highlighted_text article_title}');
  if (!match) return [];
  const rows = await db.all<{ id: string }>(
    sql`SELECT h.id FROM (SELECT rowid, rank FROM highlights_fts WHERE highlights_fts MATCH ${match}) f
       JOIN highlights h ON h.seq = f.rowid
       WHERE h.user_id = ${userId} ORDER BY f.rank, h.created_at DESC LIMIT ${SEARCH_RESULT_LIMIT}`,
  );
  return rows.map((row) => row.id);
}
