// The whole library as a Netscape bookmark file, which every browser and read-it-later app imports:
// tags in TAGS, the saved date in ADD_DATE, the description in DD.
import { escapeHtml } from '@lectern/shared-schema';
import type { Queryable } from '../../db/connection';
import { exportArticles, tagNamesOf, type ExportArticle } from './library-rows';

function bookmarkLine(article: ExportArticle): string {
  const addDate = Math.floor(Date.parse(article.created_at) / 1000);
  const tags = tagNamesOf(article);
  const attributes = [
    `HREF="${escapeHtml(article.url)}"`,
    `ADD_DATE="${Number.isFinite(addDate) ? addDate : 0}"`,
    ...(tags.length > 0 ? [`TAGS="${escapeHtml(tags.join(','))}"`] : []),
  ];
  const line = `    <DT><A ${attributes.join(' ')}>${escapeHtml(article.title)}</A>`;
  return article.description ? `${line}\n    <DD>${escapeHtml(article.description)}` : line;
}

/** The file, a line at a time; screenshot articles have no address to bookmark and are left out. */
export async function* bookmarksHtml(db: Queryable, userId: string): AsyncGenerator<string> {
  yield (
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n' +
    '<!-- This is an automatically generated file. It will be read and overwritten. DO NOT EDIT! -->\n' +
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\n' +
    '<TITLE>Bookmarks</TITLE>\n<H1>Lectern</H1>\n<DL><p>\n'
  );
  for await (const article of exportArticles(db, userId)) {
    if (!/^https?:\/\//i.test(article.url)) continue;
    yield `${bookmarkLine(article)}\n`;
  }
  yield '</DL><p>\n';
}
