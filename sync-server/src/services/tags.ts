// Tags: per-user names attached to articles, with the count of articles carrying each.
import {
  tagNameKey,
  compareNewestFirst,
  newId,
  normalizeTagName,
  SERVER_ERRORS,
  type ArticleSummary,
  type CreateTagBody,
  type Tag,
} from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { findArticleSummaries, refreshArticleTagsText } from './article-rows';
import { nowIso } from './change-log';
import { conflict, notFound } from './errors';
import { replayedCreate } from './replayed-create';
import { sql } from 'drizzle-orm';

const TAG_SELECT = `SELECT t.id, t.user_id, t.name, t.created_at,
  (SELECT count(*) FROM article_tags at WHERE at.tag_id = t.id) AS article_count FROM tags t`;

interface TagRow extends Tag {
  user_id: string;
}

const toTag = ({ id, name, article_count, created_at }: TagRow): Tag => ({
  id,
  name,
  article_count,
  created_at,
});

export async function listTags(db: Queryable, userId: string): Promise<Tag[]> {
  const rows = (await db.all(
    sql`${sql.raw(TAG_SELECT)} WHERE t.user_id = ${userId} ORDER BY t.name_key, t.name`,
  )) as TagRow[];
  return rows.map(toTag);
}

async function findTagRow(db: Queryable, tagId: string): Promise<TagRow | undefined> {
  return (await db.get(sql`${sql.raw(TAG_SELECT)} WHERE t.id = ${tagId}`)) as TagRow | undefined;
}

export async function getTag(db: Queryable, userId: string, tagId: string): Promise<Tag> {
  const row = await findTagRow(db, tagId);
  if (!row || row.user_id !== userId) throw notFound(SERVER_ERRORS.tagNotFound);
  return toTag(row);
}

/** The caller's tag, or undefined when it doesn't exist or is someone else's. */
export async function findTag(db: Queryable, userId: string, tagId: string): Promise<Tag | undefined> {
  const row = await findTagRow(db, tagId);
  return row?.user_id === userId ? toTag(row) : undefined;
}

async function findTagByName(db: Queryable, userId: string, name: string): Promise<TagRow | undefined> {
  return (await db.get(
    sql`${sql.raw(TAG_SELECT)} WHERE t.user_id = ${userId} AND t.name_key = ${tagNameKey(name)}`,
  )) as TagRow | undefined;
}

/** Inside a transaction: the tag of that name, created when missing. */
export async function ensureTag(db: Queryable, userId: string, rawName: string, id?: string): Promise<Tag> {
  const name = normalizeTagName(rawName);
  const existing = await findTagByName(db, userId, name);
  if (existing) return toTag(existing);
  const tagId = id ?? newId();
  const at = nowIso();
  await db.run(
    sql`INSERT INTO tags (id, user_id, name, name_key, created_at, updated_at) VALUES (${tagId}, ${userId}, ${name}, ${tagNameKey(name)}, ${at}, ${at})`,
  );
  return { id: tagId, name, article_count: 0, created_at: at };
}

/** Inside a transaction: the ids of the tags of these names, each created when missing. */
export async function ensureTags(db: Queryable, userId: string, names: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) ids.push((await ensureTag(db, userId, name)).id);
  return ids;
}

/** POST /tags: a name that exists already answers that tag; a replayed id answers what it created. */
export async function createTag(db: Queryable, userId: string, body: CreateTagBody): Promise<Tag> {
  return await db.transaction(async (tx) => {
    const replayed = await replayedCreate(
      tx,
      userId,
      'tag',
      body.id,
      async (id) => await findTagRow(tx, id),
      SERVER_ERRORS.tagNotFound,
    );
    if (replayed) return toTag(replayed);
    return await ensureTag(tx, userId, body.name, body.id);
  });
}

async function articleIdsOfTag(db: Queryable, tagId: string): Promise<string[]> {
  return (
    (await db.all(sql`SELECT article_id FROM article_tags WHERE tag_id = ${tagId}`)) as {
      article_id: string;
    }[]
  ).map((row) => row.article_id);
}

export async function renameTag(db: Queryable, userId: string, tagId: string, rawName: string): Promise<Tag> {
  return await db.transaction(async (tx) => {
    await getTag(tx, userId, tagId);
    const name = normalizeTagName(rawName);
    const clash = await findTagByName(tx, userId, name);
    if (clash && clash.id !== tagId) throw conflict(SERVER_ERRORS.tagNameTaken);
    await tx.run(
      sql`UPDATE tags SET name = ${name}, name_key = ${tagNameKey(name)}, updated_at = ${nowIso()} WHERE id = ${tagId}`,
    );
    for (const articleId of await articleIdsOfTag(tx, tagId)) await refreshArticleTagsText(tx, articleId);
    return await getTag(tx, userId, tagId);
  });
}

export async function deleteTag(db: Queryable, userId: string, tagId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await getTag(tx, userId, tagId);
    const articleIds = await articleIdsOfTag(tx, tagId);
    await tx.run(sql`DELETE FROM tags WHERE id = ${tagId}`);
    for (const articleId of articleIds) await refreshArticleTagsText(tx, articleId);
  });
}

export async function tagArticles(
  db: Queryable,
  userId: string,
  tagId: string,
): Promise<{ tag: Tag; articles: ArticleSummary[] }> {
  const tag = await getTag(db, userId, tagId);
  const articles = (
    await findArticleSummaries(
      db,
      sql`WHERE a.user_id = ${userId} AND a.id IN (SELECT article_id FROM article_tags WHERE tag_id = ${tagId})`,
    )
  ).sort(compareNewestFirst);
  return { tag, articles };
}

/** Inside a transaction: attaches the tags (idempotent), then refreshes what depends on them once. */
export async function linkTags(db: Queryable, articleId: string, tagIds: readonly string[]): Promise<void> {
  if (tagIds.length === 0) return;
  const at = nowIso();
  for (const tagId of tagIds)
    await db.run(
      sql`INSERT INTO article_tags (article_id, tag_id, created_at) VALUES (${articleId}, ${tagId}, ${at}) ON CONFLICT DO NOTHING`,
    );
  await refreshArticleTagsText(db, articleId);
}

export async function linkTag(db: Queryable, articleId: string, tagId: string): Promise<void> {
  await linkTags(db, articleId, [tagId]);
}

export async function unlinkTag(db: Queryable, articleId: string, tagId: string): Promise<void> {
  await db.run(sql`DELETE FROM article_tags WHERE article_id = ${articleId} AND tag_id = ${tagId}`);
  await refreshArticleTagsText(db, articleId);
}

/**
 * Tags made before the name_key column get their key here, once, at start. Two tags the old rule told
 * apart ("RÉSUMÉ" and "résumé": SQLite's lower() folds ASCII only) become one: the older keeps the other's
 * articles, the other is deleted, and devices hear of both through the change feed.
 */
export async function fillTagNameKeys(db: Queryable): Promise<void> {
  const missing =
    (await db.all(sql`SELECT id, user_id, name FROM tags INDEXED BY tags_missing_name_key_idx WHERE name_key IS NULL
       ORDER BY created_at, id`)) as { id: string; user_id: string; name: string }[];
  if (missing.length === 0) return;
  await db.transaction(async (tx) => {
    for (const tag of missing) {
      const key = tagNameKey(tag.name);
      const survivor = (await tx.get(
        sql`SELECT id FROM tags WHERE user_id = ${tag.user_id} AND name_key = ${key}`,
      )) as { id: string } | undefined;
      if (!survivor) {
        await tx.run(sql`UPDATE tags SET name_key = ${key} WHERE id = ${tag.id}`);
        continue;
      }
      const articleIds = await articleIdsOfTag(tx, tag.id);
      await tx.run(sql`INSERT INTO article_tags (article_id, tag_id, created_at)
         SELECT article_id, ${survivor.id}, created_at FROM article_tags WHERE tag_id = ${tag.id} ON CONFLICT DO NOTHING`);
      await tx.run(sql`DELETE FROM tags WHERE id = ${tag.id}`);
      for (const articleId of articleIds) await refreshArticleTagsText(tx, articleId);
    }
  });
}
