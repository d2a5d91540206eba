// How an article's facts read on a card: where it's from, when it was saved, how long it takes.
import { displayReadingTime, isScreenshotUrl } from '@lectern/shared-schema';

export function articleSource(article: { url: string; site_name?: string | null }): string {
  if (isScreenshotUrl(article.url)) return 'Screenshot';
  if (article.site_name) return article.site_name;
  try {
    return new URL(article.url).hostname.replace(/^www\./, '');
  } catch {
    return article.url;
  }
}

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

/** Reading time shows as 1 minute when missing (spec section 3). */
export function readingTimeLabel(minutes: number | null | undefined): string {
  return `${displayReadingTime(minutes)} min read`;
}

/** English plurals for counts in running text: '1 article', '3 articles'. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
