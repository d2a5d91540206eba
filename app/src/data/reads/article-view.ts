// The library in the orders the dashboard lists it, derived from the cached rows once per
// change rather than on every query: a filter switch over 50,000 articles is then one pass over an array
// already in order, with no sort and no new object per article.
import { compareNewestFirst } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import type { ArticleRow } from '../db/rows';
import { compareTitles } from './article-order';
import { cachedArticles } from './row-cache';

export interface ArticleView {
  newestFirst: readonly ArticleRow[];
  /** Sorted the first time it is asked for after a change (A-Z is seldom chosen). */
  byTitle(): readonly ArticleRow[];
}

const views = new WeakMap<LecternDb, { version: number; view: ArticleView }>();

export async function articleView(db: LecternDb): Promise<ArticleView> {
  const cache = await cachedArticles(db);
  // Read now, in the same step as the rows are copied below.
  const version = cache.version;
  const rows = cache.rows;
  const kept = views.get(db);
  if (kept && kept.version === version) return kept.view;
  const all = [...rows.values()];
  const newestFirst = all.sort(compareNewestFirst);
  let byTitle: ArticleRow[] | null = null;
  const view: ArticleView = {
    newestFirst,
    byTitle: () => (byTitle ??= [...newestFirst].sort(compareTitles)),
  };
  views.set(db, { version, view });
  return view;
}
