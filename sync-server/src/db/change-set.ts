// What one transaction changed, as the change feed sees it: the entities whose rows (as their GET serves
// them) are no longer what they were. Collected from the writes themselves, so no service has to remember
// that a highlight changes its article's highlights_count or a list place its list's article_count.
//
// Each engine notes the rows a transaction writes in its own way (SQLite: TEMP triggers, db/sqlite/
// written-rows.ts) and hands them here as WrittenRow; what they mean for the feed is worked out once.
import { listArticleKey, type SyncEntity } from '@lectern/shared-schema';
import { eq } from 'drizzle-orm';
import type { Queryable } from './database';
/** An entity whose feed row changed; `deleted` when the transaction deleted its own row. */
export interface TouchedEntity {
  entity: SyncEntity;
  /** The feed's id (a list place's is listArticleKey(list, article)). */
  id: string;
  userId: string;
  deleted: boolean;
  /** A list place's two halves, for reading its row. */
  place?: { listId: string; articleId: string };
}

export type WrittenOp = 'insert' | 'update' | 'delete';

/**
 * One row as the engine noted it: the table (or 'article_heading' for an article's new title or image),
 * what happened, the row's owner and the ids it refers to.
 */
export interface WrittenRow {
  tbl: string;
  op: WrittenOp;
  user_id: string | null;
  id: string | null;
  article_id: string | null;
  tag_id: string | null;
  list_id: string | null;
}

/** The entities these writes changed (see changedEntities), reading the related rows through `tx`. */
export async function touchedBy(tx: Queryable, written: readonly WrittenRow[]): Promise<TouchedEntity[]> {
  if (written.length === 0) return [];
  const { articleTags, highlights } = tx.tables;
  return changedEntities(written, {
    articlesOfTag: async (tagId) =>
      (
        await tx.orm
          .select({ id: articleTags.articleId })
          .from(articleTags)
          .where(eq(articleTags.tagId, tagId))
      ).map((row) => row.id),
    highlightsOfArticle: async (articleId) =>
      (
        await tx.orm.select({ id: highlights.id }).from(highlights).where(eq(highlights.articleId, articleId))
      ).map((row) => row.id),
  });
}

/**
 * The entities these writes changed, each once, in the order they were first changed, with the derived
 * rows: a highlight added or removed changes its article (highlights_count), a tag attached or detached
 * changes the article (its tags) and the tag (article_count), a renamed tag every article carrying it
 * (their tags by name), a list place added or removed its list (article_count). Deleting an article, a tag
 * or a list deletes their link rows by cascade, and those count the same way. An article's new title or
 * image changes its highlights (article_title, article_image).
 */
export async function changedEntities(
  written: readonly WrittenRow[],
  related: {
    articlesOfTag: (tagId: string) => Promise<string[]>;
    highlightsOfArticle: (articleId: string) => Promise<string[]>;
  },
): Promise<TouchedEntity[]> {
  const touched = new Map<string, TouchedEntity>();
  const touch = (
    entity: SyncEntity,
    id: string,
    userId: string,
    deleted = false,
    place?: TouchedEntity['place'],
  ) => {
    const key = `${entity} ${id}`;
    const known = touched.get(key);
    if (known) known.deleted ||= deleted;
    else touched.set(key, { entity, id, userId, deleted, ...(place ? { place } : {}) });
  };
  for (const row of written) {
    const userId = row.user_id;
    if (userId === null) continue; // its owner is gone too (account deletion): nothing to tell
    const deleted = row.op === 'delete';
    const addsOrRemoves = row.op !== 'update'; // changes its parent's count
    switch (row.tbl) {
      case 'articles':
        touch('article', row.id!, userId, deleted);
        break;
      case 'highlights':
        touch('highlight', row.id!, userId, deleted);
        if (addsOrRemoves) touch('article', row.article_id!, userId);
        break;
      case 'tags':
        touch('tag', row.id!, userId, deleted);
        if (row.op === 'update')
          for (const articleId of await related.articlesOfTag(row.id!)) touch('article', articleId, userId);
        break;
      case 'article_heading':
        for (const highlightId of await related.highlightsOfArticle(row.id!))
          touch('highlight', highlightId, userId);
        break;
      case 'article_tags':
        touch('article', row.article_id!, userId);
        touch('tag', row.tag_id!, userId);
        break;
      case 'reading_lists':
        touch('list', row.id!, userId, deleted);
        break;
      case 'list_articles': {
        const place = { listId: row.list_id!, articleId: row.article_id! };
        touch('list_article', listArticleKey(place.listId, place.articleId), userId, deleted, place);
        if (addsOrRemoves) touch('list', place.listId, userId);
        break;
      }
    }
  }
  return [...touched.values()];
}
