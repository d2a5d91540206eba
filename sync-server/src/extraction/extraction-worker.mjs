// Entry point of an extraction worker thread. Plain JavaScript so that any Node can load it: it
// registers tsx itself, because a worker started from vitest or plain node inherits no TypeScript loader.
import { register } from 'tsx/esm/api';

register();
const { extractArticleNow } = await import('./article-extraction.ts');

/** @param {{ html: string; url: string }} task */
export default function extract({ html, url }) {
  return extractArticleNow(html, url);
}
