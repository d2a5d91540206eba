// The library in the orders the dashboard lists it, derived from the cached rows once per
// change rather than on every query: a filter switch over 50,000 articles is then one pass over an array
// already in order, with no sort and no new object per article.
import { compareNewestFirst } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import type { ArticleRow } from '../db/rows';
import { compareTitles } from './article-order';
import { cachedArticles } from './row-cache';
import { stagedCards } from '../db/staged-cards';

export interface ArticleView {
  newestFirst: readonly ArticleRow[];
  /** Sorted the first time it is asked for after a change (A-Z is seldom chosen). */
  byTitle(): readonly ArticleRow[];
}

const views = new WeakMap<
  LecternDb,
  { version: number; staged: ReadonlyMap<string, ArticleRow> | null; view: ArticleView }
>();

export async function articleView(db: LecternDb): Promise<ArticleView> {
  const [cache, staged] = await Promise.all([cachedArticles(db), stagedCards(db)]);
  // Read now, in the same step as the rows are copied below.
  const version = cache.version;
  const rows = cache.rows;
  const kept = views.get(db);
  if (kept && kept.version === version && kept.staged === staged) return kept.view;
  const all = [...rows.values()];
  // A first sync's staged cards are articles too, until moved into rows (which then win).
  if (staged) for (const [id, card] of staged) if (!rows.has(id)) all.push(card);
  const newestFirst = all.sort(compareNewestFirst);
  let byTitle: ArticleRow[] | null = null;
  const view: ArticleView = {
    newestFirst,
    byTitle: () => (byTitle ??= [...newestFirst].sort(compareTitles)),
  };
  views.set(db, { version, staged, view });
  return view;
}

/** Lets the view go with the rows it was made of (reads/row-cache.ts forgetArticles). */
export function forgetArticleView(db: LecternDb): void {
  views.delete(db);
}
