// Saves with the page attached (POST /articles with `html`): a bookmarklet or the browser extension sends
// the page as the reader sees it, which works where a server-side fetch can't (pages built by JavaScript,
// pages behind the reader's own sign-in). Nothing in it is trusted: it goes through the very extraction a
// fetched page does.
import { PAGE_HTML_MAX_BYTES, SERVER_ERRORS } from '@lectern/shared-schema';
import { extractGivenPage, type ExtractedArticle } from '../extraction/index';
import type { ServiceContext } from './context';
import { HttpError } from './errors';

/** 413 for a page past PAGE_HTML_MAX_BYTES of UTF-8, before any other work. */
export function requireGivenPageSize(html: string): void {
  // A string is at most 3 bytes of UTF-8 per UTF-16 unit: most pages are judged without counting.
  if (html.length * 3 <= PAGE_HTML_MAX_BYTES) return;
  if (Buffer.byteLength(html, 'utf8') > PAGE_HTML_MAX_BYTES) {
    throw new HttpError(413, SERVER_ERRORS.pageHtmlTooLarge);
  }
}

/**
 * The CPU part of such a save, in one of the user's save slots (429 when they have none left), like a
 * fetched page: `url` is the page's address, the base of its relative links and its identity.
 */
export function extractPageOfSave(
  ctx: ServiceContext,
  userId: string,
  url: string,
  html: string,
): Promise<{ page: { url: string }; extracted: ExtractedArticle }> {
  return ctx.limits.saves.run(userId, async () => ({
    page: { url },
    extracted: await extractGivenPage(html, url, userId),
  }));
}
