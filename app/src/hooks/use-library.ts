// Live answers of the device's database about the library (the dashboard's feed, tags and analytics):
// they update by themselves after every local write and every sync, in this tab or another. A failure
// is an answer here, never a thrown error (spec section 8).
import { useEffect } from 'react';
import { useLiveQuery } from './use-live-query';
import type { ArticleStats, ArticlesQuery, ReadingAnalytics, Tag } from '@lectern/shared-schema';
import { sortArticles, type ArticleOrder, type LocalArticleSummary } from '../data';
import { useLectern } from '../session/use-lectern';

export interface ArticleFeed {
  articles: LocalArticleSummary[];
  stats: ArticleStats;
  /** Spec section 8: a failed list or search keeps its message without showing it. */
  error: string | null;
}

const NO_STATS: ArticleStats = { total: 0, unread: 0, read: 0, archived: 0, favorites: 0 };

/**
 * The filtered list in `order`, or the search's results (sorted the same way) while `search` isn't empty;
 * undefined until the first answer, and while not `wanted`.
 */
export function useArticleFeed(
  query: ArticlesQuery,
  search: string,
  order: ArticleOrder = 'newest',
  wanted = true,
): ArticleFeed | undefined {
  const lectern = useLectern();
  const { archived, favorite, is_read, tag_name } = query;
  return useLiveQuery(async (): Promise<ArticleFeed | undefined> => {
    if (!wanted) return undefined;
    try {
      const list = await lectern.articles.list({ archived, favorite, is_read, tag_name }, order);
      if (!search.trim()) return { ...list, error: null };
      const { articles } = await lectern.articles.search(search);
      return { articles: sortArticles(articles, order), stats: list.stats, error: null };
    } catch (error) {
      return { articles: [], stats: NO_STATS, error: error instanceof Error ? error.message : String(error) };
    }
  }, [lectern, archived, favorite, is_read, tag_name, search, order, wanted]);
}

/**
 * The four counts of the dashboard, kept by the device with each write: one row read, so they show at once
 * whatever the size of the library; undefined until the first answer, and after a failure (logged).
 */
export function useArticleStats(): ArticleStats | undefined {
  const lectern = useLectern();
  return useLiveQuery(async () => {
    try {
      return await lectern.articles.stats();
    } catch (error) {
      console.error('Loading the stats failed', error);
      return undefined;
    }
  }, [lectern]);
}

/** A search's results, sorted in `order`; undefined until the first answer, and while `search` is empty. */
export function useSearchResults(
  search: string,
  order: ArticleOrder,
): { articles: LocalArticleSummary[]; error: string | null } | undefined {
  const lectern = useLectern();
  return useLiveQuery(async () => {
    if (!search.trim()) return undefined;
    try {
      const { articles } = await lectern.articles.search(search);
      return { articles: sortArticles(articles, order), error: null };
    } catch (error) {
      return { articles: [], error: error instanceof Error ? error.message : String(error) };
    }
  }, [lectern, search, order]);
}

/**
 * Which of the selected articles the list shows (what Delete (n) deletes): each selected row read and
 * matched against the filter, live; the empty selection answers at once.
 */
export function useSelectedInList(
  query: ArticlesQuery,
  selectedIds: ReadonlySet<string>,
  wanted: boolean,
): string[] {
  const lectern = useLectern();
  const { archived, favorite, is_read, tag_name } = query;
  const answer = useLiveQuery(async () => {
    if (!wanted || selectedIds.size === 0) return [];
    try {
      return await lectern.articles.idsInList({ archived, favorite, is_read, tag_name }, [...selectedIds]);
    } catch (error) {
      console.error('Reading the selection failed', error);
      return [];
    }
  }, [lectern, archived, favorite, is_read, tag_name, selectedIds, wanted]);
  // A card just unselected leaves at once, before the read answers again.
  return wanted && selectedIds.size > 0 ? (answer ?? []).filter((id) => selectedIds.has(id)) : [];
}

/**
 * Tags with their article counts for the sidebar; a failure is only logged (spec section 8). Asked only
 * once `ready`, so the first cards don't wait behind a second read of a large library.
 */
export function useTags(ready = true): Tag[] | undefined {
  const lectern = useLectern();
  return useLiveQuery(async () => {
    if (!ready) return undefined;
    try {
      return (await lectern.tags.list()).tags;
    } catch (error) {
      console.error('Loading tags failed', error);
      return [];
    }
  }, [lectern, ready]);
}

/**
 * Gets the search index ready (read back from the device, what changed since taken in) once `ready`, in
 * idle moments, so the first letters typed are answered as fast as the rest.
 */
export function usePreparedSearch(ready: boolean): void {
  const lectern = useLectern();
  useEffect(() => {
    if (!ready) return;
    lectern.articles
      .prepareSearch()
      .catch((error: unknown) => console.error('Preparing search failed', error));
  }, [lectern, ready]);
}

/** Spec section 9's analytics; a failure is only logged. */
export function useReadingAnalytics(): ReadingAnalytics | null | undefined {
  const lectern = useLectern();
  return useLiveQuery(async () => {
    try {
      return await lectern.analytics();
    } catch (error) {
      console.error('Loading analytics failed', error);
      return null;
    }
  }, [lectern]);
}
