// Reading lists: ordered articles, public by default, shared by an unguessable link.
import {
  emptyToNull,
  isCompleteOrder,
  movedPlaces,
  newId,
  orderWithArticle,
  SERVER_ERRORS,
  type AddListArticleBody,
  type ArticleSummary,
  type CreateListBody,
  type ListArticle,
  type PublicArticle,
  type PublicListResponse,
  type ReadingList,
  type UpdateListBody,
} from '@lectern/shared-schema';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/connection';
import { findArticleSummaries } from './article-rows';
import { nowIso } from './change-log';
import { replayedCreate } from './replayed-create';
import { badRequest, notFound } from './errors';
import { getArticle } from './article-rows';

/** A list as the API serves it, with its owner to check who asks. */
type ListRow = Awaited<ReturnType<typeof listRows>>[number];

/** The lists `where` picks, with their article counts, newest first. */
async function listRows(db: Queryable, where: SQL | undefined) {
  const { readingLists, listArticles } = db.tables;
  return await db.orm
    .select({
      id: readingLists.id,
      user_id: readingLists.userId,
      name: readingLists.name,
      description: readingLists.description,
      is_public: readingLists.isPublic,
      share_id: readingLists.shareId,
      article_count:
        sql`(SELECT count(*) FROM ${listArticles} WHERE ${listArticles.listId} = ${readingLists.id})`.mapWith(
          Number,
        ),
      created_at: readingLists.createdAt,
      updated_at: readingLists.updatedAt,
    })
    .from(readingLists)
    .where(where)
    .orderBy(desc(readingLists.createdAt), desc(readingLists.id));
}

const toList = ({ user_id: _owner, ...list }: ListRow): ReadingList => list;

/** 128 random bits: a share link can't be guessed or enumerated. */
export function newShareId(): string {
  return randomBytes(16).toString('base64url');
}

export async function listLists(db: Queryable, userId: string): Promise<ReadingList[]> {
  return (await listRows(db, eq(db.tables.readingLists.userId, userId))).map(toList);
}

async function findListRow(db: Queryable, listId: string): Promise<ListRow | undefined> {
  return (await listRows(db, eq(db.tables.readingLists.id, listId)))[0];
}

export async function getList(db: Queryable, userId: string, listId: string): Promise<ReadingList> {
  const row = await findListRow(db, listId);
  if (!row || row.user_id !== userId) throw notFound(SERVER_ERRORS.listNotFound);
  return toList(row);
}

/** The caller's list, or undefined when it doesn't exist or is someone else's. */
export async function findList(
  db: Queryable,
  userId: string,
  listId: string,
): Promise<ReadingList | undefined> {
  const row = await findListRow(db, listId);
  return row?.user_id === userId ? toList(row) : undefined;
}

async function listArticleSummaries(db: Queryable, listId: string): Promise<ArticleSummary[]> {
  return await findArticleSummaries(
    db,
    sql`JOIN list_articles la ON la.article_id = a.id WHERE la.list_id = ${listId} ORDER BY la.position, la.added_at`,
  );
}

export async function getListWithArticles(db: Queryable, userId: string, listId: string) {
  const list = await getList(db, userId, listId);
  return { list, articles: await listArticleSummaries(db, listId) };
}

export async function createList(db: Queryable, userId: string, body: CreateListBody): Promise<ReadingList> {
  return await db.transaction(async (tx) => {
    const replayed = await replayedCreate(
      tx,
      userId,
      'list',
      body.id,
      async (id) => await findListRow(tx, id),
      SERVER_ERRORS.listNotFound,
    );
    if (replayed) return toList(replayed);
    const id = body.id ?? newId();
    const at = nowIso();
    await tx.orm.insert(tx.tables.readingLists).values({
      id,
      userId,
      name: body.name.trim(),
      description: emptyToNull(body.description),
      isPublic: body.isPublic !== false,
      shareId: newShareId(),
      createdAt: at,
      updatedAt: at,
    });
    return await getList(tx, userId, id);
  });
}

export async function updateList(
  db: Queryable,
  userId: string,
  listId: string,
  body: UpdateListBody,
): Promise<ReadingList> {
  return await db.transaction(async (tx) => {
    await getList(tx, userId, listId);
    const changes = {
      name: body.name?.trim(),
      description: body.description === undefined ? undefined : emptyToNull(body.description),
      isPublic: body.isPublic,
    };
    // Only the fields sent: drizzle leaves out the ones left undefined.
    if (Object.values(changes).every((value) => value === undefined))
      return await getList(tx, userId, listId);
    const { readingLists } = tx.tables;
    await tx.orm
      .update(readingLists)
      .set({ ...changes, updatedAt: nowIso() })
      .where(eq(readingLists.id, listId));
    return await getList(tx, userId, listId);
  });
}

export async function deleteList(db: Queryable, userId: string, listId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await getList(tx, userId, listId);
    await tx.orm.delete(tx.tables.readingLists).where(eq(tx.tables.readingLists.id, listId));
  });
}

/** The places `where` picks, as the feed carries them, in list order. */
async function places(db: Queryable, where: SQL | undefined): Promise<ListArticle[]> {
  const { listArticles } = db.tables;
  return await db.orm
    .select({
      list_id: listArticles.listId,
      article_id: listArticles.articleId,
      position: listArticles.position,
      added_at: listArticles.addedAt,
    })
    .from(listArticles)
    .where(where)
    .orderBy(asc(listArticles.position), asc(listArticles.addedAt));
}

async function orderedPlaces(db: Queryable, listId: string): Promise<ListArticle[]> {
  return await places(db, eq(db.tables.listArticles.listId, listId));
}

/** An article's place in a list as the feed carries it, or undefined when it isn't in the list. */
export async function findListPlace(
  db: Queryable,
  listId: string,
  articleId: string,
): Promise<ListArticle | undefined> {
  const { listArticles } = db.tables;
  return (await places(db, and(eq(listArticles.listId, listId), eq(listArticles.articleId, articleId))))[0];
}

/** Writes positions 0..n-1 in the given order (shared-schema's rule), touching only the places that moved. */
async function writeOrder(db: Queryable, listId: string, articleIds: readonly string[]): Promise<void> {
  for (const { article_id: articleId, position } of movedPlaces(
    await orderedPlaces(db, listId),
    articleIds,
  )) {
    const { listArticles } = db.tables;
    await db.orm
      .update(listArticles)
      .set({ position })
      .where(and(eq(listArticles.listId, listId), eq(listArticles.articleId, articleId)));
  }
}

/** A change to a list's articles changes its updated_at too. */
async function touchList(db: Queryable, userId: string, listId: string): Promise<ReadingList> {
  const { readingLists } = db.tables;
  await db.orm.update(readingLists).set({ updatedAt: nowIso() }).where(eq(readingLists.id, listId));
  return await getList(db, userId, listId);
}

/** After an article was deleted: its lists close the gap it left. */
export async function afterArticleLeftLists(
  db: Queryable,
  userId: string,
  listIds: readonly string[],
): Promise<void> {
  for (const listId of listIds) {
    await writeOrder(
      db,
      listId,
      (await orderedPlaces(db, listId)).map((place) => place.article_id),
    );
    await touchList(db, userId, listId);
  }
}

export async function addArticleToList(
  db: Queryable,
  userId: string,
  listId: string,
  body: AddListArticleBody,
): Promise<ReadingList> {
  return await db.transaction(async (tx) => {
    await getList(tx, userId, listId);
    await getArticle(tx, userId, body.articleId);
    const order = (await orderedPlaces(tx, listId)).map((place) => place.article_id);
    const wanted = orderWithArticle(order, body.articleId, body.position);
    if (!wanted) return await getList(tx, userId, listId);
    // Inserted last, then moved to its place with the articles after it.
    const place: ListArticle = {
      list_id: listId,
      article_id: body.articleId,
      position: order.length,
      added_at: nowIso(),
    };
    await tx.orm.insert(tx.tables.listArticles).values({
      listId,
      articleId: body.articleId,
      position: place.position,
      addedAt: place.added_at,
    });
    await writeOrder(tx, listId, wanted);
    return await touchList(tx, userId, listId);
  });
}

export async function removeArticleFromList(
  db: Queryable,
  userId: string,
  listId: string,
  articleId: string,
): Promise<ReadingList> {
  return await db.transaction(async (tx) => {
    await getList(tx, userId, listId);
    const order = (await orderedPlaces(tx, listId)).map((place) => place.article_id);
    if (!order.includes(articleId)) throw notFound(SERVER_ERRORS.articleNotFound);
    const { listArticles } = tx.tables;
    await tx.orm
      .delete(listArticles)
      .where(and(eq(listArticles.listId, listId), eq(listArticles.articleId, articleId)));
    await writeOrder(
      tx,
      listId,
      order.filter((id) => id !== articleId),
    );
    return await touchList(tx, userId, listId);
  });
}

/** PUT /lists/{id}/reorder: the new order must name every article of the list exactly once. */
export async function reorderList(
  db: Queryable,
  userId: string,
  listId: string,
  articleIds: readonly string[],
) {
  return await db.transaction(async (tx) => {
    await getList(tx, userId, listId);
    const current = (await orderedPlaces(tx, listId)).map((place) => place.article_id);
    if (!isCompleteOrder(articleIds, current)) throw badRequest(SERVER_ERRORS.reorderMismatch);
    await writeOrder(tx, listId, articleIds);
    await touchList(tx, userId, listId);
    return await getListWithArticles(tx, userId, listId);
  });
}

/**
 * POST /lists/{id}/share-link/rotate: the list gets a new share id, so a leaked link stops working (the old
 * one answers 404 from now on). Recorded in the feed, so every device shows the new link.
 */
export async function rotateShareLink(db: Queryable, userId: string, listId: string): Promise<ReadingList> {
  return await db.transaction(async (tx) => {
    await getList(tx, userId, listId);
    const { readingLists } = tx.tables;
    await tx.orm
      .update(readingLists)
      .set({ shareId: newShareId(), updatedAt: nowIso() })
      .where(eq(readingLists.id, listId));
    return await getList(tx, userId, listId);
  });
}

/**
 * The name the public page shows for a list's owner: the part of the email before the @, never the profile
 * name (for a Google account that is the person's full name). An owner without a username stays anonymous
 * (the page says 'Anonymous').
 */
function publicOwnerName(owner: { email: string; username: string | null }): string | null {
  if (!owner.username?.trim()) return null;
  const local = owner.email.split('@')[0]?.trim();
  return local ? local : null;
}

/**
 * GET /lists/public/{shareId}: only what the public page shows; private and unknown lists are 404. The
 * owner is named by their email's local part, never their profile name (a Google account's full name), and
 * a screenshot's OCR text (its description) stays private.
 */
export async function getPublicList(db: Queryable, shareId: string): Promise<PublicListResponse> {
  const { readingLists, users } = db.tables;
  const [row] = await listRows(db, eq(readingLists.shareId, shareId));
  if (!row || !row.is_public) throw notFound(SERVER_ERRORS.listNotFound);
  const [owner] = await db.orm
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(eq(users.id, row.user_id));
  if (!owner) throw notFound(SERVER_ERRORS.listNotFound);
  const articles: PublicArticle[] = (await listArticleSummaries(db, row.id)).map((article) => ({
    id: article.id,
    url: article.url,
    title: article.title,
    description: article.article_type === 'screenshot' ? null : article.description,
    author: article.author,
    image_url: article.article_type === 'screenshot' ? null : article.image_url,
    reading_time: article.reading_time,
    tags: article.tags,
    created_at: article.created_at,
  }));
  return {
    list: {
      name: row.name,
      description: row.description,
      share_id: row.share_id,
      article_count: row.article_count,
      owner_username: publicOwnerName(owner),
      created_at: row.created_at,
    },
    articles,
  };
}
