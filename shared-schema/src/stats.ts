// Numbers both sides compute the same way: list filters and stats (spec sections 3 and 4), highlight
// stats, and the analytics of section 9. The server answers with them; the app computes them offline.
import { ANALYTICS_MONTHS, ANALYTICS_TOP_TAGS, STREAK_MAX_DAYS } from './constants';
import type { ArticleStats, HighlightStats } from './entities';
import type { ArticlesQuery } from './payloads';
import { tagNameKey } from './tag-identity';

interface ArticleFlags {
  is_read: boolean;
  is_archived: boolean;
  is_favorite: boolean;
}

/** read is total minus unread minus archived, floored at 0 (spec section 3). */
export function computeArticleStats(articles: readonly ArticleFlags[]): ArticleStats {
  let unread = 0;
  let archived = 0;
  let favorites = 0;
  for (const article of articles) {
    if (article.is_archived) archived += 1;
    else if (!article.is_read) unread += 1;
    if (article.is_favorite) favorites += 1;
  }
  const total = articles.length;
  return { total, unread, read: Math.max(0, total - unread - archived), archived, favorites };
}

/** The dashboard filter of spec section 4; an absent flag doesn't filter. */
export function matchesArticleFilter(
  article: ArticleFlags & { tags: readonly string[] },
  query: ArticlesQuery,
) {
  if (query.archived !== undefined && article.is_archived !== query.archived) return false;
  if (query.favorite !== undefined && article.is_favorite !== query.favorite) return false;
  if (query.is_read !== undefined && article.is_read !== query.is_read) return false;
  if (query.tag_name !== undefined) {
    // The tag's identity, as the server's filter compares name_key (toLowerCase missed "ß" = "SS").
    const wanted = tagNameKey(query.tag_name);
    if (!article.tags.some((tag) => tagNameKey(tag) === wanted)) return false;
  }
  return true;
}

/** Newest first, ties broken by id so both sides list the same order. */
export function compareNewestFirst(
  a: { created_at: string; id: string },
  b: { created_at: string; id: string },
) {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** highlights_this_week counts the highlights made in the last seven days. */
export function computeHighlightStats(
  highlights: readonly { article_id: string; created_at: string }[],
  now: Date,
): HighlightStats {
  const weekAgo = new Date(now.getTime() - WEEK_MS).toISOString();
  return {
    total_highlights: highlights.length,
    articles_with_highlights: new Set(highlights.map((h) => h.article_id)).size,
    highlights_this_week: highlights.filter((h) => h.created_at >= weekAgo).length,
  };
}

export interface ReadingAnalytics {
  topTags: { name: string; article_count: number }[];
  /** Oldest month first; `month` is `YYYY-MM` in local time. */
  monthlySaved: { month: string; count: number }[];
  thisMonth: number;
  streak: number;
}

function localDayKey(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

function localMonthKey(date: Date): string {
  return localDayKey(date).slice(0, 7);
}

/**
 * Spec section 9: top 5 tags by article_count; articles saved in each of the last 6 calendar months;
 * 'This month'; and the reading streak: consecutive days with a read article (by its updated_at),
 * counted back from today, or from yesterday when today has none yet.
 */
export function computeAnalytics(
  articles: readonly { created_at: string; updated_at: string; is_read: boolean }[],
  tags: readonly { name: string; article_count: number }[],
  now: Date,
): ReadingAnalytics {
  const topTags = [...tags]
    .filter((tag) => tag.article_count > 0)
    .sort((a, b) => b.article_count - a.article_count || a.name.localeCompare(b.name))
    .slice(0, ANALYTICS_TOP_TAGS)
    .map(({ name, article_count }) => ({ name, article_count }));

  const months: string[] = [];
  for (let back = ANALYTICS_MONTHS - 1; back >= 0; back -= 1) {
    months.push(localMonthKey(new Date(now.getFullYear(), now.getMonth() - back, 1)));
  }
  const savedPerMonth = new Map<string, number>(months.map((month) => [month, 0]));
  for (const article of articles) {
    const month = localMonthKey(new Date(article.created_at));
    const count = savedPerMonth.get(month);
    if (count !== undefined) savedPerMonth.set(month, count + 1);
  }
  const monthlySaved = months.map((month) => ({ month, count: savedPerMonth.get(month) ?? 0 }));

  const readDays = new Set(articles.filter((a) => a.is_read).map((a) => localDayKey(new Date(a.updated_at))));
  const dayBack = (days: number) =>
    localDayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() - days));
  let start = readDays.has(dayBack(0)) ? 0 : readDays.has(dayBack(1)) ? 1 : -1;
  let streak = 0;
  if (start >= 0) {
    while (start < STREAK_MAX_DAYS && readDays.has(dayBack(start))) {
      streak += 1;
      start += 1;
    }
  }

  return { topTags, monthlySaved, thisMonth: savedPerMonth.get(localMonthKey(now)) ?? 0, streak };
}
