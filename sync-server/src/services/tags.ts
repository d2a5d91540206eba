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
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { select } from '../db/typed-select';
import { findArticleSummaries, refreshArticleTagsText } from './article-rows';
import { nowIso } from './change-log';
import { conflict, notFound } from './errors';
import { replayedCreate } from './replayed-create';

/** A tag as the API serves it, with its owner to check who asks. */
type TagRow = Awaited<ReturnType<typeof tagRows>>[number];

/** The tags `where` picks, with their article counts, in the order the reader sees them. */
async function tagRows(db: Queryable, where: SQL | undefined) {
  const { tags, articleTags } = db.tables;
  return await db.orm
    .select({
      id: tags.id,
      user_id: tags.userId,
      name: tags.name,
      created_at: tags.createdAt,
      article_count:
        sql`(SELECT count(*) FROM ${articleTags} WHERE ${articleTags.tagId} = ${tags.id})`.mapWith(Number),
    })
    .from(tags)
    .where(where)
    .orderBy(asc(tags.nameKey), asc(tags.name));
}

const toTag = ({ id, name, article_count, created_at }: TagRow): Tag => ({
  id,
  name,
  article_count,
  created_at,
});

export async function listTags(db: Queryable, userId: string): Promise<Tag[]> {
  return (await tagRows(db, eq(db.tables.tags.userId, userId))).map(toTag);
}

async function findTagRow(db: Queryable, tagId: string): Promise<TagRow | undefined> {
  return (await tagRows(db, eq(db.tables.tags.id, tagId)))[0];
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
  const { tags } = db.tables;
  return (await tagRows(db, and(eq(tags.userId, userId), eq(tags.nameKey, tagNameKey(name)))))[0];
}

/** Inside a transaction: the tag of that name, created when missing. */
export async function ensureTag(db: Queryable, userId: string, rawName: string, id?: string): Promise<Tag> {
  const name = normalizeTagName(rawName);
  const existing = await findTagByName(db, userId, name);
  if (existing) return toTag(existing);
  const tagId = id ?? newId();
  const at = nowIso();
  await db.orm.insert(db.tables.tags).values({
    id: tagId,
    userId,
    name,
    nameKey: tagNameKey(name),
    createdAt: at,
    updatedAt: at,
  });
  return { id: tagId, name, article_count: 0, created_at: at };
}

/**
 * Inside a transaction: the ids of the tags of these names, each created when missing. `known` (a name's
 * id) is read first and filled: an import's batch looks each of its tags up once, not once a row.
 */
export async function ensureTags(
  db: Queryable,
  userId: string,
  names: readonly string[],
  known = new Map<string, string>(),
): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    let id = known.get(name);
    if (id === undefined) known.set(name, (id = (await ensureTag(db, userId, name)).id));
    ids.push(id);
  }
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
  const { articleTags } = db.tables;
  const links = await db.orm
    .select({ articleId: articleTags.articleId })
    .from(articleTags)
    .where(eq(articleTags.tagId, tagId));
  return links.map((link) => link.articleId);
}

export async function renameTag(db: Queryable, userId: string, tagId: string, rawName: string): Promise<Tag> {
  return await db.transaction(async (tx) => {
    await getTag(tx, userId, tagId);
    const name = normalizeTagName(rawName);
    const clash = await findTagByName(tx, userId, name);
    if (clash && clash.id !== tagId) throw conflict(SERVER_ERRORS.tagNameTaken);
    const { tags } = tx.tables;
    await tx.orm
      .update(tags)
      .set({ name, nameKey: tagNameKey(name), updatedAt: nowIso() })
      .where(eq(tags.id, tagId));
    for (const articleId of await articleIdsOfTag(tx, tagId)) await refreshArticleTagsText(tx, articleId);
    return await getTag(tx, userId, tagId);
  });
}

export async function deleteTag(db: Queryable, userId: string, tagId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await getTag(tx, userId, tagId);
    const articleIds = await articleIdsOfTag(tx, tagId);
    await tx.orm.delete(tx.tables.tags).where(eq(tx.tables.tags.id, tagId));
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
  const createdAt = nowIso();
  await db.orm
    .insert(db.tables.articleTags)
    .values(tagIds.map((tagId) => ({ articleId, tagId, createdAt })))
    .onConflictDoNothing();
  await refreshArticleTagsText(db, articleId);
}

export async function linkTag(db: Queryable, articleId: string, tagId: string): Promise<void> {
  await linkTags(db, articleId, [tagId]);
}

export async function unlinkTag(db: Queryable, articleId: string, tagId: string): Promise<void> {
  const { articleTags } = db.tables;
  await db.orm
    .delete(articleTags)
    .where(and(eq(articleTags.articleId, articleId), eq(articleTags.tagId, tagId)));
  await refreshArticleTagsText(db, articleId);
}

/**
 * Tags made before the name_key column get their key here, once, at start. Two tags the old rule told
 * apart ("RÉSUMÉ" and "résumé": SQLite's lower() folds ASCII only) become one: the older keeps the other's
 * articles, the other is deleted, and devices hear of both through the change feed.
 */
export async function fillTagNameKeys(db: Queryable): Promise<void> {
  const { tags, articleTags } = db.tables;
  // A partial index of the tags still to key (migration 0008): empty after the first start, so no start
  // reads the tags table. SQLite is told to use it (its planner might walk another index of the table).
  const onlyMissing = db.dialect === 'sqlite' ? sql` INDEXED BY tags_missing_name_key_idx` : sql``;
  const missing = await select(
    db,
    { id: tags.id, userId: tags.userId, name: tags.name },
    sql`FROM ${tags}${onlyMissing} WHERE name_key IS NULL ORDER BY created_at, id`,
  );
  if (missing.length === 0) return;
  await db.transaction(async (tx) => {
    for (const tag of missing) {
      const key = tagNameKey(tag.name);
      const [survivor] = await tx.orm
        .select({ id: tags.id })
        .from(tags)
        .where(and(eq(tags.userId, tag.userId), eq(tags.nameKey, key)));
      if (!survivor) {
        await tx.orm.update(tags).set({ nameKey: key }).where(eq(tags.id, tag.id));
        continue;
      }
      const articleIds = await articleIdsOfTag(tx, tag.id);
      await tx.run(sql`INSERT INTO ${articleTags} (article_id, tag_id, created_at)
         SELECT ${articleTags.articleId}, ${survivor.id}, ${articleTags.createdAt} FROM ${articleTags}
         WHERE ${articleTags.tagId} = ${tag.id} ON CONFLICT DO NOTHING`);
      await tx.orm.delete(tags).where(eq(tags.id, tag.id));
      for (const articleId of articleIds) await refreshArticleTagsText(tx, articleId);
    }
  });
}
