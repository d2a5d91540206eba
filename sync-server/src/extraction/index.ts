// The extraction module's public face: the routes import from here and nowhere deeper.
import type { ExtractedArticle } from './article-extraction';
import { extractArticleOffThread } from './extraction-pool';

export { FetchFailedError, FetchRefusedError, ImageUnreadableError } from './errors';
export { fetchPage } from './safe-fetch';
export type { SafeFetchOptions } from './safe-fetch';
export type { ExtractedArticle } from './article-extraction';
export { readingTimeMinutes } from './reading-time';
export { createOcrService, OcrTimeoutError } from './ocr-service';
export type { OcrService } from './ocr-service';
export { MAX_SCREENSHOT_BYTES, MAX_SCREENSHOT_PIXELS, sniffImage } from './image-sniff';
export { screenshotArticleFields } from './screenshot-article';

/** Off the main thread: a large page takes long enough to parse to stall other requests. */
export function extractArticle(html: string, url: string): Promise<ExtractedArticle> {
  return extractArticleOffThread(html, url);
}
