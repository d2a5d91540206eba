// The rows the export formats read: one user's articles with their tag names, and their highlights, by pages.
import type { Queryable } from '../../db/connection';
import { sql } from 'drizzle-orm';
import { joinedText } from '../../db/sql-functions';

export interface ExportArticle {
  id: string;
  url: string;
  title: string;
  author: string | null;
  description: string | null;
  created_at: string;
  /** 0/1 on SQLite, booleans on PostgreSQL. */
  is_read: number | boolean;
  is_favorite: number | boolean;
  is_archived: number | boolean;
  tag_names: string | null;
}

export interface ExportHighlight {
  id: string;
  article_id: string;
  highlighted_text: string;
  created_at: string;
}

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
  let after = 0;
  for (;;) {
    const rows = await db.all<ExportArticle & { seq: number }>(
      sql`SELECT a.seq, a.id, a.url, a.title, a.author, a.description, a.created_at, a.is_read, a.is_favorite,
            a.is_archived,
            (SELECT ${joinedText(db, sql`t.name`, TAG_SEPARATOR)} FROM article_tags at
              JOIN tags t ON t.id = at.tag_id WHERE at.article_id = a.id) AS tag_names
       FROM articles a WHERE a.user_id = ${userId} AND a.seq > ${after} ${highlighted}
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
  return (await db.all(sql`SELECT id, article_id, highlighted_text, created_at FROM highlights
        WHERE user_id = ${userId} AND article_id = ${articleId} ORDER BY position_start, created_at`)) as ExportHighlight[];
}
