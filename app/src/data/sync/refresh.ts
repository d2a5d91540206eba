// Reads back from the server the entities whose local state a push left uncertain, once nothing queued
// refers to them any more:
// - a list whose order this device's writes changed: the server renumbers a list from its own order (which
//   another device may have changed meanwhile) and only reports the places that moved on its side. Its
//   positions are always 0..n-1 in list order, so the order read back gives them exactly;
// - the target of a write the server refused or found gone: the device applied the write locally, the
//   server never did, and the change feed has nothing to say about it.
import {
  type ArticleListResponse,
  type ArticleResponse,
  type TagsResponse,
  type HighlightResponse,
  type ListWithArticlesResponse,
} from '@lectern/shared-schema';
import { ApiError, type HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import {
  deleteArticleLocally,
  putArticles,
  putHighlights,
  refreshHighlightCounts,
  renameTagEverywhere,
  renumberList,
  tagKey,
} from '../db/local-store';
import { saveEntryOf } from '../outbox/outbox';
import type { Operation } from '../outbox/operations';

export interface RefreshTargets {
  articles: Set<string>;
  lists: Set<string>;
  highlights: Set<string>;
  tags: Set<string>;
}

export const noTargets = (): RefreshTargets => ({
  articles: new Set(),
  lists: new Set(),
  highlights: new Set(),
  tags: new Set(),
});

export function mergeTargets(into: RefreshTargets, from: RefreshTargets): void {
  for (const key of ['articles', 'lists', 'highlights', 'tags'] as const)
    for (const id of from[key]) into[key].add(id);
}

/** What a write changed that only the server can say the truth about once it's done (or dropped). */
export function addRefreshTargets(targets: RefreshTargets, op: Operation, pushed: boolean): void {
  switch (op.kind) {
    case 'addListArticle':
    case 'removeListArticle':
    case 'reorderList':
      targets.lists.add(op.listId);
      return;
    case 'updateList':
      if (!pushed) targets.lists.add(op.id);
      return;
    case 'attachTag':
    case 'detachTag':
      if (!pushed) targets.articles.add(op.articleId);
      return;
    case 'updateArticle':
      if (!pushed) targets.articles.add(op.id);
      return;
    case 'updateHighlight':
      if (!pushed) targets.highlights.add(op.id);
      return;
    case 'renameTag':
    case 'deleteTag':
      if (!pushed) targets.tags.add(op.id);
      return;
    default:
      return;
  }
}

/** A write still waiting for the server would be undone by the server's older state. Refused ones aren't shown. */
async function isQueued(db: LecternDb, id: string): Promise<boolean> {
  return (
    (await db.outbox
      .where('ids')
      .equals(id)
      .filter((row) => row.status === 'pending')
      .count()) > 0
  );
}

/** The server's answer, or null when the entity is gone (its tombstone comes with the change feed). */
async function fetchOrGone<T>(http: HttpClient, path: string): Promise<T | null> {
  try {
    return await http.get<T>(path);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

async function refreshList(http: HttpClient, db: LecternDb, listId: string): Promise<void> {
  const answer = await fetchOrGone<ListWithArticlesResponse>(http, `/lists/${encodeURIComponent(listId)}`);
  if (!answer) return;
  const { article_count: _count, ...list } = answer.list;
  await db.transaction('rw', db.dataTables, async () => {
    if (await isQueued(db, listId)) return;
    await db.lists.put(list);
    await renumberList(
      db,
      listId,
      answer.articles.map((article) => article.id),
    );
  });
}

async function refreshArticle(http: HttpClient, db: LecternDb, articleId: string): Promise<void> {
  const answer = await fetchOrGone<ArticleResponse>(http, `/articles/${encodeURIComponent(articleId)}`);
  await db.transaction('rw', db.dataTables, async () => {
    if (await isQueued(db, articleId)) return;
    // A refused save stays visible with its reason until the user retries or deletes it.
    if (!answer) return (await saveEntryOf(db, articleId)) ? undefined : deleteArticleLocally(db, articleId);
    await putArticles(db, [answer.article]);
    await refreshHighlightCounts(db, [articleId]);
  });
}

async function refreshHighlight(http: HttpClient, db: LecternDb, highlightId: string): Promise<void> {
  const answer = await fetchOrGone<HighlightResponse>(http, `/highlights/${encodeURIComponent(highlightId)}`);
  await db.transaction('rw', db.dataTables, async () => {
    if (await isQueued(db, highlightId)) return;
    const before = await db.highlights.get(highlightId);
    if (answer) await putHighlights(db, [answer.highlight]);
    else await db.highlights.delete(highlightId);
    if (before) await refreshHighlightCounts(db, [before.article_id]);
  });
}

/** A tag the server kept as it was: its name goes back on the tag and on the articles carrying it. */
async function refreshTags(http: HttpClient, db: LecternDb, tagIds: Iterable<string>): Promise<void> {
  const { tags } = await http.get<TagsResponse>('/tags');
  const onServer = new Map(tags.map((tag) => [tag.id, tag]));
  await db.transaction('rw', db.dataTables, async () => {
    for (const id of tagIds) {
      if (await isQueued(db, id)) continue;
      const local = await db.tags.get(id);
      const server = onServer.get(id);
      if (server && local?.name !== server.name) {
        await db.tags.put({
          id,
          name: server.name,
          name_key: tagKey(server.name),
          created_at: server.created_at,
        });
        if (local) await renameTagEverywhere(db, local.name_key, server.name);
        // Articles that carried it before the refused delete or rename come back with the article rows.
      } else if (!server && local) {
        await db.tags.delete(id);
        await renameTagEverywhere(db, local.name_key, null);
      }
    }
  });
}

export async function refreshFromServer(
  http: HttpClient,
  db: LecternDb,
  targets: RefreshTargets,
): Promise<void> {
  for (const id of targets.articles) if (!(await isQueued(db, id))) await refreshArticle(http, db, id);
  for (const id of targets.lists) if (!(await isQueued(db, id))) await refreshList(http, db, id);
  for (const id of targets.highlights) if (!(await isQueued(db, id))) await refreshHighlight(http, db, id);
  if (targets.tags.size > 0) {
    await refreshTags(http, db, targets.tags);
    // A refused tag delete took the tag off articles locally: the server's articles say who carries it.
    const { articles } = await http.get<ArticleListResponse>('/articles');
    await db.transaction('rw', db.dataTables, async () => {
      const local = await db.articles.bulkGet(articles.map((article) => article.id));
      const differing = articles.filter(
        (article, i) => local[i] && local[i].tags.join('\u0000') !== article.tags.join('\u0000'),
      );
      for (const article of differing)
        if (!(await isQueued(db, article.id))) await putArticles(db, [article]);
    });
  }
}
