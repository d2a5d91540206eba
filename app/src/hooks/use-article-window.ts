// The dashboard's list a window at a time (lectern.articles.page): the rows the grid builds and the list's
// total, followed live (a local write or a sync touching the list reads the window again, not the library).
import { useContext, useEffect } from 'react';
import type { ArticlesQuery } from '@lectern/shared-schema';
import type { ArticleOrder, ArticlePage } from '../data';
import { LecternContext } from '../session/use-lectern';

/** A window's answer, for the list `key` names. */
export interface ArticleWindow extends ArticlePage {
  key: string;
  /** Spec section 8: a failed list keeps its message without showing it. */
  error: string | null;
}

/** Names a list in an order: a window answered for another key is another list's. */
export function listKeyOf(query: ArticlesQuery, order: ArticleOrder): string {
  const { archived, favorite, is_read, tag_name } = query;
  return JSON.stringify([archived ?? null, favorite ?? null, is_read ?? null, tag_name ?? null, order]);
}

/**
 * Follows the rows [start, end) of the list in `order` and its total, handing each answer to `onAnswer`
 * (the caller keeps the last one, so a new window or list doesn't blank what is shown meanwhile).
 */
export function useArticleWindow(
  query: ArticlesQuery,
  order: ArticleOrder,
  start: number,
  end: number,
  onAnswer: (answer: ArticleWindow) => void,
): void {
  const lectern = useContext(LecternContext);
  const key = listKeyOf(query, order);
  useEffect(() => {
    if (!lectern) return undefined;
    // The key names every field of the query used here.
    const [archived, favorite, is_read, tag_name] = JSON.parse(key) as [
      boolean | null,
      boolean | null,
      boolean | null,
      string | null,
      ArticleOrder,
    ];
    const asked: ArticlesQuery = {};
    if (archived !== null) asked.archived = archived;
    if (favorite !== null) asked.favorite = favorite;
    if (is_read !== null) asked.is_read = is_read;
    if (tag_name !== null) asked.tag_name = tag_name;
    const subscription = lectern
      .liveQuery(async (): Promise<ArticleWindow> => {
        try {
          return { key, ...(await lectern.articles.page(asked, order, start, end)), error: null };
        } catch (error) {
          return {
            key,
            total: 0,
            start,
            articles: [],
            error: error instanceof Error ? error.message : String(error),
          };
        }
      })
      .subscribe({
        next: onAnswer,
        error: (error: unknown) => console.error('Listing articles failed', error),
      });
    return () => subscription.unsubscribe();
    // onAnswer is a state setter; `key` stands for the query.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lectern, key, order, start, end]);
}
