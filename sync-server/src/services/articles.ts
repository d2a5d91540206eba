// Articles: saving by URL, reading, flags, deletion, tags and search.
import {
  checkArticleUrl,
  computeArticleStats,
  ftsMatchExpression,
  newId,
  normalizeArticleUrl,
  tagNameKey,
  searchTerms,
  SEARCH_RANK_WINDOW,
  SEARCH_RESULT_LIMIT,
  SERVER_ERRORS,
  type Article,
  type ArticleListResponse,
  type ArticlesQuery,
  type ArticleSummary,
  type CreateArticleBody,
  type PageMetadata,
  type UpdateArticleBody,
} from '@lectern/shared-schema';
import type { ExtractedArticle } from '../extraction/index';
import type { Db } from '../db/connection';
import {
  findArticleSummaries,
  getArticle,
  SUMMARY_COLUMNS,
  type ArticleRow,
  toArticleSummary,
} from './article-rows';
import { nowIso } from './change-log';
import type { ServiceContext } from './context';
import { extractPageOfSave, requireGivenPageSize } from './given-page';
import { replayedCreate } from './replayed-create';
import { badRequest } from './errors';
import { afterArticleLeftLists } from './lists';
import { hasRemoteImages, queueImageArchive } from './image-archive';
import { ensureTag, getTag, linkTag, linkTags, unlinkTag } from './tags';

export function listArticles(db: Db, userId: string, query: ArticlesQuery): ArticleListResponse {
  const conditions = ['a.user_id = ?'];
  const params: unknown[] = [userId];
  const flag = (column: string, value: boolean | undefined) => {
    if (value === undefined) return;
    conditions.push(`a.${column} = ?`);
    params.push(value ? 1 : 0);
  };
  flag('is_archived', query.archived);
  flag('is_favorite', query.favorite);
  flag('is_read', query.is_read);
  if (query.tag_name !== undefined) {
    conditions.push(
      `a.id IN (SELECT at.article_id FROM article_tags at JOIN tags t ON t.id = at.tag_id
        WHERE t.user_id = a.user_id AND t.name_key = ?)`,
    );
    params.push(tagNameKey(query.tag_name));
  }
  const articles = findArticleSummaries(
    db,
    `WHERE ${conditions.join(' AND ')} ORDER BY a.created_at DESC, a.id DESC`,
    ...params,
  );
  const flags = db
    .statement('SELECT is_read, is_archived, is_favorite FROM articles WHERE user_id = ?')
    .all(userId) as { is_read: number; is_archived: number; is_favorite: number }[];
  const stats = computeArticleStats(
    flags.map((row) => ({
      is_read: row.is_read === 1,
      is_archived: row.is_archived === 1,
      is_favorite: row.is_favorite === 1,
    })),
  );
  return { articles, stats };
}

/**
 * A create that names an id seen before answers what that id is now: the article when it is the caller's,
 * 409 when the id is someone else's, 404 when it was deleted (a replay never brings it back).
 */
export function findReplayedArticle(db: Db, userId: string, id: string | undefined): Article | undefined {
  const owner = replayedCreate(
    db,
    userId,
    'article',
    id,
    (articleId) =>
      db.statement('SELECT user_id FROM articles WHERE id = ?').get(articleId) as
        { user_id: string } | undefined,
    SERVER_ERRORS.articleNotFound,
  );
  return owner && id ? getArticle(db, userId, id) : undefined;
}

export interface NewArticle extends ExtractedArticle {
  id: string;
  url: string;
  article_type: 'web' | 'screenshot';
  screenshot_url: string | null;
}

/** What a save answers: the article, and whether the library already held its address (200, not 201). */
export interface SavedArticle {
  article: Article;
  alreadySaved: boolean;
}

/** The caller's article at this address (normalised by shared-schema's one rule), if any. */
function findArticleIdByAddress(db: Db, userId: string, url: string): string | undefined {
  const row = db
    .statement('SELECT id FROM articles WHERE user_id = ? AND normalized_url = ? ORDER BY seq LIMIT 1')
    .get(userId, normalizeArticleUrl(url)) as { id: string } | undefined;
  return row?.id;
}

/**
 * Inside a transaction: saving an address the library holds brings that article back instead of making a
 * second copy. It goes back to the top of the list (created_at is the list's sort date, so it becomes the
 * moment of this save) and out of the archive; its highlights and tags stay, the new save's tags are added.
 */
function saveAgain(db: Db, userId: string, articleId: string, tagNames: readonly string[]): Article {
  const at = nowIso();
  db.statement('UPDATE articles SET is_archived = 0, created_at = ?, updated_at = ? WHERE id = ?').run(
    at,
    at,
    articleId,
  );
  linkTags(
    db,
    articleId,
    tagNames.map((name) => ensureTag(db, userId, name).id),
  );
  return getArticle(db, userId, articleId);
}

/**
 * The article already saved at one of these addresses, brought back to the top (see saveAgain); undefined
 * when none is. Runs its own transaction, so a save can answer before fetching anything.
 */
export function resaveKnownAddress(
  db: Db,
  userId: string,
  urls: readonly string[],
  tagNames: readonly string[],
): Article | undefined {
  return db.transaction(() => {
    for (const url of urls) {
      const existing = findArticleIdByAddress(db, userId, url);
      if (existing) return saveAgain(db, userId, existing, tagNames);
    }
    return undefined;
  });
}

/**
 * Inside one transaction: stores the article with its tags and records it in the change feed. An address
 * saved meanwhile (two devices at once) answers that article instead: the check and the insert share the
 * transaction, and SQLite has one writer, so two saves of one address never both insert.
 */
export function insertArticle(
  db: Db,
  userId: string,
  article: NewArticle,
  tagNames: readonly string[],
  sameAddresses: readonly string[] = [article.url],
): SavedArticle {
  return db.transaction(() => {
    const replayed = findReplayedArticle(db, userId, article.id);
    if (replayed) return { article: replayed, alreadySaved: false };
    const known = resaveKnownAddress(db, userId, sameAddresses, tagNames);
    if (known) return { article: known, alreadySaved: true };
    const at = nowIso();
    // A web page's images are archived after the save (services/image-archive.ts), never during it.
    const imagesPending = article.article_type === 'web' && hasRemoteImages(article);
    db.statement(
      `INSERT INTO articles (id, user_id, url, normalized_url, title, description, author, image_url, screenshot_url,
         article_type, content, content_text, excerpt, published_date, site_name, language, reading_time,
         images_pending, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      article.id,
      userId,
      article.url,
      normalizeArticleUrl(sameAddresses[0] ?? article.url),
      article.title,
      article.description,
      article.author,
      article.image_url,
      article.screenshot_url,
      article.article_type,
      article.content,
      article.content_text,
      article.excerpt,
      article.published_date,
      article.site_name,
      article.language,
      article.reading_time,
      imagesPending ? 1 : 0,
      at,
      at,
    );
    if (imagesPending) queueImageArchive(db, userId, article.id);
    linkTags(
      db,
      article.id,
      tagNames.map((name) => ensureTag(db, userId, name).id),
    );
    return { article: getArticle(db, userId, article.id), alreadySaved: false };
  });
}

function requireHttpUrl(url: string): string {
  const check = checkArticleUrl(url);
  if (!check.ok) throw badRequest(check.error);
  return check.url;
}

/**
 * POST /articles: fetch (or take the page sent as `html`) and extract outside any transaction, then store in one. A client id seen before
 * answers its article; an address already in the library answers that article (alreadySaved) without
 * fetching the page again. The address sent always counts; the one the page ended at (after redirects)
 * counts only when it isn't a site's root (see addressesOfSave).
 */
export async function createArticle(
  ctx: ServiceContext,
  userId: string,
  body: CreateArticleBody,
): Promise<SavedArticle> {
  if (body.html !== undefined) requireGivenPageSize(body.html);
  const replayed = findReplayedArticle(ctx.db, userId, body.id);
  if (replayed) return { article: replayed, alreadySaved: false };
  const url = requireHttpUrl(body.url);
  const tags = body.tags ?? [];
  const known = resaveKnownAddress(ctx.db, userId, [url], tags);
  if (known) return { article: known, alreadySaved: true };
  // A page sent with the save is extracted instead of fetched (see given-page.ts).
  const { page, extracted } =
    body.html === undefined
      ? await fetchAndExtract(ctx, userId, url)
      : await extractPageOfSave(ctx, userId, url, body.html);
  const saved = insertArticle(
    ctx.db,
    userId,
    { ...extracted, id: body.id ?? newId(), url: page.url, article_type: 'web', screenshot_url: null },
    tags,
    addressesOfSave(url, page.url),
  );
  if (saved.article.images_pending) ctx.jobs.wake(); // its images are fetched now, after the answer
  return saved;
}

/**
 * The addresses that make a save "the same" as an article already kept, the first one stored as the
 * article's address. The address sent always counts. The address the page ended at after redirects counts
 * too (a short link and the article it leads to are one page), except when it is a site's root (path "/"
 * or empty): different links that all send a visitor to a login wall, a consent page or the home page would
 * otherwise all answer "Already in your library" with the first of them. Then the address sent is kept.
 */
export function addressesOfSave(requested: string, final: string): string[] {
  if (final === requested || isSiteRoot(final)) return [requested];
  return [final, requested];
}

function isSiteRoot(address: string): boolean {
  try {
    const url = new URL(address);
    return url.pathname === '/' || url.pathname === '';
  } catch {
    return false;
  }
}

/** The network and CPU part of a save, in one of the user's save slots (429 when they have none left). */
function fetchAndExtract(ctx: ServiceContext, userId: string, url: string) {
  return ctx.limits.saves.run(userId, async () => {
    const page = await ctx.extraction.fetchArticle(
      url,
      { allowedOrigins: ctx.config.fetchAllowedOrigins },
      userId,
    );
    return { page, extracted: page.article };
  });
}

export async function fetchMetadata(
  ctx: ServiceContext,
  userId: string,
  rawUrl: string,
): Promise<PageMetadata> {
  const url = requireHttpUrl(rawUrl);
  const { page, extracted } = await fetchAndExtract(ctx, userId, url);
  return {
    url: page.url,
    title: extracted.title,
    description: extracted.description,
    author: extracted.author,
    image_url: extracted.image_url,
    site_name: extracted.site_name,
    published_date: extracted.published_date,
    language: extracted.language,
    reading_time: extracted.reading_time,
  };
}

const FLAG_COLUMNS = { isRead: 'is_read', isFavorite: 'is_favorite', isArchived: 'is_archived' } as const;

/** PUT /articles/{id}: only the fields sent change (last writer wins per field). */
export function updateArticle(db: Db, userId: string, articleId: string, body: UpdateArticleBody): Article {
  return db.transaction(() => {
    getArticle(db, userId, articleId);
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [field, column] of Object.entries(FLAG_COLUMNS) as [keyof typeof FLAG_COLUMNS, string][]) {
      const value = body[field];
      if (value === undefined) continue;
      sets.push(`${column} = ?`);
      params.push(value ? 1 : 0);
    }
    if (body.readingProgress !== undefined) {
      sets.push('reading_progress = ?');
      params.push(body.readingProgress);
    }
    if (sets.length > 0) {
      db.statement(`UPDATE articles SET ${sets.join(', ')}, updated_at = ? WHERE id = ?`).run(
        ...params,
        nowIso(),
        articleId,
      );
    }
    return getArticle(db, userId, articleId);
  });
}

/**
 * DELETE /articles/{id}: its highlights, tags and list places go with it (by cascade), and the lists it was
 * in close the gap it left.
 */
export function deleteArticle(db: Db, userId: string, articleId: string): { screenshotUrl: string | null } {
  return db.transaction(() => {
    const article = getArticle(db, userId, articleId);
    const ids = (sql: string) => (db.statement(sql).all(articleId) as { id: string }[]).map((row) => row.id);
    const listIds = ids('SELECT list_id AS id FROM list_articles WHERE article_id = ?');
    db.statement('DELETE FROM articles WHERE id = ?').run(articleId);
    afterArticleLeftLists(db, userId, listIds);
    return { screenshotUrl: article.screenshot_url };
  });
}

export function attachTag(db: Db, userId: string, articleId: string, tagId: string): Article {
  return db.transaction(() => {
    getArticle(db, userId, articleId);
    getTag(db, userId, tagId);
    linkTag(db, articleId, tagId);
    db.statement('UPDATE articles SET updated_at = ? WHERE id = ?').run(nowIso(), articleId);
    return getArticle(db, userId, articleId);
  });
}

export function detachTag(db: Db, userId: string, articleId: string, tagId: string): Article {
  return db.transaction(() => {
    getArticle(db, userId, articleId);
    getTag(db, userId, tagId);
    unlinkTag(db, articleId, tagId);
    db.statement('UPDATE articles SET updated_at = ? WHERE id = ?').run(nowIso(), articleId);
    return getArticle(db, userId, articleId);
  });
}

const SEARCHED_COLUMNS = '{title description author url content_text tags_text}';

/**
 * Full-text search, best match first; the last word matches as a prefix. The owner is part of the MATCH, so
 * the index walks only the caller's matches, newest first, and ranks at most SEARCH_RANK_WINDOW of them:
 * a word found in nearly every article still answers in milliseconds (ranked among the newest articles),
 * and every rarer word is ranked over all of its matches.
 */
export function searchArticles(db: Db, userId: string, query: string): ArticleSummary[] {
  const terms = ftsMatchExpression(query);
  const owner = searchTerms(userId).at(-1);
  if (!terms || !owner) return [];
  const match = `user_id : "${owner}" AND ${SEARCHED_COLUMNS} : (${terms})`;
  // Ranked rows are picked first and only the best SEARCH_RESULT_LIMIT are then read in full: the
  // summary's counts and tags cost a lookup each, which the ranked-out rows must not pay.
  const rows = db
    .statement(
      `SELECT ${SUMMARY_COLUMNS} FROM (
         SELECT a.seq, f.rank, a.created_at FROM (
           SELECT rowid, rank FROM articles_fts WHERE articles_fts MATCH ? ORDER BY rowid DESC LIMIT ?
         ) f JOIN articles a ON a.seq = f.rowid WHERE a.user_id = ? ORDER BY f.rank, a.created_at DESC LIMIT ?
       ) best JOIN articles a ON a.seq = best.seq ORDER BY best.rank, best.created_at DESC`,
    )
    .all(match, SEARCH_RANK_WINDOW, userId, SEARCH_RESULT_LIMIT) as ArticleRow[];
  return rows.map(toArticleSummary);
}
