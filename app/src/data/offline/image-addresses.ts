// Which images of an article the device keeps for reading offline: the server's own copies (archived
// images, `/api/images/{articleId}/{hash}.{ext}`) found in the body's <img src>/srcset and in image_url, and
// a screenshot article's picture (`/api/articles/{id}/screenshot`). A picture still on another site is
// not ours to keep: it loads as it is.

/** An archived image's address, as the server writes it into content and image_url. */
const ARCHIVED_IMAGE = /\/api\/images\/[A-Za-z0-9_-]+\/[0-9a-f]{64}\.(?:png|jpg|gif|webp|avif|svg)/g;
/** The same, alone in an address: a stateless pattern (a global one keeps lastIndex between calls). */
const WHOLE_ARCHIVED_IMAGE = new RegExp(`^${ARCHIVED_IMAGE.source}$`);
const SCREENSHOT = /^\/api\/articles\/[^/?#]+\/screenshot$/;

export interface ImageOwner {
  id: string;
  image_url: string | null;
  screenshot_url?: string | null;
}

/** True for an address the device downloads with the token and keeps: shown from there, never by <img src>. */
export function isKeptImageAddress(address: string | null | undefined): address is string {
  if (!address) return false;
  return WHOLE_ARCHIVED_IMAGE.test(address) || SCREENSHOT.test(address);
}

/**
 * The addresses to keep for one article, lead image first, each once. A linear scan: the pattern has no
 * nested repetition, so a long body costs its length.
 */
export function keptImageAddresses(article: ImageOwner, content: string | null | undefined): string[] {
  const found = new Set<string>();
  for (const address of [article.image_url, article.screenshot_url]) {
    if (isKeptImageAddress(address)) found.add(address);
  }
  if (content) {
    for (const match of content.matchAll(ARCHIVED_IMAGE)) found.add(match[0]);
  }
  return [...found];
}
