// The change feed's read side: GET /api/sync/changes?since=&limit=.
import { CHANGES_DEFAULT_LIMIT, type Change } from '@lectern/shared-schema';
import type { Db } from '../db/connection';

interface ChangeRow {
  seq: number;
  entity: Change['entity'];
  entity_id: string;
  op: Change['op'];
  row: string | null;
}

function readPage(db: Db, userId: string, since: number, limit: number) {
  const rows = db
    .statement(
      'SELECT seq, entity, entity_id, op, row FROM change_log WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    )
    .all(userId, since, limit + 1) as ChangeRow[];
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  return { page, hasMore, cursor: page.at(-1)?.seq ?? since };
}

/**
 * Changes after `since`, oldest first, as JSON text; passing the returned cursor back yields only newer
 * ones. Rows are stored as the JSON their GET serves, so they are spliced in as
 * they are instead of being parsed and serialized again: the feed is the largest answer the server gives.
 */
export function readChangesJson(db: Db, userId: string, since = 0, limit = CHANGES_DEFAULT_LIMIT): string {
  const { page, hasMore, cursor } = readPage(db, userId, since, limit);
  const changes = page.map(
    (row) =>
      `{"seq":${row.seq},"entity":${JSON.stringify(row.entity)},"id":${JSON.stringify(row.entity_id)},"op":${JSON.stringify(row.op)},"row":${row.row ?? 'null'}}`,
  );
  return `{"cursor":${cursor},"hasMore":${hasMore},"changes":[${changes.join(',')}]}`;
}
