// Saves with the page attached (POST /articles with `html`): a bookmarklet or the browser extension sends
// the page as the reader sees it, which works where a server-side fetch can't (pages built by JavaScript,
// pages behind the reader's own sign-in). Nothing in it is trusted: it goes through the very extraction a
// fetched page does (services/save-jobs.ts).
import { PAGE_HTML_MAX_BYTES, SERVER_ERRORS } from '@lectern/shared-schema';
import { HttpError } from './errors';

/** 413 for a page past PAGE_HTML_MAX_BYTES of UTF-8, before any other work. */
export function requireGivenPageSize(html: string): void {
  // A string is at most 3 bytes of UTF-8 per UTF-16 unit: most pages are judged without counting.
  if (html.length * 3 <= PAGE_HTML_MAX_BYTES) return;
  if (Buffer.byteLength(html, 'utf8') > PAGE_HTML_MAX_BYTES) {
    throw new HttpError(413, SERVER_ERRORS.pageHtmlTooLarge);
  }
}
