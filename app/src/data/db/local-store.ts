// Low-level writes to the device's tables, shared by local writes and by the sync engine's pulls. Callers
// run them inside one read-write transaction over `db.dataTables`.
import {
  comparePlaces,
  compareTagNames,
  movedPlaces,
  tagNameKey,
  type Article,
  type ArticleSummary,
  type ListArticle,
} from '@lectern/shared-schema';
import { listArticleKey } from '@lectern/shared-schema';
import { deleteBodies, putBodies } from './bodies';
import type { LecternDb } from './lectern-db';
import type { ArticleContentRow, ArticleRow, HighlightRow } from './rows';

/** A tag's identity: shared-schema's one rule, the same the server stores in name_key. */
export function tagKey(name: string): string {
  return tagNameKey(name);
}

/** The order the server lists an article's tag names in: by key, then by name. */
export function sortTagNames(names: readonly string[]): string[] {
  return [...names].sort(compareTagNames);
}

/**
 * A number larger than any handed out before, also across tabs (read-write transactions on `meta` run one
 * at a time) and across a wipe (it starts from the clock).
 */
export async function nextRev(db: LecternDb): Promise<number> {
  const last = (await db.getMeta('rev')) ?? 0;
  const rev = Math.max(last + 1, Date.now() * 1000);
  await db.setMeta('rev', rev);
  return rev;
}

export function toArticleRow(article: ArticleSummary, rev: number, contentHash?: number): ArticleRow {
  const summary: ArticleSummary & { content?: unknown } = { ...article };
  delete summary.content;
  const row: ArticleRow = {
    ...summary,
    tags: sortTagNames(article.tags),
    tag_keys: article.tags.map(tagKey),
    rev,
  };
  if (contentHash !== undefined) row.content_hash = contentHash;
  return row;
}

/**
 * What a body takes in IndexedDB: UTF-16, two bytes a character; with the text for search that versions
 * before 2 December 2026 kept beside it, when given.
 */
export function bodySizeOf(content: string | null, text = ''): number {
  return 2 * ((content?.length ?? 0) + text.length);
}

/** FNV-1a over the UTF-16 code units: cheap next to writing and re-indexing an unchanged body. */
export function hashOf(text: string | null): number {
  if (text === null) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Article rows written by one request: about 10 to 20 ms of the page's thread. */
const ARTICLE_WRITE_SLICE = 200;

/**
 * Writes article rows a slice at a time: each answer comes back in a task of its own, so the page can
 * paint and take input between two slices of a large write (a page of 1,000 cards was one task of 100 ms).
 */
export async function putArticleRows(db: LecternDb, rows: readonly ArticleRow[]): Promise<void> {
  for (let from = 0; from < rows.length; from += ARTICLE_WRITE_SLICE)
    await db.articles.bulkPut(rows.slice(from, from + ARTICLE_WRITE_SLICE));
}

/**
 * Stores server articles (with their bodies when given) as they are, under one new rev. An article without
 * its body keeps the one on the device, unless `cardsReplaceBodies`: the change feed's cards (a first sync)
 * say the article is now this, its body unknown, so a body kept from before is dropped and fetched again
 * (offline/body-downloads.ts) rather than left behind what the server has.
 */
export async function putArticles(
  db: LecternDb,
  articles: readonly (Article | ArticleSummary)[],
  cardsReplaceBodies = false,
): Promise<void> {
  if (articles.length === 0) return;
  const rev = await nextRev(db);
  // Cards that replace bodies need nothing of the rows before them (a first sync: there are none).
  const allCards = cardsReplaceBodies && articles.every((article) => !('content' in article));
  const before = allCards ? [] : await db.articles.bulkGet(articles.map((article) => article.id));
  const rows: ArticleRow[] = [];
  const bodies: ArticleContentRow[] = [];
  const dropped: string[] = [];
  articles.forEach((article, i) => {
    const previousHash = before[i]?.content_hash;
    if (!('content' in article)) {
      if (cardsReplaceBodies) {
        rows.push(toArticleRow(article, rev));
        dropped.push(article.id);
      } else rows.push(toArticleRow(article, rev, previousHash));
      return;
    }
    const hash = hashOf(article.content);
    rows.push(toArticleRow(article, rev, hash));
    if (hash !== previousHash) bodies.push({ id: article.id, content: article.content, rev });
  });
  await putArticleRows(db, rows);
  await putBodies(db, bodies);
  // Most cards have none to drop: the id index is read, and only the bodies there are deleted.
  await deleteBodies(db, dropped);
}

/** Saves changed article rows (a local edit), bumping their rev so search sees the change. */
export async function rewriteArticles(db: LecternDb, rows: readonly ArticleRow[]): Promise<void> {
  if (rows.length === 0) return;
  const rev = await nextRev(db);
  await db.articles.bulkPut(
    rows.map((row) => ({ ...row, tags: sortTagNames(row.tags), tag_keys: row.tags.map(tagKey), rev })),
  );
}

/** Removes an article with everything that hangs on it, as the server's delete does. */
export async function deleteArticleLocally(db: LecternDb, articleId: string): Promise<void> {
  await db.articles.delete(articleId);
  await deleteBodies(db, [articleId]);
  await db.screenshots.delete(articleId);
  await db.highlights.where('article_id').equals(articleId).delete();
  const places = await db.list_articles.where('article_id').equals(articleId).toArray();
  await db.list_articles.bulkDelete(places.map((place) => place.key));
  for (const listId of new Set(places.map((place) => place.list_id))) await renumberList(db, listId);
}

/**
 * highlights_count counts the highlights the device has, pending ones included. One count request per
 * article: walking the highlights index for many articles costs a cursor step per highlight.
 */
export async function refreshHighlightCounts(db: LecternDb, articleIds: Iterable<string>): Promise<void> {
  const articles = await db.articles.bulkGet([...new Set(articleIds)]);
  const changed: ArticleRow[] = [];
  for (const article of articles) {
    if (!article) continue;
    const count = await db.highlights.where('article_id').equals(article.id).count();
    if (article.highlights_count !== count) changed.push({ ...article, highlights_count: count });
  }
  await rewriteArticles(db, changed);
}

/** The list's places in order: by position, then by when they were added (the server's order). */
export async function orderedPlaces(db: LecternDb, listId: string): Promise<ListArticle[]> {
  const places = await db.list_articles.where('list_id').equals(listId).toArray();
  return places.sort(comparePlaces);
}

/** Writes positions 0..n-1, in the given order or in the current one (shared-schema's rule). */
export async function renumberList(db: LecternDb, listId: string, order?: readonly string[]): Promise<void> {
  const places = await orderedPlaces(db, listId);
  const moved = movedPlaces(places, order ?? places.map((place) => place.article_id));
  await db.list_articles.bulkPut(
    moved.map((place) => ({ ...place, key: listArticleKey(listId, place.article_id) })),
  );
}

type HighlightFields = Omit<HighlightRow, 'rev'> & { article_title?: unknown; article_image?: unknown };

/** Stores highlights under one new rev; their article's title and image are read from the article. */
export async function putHighlights(db: LecternDb, highlights: readonly HighlightFields[]): Promise<void> {
  if (highlights.length === 0) return;
  const rev = await nextRev(db);
  await db.highlights.bulkPut(
    highlights.map((highlight) => {
      const row: HighlightFields = { ...highlight };
      delete row.article_title;
      delete row.article_image;
      return { ...row, rev };
    }),
  );
}

/** Renames a tag on every article carrying it, or takes it off them (`newName` null). */
export async function renameTagEverywhere(
  db: LecternDb,
  oldKey: string,
  newName: string | null,
): Promise<void> {
  const rows = await db.articles.where('tag_keys').equals(oldKey).toArray();
  await rewriteArticles(
    db,
    rows.map((row) => {
      const others = row.tags.filter((name) => tagKey(name) !== oldKey);
      return { ...row, tags: newName === null ? others : [...others, newName] };
    }),
  );
}
