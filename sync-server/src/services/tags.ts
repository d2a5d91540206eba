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
import type { Db } from '../db/connection';
import { findArticleSummaries, refreshArticleTagsText } from './article-rows';
import { nowIso } from './change-log';
import { conflict, notFound } from './errors';
import { replayedCreate } from './replayed-create';

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

export function listTags(db: Db, userId: string): Tag[] {
  const rows = db
    .statement(`${TAG_SELECT} WHERE t.user_id = ? ORDER BY t.name_key, t.name`)
    .all(userId) as TagRow[];
  return rows.map(toTag);
}

function findTagRow(db: Db, tagId: string): TagRow | undefined {
  return db.statement(`${TAG_SELECT} WHERE t.id = ?`).get(tagId) as TagRow | undefined;
}

export function getTag(db: Db, userId: string, tagId: string): Tag {
  const row = findTagRow(db, tagId);
  if (!row || row.user_id !== userId) throw notFound(SERVER_ERRORS.tagNotFound);
  return toTag(row);
}

/** The caller's tag, or undefined when it doesn't exist or is someone else's. */
export function findTag(db: Db, userId: string, tagId: string): Tag | undefined {
  const row = findTagRow(db, tagId);
  return row?.user_id === userId ? toTag(row) : undefined;
}

function findTagByName(db: Db, userId: string, name: string): TagRow | undefined {
  return db
    .statement(`${TAG_SELECT} WHERE t.user_id = ? AND t.name_key = ?`)
    .get(userId, tagNameKey(name)) as TagRow | undefined;
}

/** Inside a transaction: the tag of that name, created when missing. */
export function ensureTag(db: Db, userId: string, rawName: string, id?: string): Tag {
  const name = normalizeTagName(rawName);
  const existing = findTagByName(db, userId, name);
  if (existing) return toTag(existing);
  const tagId = id ?? newId();
  const at = nowIso();
  db.statement(
    'INSERT INTO tags (id, user_id, name, name_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(tagId, userId, name, tagNameKey(name), at, at);
  return { id: tagId, name, article_count: 0, created_at: at };
}

/** POST /tags: a name that exists already answers that tag; a replayed id answers what it created. */
export function createTag(db: Db, userId: string, body: CreateTagBody): Tag {
  return db.transaction(() => {
    const replayed = replayedCreate(
      db,
      userId,
      'tag',
      body.id,
      (id) => findTagRow(db, id),
      SERVER_ERRORS.tagNotFound,
    );
    if (replayed) return toTag(replayed);
    return ensureTag(db, userId, body.name, body.id);
  });
}

function articleIdsOfTag(db: Db, tagId: string): string[] {
  return (
    db.statement('SELECT article_id FROM article_tags WHERE tag_id = ?').all(tagId) as {
      article_id: string;
    }[]
  ).map((row) => row.article_id);
}

export function renameTag(db: Db, userId: string, tagId: string, rawName: string): Tag {
  return db.transaction(() => {
    getTag(db, userId, tagId);
    const name = normalizeTagName(rawName);
    const clash = findTagByName(db, userId, name);
    if (clash && clash.id !== tagId) throw conflict(SERVER_ERRORS.tagNameTaken);
    db.statement('UPDATE tags SET name = ?, name_key = ?, updated_at = ? WHERE id = ?').run(
      name,
      tagNameKey(name),
      nowIso(),
      tagId,
    );
    for (const articleId of articleIdsOfTag(db, tagId)) refreshArticleTagsText(db, articleId);
    return getTag(db, userId, tagId);
  });
}

export function deleteTag(db: Db, userId: string, tagId: string): void {
  db.transaction(() => {
    getTag(db, userId, tagId);
    const articleIds = articleIdsOfTag(db, tagId);
    db.statement('DELETE FROM tags WHERE id = ?').run(tagId);
    for (const articleId of articleIds) refreshArticleTagsText(db, articleId);
  });
}

export function tagArticles(db: Db, userId: string, tagId: string): { tag: Tag; articles: ArticleSummary[] } {
  const tag = getTag(db, userId, tagId);
  const articles = findArticleSummaries(
    db,
    'WHERE a.user_id = ? AND a.id IN (SELECT article_id FROM article_tags WHERE tag_id = ?)',
    userId,
    tagId,
  ).sort(compareNewestFirst);
  return { tag, articles };
}

/** Inside a transaction: attaches the tags (idempotent), then refreshes what depends on them once. */
export function linkTags(db: Db, articleId: string, tagIds: readonly string[]): void {
  if (tagIds.length === 0) return;
  const at = nowIso();
  for (const tagId of tagIds)
    db.statement(
      'INSERT INTO article_tags (article_id, tag_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    ).run(articleId, tagId, at);
  refreshArticleTagsText(db, articleId);
}

export function linkTag(db: Db, articleId: string, tagId: string): void {
  linkTags(db, articleId, [tagId]);
}

export function unlinkTag(db: Db, articleId: string, tagId: string): void {
  db.statement('DELETE FROM article_tags WHERE article_id = ? AND tag_id = ?').run(articleId, tagId);
  refreshArticleTagsText(db, articleId);
}

/**
 * Tags made before the name_key column get their key here, once, at start. Two tags the old rule told
 * apart ("RÉSUMÉ" and "résumé": SQLite's lower() folds ASCII only) become one: the older keeps the other's
 * articles, the other is deleted, and devices hear of both through the change feed.
 */
export function fillTagNameKeys(db: Db): void {
  const missing = db
    .statement(
      // A partial index of the tags still to key (migration 0008): empty after the first start, so no start
      // reads the tags table.
      `SELECT id, user_id, name FROM tags INDEXED BY tags_missing_name_key_idx WHERE name_key IS NULL
       ORDER BY created_at, id`,
    )
    .all() as { id: string; user_id: string; name: string }[];
  if (missing.length === 0) return;
  db.transaction(() => {
    for (const tag of missing) {
      const key = tagNameKey(tag.name);
      const survivor = db
        .statement('SELECT id FROM tags WHERE user_id = ? AND name_key = ?')
        .get(tag.user_id, key) as { id: string } | undefined;
      if (!survivor) {
        db.statement('UPDATE tags SET name_key = ? WHERE id = ?').run(key, tag.id);
        continue;
      }
      const articleIds = articleIdsOfTag(db, tag.id);
      db.statement(
        `INSERT INTO article_tags (article_id, tag_id, created_at)
         SELECT article_id, ?, created_at FROM article_tags WHERE tag_id = ? ON CONFLICT DO NOTHING`,
      ).run(survivor.id, tag.id);
      db.statement('DELETE FROM tags WHERE id = ?').run(tag.id);
      for (const articleId of articleIds) refreshArticleTagsText(db, articleId);
    }
  });
}
