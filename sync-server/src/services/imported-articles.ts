// One row of an import becomes an article: inside the import's batch transaction, with its tags, its
// highlights and its original dates, recorded in the change feed like any save.
import { HIGHLIGHT_COLOR, isHighlightSelection, newId, normalizeArticleUrl } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import type { PreparedItem } from '../imports/prepare-import';
import { refreshArticleTagsText } from './article-rows';
import { nowIso } from './change-log';
import { ensureTags } from './tags';
import { sql } from 'drizzle-orm';

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
  const known = await db.get(
    sql`SELECT 1 FROM articles WHERE user_id = ${userId} AND normalized_url = ${normalizedUrl} LIMIT 1`,
  );
  if (known) return { kind: 'skipped' };

  const id = newId();
  const now = nowIso();
  const savedAt = item.createdAt ?? now;
  const description = item.description?.slice(0, 2000) ?? null;
  const needsFetch = item.content === null;
  await db.run(sql`INSERT INTO articles (id, user_id, url, normalized_url, title, description, author, image_url, article_type,
       content, content_text, excerpt, reading_time, is_read, is_favorite, is_archived, fetch_state,
       created_at, updated_at)
     VALUES (${id}, ${userId}, ${item.url}, ${normalizedUrl}, ${(item.title ?? item.url).slice(0, 1000)}, ${description}, ${item.author?.slice(0, 500) ?? null}, ${httpUrlOrNull(item.imageUrl)}, 'web', ${item.content}, ${item.contentText ?? description ?? ''}, ${description ? description.slice(0, EXCERPT_MAX_LENGTH) : null}, ${item.readingTime}, ${item.isRead ? 1 : 0}, ${item.isFavorite ? 1 : 0}, ${item.isArchived ? 1 : 0}, ${needsFetch ? 'pending' : null}, ${savedAt}, ${savedAt})`);
  const tagIds = await ensureTags(db, userId, item.tags);
  for (const tagId of tagIds)
    await db.run(
      sql`INSERT INTO article_tags (article_id, tag_id, created_at) VALUES (${id}, ${tagId}, ${now}) ON CONFLICT DO NOTHING`,
    );
  if (tagIds.length > 0) await refreshArticleTagsText(db, id);
  let offset = 0;
  for (const highlight of item.highlights) {
    const text = highlight.text.slice(0, 10_000);
    if (!isHighlightSelection(text)) continue;
    const highlightId = newId();
    const at = highlight.createdAt ?? savedAt;
    // Positions are unknown until the reader places the text in the body; they keep the file's order.
    await db.run(sql`INSERT INTO highlights (id, user_id, article_id, highlighted_text, context_before, context_after,
         position_start, position_end, color, created_at, updated_at) VALUES (${highlightId}, ${userId}, ${id}, ${text}, '', '', ${offset}, ${offset + text.length}, ${HIGHLIGHT_COLOR}, ${at}, ${at})`);
    offset += text.length + 1;
  }
  return { kind: 'imported', articleId: id, needsFetch };
}
