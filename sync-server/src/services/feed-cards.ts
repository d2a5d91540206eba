// The change feed's cards (GET /api/sync/changes?cards=true): an article's change as its card, the row its
// GET serves without the body. Read from the articles table's columns before the body (as the list of
// articles reads them), never from the stored change with its body: a new device's first page of cards
// then costs the server a few index reads per article, not a read of every body in the library.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { findArticleSummaries } from './article-rows';
import { equalsNotIndexed, inJsonList } from '../db/sql-functions';

/**
 * The cards of the caller's articles among `ids`, as JSON bytes by id. An article's current row is its
 * latest change in the feed (each change records it at commit, and supersedes the ones before), so the card
 * is that change less its body. An id missing from the answer (deleted meanwhile) is the caller's to read
 * from the stored change instead.
 */
export async function readArticleCards(
  db: Queryable,
  userId: string,
  ids: readonly string[],
): Promise<Map<string, Buffer>> {
  const cards = new Map<string, Buffer>();
  if (ids.length === 0) return cards;
  const summaries = await findArticleSummaries(
    db,
    sql`WHERE ${equalsNotIndexed(db, sql`a.user_id`, userId)} AND ${inJsonList(db, sql`a.id`, ids)}`,
  );
  for (const summary of summaries) cards.set(summary.id, Buffer.from(JSON.stringify(summary)));
  return cards;
}

/** An article's card as JSON: its row (as its GET serves it) less the body, the keys kept in order. */
export function cardJson(row: Record<string, unknown>): string {
  const { content: _content, ...card } = row;
  return JSON.stringify(card);
}
