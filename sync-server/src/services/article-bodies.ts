// POST /api/articles/bodies: the bodies of a new device's articles, after its first sync listed them as
// cards (GET /api/sync/changes?cards=true). The device asks for a few dozen ids at a time, newest first.
import { BODIES_ANSWER_BYTES } from '@lectern/shared-schema';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { byteLength, jsonBytes, jsonListTable, jsonStringText } from '../db/sql-functions';
import { asBoolean, asNumber, asText, orNull, select, selectFirst } from '../db/typed-select';

/**
 * The caller's bodies for `ids`, in the order asked, as the answer's JSON bytes. Other users' articles and
 * ids that don't exist are named in `unknown`, nothing else said about them (the same as a 404). An answer
 * stops before the body that would take it past BODIES_ANSWER_BYTES (it always has one), and says nothing
 * of the ids after it: the device asks for those again.
 */
export async function readArticleBodies(
  db: Queryable,
  userId: string,
  ids: readonly string[],
): Promise<Buffer> {
  // Which ids are the caller's, and how large their bodies are, first; then each body on its
  // own, stopping at the answer's budget, so the bodies after a full answer are never read.
  const asked = await select(
    db,
    {
      id: asText(sql`asked.value`),
      // When the id is no article of the caller's.
      unknown: asBoolean(sql`a.id IS NULL`),
      // The body's length in bytes (null for an article without a body): what it adds to the answer,
      // about. Not its text for search: the device makes that from the body when its index takes the
      // article in, so the answer (and the device's storage) carries each body once.
      size: orNull(asNumber(byteLength(db, sql`a.content`))),
    },
    sql`FROM ${jsonListTable(db, ids, 'asked')}
        LEFT JOIN articles a ON a.id = asked.value AND a.user_id = ${userId} ORDER BY asked.n`,
  );
  const bodies: Buffer[] = [];
  const unknown: string[] = [];
  const answered = new Set<string>();
  let bytes = 0;
  // In the order asked (a few dozen ids: the sort costs nothing).
  for (const row of asked) {
    if (answered.has(row.id)) continue;
    answered.add(row.id);
    if (row.unknown) {
      unknown.push(row.id);
      continue;
    }
    if (bodies.length > 0 && bytes + (row.size ?? 4) > BODIES_ANSWER_BYTES) break;
    // The body as a JSON string literal made by the database: never parsed nor escaped here.
    const body = await selectFirst(
      db,
      { content: orNull(jsonStringText(db, sql`content`)) },
      sql`FROM articles WHERE id = ${row.id} AND user_id = ${userId}`,
    );
    const content = body?.content ? jsonBytes(body.content) : Buffer.from('null');
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
