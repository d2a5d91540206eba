// Entry point of an extraction worker thread. Plain JavaScript so that any Node can load it: it
// registers tsx itself, because a worker started from vitest or plain node inherits no TypeScript loader.
import { register } from 'tsx/esm/api';

register();
const extraction = await import('./article-extraction.ts');
const articleImages = await import('./article-images.ts');
const svgSanitizer = await import('./sanitize-svg.ts');

/** @param {{ html: string; url: string }} task */
export default function extract({ html, url }) {
  return extraction.extractArticleNow(html, url);
}

/** @param {{ html: string; url: string }} task */
export function readFetchedPage({ html, url }) {
  return extraction.readFetchedPage(html, url);
}

/** @param {{ html: string; url: string }} task */
export function readMetaRefresh({ html, url }) {
  return extraction.readMetaRefresh(html, url);
}

/** @param {{ html: string; url: string }} task */
export function readGivenPage({ html, url }) {
  return extraction.readGivenPage(html, url);
}

/** @param {{ html: string }} task */
export function findArticleImages({ html }) {
  return articleImages.findArticleImages(html);
}

/** @param {{ html: string; archived: Record<string, string> }} task */
export function rewriteArticleImages({ html, archived }) {
  return articleImages.rewriteArticleImages(html, archived);
}

/** @param {{ svg: string }} task */
export function sanitizeSvg({ svg }) {
  return svgSanitizer.sanitizeSvg(svg);
}
