// The change feed's write side: the rows recordTouched (feed-rows.ts) records at each transaction's commit.
import { nowIso } from '@lectern/shared-schema';
import type { SyncEntity } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { sql } from 'drizzle-orm';

/** Timestamps are shared-schema's rule; services take it from here as they always have. */
export { nowIso };

/** An entity's earlier changes are superseded by the one being recorded (see change_log in db/schema.ts). */
async function dropSuperseded(db: Queryable, userId: string, entity: SyncEntity, id: string): Promise<void> {
  await db.run(
    sql`DELETE FROM change_log WHERE user_id = ${userId} AND entity = ${entity} AND entity_id = ${id}`,
  );
}

export async function recordUpsert(
  db: Queryable,
  userId: string,
  entity: SyncEntity,
  id: string,
  row: unknown,
): Promise<void> {
  await dropSuperseded(db, userId, entity, id);
  await db.run(
    sql`INSERT INTO change_log (user_id, entity, entity_id, op, row, created_at) VALUES (${userId}, ${entity}, ${id}, ${'upsert'}, ${JSON.stringify(row)}, ${nowIso()})`,
  );
}

/** Records the delete in the feed and remembers the id, so a replayed create can't bring it back. */
export async function recordDelete(
  db: Queryable,
  userId: string,
  entity: SyncEntity,
  id: string,
): Promise<void> {
  const at = nowIso();
  await dropSuperseded(db, userId, entity, id);
  await db.run(
    sql`INSERT INTO change_log (user_id, entity, entity_id, op, row, created_at) VALUES (${userId}, ${entity}, ${id}, ${'delete'}, NULL, ${at})`,
  );
  await db.run(
    sql`INSERT INTO tombstones (entity, entity_id, user_id, deleted_at) VALUES (${entity}, ${id}, ${userId}, ${at}) ON CONFLICT DO NOTHING`,
  );
}

export async function isTombstoned(db: Queryable, entity: SyncEntity, id: string): Promise<boolean> {
  return (
    (await db.get(sql`SELECT 1 FROM tombstones WHERE entity = ${entity} AND entity_id = ${id}`)) !== undefined
  );
}
