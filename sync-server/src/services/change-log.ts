// The change feed's write side: the rows recordTouched (feed-rows.ts) records at each transaction's commit.
import { nowIso } from '@lectern/shared-schema';
import type { SyncEntity } from '@lectern/shared-schema';
import { and, eq, inArray, sql } from 'drizzle-orm';
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

/** An upsert the feed records: the entity's row as its GET serves it. */
export interface FeedUpsert {
  userId: string;
  entity: SyncEntity;
  id: string;
  row: unknown;
}

/** Upserts recorded by one statement of each kind (five values a row: well within either engine's limit). */
const UPSERTS_PER_STATEMENT = 200;

/**
 * Records upserts in their order, each superseding the entity's earlier entry, a few statements for many
 * (a transaction that wrote an import's batch of 250 articles recorded them three statements each).
 */
export async function recordUpserts(db: Queryable, recorded: readonly FeedUpsert[]): Promise<void> {
  const { changeLog, articleCards } = db.tables;
  // An entity upserted twice is recorded once, with its last row, where its last upsert stands.
  const last = new Map(
    recorded.map((upsert, i) => [JSON.stringify([upsert.userId, upsert.entity, upsert.id]), i]),
  );
  const upserts = recorded.filter(
    (upsert, i) => last.get(JSON.stringify([upsert.userId, upsert.entity, upsert.id])) === i,
  );
  for (let start = 0; start < upserts.length; start += UPSERTS_PER_STATEMENT) {
    const slice = upserts.slice(start, start + UPSERTS_PER_STATEMENT);
    const superseded = new Map<string, { userId: string; entity: SyncEntity; ids: string[] }>();
    for (const { userId, entity, id } of slice) {
      const key = JSON.stringify([userId, entity]);
      let group = superseded.get(key);
      if (!group) superseded.set(key, (group = { userId, entity, ids: [] }));
      group.ids.push(id);
    }
    for (const { userId, entity, ids } of superseded.values())
      await db.orm
        .delete(changeLog)
        .where(
          and(eq(changeLog.userId, userId), eq(changeLog.entity, entity), inArray(changeLog.entityId, ids)),
        );
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
    const cards = new Map<string, string>();
    for (const { entity, id, row } of slice)
      if (entity === 'article') cards.set(id, cardJson(row as Record<string, unknown>));
    if (cards.size > 0)
      await db.orm
        .insert(articleCards)
        .values([...cards].map(([articleId, card]) => ({ articleId, card })))
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
