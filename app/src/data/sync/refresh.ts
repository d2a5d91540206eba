// Reads back from the server the entities whose local state a push left uncertain, once nothing queued
// refers to them any more:
// - a list whose order this device's writes changed: the server renumbers a list from its own order (which
//   another device may have changed meanwhile) and only reports the places that moved on its side. Its
//   positions are always 0..n-1 in list order, so the order read back gives them exactly;
// - the target of a write the server refused or found gone: the device applied the write locally, the
//   server never did, and the change feed has nothing to say about it.
import {
  listArticleKey,
  type ArticleResponse,
  type HighlightResponse,
  type ListWithArticlesResponse,
} from '@lectern/shared-schema';
import { ApiError, type HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import { deleteArticleLocally, putArticles, putHighlights, refreshHighlightCounts } from '../db/local-store';
import type { Operation } from '../outbox/operations';

export interface RefreshTargets {
  articles: Set<string>;
  lists: Set<string>;
  highlights: Set<string>;
}

export const noTargets = (): RefreshTargets => ({
  articles: new Set(),
  lists: new Set(),
  highlights: new Set(),
});

export function mergeTargets(into: RefreshTargets, from: RefreshTargets): void {
  for (const key of ['articles', 'lists', 'highlights'] as const)
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
    default:
      return;
  }
}

async function isQueued(db: LecternDb, id: string): Promise<boolean> {
  return (await db.outbox.where('ids').equals(id).count()) > 0;
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
    const places = await db.list_articles.bulkGet(answer.articles.map((a) => listArticleKey(listId, a.id)));
    const moved = places.flatMap((place, position) =>
      place && place.position !== position ? [{ ...place, position }] : [],
    );
    await db.list_articles.bulkPut(moved);
  });
}

async function refreshArticle(http: HttpClient, db: LecternDb, articleId: string): Promise<void> {
  const answer = await fetchOrGone<ArticleResponse>(http, `/articles/${encodeURIComponent(articleId)}`);
  await db.transaction('rw', db.dataTables, async () => {
    if (await isQueued(db, articleId)) return;
    if (!answer) return deleteArticleLocally(db, articleId);
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

export async function refreshFromServer(
  http: HttpClient,
  db: LecternDb,
  targets: RefreshTargets,
): Promise<void> {
  for (const id of targets.articles) if (!(await isQueued(db, id))) await refreshArticle(http, db, id);
  for (const id of targets.lists) if (!(await isQueued(db, id))) await refreshList(http, db, id);
  for (const id of targets.highlights) if (!(await isQueued(db, id))) await refreshHighlight(http, db, id);
}
