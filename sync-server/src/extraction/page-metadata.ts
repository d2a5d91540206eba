// What a page says about itself in <head> (Open Graph, Twitter cards, Dublin Core, plain meta), its
// JSON-LD and a few body conventions. Read before Readability rewrites the document.
import { articleTitle } from './article-title';
import { readJsonLdArticle } from './json-ld';
import type { PageDocument } from './page-dom';
import { safeAbsoluteUrl } from './sanitize-article';

export interface PageMetadata {
  /** The page's headline without the site's name; null when the page names itself nowhere. */
  title: string | null;
  description: string | null;
  author: string | null;
  image_url: string | null;
  published_date: string | null;
  site_name: string | null;
  language: string | null;
}

export function readPageMetadata(document: PageDocument, pageUrl: string): PageMetadata {
  const meta = metaValues(document);
  const pick = (...keys: string[]) => keys.map((key) => meta.get(key)).find((value) => value) ?? null;
  const jsonLd = readJsonLdArticle(document);
  const image = [
    pick('og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'),
    jsonLd?.image,
    document.querySelector('link[rel~="image_src" i]')?.getAttribute('href'),
  ]
    .map((candidate) => (candidate ? safeAbsoluteUrl(candidate, pageUrl) : null))
    .find((url) => url);
  const time = document.querySelector('time[datetime]')?.getAttribute('datetime');
  const siteName = pick('og:site_name', 'application-name', 'twitter:site') ?? jsonLd?.publisher ?? null;
  const title = articleTitle({
    metaTitle: pick('og:title', 'twitter:title', 'dc.title'),
    documentTitle: document.querySelector('title')?.textContent ?? null,
    headings: firstHeadings(document),
    jsonLdHeadline: jsonLd?.headline ?? null,
    jsonLdName: jsonLd?.name ?? null,
    siteNames: [
      pick('og:site_name'),
      pick('application-name'),
      pick('twitter:site')?.replace(/^@/, ''),
      jsonLd?.publisher,
    ].filter((name): name is string => !!name),
    pageUrl,
  });
  return {
    title,
    description:
      pick('og:description', 'description', 'twitter:description', 'dc.description') ??
      jsonLd?.description ??
      null,
    author:
      personName(
        pick('author', 'article:author', 'dc.creator', 'parsely-author', 'sailthru.author', 'byl'),
      ) ??
      jsonLd?.author ??
      null,
    image_url: image ?? null,
    published_date:
      [
        pick(
          'article:published_time',
          'og:published_time',
          'datepublished',
          'dc.date.issued',
          'dcterms.issued',
        ),
        pick(
          'publish-date',
          'publishdate',
          'pubdate',
          'date',
          'dc.date',
          'dcterms.created',
          'parsely-pub-date',
        ),
        jsonLd?.datePublished,
        time,
      ]
        .map(isoDate)
        .find((date) => date) ?? null,
    site_name: siteName,
    language: languageTag(
      document.documentElement.getAttribute('lang') ??
        pick('content-language', 'language', 'dc.language', 'og:locale') ??
        jsonLd?.inLanguage,
    ),
  };
}

/** The texts of the first few <h1>s: the page's own headline is among them, if it shows one. */
function firstHeadings(document: PageDocument): string[] {
  const headings: string[] = [];
  for (const heading of document.querySelectorAll('h1')) {
    if (headings.length === 10) break;
    headings.push(heading.textContent ?? '');
  }
  return headings;
}

/** First value of each meta key (property, name, itemprop or http-equiv), keys lower-cased. */
function metaValues(document: PageDocument): Map<string, string> {
  const values = new Map<string, string>();
  for (const element of document.querySelectorAll('meta[content]')) {
    const key = ['property', 'name', 'itemprop', 'http-equiv']
      .map((attribute) => element.getAttribute(attribute)?.trim().toLowerCase())
      .find((name) => name);
    const value = clean(element.getAttribute('content'));
    if (key && value && !values.has(key)) values.set(key, value);
  }
  return values;
}

/**
 * "By Jane Doe" reads as "Jane Doe"; a profile URL is not a name, and neither is a date: bylines found
 * on pages are often "Last Updated: January 7, 2025" or "Jane Doe | Published 3 hours ago", whose date
 * parts are dropped.
 */
export function personName(value: string | null | undefined): string | null {
  const parts = (clean(value)?.slice(0, MAX_BYLINE_LENGTH) ?? '').split(BYLINE_SEPARATOR);
  const name = clean(
    parts
      .filter((part) => !isDateOrTime(part))
      .join(', ')
      .replace(/^\s*by[:\s]+/i, ''),
  );
  return name && !/^https?:\/\//i.test(name) && !name.startsWith('@') && !isDateOrTime(name) ? name : null;
}

const MAX_BYLINE_LENGTH = 300;
/** Between a name and a date in one byline: "Jane Doe | May 2, 2024", "Jane Doe · 3 min read". */
const BYLINE_SEPARATOR = / [|·•—–-] | ?[|·•] ?/;
const MONTH =
  '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?|(?:janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre|januar|februar|märz|juni|juli|oktober|dezember)';
const DATE_OR_TIME = [
  /^(?:last )?(?:updated|published|posted|modified|edited|created|written|date|on)\b/i,
  /\b(?:ago|today|yesterday)$/i,
  /\b\d+ ?(?:min|minute|hour|hr|day|week|month|year)s?\b/i,
  new RegExp(`\\b(?:${MONTH}) \\d{1,2}\\b|\\b\\d{1,2}\\.? (?:${MONTH})`, 'i'),
  /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b\d{1,2}:\d{2}\b/,
];

/** Whether a byline part is a date, a time or a reading time rather than a name. */
function isDateOrTime(text: string): boolean {
  const trimmed = text.trim();
  return !/\p{L}{2}/u.test(trimmed) || DATE_OR_TIME.some((pattern) => pattern.test(trimmed));
}

export function isoDate(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** "en_US" (og:locale) and "en-us" both become "en-US". */
function languageTag(value: string | null | undefined): string | null {
  const match = /^([a-z]{2,3})(?:[-_]([a-z0-9]{2,8}))?/i.exec(value?.trim() ?? '');
  if (!match) return null;
  const [, language, region] = match;
  return region
    ? `${language!.toLowerCase()}-${region.length === 2 ? region.toUpperCase() : region}`
    : language!.toLowerCase();
}

export function clean(value: string | null | undefined): string | null {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? text : null;
}
