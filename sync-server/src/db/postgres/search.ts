// Full-text search on PostgreSQL, the counterpart of the FTS5 queries in services/search-sqlite.ts, used
// by services/articles.ts (searchArticleCards) and services/highlights.ts (searchHighlights): the same
// words (shared-schema's searchTerms), every one required, the last one typed (two letters or more) as a
// prefix, only the caller's rows, best match first, at most SEARCH_RESULT_LIMIT. The vectors and their
// weights are kept by migrations/0001_search_vectors.sql; for articles, 0003_search_prefixes.sql splits
// them into what a search matches on (every word, and the beginnings of 2 to 6 letters of each) and what
// it ranks by, 0008_search_window_sizes.sql finds the newest matches it ranks, 0009_search_words.sql
// keeps the words a long last word stands for, and 0011_article_search_vectors.sql moves what a search
// matches on out of the articles' rows into a narrow table beside them.
import { isPrefixTerm, SEARCH_RANK_WINDOW, SEARCH_RESULT_LIMIT, searchTerms } from '@lectern/shared-schema';
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../database';
import { asText, select } from '../typed-select';

/**
 * ts_rank_cd's weights for D, C, B, A. Articles: the text 0.1; author and url 0.3; tags and description
 * 0.5; title 1.0 (SEARCH_FIELD_WEIGHTS 1; 2 and 3; 5 and 4; 10, folded into PostgreSQL's four classes).
 */
const ARTICLE_WEIGHTS = sql.raw(`'{0.1, 0.3, 0.5, 1.0}'::real[]`);
/** Highlights: the article's title B (FTS5's 1), the highlighted text A (FTS5's 3). */
const HIGHLIGHT_WEIGHTS = sql.raw(`'{0.1, 0.2, 0.333, 1.0}'::real[]`);

/**
 * The tsquery of a search box query, or null when it has no word. Each word goes through the same
 * lectern_search_words as the indexed text (lowercased, diacritics removed, punctuation to spaces), so a
 * word and its indexed form always agree; each is a parameter, so no input is read as query syntax.
 */
export function searchQuery(query: string): SQL | null {
  return everyWord(query, (term) => sql`to_tsquery('simple', ${wordQuery(term)} || ':*')`);
}

/**
 * The tsquery an article must match, or null when the query has no word: searchQuery's, except for the word
 * being typed (lectern_search_prefix): up to 6 letters, its beginning's own lexeme in
 * article_search_vectors.search_vector; longer, the words it begins OR'ed (search_words, at most 64).
 * Either way a few entries of the GIN index instead of every word that begins so.
 */
export function articleMatchQuery(query: string): SQL | null {
  return everyWord(query, (term) => sql`lectern_search_prefix(${term})`);
}

/** One word as to_tsquery's text: the word as the index cuts it, quoted. */
function wordQuery(term: string): SQL {
  return sql`quote_literal(btrim(lectern_search_words(${term})))`;
}

/** Every word of the query required, the one being typed matched by `typed`'s tsquery; null for none. */
function everyWord(query: string, typed: (term: string) => SQL): SQL | null {
  const terms = searchTerms(query);
  if (terms.length === 0) return null;
  const words = terms.map((term, index) =>
    isPrefixTerm(term, index, terms.length) ? typed(term) : sql`to_tsquery('simple', ${wordQuery(term)})`,
  );
  return sql`(${sql.join(words, sql` && `)})`;
}

/**
 * The span of seq a search looks among first, back from the caller's newest article: a word in half the
 * articles finds its newest SEARCH_RANK_WINDOW matches there (for a reader whose saves are not interleaved
 * with others'); a rarer one's next window is sized by how many this one held (migrations/0008).
 */
const FIRST_WINDOW = 1000;

/**
 * The caller's best-matching articles as (seq, rank, created_at), best first (ties: newest first), at most
 * SEARCH_RESULT_LIMIT: as on SQLite, the ranked rows are picked first and only they are then read in full,
 * by joining on seq and ordering by rank DESC, created_at DESC again.
 *
 * The newest SEARCH_RANK_WINDOW matches are ranked, by their search_rank_vector (a few hundred bytes each),
 * each read by its primary key: joined instead, the planner hashed the reader's whole library for a few
 * hundred matches at a few thousand articles (4 of the search's 7 ms at 5,000).
 * lectern_search_newest (migrations/0008, 0011) finds them through the GIN index (user_id, seq,
 * search_vector) of article_search_vectors among the caller's articles of the last FIRST_WINDOW seq, then
 * of a window sized by the first's rate of matches, or among all when reading every match costs less, so
 * that a word reads about as many rows as it keeps rather than every match; those rows are about 70 to a
 * page (the articles' are three), so the newest 500 matches of a common word are on a dozen pages.
 */
export function rankedArticles(userId: string, query: string): SQL | null {
  const match = articleMatchQuery(query);
  const words = searchQuery(query);
  if (!match || !words) return null;
  return sql`WITH q AS MATERIALIZED (SELECT ${match} AS match, ${words} AS words)
    SELECT newest.seq, ts_rank_cd(${ARTICLE_WEIGHTS},
        (SELECT a.search_rank_vector FROM articles a WHERE a.seq = newest.seq), q.words) AS rank,
      newest.created_at
    FROM q, lectern_search_newest(${userId}, q.match,
      (SELECT max(seq) FROM articles WHERE user_id = ${userId}), ${FIRST_WINDOW}, ${SEARCH_RANK_WINDOW}) newest
    ORDER BY rank DESC, newest.created_at DESC
    LIMIT ${SEARCH_RESULT_LIMIT}`;
}

/** The caller's best-matching highlights as (seq, rank, created_at), best first, as rankedArticles. */
export function rankedHighlights(userId: string, query: string): SQL | null {
  const words = searchQuery(query);
  if (!words) return null;
  return sql`WITH q AS (SELECT ${words} AS q)
    SELECT h.seq, ts_rank_cd(${HIGHLIGHT_WEIGHTS}, h.search_vector, q.q) AS rank, h.created_at FROM highlights h, q
    WHERE h.user_id = ${userId} AND h.search_vector @@ q.q
    ORDER BY rank DESC, h.created_at DESC
    LIMIT ${SEARCH_RESULT_LIMIT}`;
}

/** The ids of the caller's articles a search finds, best first. */
export function searchArticleIds(db: Queryable, userId: string, query: string): Promise<string[]> {
  return idsInRankOrder(db, 'articles', rankedArticles(userId, query));
}

/** The ids of the caller's highlights a search finds, best first. */
export function searchHighlightIds(db: Queryable, userId: string, query: string): Promise<string[]> {
  return idsInRankOrder(db, 'highlights', rankedHighlights(userId, query));
}

/** The ids of `ranked`'s rows of `table` (joined on seq), best first; none when the query had no word. */
async function idsInRankOrder(
  db: Queryable,
  table: 'articles' | 'highlights',
  ranked: SQL | null,
): Promise<string[]> {
  if (!ranked) return [];
  const rows = await select(
    db,
    { id: asText(sql`t.id`) },
    sql`FROM (${ranked}) best JOIN ${sql.identifier(table)} t ON t.seq = best.seq
      ORDER BY best.rank DESC, best.created_at DESC`,
  );
  return rows.map((row) => row.id);
}
