// Names a dashboard list in an order: the screen's chunks of one list, and a list read ahead at start, are
// matched by it.
import type { ArticlesQuery } from '@lectern/shared-schema';
import type { ArticleOrder } from './article-order';

export function listKeyOf(query: ArticlesQuery, order: ArticleOrder): string {
  const { archived, favorite, is_read, tag_name } = query;
  return JSON.stringify([archived ?? null, favorite ?? null, is_read ?? null, tag_name ?? null, order]);
}
