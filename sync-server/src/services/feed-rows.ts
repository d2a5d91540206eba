// What the change feed records for the entities a transaction touched (db/change-set.ts works out which):
// each row as its GET serves it, or its delete. Run by Db.transaction just before COMMIT, so a write and
// its feed entries land together or not at all.
import type { SyncEntity } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { rowExists } from '../db/typed-select';
import type { TouchedEntity } from '../db/change-set';
import { findArticle } from './article-rows';
import { recordDelete, recordUpserts, type FeedUpsert } from './change-log';
import { findHighlightFor } from './highlights';
import { findList, findListPlace } from './lists';
import { findTag } from './tags';
import { sql } from 'drizzle-orm';

const ROW_OF: Record<
  SyncEntity,
  (db: Queryable, userId: string, touched: TouchedEntity) => Promise<unknown>
> = {
  article: async (db, userId, { id }) => await findArticle(db, userId, id),
  highlight: async (db, userId, { id }) => await findHighlightFor(db, userId, id),
  tag: async (db, userId, { id }) => await findTag(db, userId, id),
  list: async (db, userId, { id }) => await findList(db, userId, id),
  list_article: async (db, _userId, { place }) =>
    place && (await findListPlace(db, place.listId, place.articleId)),
};

/**
 * Records each touched entity once: an upsert with its row when it exists, a delete (and its tombstone)
 * when the transaction deleted it. Nothing is recorded for an account deleted with its rows.
 */
export async function recordTouched(db: Queryable, touched: readonly TouchedEntity[]): Promise<void> {
  const owners = new Map<string, boolean>();
  const ownerExists = async (userId: string) => {
    let exists = owners.get(userId);
    if (exists === undefined) {
      exists = await rowExists(db, sql`FROM users WHERE id = ${userId}`);
      owners.set(userId, exists);
    }
    return exists;
  };
  // Upserts are recorded together (a few statements for a batch of them), a delete where it stands.
  const upserts: FeedUpsert[] = [];
  for (const entry of touched) {
    if (!(await ownerExists(entry.userId))) continue;
    const row = await ROW_OF[entry.entity](db, entry.userId, entry);
    if (row !== undefined) upserts.push({ userId: entry.userId, entity: entry.entity, id: entry.id, row });
    else if (entry.deleted) {
      await recordUpserts(db, upserts.splice(0));
      await recordDelete(db, entry.userId, entry.entity, entry.id);
    }
  }
  await recordUpserts(db, upserts);
}
