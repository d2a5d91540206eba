// From a fetched page to the article we store: metadata first (Readability rewrites the document),
// lazy images resolved, Readability for the body, then the allowlist sanitizer over its output. The page
// is parsed once: the same parse tells whether its meta refresh sends the reader elsewhere.
import { Readability } from '@mozilla/readability';
import { htmlToText } from '@lectern/shared-schema';
import { FETCH_FAILURES, FetchFailedError } from './errors';
import { resolveLazyImages } from './lazy-images';
import { metaRefreshTarget } from './meta-refresh';
import {
  keepDeepNestingAsText,
  MAX_PARSED_NESTING,
  MAX_READABILITY_ELEMENTS,
  MAX_READABILITY_WORK,
  nestingDepth,
} from './nesting';
import { parsePage, type PageDocument, type PageNode } from './page-dom';
import { clean, isoDate, personName, readPageMetadata } from './page-metadata';
import { countWords, minutesForWords } from './reading-time';
import { safeAbsoluteUrl, sanitizeArticleChildren } from './sanitize-article';

export interface ExtractedArticle {
  title: string;
  description: string | null;
  author: string | null;
  image_url: string | null;
  /** ISO-8601 */
  published_date: string | null;
  site_name: string | null;
  language: string | null;
  excerpt: string | null;
  /** Sanitized HTML; null when the page has no article Readability could find. */
  content: string | null;
  /** Plain text of the content (or the description), for search. */
  content_text: string;
  /** Minutes, at least 1. */
  reading_time: number;
}

/** With fewer words than this, what Readability found is navigation or a stub, not an article. */
const MIN_ARTICLE_WORDS = 50;
const EXCERPT_MAX_LENGTH = 300;

/** What one parse of a fetched page found: where its meta refresh leads, or its article. */
export type PageReading =
  { kind: 'refresh'; url: string } | { kind: 'article'; article: ExtractedArticle } | { kind: 'tooComplex' };

export function readFetchedPage(html: string, url: string): PageReading {
  const page = parsedPage(html);
  if (!page) return { kind: 'tooComplex' };
  const baseUrl = baseUrlOf(page.document, url);
  const refresh = metaRefreshTarget(page.document, baseUrl, url);
  if (refresh) return { kind: 'refresh', url: refresh.href };
  return { kind: 'article', article: articleOf(page, url, baseUrl) };
}

/**
 * A page a browser sent (the reader's own view of it): the same parse, limits, metadata and sanitizer as a
 * fetched page, but its meta refresh is not followed (the browser already went wherever it led).
 */
export function readGivenPage(html: string, url: string): Exclude<PageReading, { kind: 'refresh' }> {
  const page = parsedPage(html);
  if (!page) return { kind: 'tooComplex' };
  return { kind: 'article', article: articleOf(page, url, baseUrlOf(page.document, url)) };
}

export type RefreshReading = { kind: 'refresh'; url: string } | { kind: 'page' } | { kind: 'tooComplex' };

/** Only the meta refresh, for callers that want the page's markup rather than its article. */
export function readMetaRefresh(html: string, url: string): RefreshReading {
  const document = parsedPage(html)?.document;
  if (!document) return { kind: 'tooComplex' };
  const refresh = metaRefreshTarget(document, baseUrlOf(document, url), url);
  return refresh ? { kind: 'refresh', url: refresh.href } : { kind: 'page' };
}

export function extractArticleNow(html: string, url: string): ExtractedArticle {
  const page = parsedPage(html);
  if (!page) throw new FetchFailedError(FETCH_FAILURES.unprocessable);
  return articleOf(page, url, baseUrlOf(page.document, url));
}

interface ParsedPage {
  document: PageDocument;
  /** What Readability would spend on it (see MAX_READABILITY_WORK). */
  readabilityWork: number;
}

/** The parsed page, or null when its markup nests too deep to parse in reasonable time. */
function parsedPage(html: string): ParsedPage | null {
  if (nestingDepth(html) > MAX_PARSED_NESTING) return null;
  const document = parsePage(html);
  return { document, readabilityWork: keepDeepNestingAsText(document) };
}

function baseUrlOf(document: PageDocument, url: string): string {
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  return (baseHref && safeAbsoluteUrl(baseHref, url)) || url;
}

function articleOf(
  { document, readabilityWork }: ParsedPage,
  url: string,
  baseUrl: string,
): ExtractedArticle {
  const metadata = readPageMetadata(document, baseUrl);
  resolveLazyImages(document);
  const parsed = readabilityWork > MAX_READABILITY_WORK ? null : readableArticle(document);

  const sanitized = parsed?.content ? sanitizeArticleChildren(parsed.content, baseUrl) : '';
  const bodyText = htmlToText(sanitized);
  const bodyWords = countWords(bodyText);
  const content = bodyWords >= MIN_ARTICLE_WORDS ? sanitized : null;
  // Without an article, Readability's "excerpt" is whatever text it found (menus, cookie notices).
  const readabilityExcerpt = content ? clean(parsed?.excerpt) : null;
  const description = metadata.description ?? readabilityExcerpt;
  const contentText = content ? bodyText : (description ?? '');
  return {
    title: metadata.title ?? clean(parsed?.title) ?? hostOf(url),
    description,
    author: metadata.author ?? personName(parsed?.byline),
    image_url: metadata.image_url ?? (content ? firstImage(content) : null),
    published_date: metadata.published_date ?? isoDate(parsed?.publishedTime),
    site_name: metadata.site_name ?? clean(parsed?.siteName),
    language: metadata.language ?? clean(parsed?.lang),
    excerpt: truncate(readabilityExcerpt ?? description ?? (content ? firstParagraph(bodyText) : null)),
    content,
    content_text: contentText,
    reading_time: minutesForWords(content ? bodyWords : countWords(contentText)),
  };
}

/** What Readability found, its article still a tree: the sanitizer writes the only serialisation. */
type ReadableArticle = Omit<NonNullable<ReturnType<Readability['parse']>>, 'content'> & {
  content: PageNode | null;
};

function readableArticle(document: PageDocument): ReadableArticle | null {
  // A page too big for Readability to read in a few seconds (MAX_READABILITY_WORK, checked by the caller)
  // would hold a worker every other user's saves wait for; it is kept with its metadata and no body.
  try {
    // Classes are kept for the sanitizer to judge: it lets only code-language classes through. The
    // serializer hands the article's element back as it is (Readability's types say a string).
    return new Readability(document, {
      keepClasses: true,
      maxElemsToParse: MAX_READABILITY_ELEMENTS,
      serializer: (element) => element as unknown as string,
    }).parse() as ReadableArticle | null;
  } catch {
    // Readability throws on some broken trees (a candidate whose parents never reach <body>) and on pages
    // past maxElemsToParse; the page is then saved with its metadata and no body, like a page without an
    // article.
    return null;
  }
}

function firstImage(html: string): string | null {
  const src = /<img\b[^>]*\ssrc="([^"]+)"/.exec(html)?.[1];
  return src ? src.replace(/&amp;/g, '&') : null;
}

function firstParagraph(text: string): string | null {
  return clean(text.split('\n').find((line) => line.trim().length > 0));
}

function truncate(text: string | null): string | null {
  if (!text || text.length <= EXCERPT_MAX_LENGTH) return text;
  const cut = text.slice(0, EXCERPT_MAX_LENGTH);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), EXCERPT_MAX_LENGTH / 2)).trimEnd()}…`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
