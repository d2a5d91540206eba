// Articles' cards: an article's row as its GET serves it, less the body (the summary the list, search and
// a new device's first pull show). Each is stored with every change the feed records for the article
// (article_cards, written by change-log.ts), so the whole list of a big library and the feed's pages of
// cards splice stored JSON into their answer instead of reading, decoding and serializing each summary
// from columns, tags and highlights. An article saved before cards were stored has none until its next
// change or the one-time backfill (article-cards-backfill.ts): meanwhile its card is built from the
// columns (findArticleSummaries).
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { findArticleSummaries } from './article-rows';
import { equalsNotIndexed, inJsonList, jsonBytes, storedJson } from '../db/sql-functions';
import { asColumn, orNull, select } from '../db/typed-select';

/**
 * The cards of the caller's articles among `ids`, as JSON bytes by id, built from the articles' columns
 * (the feed's pages of cards, for changes with no card stored). An id missing from the answer (deleted
 * meanwhile) is the caller's to read from the stored change instead.
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

/**
 * The cards of the caller's articles `rest` (WHERE, ORDER BY over `articles a`) picks, in its order, as
 * JSON bytes: the stored card where there is one, else one built from the columns.
 */
export async function articleCardsInOrder(db: Queryable, userId: string, rest: SQL): Promise<Buffer[]> {
  const rows = await select(
    db,
    {
      id: asColumn(db.tables.articles.id, sql`a.id`),
      card: orNull(storedJson(db, sql`ac.card`)),
    },
    sql`FROM articles a LEFT JOIN article_cards ac ON ac.article_id = a.id ${rest}`,
  );
  const unstored = rows.filter((row) => row.card === null).map((row) => row.id);
  const built = await readArticleCards(db, userId, unstored);
  const cards: Buffer[] = [];
  for (const row of rows) {
    const card = row.card === null ? built.get(row.id) : jsonBytes(row.card);
    if (card) cards.push(card);
  }
  return cards;
}

/** An article's card as JSON: its row (as its GET serves it) less the body, the keys kept in order. */
export function cardJson(row: Record<string, unknown>): string {
  const { content: _content, ...card } = row;
  return JSON.stringify(card);
}

const COMMA = Buffer.from(',');

/**
 * An answer holding cards, as bytes: `{"<key>":[card,card,…]` then `rest`, the answer's other members and
 * its closing brace (`}` when there are none).
 */
export function cardsAnswer(key: string, cards: readonly Buffer[], rest: string): Buffer {
  const parts: Buffer[] = [Buffer.from(`{${JSON.stringify(key)}:[`)];
  cards.forEach((card, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(card);
  });
  parts.push(Buffer.from(`]${rest}`));
  return Buffer.concat(parts);
}
