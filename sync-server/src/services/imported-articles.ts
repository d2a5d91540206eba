// One row of an import becomes an article: inside the import's batch transaction, with its tags, its
// highlights and its original dates, recorded in the change feed like any save.
import { and, eq } from 'drizzle-orm';
import { HIGHLIGHT_COLOR, isHighlightSelection, newId, normalizeArticleUrl } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
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

/**
 * Must run inside a transaction. An address the library already holds is skipped, never saved twice. The
 * batch's transaction records each article, highlight and tag in the feed once, however many rows touch it.
 */
export async function writeImportedRow(
  db: Queryable,
  userId: string,
  item: PreparedItem,
): Promise<ImportedRowResult> {
  const normalizedUrl = normalizeArticleUrl(item.url);
  const { articles, articleTags, highlights } = db.tables;
  const [known] = await db.orm
    .select({ id: articles.id })
    .from(articles)
    .where(and(eq(articles.userId, userId), eq(articles.normalizedUrl, normalizedUrl)))
    .limit(1);
  if (known) return { kind: 'skipped' };

  const id = newId();
  const now = nowIso();
  const savedAt = item.createdAt ?? now;
  const description = item.description?.slice(0, 2000) ?? null;
  const needsFetch = item.content === null;
  await db.orm.insert(articles).values({
    id,
    userId,
    url: item.url,
    normalizedUrl,
    title: (item.title ?? item.url).slice(0, 1000),
    description,
    author: item.author?.slice(0, 500) ?? null,
    imageUrl: httpUrlOrNull(item.imageUrl),
    articleType: 'web',
    content: item.content,
    contentText: item.contentText ?? description ?? '',
    excerpt: description ? description.slice(0, EXCERPT_MAX_LENGTH) : null,
    readingTime: item.readingTime,
    isRead: item.isRead,
    isFavorite: item.isFavorite,
    isArchived: item.isArchived,
    fetchState: needsFetch ? 'pending' : null,
    // The original saved date is the sort date and what analytics count; the last change is that same day.
    createdAt: savedAt,
    updatedAt: savedAt,
  });
  const tagIds = await ensureTags(db, userId, item.tags);
  if (tagIds.length > 0)
    await db.orm
      .insert(articleTags)
      .values(tagIds.map((tagId) => ({ articleId: id, tagId, createdAt: now })))
      .onConflictDoNothing();
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
