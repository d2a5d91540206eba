// A dashboard list's size as the counts kept with each write tell it (db/article-counts.ts): the list reads
// answer it without counting rows, and the dashboard knows by it when a list's read is behind the counts.
import type { ArticleStats, ArticlesQuery } from '@lectern/shared-schema';

/**
 * The articles the list of `query` holds by the counts: the tabs (All, Unread, Read) and Archived, without
 * a tag or Favorites. Undefined for any other list: the counts don't say.
 */
export function countedListTotal(
  query: ArticlesQuery,
  { total, archived, unread }: Pick<ArticleStats, 'total' | 'archived' | 'unread'>,
): number | undefined {
  if (query.tag_name !== undefined || query.favorite !== undefined) return undefined;
  if (query.archived) return query.is_read === undefined ? archived : undefined;
  if (query.is_read === undefined) return total - archived;
  return query.is_read ? total - archived - unread : unread;
}
