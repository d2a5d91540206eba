// Articles: saving by URL, reading, flags, deletion, tags and search.
import {
  checkArticleUrl,
  computeArticleStats,
  newId,
  normalizeArticleUrl,
  tagNameKey,
  SERVER_ERRORS,
  type Article,
  type ArticleListResponse,
  type ArticlesQuery,
  type CreateArticleBody,
  type PageMetadata,
  type UpdateArticleBody,
} from '@lectern/shared-schema';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { ExtractedArticle } from '../extraction/index';
import type { Queryable } from '../db/connection';
import { articleCardsInOrder, cardsAnswer } from './article-cards';
import { getArticle } from './article-rows';
import { nowIso } from './change-log';
import type { ServiceContext } from './context';
import { requireGivenPageSize } from './given-page';
import { replayedCreate } from './replayed-create';
import { saveThroughJob } from './save-jobs';
import { rankedArticlesSqlite } from './search-sqlite';
import { rankedArticles } from '../db/postgres/search';
import { lockForUser } from '../db/sql-functions';
import { select } from '../db/typed-select';
import { badRequest } from './errors';
import { foundInSession, type TokenClaims } from './sessions';
import { afterArticleLeftLists } from './lists';
import { hasRemoteImages, queueImageArchive } from './image-archive';
import { ensureTags, getTag, linkTag, linkTags, unlinkTag } from './tags';

/**
 * GET /articles's whole answer as JSON bytes, `{"articles":[…],"stats":{…}}`: the caller's articles picked
 * by the query's filters, newest first, each its stored card (article-cards.ts) spliced in as it is. The
 * whole list of a big library is the server's second largest answer after the feed: read as columns,
 * decoded, mapped and serialized, 2,000 summaries cost about 110 ms; as stored cards, a read of one value
 * each.
 */
export async function readArticleListAnswer(
  db: Queryable,
  userId: string,
  query: ArticlesQuery,
): Promise<Buffer> {
  const conditions = [sql`a.user_id = ${userId}`];
  const flag = (column: string, value: boolean | undefined) => {
    if (value !== undefined) conditions.push(sql`${sql.raw(`a.${column}`)} = ${value}`);
  };
  flag('is_archived', query.archived);
  flag('is_favorite', query.favorite);
  flag('is_read', query.is_read);
  if (query.tag_name !== undefined) {
    conditions.push(
      sql`a.id IN (SELECT at.article_id FROM article_tags at JOIN tags t ON t.id = at.tag_id
        WHERE t.user_id = a.user_id AND t.name_key = ${tagNameKey(query.tag_name)})`,
    );
  }
  const cards = await articleCardsInOrder(
    db,
    userId,
    sql`WHERE ${sql.join(conditions, sql` AND `)} ORDER BY a.created_at DESC, a.id DESC`,
  );
  // Every article's three flags: the sql template and a plain loop, since the builder's row mapping costs
  // a visible share of the list's time at thousands of rows.
  const { articles: table } = db.tables;
  const flags = await select(
    db,
    { is_read: table.isRead, is_archived: table.isArchived, is_favorite: table.isFavorite },
    sql`FROM ${table} WHERE ${table.userId} = ${userId}`,
  );
  const stats: ArticleListResponse['stats'] = computeArticleStats(flags);
  return cardsAnswer('articles', cards, `,"stats":${JSON.stringify(stats)}}`);
}

/**
 * A create that names an id seen before answers what that id is now: the article when it is the caller's,
 * 409 when the id is someone else's, 404 when it was deleted (a replay never brings it back).
 */
export async function findReplayedArticle(
  db: Queryable,
  userId: string,
  id: string | undefined,
): Promise<Article | undefined> {
  const owner = await replayedCreate(
    db,
    userId,
    'article',
    id,
    async (articleId) => {
      const { articles } = db.tables;
      const [owner] = await db.orm
        .select({ user_id: articles.userId })
        .from(articles)
        .where(eq(articles.id, articleId));
      return owner;
    },
    SERVER_ERRORS.articleNotFound,
  );
  return owner && id ? await getArticle(db, userId, id) : undefined;
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
async function findArticleIdByAddress(
  db: Queryable,
  userId: string,
  url: string,
): Promise<string | undefined> {
  const { articles } = db.tables;
  const [row] = await db.orm
    .select({ id: articles.id })
    .from(articles)
    .where(and(eq(articles.userId, userId), eq(articles.normalizedUrl, normalizeArticleUrl(url))))
    .orderBy(articles.seq)
    .limit(1);
  return row?.id;
}

/**
 * Inside a transaction: saving an address the library holds brings that article back instead of making a
 * second copy. It goes back to the top of the list (created_at is the list's sort date, so it becomes the
 * moment of this save) and out of the archive; its highlights and tags stay, the new save's tags are added.
 */
async function saveAgain(
  db: Queryable,
  userId: string,
  articleId: string,
  tagNames: readonly string[],
): Promise<Article> {
  const at = nowIso();
  const { articles } = db.tables;
  await db.orm
    .update(articles)
    .set({ isArchived: false, createdAt: at, updatedAt: at })
    .where(eq(articles.id, articleId));
  await linkTags(db, articleId, await ensureTags(db, userId, tagNames));
  return await getArticle(db, userId, articleId);
}

/**
 * The article already saved at one of these addresses, brought back to the top (see saveAgain); undefined
 * when none is. Runs its own transaction, so a save can answer before fetching anything.
 */
export async function resaveKnownAddress(
  db: Queryable,
  userId: string,
  urls: readonly string[],
  tagNames: readonly string[],
): Promise<Article | undefined> {
  return await db.transaction(async (tx) => {
    for (const url of urls) {
      const existing = await findArticleIdByAddress(tx, userId, url);
      if (existing) return await saveAgain(tx, userId, existing, tagNames);
    }
    return undefined;
  });
}

/**
 * Inside one transaction: stores the article with its tags and records it in the change feed. An address
 * saved meanwhile (two devices at once) answers that article instead: the check and the insert share the
 * transaction, and a user's saves run one at a time (SQLite has one writer; on PostgreSQL lockForUser), so
 * two saves of one address never both insert.
 */
export async function insertArticle(
  db: Queryable,
  userId: string,
  article: NewArticle,
  tagNames: readonly string[],
  sameAddresses: readonly string[] = [article.url],
): Promise<SavedArticle> {
  return await db.transaction(async (tx) => {
    // One save of the user's at a time from here to COMMIT (PostgreSQL; SQLite has one writer).
    await lockForUser(tx, 'save', userId);
    const replayed = await findReplayedArticle(tx, userId, article.id);
    if (replayed) return { article: replayed, alreadySaved: false };
    const known = await resaveKnownAddress(tx, userId, sameAddresses, tagNames);
    if (known) return { article: known, alreadySaved: true };
    const at = nowIso();
    // A web page's images are archived after the save (services/image-archive.ts), never during it.
    const imagesPending = article.article_type === 'web' && hasRemoteImages(article);
    await tx.orm.insert(tx.tables.articles).values({
      id: article.id,
      userId,
      url: article.url,
      normalizedUrl: normalizeArticleUrl(sameAddresses[0] ?? article.url),
      title: article.title,
      description: article.description,
      author: article.author,
      imageUrl: article.image_url,
      screenshotUrl: article.screenshot_url,
      articleType: article.article_type,
      content: article.content,
      contentText: article.content_text,
      excerpt: article.excerpt,
      publishedDate: article.published_date,
      siteName: article.site_name,
      language: article.language,
      readingTime: article.reading_time,
      imagesPending,
      createdAt: at,
      updatedAt: at,
    });
    if (imagesPending) await queueImageArchive(tx, userId, article.id);
    await linkTags(tx, article.id, await ensureTags(tx, userId, tagNames));
    return { article: await getArticle(tx, userId, article.id), alreadySaved: false };
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
  const replayed = await findReplayedArticle(ctx.db, userId, body.id);
  if (replayed) return { article: replayed, alreadySaved: false };
  const url = requireHttpUrl(body.url);
  const tags = body.tags ?? [];
  const known = await resaveKnownAddress(ctx.db, userId, [url], tags);
  if (known) return { article: known, alreadySaved: true };
  // Fetched (or the page sent extracted, see given-page.ts) and written by a job any node can run, in one
  // of the user's save slots (429 when they have none left); the answer waits for it (services/save-jobs.ts).
  const articleId = body.id ?? newId();
  return await ctx.limits.saves.run(userId, () =>
    saveThroughJob(ctx, userId, { articleId, url, tags: [...tags], html: body.html }),
  );
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

/** PUT /articles/{id}: only the fields sent change (last writer wins per field). */
export async function updateArticle(
  db: Queryable,
  userId: string,
  articleId: string,
  body: UpdateArticleBody,
): Promise<Article> {
  return await db.transaction(async (tx) => {
    await getArticle(tx, userId, articleId);
    const { isRead, isFavorite, isArchived, readingProgress } = body;
    const changes = { isRead, isFavorite, isArchived, readingProgress };
    // Only the fields sent: drizzle leaves out the ones left undefined.
    if (Object.values(changes).some((value) => value !== undefined)) {
      const { articles } = tx.tables;
      await tx.orm
        .update(articles)
        .set({ ...changes, updatedAt: nowIso() })
        .where(eq(articles.id, articleId));
    }
    return await getArticle(tx, userId, articleId);
  });
}

/**
 * DELETE /articles/{id}: its highlights, tags and list places go with it (by cascade), and the lists it was
 * in close the gap it left.
 */
export async function deleteArticle(
  db: Queryable,
  userId: string,
  articleId: string,
): Promise<{ screenshotUrl: string | null }> {
  return await db.transaction(async (tx) => {
    const article = await getArticle(tx, userId, articleId);
    const { listArticles } = tx.tables;
    const places = await tx.orm
      .select({ listId: listArticles.listId })
      .from(listArticles)
      .where(eq(listArticles.articleId, articleId));
    const listIds = places.map((place) => place.listId);
    await tx.orm.delete(tx.tables.articles).where(eq(tx.tables.articles.id, articleId));
    await afterArticleLeftLists(tx, userId, listIds);
    return { screenshotUrl: article.screenshot_url };
  });
}

export async function attachTag(
  db: Queryable,
  userId: string,
  articleId: string,
  tagId: string,
): Promise<Article> {
  return await retag(db, userId, articleId, tagId, linkTag);
}

export async function detachTag(
  db: Queryable,
  userId: string,
  articleId: string,
  tagId: string,
): Promise<Article> {
  return await retag(db, userId, articleId, tagId, unlinkTag);
}

/** Attaches or detaches one of the caller's tags on one of their articles, and answers the article. */
async function retag(
  db: Queryable,
  userId: string,
  articleId: string,
  tagId: string,
  change: (tx: Queryable, articleId: string, tagId: string) => Promise<unknown>,
): Promise<Article> {
  return await db.transaction(async (tx) => {
    await getArticle(tx, userId, articleId);
    await getTag(tx, userId, tagId);
    await change(tx, articleId, tagId);
    await touchArticle(tx, articleId);
    return await getArticle(tx, userId, articleId);
  });
}

/** A change to an article's tags changes its updated_at too. */
async function touchArticle(db: Queryable, articleId: string): Promise<void> {
  const { articles } = db.tables;
  await db.orm.update(articles).set({ updatedAt: nowIso() }).where(eq(articles.id, articleId));
}

/**
 * Full-text search, best match first, as the matching articles' cards (article-cards.ts); the last word
 * matches as a prefix. Each engine ranks with its own index: FTS5 (services/search-sqlite.ts), tsvector
 * (db/postgres/search.ts). `onlyIf`: a condition every card's row must meet besides.
 */
export async function searchArticleCards(
  db: Queryable,
  userId: string,
  query: string,
  onlyIf?: SQL,
): Promise<Buffer[]> {
  const ranked =
    db.dialect === 'sqlite' ? await rankedArticlesSqlite(db, userId, query) : rankedArticles(userId, query);
  if (!ranked) return [];
  const where = onlyIf ? sql`WHERE ${onlyIf}` : sql``;
  return await articleCardsInOrder(
    db,
    userId,
    sql`JOIN (${ranked}) r ON r.seq = a.seq ${where} ORDER BY r.rank DESC, r.created_at DESC`,
  );
}

/** GET /articles/search's cards, the token's session asked in the query that reads them. */
export function searchArticleCardsOfSession(
  db: Queryable,
  claims: TokenClaims,
  query: string,
): Promise<Buffer[]> {
  return foundInSession(db, claims, (sessionIsActive) =>
    searchArticleCards(db, claims.sub, query, sessionIsActive),
  );
}
