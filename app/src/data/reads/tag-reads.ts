// GET /tags and /tags/{id}/articles from the device; article_count counts the device's articles.
import { SERVER_ERRORS, type Tag } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import { tagKey } from '../db/local-store';
import type { TagRow } from '../db/rows';
import { articlesWithTag, type LocalArticleSummary } from './article-reads';
import { notFound } from './not-found';

/** Articles per tag key, kept with each article write (db/article-counts.ts): no walk over the library. */
async function articleCountsByTag(db: LecternDb): Promise<Map<string, number>> {
  return new Map(Object.entries((await db.articleCounts()).tags));
}

function toTag(row: TagRow, counts: Map<string, number>): Tag {
  return {
    id: row.id,
    name: row.name,
    article_count: counts.get(row.name_key) ?? 0,
    created_at: row.created_at,
  };
}

/** By lowercased name, as the server lists them. */
export async function listTags(db: LecternDb): Promise<{ tags: Tag[] }> {
  const [rows, counts] = await Promise.all([db.tags.toArray(), articleCountsByTag(db)]);
  rows.sort((a, b) => (a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : 0));
  return { tags: rows.map((row) => toTag(row, counts)) };
}

export async function getTag(db: LecternDb, id: string): Promise<Tag> {
  const row = await db.tags.get(id);
  if (!row) throw notFound(SERVER_ERRORS.tagNotFound);
  const count = await db.articles.where('tag_keys').equals(row.name_key).count();
  return toTag(row, new Map([[row.name_key, count]]));
}

export async function tagArticles(
  db: LecternDb,
  id: string,
): Promise<{ tag: Tag; articles: LocalArticleSummary[] }> {
  const tag = await getTag(db, id);
  return { tag, articles: await articlesWithTag(db, tagKey(tag.name)) };
}
