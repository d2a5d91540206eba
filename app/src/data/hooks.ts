// React hooks over the data layer: each read is a live query, so every tab re-renders when the data
// changes, whoever changed it (this tab, another tab, a sync). `undefined` means still loading; reads of
// one entity answer `null` when the device doesn't have it.
import type { ArticlesQuery } from '@lectern/shared-schema';
import { useLiveQuery } from 'dexie-react-hooks';
import { createContext, useContext, useSyncExternalStore } from 'react';
import { ApiError } from './api/http-client';
import type { Lectern } from './lectern';
import type { SyncState } from './sync/sync-engine';

export const LecternContext = createContext<Lectern | null>(null);

export function useLectern(): Lectern {
  const lectern = useContext(LecternContext);
  if (!lectern) throw new Error('useLectern needs a <LecternContext.Provider> above it');
  return lectern;
}

/** A 404 becomes null, so that a screen shows its not-found state instead of an error boundary. */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function useArticles(query: ArticlesQuery = {}) {
  const lectern = useLectern();
  const { archived, favorite, is_read, tag_name } = query;
  return useLiveQuery(
    () => lectern.articles.list({ archived, favorite, is_read, tag_name }),
    [lectern, archived, favorite, is_read, tag_name],
  );
}

export function useArticle(id: string) {
  const lectern = useLectern();
  return useLiveQuery(() => orNull(lectern.articles.get(id)), [lectern, id]);
}

/** Articles matching the query (empty for a blank one); debounce the typing before passing it in. */
export function useArticleSearch(q: string) {
  const lectern = useLectern();
  return useLiveQuery(() => lectern.articles.search(q), [lectern, q]);
}

export function useTags() {
  const lectern = useLectern();
  return useLiveQuery(() => lectern.tags.list(), [lectern]);
}

export function useTagArticles(tagId: string) {
  const lectern = useLectern();
  return useLiveQuery(() => orNull(lectern.tags.articles(tagId)), [lectern, tagId]);
}

export function useLists() {
  const lectern = useLectern();
  return useLiveQuery(() => lectern.lists.list(), [lectern]);
}

export function useList(id: string) {
  const lectern = useLectern();
  return useLiveQuery(() => orNull(lectern.lists.get(id)), [lectern, id]);
}

export function useHighlights() {
  const lectern = useLectern();
  return useLiveQuery(() => lectern.highlights.list(), [lectern]);
}

export function useArticleHighlights(articleId: string) {
  const lectern = useLectern();
  return useLiveQuery(() => lectern.highlights.byArticle(articleId), [lectern, articleId]);
}

export function useRecentHighlights(limit?: number) {
  const lectern = useLectern();
  return useLiveQuery(() => lectern.highlights.recent(limit), [lectern, limit]);
}

export function useHighlightStats() {
  const lectern = useLectern();
  return useLiveQuery(() => lectern.highlights.stats(), [lectern]);
}

export function useHighlightSearch(q: string) {
  const lectern = useLectern();
  return useLiveQuery(() => lectern.highlights.search(q), [lectern, q]);
}

/** Spec section 9's analytics from the device's data. */
export function useAnalytics() {
  const lectern = useLectern();
  return useLiveQuery(() => lectern.analytics(), [lectern]);
}

/** Online or offline, syncing, pending count, refused writes and last sync time, live. */
export function useSyncState(): SyncState {
  const { sync } = useLectern();
  return useSyncExternalStore(sync.subscribe, sync.getState, sync.getState);
}
