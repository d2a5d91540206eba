// The change feed's write side: the rows recordTouched (feed-rows.ts) records at each transaction's commit.
import { nowIso } from '@lectern/shared-schema';
import type { SyncEntity } from '@lectern/shared-schema';
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { cardJson } from './article-cards';

/** Timestamps are shared-schema's rule; services take it from here as they always have. */
export { nowIso };

/** An entity's earlier changes are superseded by the one being recorded (see change_log in db/schema.ts). */
async function dropSuperseded(db: Queryable, userId: string, entity: SyncEntity, id: string): Promise<void> {
  const { changeLog } = db.tables;
  await db.orm
    .delete(changeLog)
    .where(and(eq(changeLog.userId, userId), eq(changeLog.entity, entity), eq(changeLog.entityId, id)));
}

export async function recordUpsert(
  db: Queryable,
  userId: string,
  entity: SyncEntity,
  id: string,
  row: unknown,
): Promise<void> {
  await dropSuperseded(db, userId, entity, id);
  await db.orm.insert(db.tables.changeLog).values({
    userId,
    entity,
    entityId: id,
    op: 'upsert',
    row: JSON.stringify(row),
    createdAt: nowIso(),
  });
  if (entity === 'article') await recordCard(db, id, row as Record<string, unknown>);
}

/** The article's card, its row less the body, read by a new device's pages of cards (services/sync.ts). */
async function recordCard(db: Queryable, id: string, row: Record<string, unknown>): Promise<void> {
  const { articleCards } = db.tables;
  const json = cardJson(row);
  await db.orm
    .insert(articleCards)
    .values({ articleId: id, card: json })
    .onConflictDoUpdate({ target: articleCards.articleId, set: { card: json } });
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
  await db.orm
    .insert(db.tables.changeLog)
    .values({ userId, entity, entityId: id, op: 'delete', row: null, createdAt: at });
  await db.orm
    .insert(db.tables.tombstones)
    .values({ entity, entityId: id, userId, deletedAt: at })
    .onConflictDoNothing();
}

export async function isTombstoned(db: Queryable, entity: SyncEntity, id: string): Promise<boolean> {
  const { tombstones } = db.tables;
  const [found] = await db.orm
    .select({ entity: tombstones.entity })
    .from(tombstones)
    .where(and(eq(tombstones.entity, entity), eq(tombstones.entityId, id)))
    .limit(1);
  return found !== undefined;
}
