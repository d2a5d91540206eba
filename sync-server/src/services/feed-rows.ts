// What the change feed records for the entities a transaction touched (db/change-set.ts works out which):
// each row as its GET serves it, or its delete. Run by Db.transaction just before COMMIT, so a write and
// its feed entries land together or not at all.
import type { SyncEntity } from '@lectern/shared-schema';
import type { Db } from '../db/connection';
import type { TouchedEntity } from '../db/change-set';
import { findArticle } from './article-rows';
import { recordDelete, recordUpsert } from './change-log';
import { findHighlightFor } from './highlights';
import { findList, findListPlace } from './lists';
import { findTag } from './tags';

const ROW_OF: Record<SyncEntity, (db: Db, userId: string, touched: TouchedEntity) => unknown> = {
  article: (db, userId, { id }) => findArticle(db, userId, id),
  highlight: (db, userId, { id }) => findHighlightFor(db, userId, id),
  tag: (db, userId, { id }) => findTag(db, userId, id),
  list: (db, userId, { id }) => findList(db, userId, id),
  list_article: (db, _userId, { place }) => place && findListPlace(db, place.listId, place.articleId),
};

/**
 * Records each touched entity once: an upsert with its row when it exists, a delete (and its tombstone)
 * when the transaction deleted it. Nothing is recorded for an account deleted with its rows.
 */
export function recordTouched(db: Db, touched: readonly TouchedEntity[]): void {
  const owners = new Map<string, boolean>();
  const ownerExists = (userId: string) => {
    let exists = owners.get(userId);
    if (exists === undefined) {
      exists = db.statement('SELECT 1 FROM users WHERE id = ?').get(userId) !== undefined;
      owners.set(userId, exists);
    }
    return exists;
  };
  for (const entry of touched) {
    if (!ownerExists(entry.userId)) continue;
    const row = ROW_OF[entry.entity](db, entry.userId, entry);
    if (row !== undefined) recordUpsert(db, entry.userId, entry.entity, entry.id, row);
    else if (entry.deleted) recordDelete(db, entry.userId, entry.entity, entry.id);
  }
}
