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
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection';
import { findArticleSummaries } from './article-rows';
import { nowIso } from './change-log';
import { replayedCreate } from './replayed-create';
import { badRequest, notFound } from './errors';
import { getArticle } from './article-rows';

const LIST_SELECT = `SELECT l.id, l.user_id, l.name, l.description, l.is_public, l.share_id, l.created_at, l.updated_at,
  (SELECT count(*) FROM list_articles la WHERE la.list_id = l.id) AS article_count FROM reading_lists l`;

interface ListRow {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  is_public: number;
  share_id: string;
  article_count: number;
  created_at: string;
  updated_at: string;
}

const toList = (row: ListRow): ReadingList => ({
  id: row.id,
  name: row.name,
  description: row.description,
  is_public: row.is_public === 1,
  share_id: row.share_id,
  article_count: row.article_count,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** 128 random bits: a share link can't be guessed or enumerated. */
export function newShareId(): string {
  return randomBytes(16).toString('base64url');
}

export function listLists(db: Db, userId: string): ReadingList[] {
  const rows = db
    .statement(`${LIST_SELECT} WHERE l.user_id = ? ORDER BY l.created_at DESC, l.id DESC`)
    .all(userId);
  return (rows as ListRow[]).map(toList);
}

function findListRow(db: Db, listId: string): ListRow | undefined {
  return db.statement(`${LIST_SELECT} WHERE l.id = ?`).get(listId) as ListRow | undefined;
}

export function getList(db: Db, userId: string, listId: string): ReadingList {
  const row = findListRow(db, listId);
  if (!row || row.user_id !== userId) throw notFound(SERVER_ERRORS.listNotFound);
  return toList(row);
}

/** The caller's list, or undefined when it doesn't exist or is someone else's. */
export function findList(db: Db, userId: string, listId: string): ReadingList | undefined {
  const row = findListRow(db, listId);
  return row?.user_id === userId ? toList(row) : undefined;
}

function listArticleSummaries(db: Db, listId: string): ArticleSummary[] {
  return findArticleSummaries(
    db,
    'JOIN list_articles la ON la.article_id = a.id WHERE la.list_id = ? ORDER BY la.position, la.added_at',
    listId,
  );
}

export function getListWithArticles(db: Db, userId: string, listId: string) {
  const list = getList(db, userId, listId);
  return { list, articles: listArticleSummaries(db, listId) };
}

export function createList(db: Db, userId: string, body: CreateListBody): ReadingList {
  return db.transaction(() => {
    const replayed = replayedCreate(
      db,
      userId,
      'list',
      body.id,
      (id) => findListRow(db, id),
      SERVER_ERRORS.listNotFound,
    );
    if (replayed) return toList(replayed);
    const id = body.id ?? newId();
    const at = nowIso();
    db.statement(
      `INSERT INTO reading_lists (id, user_id, name, description, is_public, share_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      userId,
      body.name.trim(),
      emptyToNull(body.description),
      body.isPublic === false ? 0 : 1,
      newShareId(),
      at,
      at,
    );
    return getList(db, userId, id);
  });
}

export function updateList(db: Db, userId: string, listId: string, body: UpdateListBody): ReadingList {
  return db.transaction(() => {
    getList(db, userId, listId);
    const sets: string[] = [];
    const params: unknown[] = [];
    if (body.name !== undefined) {
      sets.push('name = ?');
      params.push(body.name.trim());
    }
    if (body.description !== undefined) {
      sets.push('description = ?');
      params.push(emptyToNull(body.description));
    }
    if (body.isPublic !== undefined) {
      sets.push('is_public = ?');
      params.push(body.isPublic ? 1 : 0);
    }
    if (sets.length === 0) return getList(db, userId, listId);
    db.statement(`UPDATE reading_lists SET ${sets.join(', ')}, updated_at = ? WHERE id = ?`).run(
      ...params,
      nowIso(),
      listId,
    );
    return getList(db, userId, listId);
  });
}

export function deleteList(db: Db, userId: string, listId: string): void {
  db.transaction(() => {
    getList(db, userId, listId);
    db.statement('DELETE FROM reading_lists WHERE id = ?').run(listId);
  });
}

function orderedPlaces(db: Db, listId: string): ListArticle[] {
  return db
    .statement(
      'SELECT list_id, article_id, position, added_at FROM list_articles WHERE list_id = ? ORDER BY position, added_at',
    )
    .all(listId) as ListArticle[];
}

/** An article's place in a list as the feed carries it, or undefined when it isn't in the list. */
export function findListPlace(db: Db, listId: string, articleId: string): ListArticle | undefined {
  return db
    .statement(
      'SELECT list_id, article_id, position, added_at FROM list_articles WHERE list_id = ? AND article_id = ?',
    )
    .get(listId, articleId) as ListArticle | undefined;
}

/** Writes positions 0..n-1 in the given order (shared-schema's rule), touching only the places that moved. */
function writeOrder(db: Db, listId: string, articleIds: readonly string[]): void {
  for (const { article_id: articleId, position } of movedPlaces(orderedPlaces(db, listId), articleIds)) {
    db.statement('UPDATE list_articles SET position = ? WHERE list_id = ? AND article_id = ?').run(
      position,
      listId,
      articleId,
    );
  }
}

/** A change to a list's articles changes its updated_at too. */
function touchList(db: Db, userId: string, listId: string): ReadingList {
  db.statement('UPDATE reading_lists SET updated_at = ? WHERE id = ?').run(nowIso(), listId);
  return getList(db, userId, listId);
}

/** After an article was deleted: its lists close the gap it left. */
export function afterArticleLeftLists(db: Db, userId: string, listIds: readonly string[]): void {
  for (const listId of listIds) {
    writeOrder(
      db,
      listId,
      orderedPlaces(db, listId).map((place) => place.article_id),
    );
    touchList(db, userId, listId);
  }
}

export function addArticleToList(
  db: Db,
  userId: string,
  listId: string,
  body: AddListArticleBody,
): ReadingList {
  return db.transaction(() => {
    getList(db, userId, listId);
    getArticle(db, userId, body.articleId);
    const order = orderedPlaces(db, listId).map((place) => place.article_id);
    const wanted = orderWithArticle(order, body.articleId, body.position);
    if (!wanted) return getList(db, userId, listId);
    // Inserted last, then moved to its place with the articles after it.
    const place: ListArticle = {
      list_id: listId,
      article_id: body.articleId,
      position: order.length,
      added_at: nowIso(),
    };
    db.statement(
      'INSERT INTO list_articles (list_id, article_id, position, added_at) VALUES (?, ?, ?, ?)',
    ).run(listId, body.articleId, order.length, place.added_at);
    writeOrder(db, listId, wanted);
    return touchList(db, userId, listId);
  });
}

export function removeArticleFromList(
  db: Db,
  userId: string,
  listId: string,
  articleId: string,
): ReadingList {
  return db.transaction(() => {
    getList(db, userId, listId);
    const order = orderedPlaces(db, listId).map((place) => place.article_id);
    if (!order.includes(articleId)) throw notFound(SERVER_ERRORS.articleNotFound);
    db.statement('DELETE FROM list_articles WHERE list_id = ? AND article_id = ?').run(listId, articleId);
    writeOrder(
      db,
      listId,
      order.filter((id) => id !== articleId),
    );
    return touchList(db, userId, listId);
  });
}

/** PUT /lists/{id}/reorder: the new order must name every article of the list exactly once. */
export function reorderList(db: Db, userId: string, listId: string, articleIds: readonly string[]) {
  return db.transaction(() => {
    getList(db, userId, listId);
    const current = orderedPlaces(db, listId).map((place) => place.article_id);
    if (!isCompleteOrder(articleIds, current)) throw badRequest(SERVER_ERRORS.reorderMismatch);
    writeOrder(db, listId, articleIds);
    touchList(db, userId, listId);
    return getListWithArticles(db, userId, listId);
  });
}

/**
 * POST /lists/{id}/share-link/rotate: the list gets a new share id, so a leaked link stops working (the old
 * one answers 404 from now on). Recorded in the feed, so every device shows the new link.
 */
export function rotateShareLink(db: Db, userId: string, listId: string): ReadingList {
  return db.transaction(() => {
    getList(db, userId, listId);
    db.statement('UPDATE reading_lists SET share_id = ?, updated_at = ? WHERE id = ?').run(
      newShareId(),
      nowIso(),
      listId,
    );
    return getList(db, userId, listId);
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
export function getPublicList(db: Db, shareId: string): PublicListResponse {
  const row = db
    .statement(
      `SELECT l.id, l.name, l.description, l.share_id, l.created_at, l.is_public, u.email AS owner_email,
        u.username AS owner_username,
        (SELECT count(*) FROM list_articles la WHERE la.list_id = l.id) AS article_count
       FROM reading_lists l JOIN users u ON u.id = l.user_id WHERE l.share_id = ?`,
    )
    .get(shareId) as
    | (Omit<ListRow, 'user_id' | 'updated_at'> & { owner_email: string; owner_username: string | null })
    | undefined;
  if (!row || row.is_public !== 1) throw notFound(SERVER_ERRORS.listNotFound);
  const articles: PublicArticle[] = listArticleSummaries(db, row.id).map((article) => ({
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
      owner_username: publicOwnerName({ email: row.owner_email, username: row.owner_username }),
      created_at: row.created_at,
    },
    articles,
  };
}
