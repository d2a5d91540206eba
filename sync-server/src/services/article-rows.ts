// Reading articles out of the database in the API's shape: tags as names and highlights_count included.
import { sql, type SQL } from 'drizzle-orm';
import { SERVER_ERRORS, type Article, type ArticleSummary } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { flag, joinedText, storedJson, type StoredJson } from '../db/sql-functions';
import type { ServiceContext } from './context';
import { notFound, unauthorized } from './errors';
import { sessionIsActive, type TokenClaims } from './sessions';

const COUNTED_HIGHLIGHTS = `(SELECT count(*) FROM highlights h WHERE h.article_id = a.id) AS highlights_count`;
const BASE_COLUMNS = `a.id, a.user_id, a.url, a.title, a.description, a.author, a.image_url, a.screenshot_url,
  a.article_type, a.excerpt, a.published_date, a.site_name, a.language, a.reading_time, a.reading_progress,
  a.is_read, a.is_favorite, a.is_archived, a.created_at, a.updated_at`;

/**
 * The summary's columns on each engine, side by side. Tags come as a JSON array of names ordered by their
 * key, then name, byte for byte on both (COLLATE "C" on PostgreSQL, SQLite's BINARY).
 *
 * On SQLite fetch_state, fetch_error and images_pending sit after the body in the row (later migrations added
 * them), so they are read from the partial indexes of the few articles that have them: a list of 2,000 then
 * never walks a body. PostgreSQL reads a row's columns without walking the ones before (a long body is
 * stored apart, TOAST), so it reads them from the row.
 */
const SUMMARY_COLUMNS_OF = {
  sqlite: `${BASE_COLUMNS},
  (SELECT f.fetch_state FROM articles f INDEXED BY articles_fetch_state_idx
     WHERE f.seq = a.seq AND f.fetch_state IS NOT NULL) AS fetch_state,
  (SELECT f.fetch_error FROM articles f INDEXED BY articles_fetch_state_idx
     WHERE f.seq = a.seq AND f.fetch_state IS NOT NULL) AS fetch_error,
  EXISTS (SELECT 1 FROM articles f INDEXED BY articles_images_pending_idx
     WHERE f.seq = a.seq AND f.images_pending = 1) AS images_pending,
  ${COUNTED_HIGHLIGHTS},
  (SELECT json_group_array(t.name ORDER BY t.name_key, t.name)
     FROM article_tags at JOIN tags t ON t.id = at.tag_id WHERE at.article_id = a.id) AS tags_json`,
  postgres: `${BASE_COLUMNS}, a.fetch_state, a.fetch_error, a.images_pending,
  ${COUNTED_HIGHLIGHTS},
  (SELECT coalesce(json_agg(t.name ORDER BY t.name_key COLLATE "C", t.name COLLATE "C"), '[]')::text
     FROM article_tags at JOIN tags t ON t.id = at.tag_id WHERE at.article_id = a.id) AS tags_json`,
} as const;

/** The columns toArticleSummary reads, over `articles a`, in the engine's SQL. */
export function summaryColumns(db: Queryable): SQL {
  return sql.raw(SUMMARY_COLUMNS_OF[db.dialect]);
}

export interface ArticleRow {
  id: string;
  user_id: string;
  url: string;
  title: string;
  description: string | null;
  author: string | null;
  image_url: string | null;
  screenshot_url: string | null;
  article_type: 'web' | 'screenshot';
  excerpt: string | null;
  published_date: string | null;
  site_name: string | null;
  language: string | null;
  reading_time: number | null;
  reading_progress: number;
  /** 0/1 on SQLite, booleans on PostgreSQL (read with flag()). */
  is_read: number | boolean;
  is_favorite: number | boolean;
  is_archived: number | boolean;
  created_at: string;
  updated_at: string;
  fetch_state: 'pending' | 'failed' | null;
  fetch_error: string | null;
  images_pending: number | boolean;
  highlights_count: number;
  tags_json: string;
  content?: string | null;
}

export function toArticleSummary(row: ArticleRow): ArticleSummary {
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
    is_read: flag(row.is_read),
    is_favorite: flag(row.is_favorite),
    is_archived: flag(row.is_archived),
    highlights_count: row.highlights_count,
    tags: JSON.parse(row.tags_json) as string[],
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.fetch_state ? { fetch_state: row.fetch_state } : {}),
    ...(row.fetch_error ? { fetch_error: row.fetch_error } : {}),
    images_pending: flag(row.images_pending),
  };
}

export function toArticle(row: ArticleRow): Article {
  return { ...toArticleSummary(row), content: row.content ?? null };
}

/** The caller's article, or undefined when it doesn't exist or belongs to someone else. */
export async function findArticle(
  db: Queryable,
  userId: string,
  articleId: string,
): Promise<Article | undefined> {
  const row = await db.get<ArticleRow>(
    sql`SELECT ${summaryColumns(db)}, a.content FROM articles a WHERE a.id = ${articleId} AND a.user_id = ${userId}`,
  );
  return row && toArticle(row);
}

/** The caller's article; 404 when it doesn't exist or is someone else's (never 403: existence stays hidden). */
export async function getArticle(db: Queryable, userId: string, articleId: string): Promise<Article> {
  const article = await findArticle(db, userId, articleId);
  if (!article) throw notFound(SERVER_ERRORS.articleNotFound);
  return article;
}

/** The summaries of the articles `rest` (joins, WHERE, ORDER BY over `articles a`) picks. */
export async function findArticleSummaries(db: Queryable, rest: SQL): Promise<ArticleSummary[]> {
  const rows = await db.all<ArticleRow>(sql`SELECT ${summaryColumns(db)} FROM articles a ${rest}`);
  return rows.map(toArticleSummary);
}

/**
 * GET /articles/{id}'s whole answer, `{"article":…}`, built by the database from the article's latest
 * change in the feed: every transaction that changes an article records it there before it commits
 * (db/change-set.ts), and the feed keeps each entity's latest change, so that row is the article's current
 * state, already serialized. The most read route skips its joins, its serialization, and even decoding the
 * body into a JavaScript string and encoding it again this way (on SQLite). The same query asks whether the
 * caller's session is still active, so the route makes one round trip to the database, not two. The answer
 * is undefined when there is none (the caller falls back to reading the tables, which also answers 404).
 */
async function currentArticleAnswer(
  db: Queryable,
  claims: TokenClaims,
  articleId: string,
): Promise<{ active: boolean; answer: StoredJson | undefined }> {
  const latest = await db.get<{ active: number | boolean; answer: StoredJson | null }>(
    sql`SELECT ${sessionIsActive(claims)} AS active,
       (SELECT ${storedJson(db, sql`'{"article":' || row || '}'`)} FROM change_log
         WHERE user_id = ${claims.sub} AND entity = 'article' AND entity_id = ${articleId}
         ORDER BY seq DESC LIMIT 1) AS answer`,
  );
  // A delete's row is NULL, and so is the answer built from it: the tables then answer 404.
  return { active: flag(latest?.active), answer: latest?.answer ?? undefined };
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
  const differs = db.dialect === 'sqlite' ? sql`IS NOT` : sql`IS DISTINCT FROM`;
  await db.run(sql`UPDATE articles SET tags_text = names.text
       FROM (SELECT coalesce((SELECT ${joinedText(db, sql`t.name`, ' ')} FROM article_tags at
         JOIN tags t ON t.id = at.tag_id WHERE at.article_id = ${articleId}), '') AS text) AS names
       WHERE articles.id = ${articleId} AND articles.tags_text ${differs} names.text`);
}
