// The list the dashboard opens on, and the chunks its grid reads: the app's start reads that list's first
// chunk ahead (session/LecternProvider.tsx), before the dashboard has rendered.
import type { ArticleOrder } from '../../data';
import { articlesQueryOf, INITIAL_FILTER } from './dashboard-filter';

/**
 * The list is read in chunks of this many (a multiple of every column count up to 4 and 6), around the
 * cards built: a scroll reads a chunk only when it comes near, and each chunk once.
 */
export const READ_CHUNK = 48;

export const INITIAL_ORDER: ArticleOrder = 'newest';

/** The dashboard's first list: its query, its order, and the range of its first chunk. */
export const START_LIST = {
  query: articlesQueryOf(INITIAL_FILTER),
  order: INITIAL_ORDER,
  start: 0,
  end: READ_CHUNK,
} as const;
