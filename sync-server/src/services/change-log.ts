// The change feed's write side: the rows recordTouched (feed-rows.ts) records at each transaction's commit.
import { nowIso } from '@lectern/shared-schema';
import type { SyncEntity } from '@lectern/shared-schema';
import type { Db } from '../db/connection';

/** Timestamps are shared-schema's rule; services take it from here as they always have. */
export { nowIso };

/** An entity's earlier changes are superseded by the one being recorded (see change_log in db/schema.ts). */
function dropSuperseded(db: Db, userId: string, entity: SyncEntity, id: string): void {
  db.statement('DELETE FROM change_log WHERE user_id = ? AND entity = ? AND entity_id = ?').run(
    userId,
    entity,
    id,
  );
}

export function recordUpsert(db: Db, userId: string, entity: SyncEntity, id: string, row: unknown): void {
  dropSuperseded(db, userId, entity, id);
  db.statement(
    'INSERT INTO change_log (user_id, entity, entity_id, op, row, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(userId, entity, id, 'upsert', JSON.stringify(row), nowIso());
}

/** Records the delete in the feed and remembers the id, so a replayed create can't bring it back. */
export function recordDelete(db: Db, userId: string, entity: SyncEntity, id: string): void {
  const at = nowIso();
  dropSuperseded(db, userId, entity, id);
  db.statement(
    'INSERT INTO change_log (user_id, entity, entity_id, op, row, created_at) VALUES (?, ?, ?, ?, NULL, ?)',
  ).run(userId, entity, id, 'delete', at);
  db.statement(
    'INSERT INTO tombstones (entity, entity_id, user_id, deleted_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
  ).run(entity, id, userId, at);
}

export function isTombstoned(db: Db, entity: SyncEntity, id: string): boolean {
  return (
    db.statement('SELECT 1 FROM tombstones WHERE entity = ? AND entity_id = ?').get(entity, id) !== undefined
  );
}
