// POST /api/articles/bodies: the bodies of a new device's articles, after its first sync listed them as
// cards (GET /api/sync/changes?cards=true). The device asks for a few dozen ids at a time, newest first.
import { BODIES_ANSWER_BYTES } from '@lectern/shared-schema';
import type { Db } from '../db/connection';

interface BodyRow {
  id: string;
  /** 1 when the id is no article of the caller's. */
  unknown: number;
  /** The body as a JSON string literal, made by SQLite and read as bytes: never decoded here. */
  content: Buffer | null;
}

/**
 * The caller's bodies for `ids`, in the order asked, as the answer's JSON bytes. Other users' articles and
 * ids that don't exist are named in `unknown`, nothing else said about them (the same as a 404). An answer
 * stops before the body that would take it past BODIES_ANSWER_BYTES (it always has one), and says nothing
 * of the ids after it: the device asks for those again.
 */
export function readArticleBodies(db: Db, userId: string, ids: readonly string[]): Buffer {
  const rows = db
    .statement(
      `SELECT asked.value AS id, a.id IS NULL AS unknown, CAST(json_quote(a.content) AS BLOB) AS content
       FROM json_each(?) asked LEFT JOIN articles a ON a.id = asked.value AND a.user_id = ?`,
    )
    .iterate(JSON.stringify(ids), userId) as IterableIterator<BodyRow>;
  const bodies: Buffer[] = [];
  const unknown: string[] = [];
  const answered = new Set<string>();
  let bytes = 0;
  // Rows are read one at a time, so the bodies after a full answer never leave SQLite; they come in the
  // order asked because the LEFT JOIN walks json_each's array from the start (an ORDER BY would make SQLite
  // sort, reading every body first).
  for (const row of rows) {
    if (answered.has(row.id)) continue;
    answered.add(row.id);
    if (row.unknown === 1) {
      unknown.push(row.id);
      continue;
    }
    const content = row.content ?? Buffer.from('null');
    if (bodies.length > 0 && bytes + content.length > BODIES_ANSWER_BYTES) break;
    bodies.push(
      Buffer.from(`${bodies.length === 0 ? '' : ','}{"id":${JSON.stringify(row.id)},"content":`),
      content,
      Buffer.from('}'),
    );
    bytes += content.length;
  }
  return Buffer.concat([
    Buffer.from('{"bodies":['),
    ...bodies,
    Buffer.from(`],"unknown":${JSON.stringify(unknown)}}`),
  ]);
}
