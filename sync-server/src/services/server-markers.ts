// One-time work of a server (a backfill after an upgrade): done in one transaction the first time only, a
// `server_markers` row recording that it ran, so later starts skip it on every node.
import { nowIso } from '@lectern/shared-schema';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/connection';

/** Runs `work` (given the transaction and its time) unless the marker says it ran; then sets the marker. */
export async function onceForServer(
  db: Queryable,
  marker: string,
  work: (tx: Queryable, at: string) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { serverMarkers } = tx.tables;
    const [done] = await tx.orm
      .select({ name: serverMarkers.name })
      .from(serverMarkers)
      .where(eq(serverMarkers.name, marker));
    if (done) return;
    const at = nowIso();
    await work(tx, at);
    await tx.orm.insert(serverMarkers).values({ name: marker, doneAt: at });
  });
}
