// The change feed's read side: GET /api/sync/changes?since=&limit=.
import { CHANGES_DEFAULT_LIMIT, type Change } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { sql } from 'drizzle-orm';

interface ChangeRow {
  seq: number;
  entity: Change['entity'];
  entity_id: string;
  op: Change['op'];
  /** The stored JSON as its UTF-8 bytes (read as a BLOB): it goes out as it is, never decoded. */
  row: Buffer | null;
}

/**
 * About this much row text goes in one page: rows carry whole article bodies, so a page of 1,000 could be
 * hundreds of megabytes built at once. A page always has at least one row (so a cursor always moves
 * on), and stops before the row that would take it past the budget; hasMore tells the device to ask again.
 */
export const FEED_PAGE_BYTES = 1024 * 1024;

/**
 * The page after `since`: first the sizes of the next `limit + 1` changes (numbers only; no row text is
 * read), then the text of only those that fit the budget, so a page never holds more than it sends.
 */
async function readPage(db: Queryable, userId: string, since: number, limit: number) {
  const { changeLog } = db.tables;
  const sizes = await db.all<{ seq: number; size: number | null }>(
    sql`SELECT ${changeLog.seq} AS seq, octet_length(${changeLog.row}) AS size FROM ${changeLog}
       WHERE ${changeLog.userId} = ${userId} AND ${changeLog.seq} > ${since}
       ORDER BY ${changeLog.seq} LIMIT ${limit + 1}`,
  );
  let count = 0;
  let bytes = 0;
  for (const { size } of sizes) {
    if (count === limit || (count > 0 && bytes + (size ?? 0) > FEED_PAGE_BYTES)) break;
    count += 1;
    bytes += size ?? 0;
  }
  const hasMore = count < sizes.length;
  const last = sizes[count - 1]?.seq;
  if (last === undefined) return { page: [], hasMore, cursor: since };
  const page = await db.all<ChangeRow>(
    sql`SELECT seq, entity, entity_id, op, CAST(row AS BLOB) AS row FROM change_log
       WHERE user_id = ${userId} AND seq > ${since} AND seq <= ${last} ORDER BY seq`,
  );
  return { page, hasMore, cursor: last };
}

const NULL_ROW = Buffer.from('null');

/**
 * Changes after `since`, oldest first, as the JSON answer's bytes; passing the returned cursor back yields
 * only newer ones. Rows are stored as the JSON their GET serves, so their bytes are spliced in as they are:
 * never parsed, serialized, nor even decoded into a string and encoded again, since the feed is the
 * largest answer the server gives (a new device pulls every article's body through it).
 */
export async function readChangesPage(
  db: Queryable,
  userId: string,
  since = 0,
  limit = CHANGES_DEFAULT_LIMIT,
): Promise<Buffer> {
  const { page, hasMore, cursor } = await readPage(db, userId, since, limit);
  const parts: Buffer[] = [Buffer.from(`{"cursor":${cursor},"hasMore":${hasMore},"changes":[`)];
  page.forEach((row, index) => {
    parts.push(
      Buffer.from(
        `${index === 0 ? '' : ','}{"seq":${row.seq},"entity":${JSON.stringify(row.entity)},"id":${JSON.stringify(row.entity_id)},"op":${JSON.stringify(row.op)},"row":`,
      ),
      row.row ?? NULL_ROW,
      Buffer.from('}'),
    );
  });
  parts.push(Buffer.from(']}'));
  return Buffer.concat(parts);
}

/** readChangesPage as text, for callers in the server's own process (tests, the in-memory helpers). */
export async function readChangesJson(
  db: Queryable,
  userId: string,
  since = 0,
  limit = CHANGES_DEFAULT_LIMIT,
): Promise<string> {
  return (await readChangesPage(db, userId, since, limit)).toString('utf8');
}
