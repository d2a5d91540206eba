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

/**
 * About this much row text goes in one page: rows carry whole article bodies, so a page of 1,000 could be
 * hundreds of megabytes built as one string. A page always has at least one row (so a cursor always moves
 * on), and stops before the row that would take it past the budget; hasMore tells the device to ask again.
 */
export const FEED_PAGE_BYTES = 1024 * 1024;

function readPage(db: Db, userId: string, since: number, limit: number) {
  const rows = db
    .statement(
      'SELECT seq, entity, entity_id, op, row FROM change_log WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    )
    .iterate(userId, since, limit + 1) as IterableIterator<ChangeRow>;
  const page: ChangeRow[] = [];
  let bytes = 0;
  let hasMore = false;
  // Rows are read one at a time and the rest never leave SQLite once the page is full.
  for (const row of rows) {
    const size = row.row?.length ?? 0;
    if (page.length === limit || (page.length > 0 && bytes + size > FEED_PAGE_BYTES)) {
      hasMore = true;
      break;
    }
    page.push(row);
    bytes += size;
  }
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
