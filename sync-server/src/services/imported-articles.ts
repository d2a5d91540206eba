// One row of an import becomes an article: inside the import's batch transaction, with its tags, its
// highlights and its original dates, recorded in the change feed like any save.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { HIGHLIGHT_COLOR, isHighlightSelection, newId, normalizeArticleUrl } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { preparedWrite } from '../db/prepared-write';
import { statementSlices } from '../db/statement-slices';
import type { PreparedItem } from '../imports/prepare-import';
import { refreshArticleTagsText } from './article-rows';
import { nowIso } from './change-log';
import { ensureTags } from './tags';

const EXCERPT_MAX_LENGTH = 300;

export type ImportedRowResult =
  { kind: 'imported'; articleId: string; needsFetch: boolean } | { kind: 'skipped' };

function httpUrlOrNull(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const value = (name: string) => sql.placeholder(name);

/**
 * An imported row's article, its columns named (the others take their defaults): built once, as each of an
 * import's ten thousand rows runs it (db/prepared-write.ts).
 */
const insertImportedArticle = preparedWrite(
  () => sql`INSERT INTO articles (id, user_id, url, normalized_url, title, description, author, image_url,
      article_type, content, content_text, excerpt, reading_time, is_read, is_favorite, is_archived,
      fetch_state, created_at, updated_at)
    VALUES (${value('id')}, ${value('user')}, ${value('url')}, ${value('normalizedUrl')}, ${value('title')},
      ${value('description')}, ${value('author')}, ${value('imageUrl')}, 'web', ${value('content')},
      ${value('contentText')}, ${value('excerpt')}, ${value('readingTime')}, ${value('isRead')},
      ${value('isFavorite')}, ${value('isArchived')}, ${value('fetchState')}, ${value('savedAt')},
      ${value('savedAt')})`,
);

/** An imported article's tag (a name the file gives twice is linked once). */
const linkImportedTag = preparedWrite(
  () => sql`INSERT INTO article_tags (article_id, tag_id, created_at)
    VALUES (${value('article')}, ${value('tag')}, ${value('now')}) ON CONFLICT DO NOTHING`,
);

/**
 * What the rows of one batch share, read once for the batch rather than once a row: the addresses the
 * library holds among the batch's (and each one the batch writes), and the ids of the tags met so far.
 */
export interface ImportBatch {
  known: Set<string>;
  tagIds: Map<string, string>;
}

/** Must run inside the batch's transaction: the library's addresses among the items', for writeImportedRow. */
export async function startImportBatch(
  db: Queryable,
  userId: string,
  items: readonly PreparedItem[],
): Promise<ImportBatch> {
  const { articles } = db.tables;
  const addresses = [...new Set(items.map((item) => normalizeArticleUrl(item.url)))];
  const known = new Set<string>();
  for (const slice of statementSlices(addresses, 1)) {
    const rows = await db.orm
      .select({ normalizedUrl: articles.normalizedUrl })
      .from(articles)
      .where(and(eq(articles.userId, userId), inArray(articles.normalizedUrl, slice)));
    for (const row of rows) if (row.normalizedUrl !== null) known.add(row.normalizedUrl);
  }
  return { known, tagIds: new Map() };
}

/**
 * Must run inside the transaction `batch` was read in. An address the library already holds is skipped,
 * never saved twice. The batch's transaction records each article, highlight and tag in the feed once,
 * however many rows touch it.
 */
export async function writeImportedRow(
  db: Queryable,
  userId: string,
  item: PreparedItem,
  batch: ImportBatch,
): Promise<ImportedRowResult> {
  const normalizedUrl = normalizeArticleUrl(item.url);
  const { highlights } = db.tables;
  if (batch.known.has(normalizedUrl)) return { kind: 'skipped' };
  batch.known.add(normalizedUrl);

  const id = newId();
  const now = nowIso();
  const savedAt = item.createdAt ?? now;
  const description = item.description?.slice(0, 2000) ?? null;
  const needsFetch = item.content === null;
  await insertImportedArticle(db, {
    id,
    user: userId,
    url: item.url,
    normalizedUrl,
    title: (item.title ?? item.url).slice(0, 1000),
    description,
    author: item.author?.slice(0, 500) ?? null,
    imageUrl: httpUrlOrNull(item.imageUrl),
    content: item.content,
    contentText: item.contentText ?? description ?? '',
    excerpt: description ? description.slice(0, EXCERPT_MAX_LENGTH) : null,
    readingTime: item.readingTime,
    isRead: item.isRead,
    isFavorite: item.isFavorite,
    isArchived: item.isArchived,
    fetchState: needsFetch ? 'pending' : null,
    // The original saved date is the sort date and what analytics count; the last change is that same day.
    savedAt,
  });
  const tagIds = await ensureTags(db, userId, item.tags, batch.tagIds);
  for (const tagId of tagIds) await linkImportedTag(db, { article: id, tag: tagId, now });
  if (tagIds.length > 0) await refreshArticleTagsText(db, id);
  let offset = 0;
  for (const highlight of item.highlights) {
    const text = highlight.text.slice(0, 10_000);
    if (!isHighlightSelection(text)) continue;
    const highlightId = newId();
    const at = highlight.createdAt ?? savedAt;
    // Positions are unknown until the reader places the text in the body; they keep the file's order.
    await db.orm.insert(highlights).values({
      id: highlightId,
      userId,
      articleId: id,
      highlightedText: text,
      contextBefore: '',
      contextAfter: '',
      positionStart: offset,
      positionEnd: offset + text.length,
      color: HIGHLIGHT_COLOR,
      createdAt: at,
      updatedAt: at,
    });
    offset += text.length + 1;
  }
  return { kind: 'imported', articleId: id, needsFetch };
}
