// The change feed's write side: the rows recordTouched (feed-rows.ts) records at each transaction's commit.
import { nowIso } from '@lectern/shared-schema';
import type { SyncEntity } from '@lectern/shared-schema';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { statementSlices } from '../db/statement-slices';
import { cardJson } from './article-cards';

/** Timestamps are shared-schema's rule; services take it from here as they always have. */
export { nowIso };

/** Entities' earlier changes are superseded by the ones being recorded (see change_log in db/schema.ts). */
async function dropSuperseded(
  db: Queryable,
  userId: string,
  entity: SyncEntity,
  ids: readonly string[],
): Promise<void> {
  const { changeLog } = db.tables;
  await db.orm
    .delete(changeLog)
    .where(and(eq(changeLog.userId, userId), eq(changeLog.entity, entity), inArray(changeLog.entityId, ids)));
}

/** An upsert the feed records: the entity's row as its GET serves it. */
export interface FeedUpsert {
  userId: string;
  entity: SyncEntity;
  id: string;
  row: unknown;
}

/**
 * Records upserts in their order, each superseding the entity's earlier entry, a few statements for many
 * (a transaction that wrote an import's batch of 250 articles recorded them three statements each). Each
 * entity comes at most once, as a transaction's touched entities do (db/change-set.ts).
 */
export async function recordUpserts(db: Queryable, upserts: readonly FeedUpsert[]): Promise<void> {
  const { changeLog, articleCards } = db.tables;
  // Seven values a change: the six below and its seq.
  for (const slice of statementSlices(upserts, 7)) {
    const superseded = new Map<string, { userId: string; entity: SyncEntity; ids: string[] }>();
    for (const { userId, entity, id } of slice) {
      const key = `${userId} ${entity}`;
      let group = superseded.get(key);
      if (!group) superseded.set(key, (group = { userId, entity, ids: [] }));
      group.ids.push(id);
    }
    for (const { userId, entity, ids } of superseded.values()) await dropSuperseded(db, userId, entity, ids);
    const at = nowIso();
    await db.orm.insert(changeLog).values(
      slice.map(({ userId, entity, id, row }) => ({
        userId,
        entity,
        entityId: id,
        op: 'upsert' as const,
        row: JSON.stringify(row),
        createdAt: at,
      })),
    );
    // Each article's card, its row less the body, read by a new device's pages of cards (services/sync.ts).
    const cards = slice
      .filter((upsert) => upsert.entity === 'article')
      .map(({ id, row }) => ({ articleId: id, card: cardJson(row as Record<string, unknown>) }));
    if (cards.length > 0)
      await db.orm
        .insert(articleCards)
        .values(cards)
        .onConflictDoUpdate({ target: articleCards.articleId, set: { card: sql`excluded.card` } });
  }
}

/** Records the delete in the feed and remembers the id, so a replayed create can't bring it back. */
export async function recordDelete(
  db: Queryable,
  userId: string,
  entity: SyncEntity,
  id: string,
): Promise<void> {
  const at = nowIso();
  await dropSuperseded(db, userId, entity, [id]);
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
