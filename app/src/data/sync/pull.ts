// Pulls the change feed from the stored cursor to its end, one page per transaction.
import { CHANGES_MAX_LIMIT, type ChangesResponse } from '@lectern/shared-schema';
import type { HttpClient } from '../api/http-client';
import type { LecternDb } from '../db/lectern-db';
import { applyChanges } from './apply-changes';

/** Answers how many changes were applied. */
export async function pullChanges(
  http: HttpClient,
  db: LecternDb,
  limit = CHANGES_MAX_LIMIT,
): Promise<number> {
  let since = (await db.getMeta('cursor')) ?? 0;
  let applied = 0;
  for (;;) {
    const page = await http.get<ChangesResponse>('/sync/changes', { since, limit });
    await applyChanges(db, page.changes, page.cursor);
    applied += page.changes.length;
    if (!page.hasMore || page.cursor === since) return applied;
    since = page.cursor;
  }
}
