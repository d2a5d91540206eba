// The rows the export formats read: one user's articles with their tag names, and their highlights, by pages.
import type { Queryable } from '../../db/connection';
import { aliasedTable, sql } from 'drizzle-orm';
import { joinedText } from '../../db/sql-functions';
import { asText, orNull, select, type RowOf } from '../../db/typed-select';

/** An article as the exports read it; tag names joined by TAG_SEPARATOR (null for none). */
function exportArticleSelection(db: Queryable) {
  const a = aliasedTable(db.tables.articles, 'a');
  return {
    seq: a.seq,
    id: a.id,
    url: a.url,
    title: a.title,
    author: a.author,
    description: a.description,
    created_at: a.createdAt,
    is_read: a.isRead,
    is_favorite: a.isFavorite,
    is_archived: a.isArchived,
    tag_names: orNull(
      asText(sql`(SELECT ${joinedText(db, sql`t.name`, TAG_SEPARATOR)} FROM article_tags at
              JOIN tags t ON t.id = at.tag_id WHERE at.article_id = a.id)`),
    ),
  };
}

export type ExportArticle = RowOf<ReturnType<typeof exportArticleSelection>>;

function exportHighlightSelection(db: Queryable) {
  const { highlights } = db.tables;
  return {
    id: highlights.id,
    article_id: highlights.articleId,
    highlighted_text: highlights.highlightedText,
    created_at: highlights.createdAt,
  };
}

export type ExportHighlight = RowOf<ReturnType<typeof exportHighlightSelection>>;

/** Tag names joined by this character, which a tag name can't hold. */
const TAG_SEPARATOR = '\u001f';
const PAGE_SIZE = 500;

/**
 * Every article of the user (or those with highlights), oldest first, a page at a time so a large library
 * never sits in memory whole.
 */
export async function* exportArticles(
  db: Queryable,
  userId: string,
  { highlightedOnly = false } = {},
): AsyncGenerator<ExportArticle> {
  const highlighted = highlightedOnly
    ? sql`AND EXISTS (SELECT 1 FROM highlights h WHERE h.user_id = a.user_id AND h.article_id = a.id)`
    : sql``;
  const selection = exportArticleSelection(db);
  let after = 0;
  for (;;) {
    const rows = await select(
      db,
      selection,
      sql`FROM articles a WHERE a.user_id = ${userId} AND a.seq > ${after} ${highlighted}
       ORDER BY a.seq LIMIT ${PAGE_SIZE}`,
    );
    for (const row of rows) yield row;
    if (rows.length < PAGE_SIZE) return;
    after = rows[rows.length - 1]!.seq;
  }
}

export function tagNamesOf(article: ExportArticle): string[] {
  return article.tag_names ? article.tag_names.split(TAG_SEPARATOR).sort((a, b) => a.localeCompare(b)) : [];
}

/** The article's highlights in reading order. */
export async function highlightsOf(
  db: Queryable,
  userId: string,
  articleId: string,
): Promise<ExportHighlight[]> {
  return await select(
    db,
    exportHighlightSelection(db),
    sql`FROM highlights WHERE user_id = ${userId} AND article_id = ${articleId} ORDER BY position_start, created_at`,
  );
}
