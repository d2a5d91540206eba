// Reading articles out of the database in the API's shape: tags as names and highlights_count included.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { nowIso, SERVER_ERRORS, type Article, type ArticleSummary } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { aliasedTable, type Column } from 'drizzle-orm';
import type { Dialect, Tables } from '../db/database';
import { asStoredJson, joinedText, storedJson, type StoredJson } from '../db/sql-functions';
import {
  asBoolean,
  asColumn,
  asNumber,
  asParsed,
  orNull,
  preparedSelect,
  preparedSelectFirst,
  select,
  type RowOf,
} from '../db/typed-select';
import type { ServiceContext } from './context';
import { notFound, unauthorized } from './errors';
import { batchedReads } from '../db/read-batches';
import { perEngine } from '../db/per-engine';
import { preparedWrite } from '../db/prepared-write';
import { SESSION_IS_ACTIVE, sessionIsActive, sessionValues, type TokenClaims } from './sessions';

/**
 * The summary's values, read over `articles a`, each typed and decoded by the schema (db/typed-select.ts).
 * Tags come as a JSON array of names ordered by their key, then name, byte for byte on both engines
 * (COLLATE "C" on PostgreSQL, SQLite's BINARY).
 *
 * On SQLite fetch_state, fetch_error and images_pending sit after the body in the row (later migrations added
 * them), so they are read from the partial indexes of the few articles that have them: a list of 2,000 then
 * never walks a body. PostgreSQL reads a row's columns without walking the ones before (a long body is
 * stored apart, TOAST), so it reads them from the row.
 */
function summarySelectionOf(tables: Tables, dialect: Dialect) {
  const a = aliasedTable(tables.articles, 'a');
  const sqlite = dialect === 'sqlite';
  return {
    id: a.id,
    url: a.url,
    title: a.title,
    description: a.description,
    author: a.author,
    image_url: a.imageUrl,
    screenshot_url: a.screenshotUrl,
    article_type: a.articleType,
    excerpt: a.excerpt,
    published_date: a.publishedDate,
    site_name: a.siteName,
    language: a.language,
    reading_time: a.readingTime,
    reading_progress: a.readingProgress,
    is_read: a.isRead,
    is_favorite: a.isFavorite,
    is_archived: a.isArchived,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    fetch_state: sqlite ? fromFetchStateIndex(a.fetchState, sql`f.fetch_state`) : a.fetchState,
    fetch_error: sqlite ? fromFetchStateIndex(a.fetchError, sql`f.fetch_error`) : a.fetchError,
    images_pending: sqlite
      ? asBoolean(
          sql`EXISTS (SELECT 1 FROM articles f INDEXED BY articles_images_pending_idx
             WHERE f.seq = a.seq AND f.images_pending = 1)`,
        )
      : a.imagesPending,
    highlights_count: asNumber(sql`(SELECT count(*) FROM highlights h WHERE h.article_id = a.id)`),
    tags: asParsed(
      sqlite
        ? sql`(SELECT json_group_array(t.name ORDER BY t.name_key, t.name)
             FROM article_tags at JOIN tags t ON t.id = at.tag_id WHERE at.article_id = a.id)`
        : sql`(SELECT coalesce(json_agg(t.name ORDER BY t.name_key COLLATE "C", t.name COLLATE "C"), '[]')::text
             FROM article_tags at JOIN tags t ON t.id = at.tag_id WHERE at.article_id = a.id)`,
      parseNames,
    ),
  };
}

/** A column of the few articles the server is still fetching, read from their partial index (SQLite). */
function fromFetchStateIndex<C extends Column>(column: C, value: SQL) {
  return asColumn(
    column,
    sql`(SELECT ${value} FROM articles f INDEXED BY articles_fetch_state_idx
       WHERE f.seq = a.seq AND f.fetch_state IS NOT NULL)`,
  );
}

type SummarySelection = ReturnType<typeof summarySelectionOf>;

/** The summary's values over `articles a`, for the engine `db` runs on (built once per schema). */
export const summarySelection: (db: Queryable) => SummarySelection = perEngine((db) =>
  summarySelectionOf(db.tables, db.dialect),
);

/** The article's tag names, as the database built them: a JSON array of strings. */
function parseNames(json: string): string[] {
  const names: unknown = JSON.parse(json);
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string'))
    throw new Error('The tags of an article did not read as a list of names.');
  return names;
}

/** An article's summary as read by summarySelection. */
export type ArticleSummaryRow = RowOf<SummarySelection>;

export function toArticleSummary(row: ArticleSummaryRow): ArticleSummary {
  return {
    id: row.id,
    url: row.url,
    title: row.title,
    description: row.description,
    author: row.author,
    image_url: row.image_url,
    screenshot_url: row.screenshot_url,
    article_type: row.article_type,
    excerpt: row.excerpt,
    published_date: row.published_date,
    site_name: row.site_name,
    language: row.language,
    reading_time: row.reading_time,
    reading_progress: row.reading_progress,
    is_read: row.is_read,
    is_favorite: row.is_favorite,
    is_archived: row.is_archived,
    highlights_count: row.highlights_count,
    tags: row.tags,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.fetch_state ? { fetch_state: row.fetch_state } : {}),
    ...(row.fetch_error ? { fetch_error: row.fetch_error } : {}),
    images_pending: row.images_pending,
  };
}

/** The caller's article, or undefined when it doesn't exist or belongs to someone else. */
export async function findArticle(
  db: Queryable,
  userId: string,
  articleId: string,
): Promise<Article | undefined> {
  const row = await readArticle(db, { article: articleId, user: userId });
  return row && { ...toArticleSummary(row), content: row.content };
}

/**
 * findArticle's query, built once per engine: every write to an article reads it back for the change feed
 * (services/feed-rows.ts), and building it anew was a third of the time an import took to write a row.
 */
const readArticle = preparedSelectFirst((db) => ({
  selection: { ...summarySelection(db), content: asColumn(db.tables.articles.content, sql`a.content`) },
  rest: sql`FROM articles a WHERE a.id = ${sql.placeholder('article')} AND a.user_id = ${sql.placeholder('user')}`,
}));

/** The caller's article; 404 when it doesn't exist or is someone else's (never 403: existence stays hidden). */
export async function getArticle(db: Queryable, userId: string, articleId: string): Promise<Article> {
  const article = await findArticle(db, userId, articleId);
  if (!article) throw notFound(SERVER_ERRORS.articleNotFound);
  return article;
}

/** The summaries of the articles `rest` (joins, WHERE, ORDER BY over `articles a`) picks. */
export async function findArticleSummaries(db: Queryable, rest: SQL): Promise<ArticleSummary[]> {
  const rows = await select(db, summarySelection(db), sql`FROM articles a ${rest}`);
  return rows.map(toArticleSummary);
}

/**
 * The JSON answer of the caller's article `article` built by the database from the article's latest change
 * in the feed: every transaction that changes an article records it there before it commits
 * (db/change-set.ts), and the feed keeps each entity's latest change, so that row is the article's current
 * state, already serialized. NULL when there is none, or when the latest change is a delete.
 */
function latestArticleAnswer(db: Queryable, userId: SQLWrapper, articleId: SQLWrapper) {
  return orNull(
    asStoredJson(
      sql`(SELECT ${storedJson(db, sql`'{"article":' || row || '}'`).sql} FROM change_log
         WHERE user_id = ${userId} AND entity = 'article' AND entity_id = ${articleId}
         ORDER BY seq DESC LIMIT 1)`,
    ),
  );
}

/**
 * GET /articles/{id}'s whole answer, `{"article":…}` (latestArticleAnswer): the most read route skips its
 * joins, its serialization, and even decoding the body into a JavaScript string and encoding it again this
 * way (on SQLite). The same query asks whether the caller's session is still active, so the route makes one
 * round trip to the database, not two. The answer is undefined when there is none (the caller falls back to
 * reading the tables, which also answers 404).
 */
const readCurrentAnswer = preparedSelectFirst((db) => ({
  selection: {
    active: asBoolean(SESSION_IS_ACTIVE),
    answer: latestArticleAnswer(db, sql.placeholder('sub'), sql.placeholder('article')),
  },
  rest: sql``,
}));

/**
 * readCurrentAnswer for many requests at once (PostgreSQL): one row per (session, user, article) asked, in
 * the order asked.
 */
const readCurrentAnswers = preparedSelect((db) => ({
  selection: {
    active: asBoolean(sessionIsActive(sql`r.sid`, sql`r.sub`, sql.placeholder('now'))),
    answer: latestArticleAnswer(db, sql`r.sub`, sql`r.article`),
  },
  rest: sql`FROM unnest(CAST(${sql.placeholder('sids')} AS text[]), CAST(${sql.placeholder('subs')} AS text[]),
      CAST(${sql.placeholder('articles')} AS text[])) WITH ORDINALITY AS r(sid, sub, article, n)
    ORDER BY r.n`,
}));

interface AnswerAsked {
  claims: TokenClaims;
  articleId: string;
}

type CurrentAnswer = Awaited<ReturnType<typeof readCurrentAnswers>>[number];

/**
 * On PostgreSQL the requests for articles waiting together are asked in one query (db/read-batches.ts):
 * each query costs the node a write that wakes the database's backend. On SQLite a query is a call in this
 * process, and each goes alone.
 */
const answerBatches = new WeakMap<Queryable, (asked: AnswerAsked) => Promise<CurrentAnswer>>();

function batchedAnswers(db: Queryable) {
  let ask = answerBatches.get(db);
  if (!ask) {
    ask = batchedReads((asked: readonly AnswerAsked[]) =>
      readCurrentAnswers(db, {
        sids: asked.map(({ claims }) => claims.sid),
        subs: asked.map(({ claims }) => claims.sub),
        articles: asked.map(({ articleId }) => articleId),
        now: nowIso(),
      }),
    );
    answerBatches.set(db, ask);
  }
  return ask;
}

async function currentArticleAnswer(
  db: Queryable,
  claims: TokenClaims,
  articleId: string,
): Promise<{ active: boolean; answer: StoredJson | undefined }> {
  const latest =
    db.dialect === 'postgres'
      ? await batchedAnswers(db)({ claims, articleId })
      : await readCurrentAnswer(db, { ...sessionValues(claims), article: articleId });
  // A delete's row is NULL, and so is the answer built from it: the tables then answer 404.
  return { active: latest?.active === true, answer: latest?.answer ?? undefined };
}

/**
 * GET /articles/{id}'s answer as JSON: the caller's article from its latest change in the feed when there
 * is one, else read from the tables (404 when it doesn't exist or is someone else's). The route leaves the
 * session check to this (plugins/auth.ts, `sessionCheckedByRoute`): 401 when the session is no longer
 * active, before anything of the article is answered.
 */
export async function readArticleAnswer(
  ctx: ServiceContext,
  claims: TokenClaims,
  articleId: string,
): Promise<StoredJson> {
  const { active, answer } = await currentArticleAnswer(ctx.db, claims, articleId);
  if (!active) throw unauthorized(SERVER_ERRORS.unauthorized);
  return answer ?? `{"article":${JSON.stringify(await getArticle(ctx.db, claims.sub, articleId))}}`;
}

/**
 * Keeps the article's tag names in its full-text row in step with its tags. Written only when they differ:
 * each write of tags_text makes the search index drop and re-add the article's whole body.
 */
export async function refreshArticleTagsText(db: Queryable, articleId: string): Promise<void> {
  await writeTagsText(db, { article: articleId });
}

/** refreshArticleTagsText's write, built once per engine (each row of an import runs it). */
const writeTagsText = preparedWrite((db) => {
  const differs = db.dialect === 'sqlite' ? sql`IS NOT` : sql`IS DISTINCT FROM`;
  const articleId = sql.placeholder('article');
  return sql`UPDATE articles SET tags_text = names.text
       FROM (SELECT coalesce((SELECT ${joinedText(db, sql`t.name`, ' ')} FROM article_tags at
         JOIN tags t ON t.id = at.tag_id WHERE at.article_id = ${articleId}), '') AS text) AS names
       WHERE articles.id = ${articleId} AND articles.tags_text ${differs} names.text`;
});
