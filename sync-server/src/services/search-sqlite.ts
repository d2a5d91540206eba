// Full-text search on SQLite: FTS5 tables kept by triggers (migrations 0001, 0004, 0009), queried with
// MATCH; articles ranked by the fields that hold the words, highlights by bm25. SQLite-only SQL, kept here
// so each engine's search sits in one place; the services call these and read the rows they name through
// the query layer.
import {
  ftsMatchExpression,
  ftsWord,
  holdsEveryTerm,
  isPrefixTerm,
  SEARCH_FIELD_WEIGHTS,
  SEARCH_RANK_WINDOW,
  SEARCH_RESULT_LIMIT,
  searchTerms,
} from '@lectern/shared-schema';
import type Database from 'better-sqlite3';
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { asColumn, asText, select } from '../db/typed-select';

const SEARCHED_COLUMNS = '{title description author url content_text tags_text}';

/** The article index's vocabulary table, declared on each connection (db/connection.ts). */
export const SEARCH_VOCABULARY = 'articles_vocab';
/** The longest prefix the article index keeps (migration 0009: prefix='2 3 4 5 6'). */
const LONGEST_INDEXED_PREFIX = 6;
/** Words a long last word may stand for; beyond this many, it stays a prefix. */
const MOST_WORDS_FOR_A_PREFIX = 64;

/** The owner and the words as a MATCH expression, or undefined for no words. */
function ownedTerms(userId: string, terms: string, columns: string): string | undefined {
  const owner = searchTerms(userId).at(-1);
  if (!owner) return undefined;
  return `user_id : "${owner}" AND ${columns} : (${terms})`;
}

/** The MATCH expression for the caller's rows (the owner is an indexed column), or undefined for no words. */
function ownedMatch(userId: string, text: string, columns: string): string | undefined {
  const terms = ftsMatchExpression(text);
  return terms ? ownedTerms(userId, terms, columns) : undefined;
}

/**
 * The query's words as a MATCH expression, as ftsMatchExpression makes it, except a last word longer than
 * the longest prefix the index keeps: that one becomes the words of the index it begins, OR'ed ("garden"*
 * → ("garden" OR "gardener" OR "gardens")). They match the same articles, but FTS5 answers a prefix it has
 * no index for by merging the whole list of articles of every such word before reading one (about 10 ms at
 * 50,000 articles for a word most of them hold), and an OR of words newest first, as far as it is read.
 * Letters and digits of ASCII only (the index folds the rest its own way), and at most
 * MOST_WORDS_FOR_A_PREFIX of them; otherwise the prefix as it was.
 */
async function expandedMatchTerms(db: Queryable, text: string): Promise<string | undefined> {
  const terms = searchTerms(text);
  const last = terms.at(-1);
  if (last === undefined) return undefined;
  const plain = ftsMatchExpression(text) ?? undefined;
  if (
    !isPrefixTerm(last, terms.length - 1, terms.length) ||
    last.length <= LONGEST_INDEXED_PREFIX ||
    !/^[a-z0-9]+$/.test(last)
  )
    return plain;
  const words = await select(
    db,
    { term: asText(sql`term`) },
    sql`FROM ${sql.raw(`temp.${SEARCH_VOCABULARY}`)} WHERE term >= ${last} AND term < ${`${last}\u{10FFFF}`}
      LIMIT ${MOST_WORDS_FOR_A_PREFIX + 1}`,
  );
  if (words.length === 0 || words.length > MOST_WORDS_FOR_A_PREFIX) return plain;
  // FTS5 reads words side by side as AND, but a group after a word only with the AND written out.
  const alternatives = `(${words.map(({ term }) => ftsWord(term)).join(' OR ')})`;
  return [...terms.slice(0, -1).map(ftsWord), alternatives].join(' AND ');
}

/** The fields a match is ranked by, as the article row names them, with their SEARCH_FIELD_WEIGHTS. */
const FIELD_WEIGHTS = [
  ['title', SEARCH_FIELD_WEIGHTS.title],
  ['tags_text', SEARCH_FIELD_WEIGHTS.tags],
  ['description', SEARCH_FIELD_WEIGHTS.description],
  ['author', SEARCH_FIELD_WEIGHTS.author],
  ['url', SEARCH_FIELD_WEIGHTS.url],
] as const;

/** The SQL function giving a matched article's rank from its fields (fieldsRank), on each connection. */
const FIELDS_RANK_FUNCTION = 'lectern_fields_rank';

/** The query whose words fieldsRank last looked for, and them: one query asks for it once a row. */
let rankedQuery = { text: '', terms: [] as string[] };

/**
 * A matched article's rank: the FIELD_WEIGHTS of the fields holding every word of `query`, the fields in
 * FIELD_WEIGHTS' order, as SQLite hands them to a function (text, or null for none).
 */
function fieldsRank(query: unknown, ...fields: unknown[]): number {
  const text = String(query);
  if (rankedQuery.text !== text) rankedQuery = { text, terms: searchTerms(text) };
  const { terms } = rankedQuery;
  let rank = 0;
  FIELD_WEIGHTS.forEach(([, weight], index) => {
    const field = fields[index];
    if (typeof field === 'string' && holdsEveryTerm(field, terms)) rank += weight;
  });
  return rank;
}

/** Declares the search's SQL function (fieldsRank) on a connection; each connection is opened with it. */
export function declareSearchFunctions(connection: Database.Database): void {
  connection.function(FIELDS_RANK_FUNCTION, { deterministic: true, varargs: true }, fieldsRank);
}

/**
 * The caller's articles matching `query` as (seq, rank, created_at), best first, at most
 * SEARCH_RESULT_LIMIT (undefined when the query has no word); the last word matches as a prefix. The owner
 * is part of the MATCH, so the index walks only the caller's matches, newest first, and ranks at most
 * SEARCH_RANK_WINDOW of them: a word found in nearly every article still answers in milliseconds (ranked
 * among the newest articles), and every rarer word is ranked over all of its matches.
 *
 * Ranked by the fields the words are found in (FIELD_WEIGHTS: each field holding every word adds its
 * weight), then newest first; not by bm25, which before ranking even one row counts the documents of each
 * word by reading its whole doclist, positions included: for a short prefix at 50,000 articles, most of
 * the index (search p95 20 to 25 ms there, against 8 ms this way). The fields are read from the window's
 * rows themselves (fieldsRank, the short ones stored before the text): asking the index which rows hold
 * the words in each field took five more MATCH queries, 1 to 2.5 ms each at 50,000 articles.
 * PostgreSQL ranks by the same fields' classes (db/postgres/search.ts), with its own measure within them.
 */
export async function rankedArticlesSqlite(
  db: Queryable,
  userId: string,
  query: string,
): Promise<SQL | undefined> {
  const terms = await expandedMatchTerms(db, query);
  if (terms === undefined) return undefined;
  const match = ownedTerms(userId, terms, SEARCHED_COLUMNS);
  if (!match) return undefined;
  const fields = sql.join(
    FIELD_WEIGHTS.map(([column]) => sql.raw(`a.${column}`)),
    sql`, `,
  );
  // The window's rows are looked up by seq (`+a.user_id`: not by walking the owner's index over the whole
  // library).
  return sql`WITH newest AS (
      SELECT rowid FROM articles_fts WHERE articles_fts MATCH ${match}
      ORDER BY rowid DESC LIMIT ${SEARCH_RANK_WINDOW}
    )
    SELECT a.seq, ${sql.raw(FIELDS_RANK_FUNCTION)}(${query}, ${fields}) AS rank, a.created_at
    FROM newest w JOIN articles a ON a.seq = w.rowid WHERE +a.user_id = ${userId}
    ORDER BY rank DESC, a.created_at DESC LIMIT ${SEARCH_RESULT_LIMIT}`;
}

/**
 * The ids of the caller's highlights matching `text`, best first. The owner is part of the MATCH (see
 * migration 0004), so only the caller's matches are walked and ranked, never every user's.
 */
export async function rankedHighlightIds(db: Queryable, userId: string, text: string): Promise<string[]> {
  const match = ownedMatch(userId, text, '{highlighted_text article_title}');
  if (!match) return [];
  const rows = await select(
    db,
    { id: asColumn(db.tables.highlights.id, sql`h.id`) },
    sql`FROM (SELECT rowid, rank FROM highlights_fts WHERE highlights_fts MATCH ${match}) f
       JOIN highlights h ON h.seq = f.rowid
       WHERE h.user_id = ${userId} ORDER BY f.rank, h.created_at DESC LIMIT ${SEARCH_RESULT_LIMIT}`,
  );
  return rows.map((row) => row.id);
}
