// Schema.org article data that publishers embed as JSON-LD: often the most reliable source of the
// headline, authors and publication date.
import type { PageDocument } from './page-dom';

export interface JsonLdArticle {
  headline: string | null;
  name: string | null;
  description: string | null;
  author: string | null;
  datePublished: string | null;
  image: string | null;
  publisher: string | null;
  inLanguage: string | null;
}

const ARTICLE_TYPES =
  /^(?:Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|TechArticle|OpinionNewsArticle|AnalysisNewsArticle|ReportageNewsArticle|LiveBlogPosting|SocialMediaPosting|WebPage)$/;

type JsonObject = { [key: string]: unknown };

export function readJsonLdArticle(document: PageDocument): JsonLdArticle | null {
  const candidates: JsonObject[] = [];
  for (const script of document.querySelectorAll('script[type="application/ld+json" i]')) {
    try {
      collectObjects(JSON.parse(script.textContent ?? ''), candidates);
    } catch {
      // Broken JSON-LD is common; the page's other metadata still counts.
    }
  }
  // A WebPage wrapper is only used when the page declares no article proper.
  const article =
    candidates.find((item) => typesOf(item).some((type) => type !== 'WebPage' && ARTICLE_TYPES.test(type))) ??
    candidates.find((item) => typesOf(item).some((type) => ARTICLE_TYPES.test(type)));
  if (!article) return null;
  return {
    headline: text(article.headline),
    name: text(article.name),
    description: text(article.description),
    author: names(article.author),
    datePublished: text(article.datePublished) ?? text(article.dateCreated),
    image: imageUrl(article.image),
    publisher: names(article.publisher),
    inLanguage: text(article.inLanguage) ?? names(article.inLanguage),
  };
}

function collectObjects(value: unknown, into: JsonObject[]): void {
  if (Array.isArray(value)) value.forEach((item) => collectObjects(item, into));
  else if (isObject(value)) {
    into.push(value);
    if (value['@graph'] !== undefined) collectObjects(value['@graph'], into);
  }
}

function typesOf(item: JsonObject): string[] {
  const type = item['@type'];
  return (Array.isArray(type) ? type : [type]).filter((entry): entry is string => typeof entry === 'string');
}

function names(value: unknown): string | null {
  const list = (Array.isArray(value) ? value : [value])
    .map((entry) => text(entry) ?? (isObject(entry) ? text(entry.name) : null))
    .filter((name): name is string => name != null && !/^https?:\/\//i.test(name));
  return list.length ? [...new Set(list)].join(', ') : null;
}

function imageUrl(value: unknown): string | null {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (isObject(first)) return text(first.url) ?? text(first.contentUrl);
  return text(first);
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  return trimmed || null;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
