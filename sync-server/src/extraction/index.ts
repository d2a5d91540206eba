// The extraction module's public face: the routes import from here and nowhere deeper.
import type { ExtractedArticle } from './article-extraction';
import {
  extractArticleOffThread,
  readFetchedPageOffThread,
  readGivenPageOffThread,
  readMetaRefreshOffThread,
} from './extraction-pool';
export {
  archivableImageOffThread,
  findArticleImagesOffThread,
  rewriteArticleImagesOffThread,
  setExtractionQueueWait,
} from './extraction-pool';
export { fetchBytes } from './safe-fetch';
import { fetchAndRead, type SafeFetchOptions } from './safe-fetch';

export { ExtractionBusyError, FetchFailedError, FetchRefusedError, ImageUnreadableError } from './errors';
export type { SafeFetchOptions } from './safe-fetch';
export type { ExtractedArticle } from './article-extraction';
export { readingTimeMinutes } from './reading-time';
export { createOcrService, OcrTimeoutError } from './ocr-service';
export type { OcrService } from './ocr-service';
export { MAX_SCREENSHOT_BYTES, MAX_SCREENSHOT_PIXELS, sniffImage } from './image-sniff';
export { screenshotArticleFields } from './screenshot-article';

export interface FetchedArticle {
  /** The address the page was finally read from, after redirects and meta refreshes. */
  url: string;
  article: ExtractedArticle;
}

export interface FetchedPage {
  /** The address the page was finally read from, after redirects and meta refreshes. */
  url: string;
  html: string;
}

/**
 * Fetches and extracts a page. Each page on the way is parsed once, off the main thread: the parse tells
 * whether its meta refresh leads on (then the target is fetched, checked like a redirect) or gives the article.
 * `owner` (the user saving it) lets the workers take users in turn.
 */
export async function fetchArticle(
  url: string,
  options: SafeFetchOptions,
  owner?: string,
): Promise<FetchedArticle> {
  const fetched = await fetchAndRead<ExtractedArticle>(url, options, async (html, pageUrl) => {
    const reading = await readFetchedPageOffThread(html, pageUrl, owner);
    return reading.kind === 'refresh' ? { refresh: reading.url } : { page: reading.article };
  });
  return { url: fetched.url, article: fetched.page };
}

/**
 * Extracts a page the reader's browser sent (POST /articles with `html`): nothing is fetched, `url` is its
 * address and the base of its relative links. Same worker pool, limits and sanitizer as fetchArticle.
 */
export function extractGivenPage(html: string, url: string, owner: string): Promise<ExtractedArticle> {
  return readGivenPageOffThread(html, url, owner);
}

/** The markup of a page after redirects and meta refreshes, for tests and the bench. */
export async function fetchPage(url: string, options: SafeFetchOptions): Promise<FetchedPage> {
  const fetched = await fetchAndRead<string>(url, options, async (html, pageUrl) => {
    const reading = await readMetaRefreshOffThread(html, pageUrl);
    return reading.kind === 'refresh' ? { refresh: reading.url } : { page: html };
  });
  return { url: fetched.url, html: fetched.page };
}

/** Off the main thread: a large page takes long enough to parse to stall other requests. */
export function extractArticle(html: string, url: string): Promise<ExtractedArticle> {
  return extractArticleOffThread(html, url);
}
