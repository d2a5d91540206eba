// The change feed's read side: GET /api/sync/changes?since=&limit=.
import { CHANGES_DEFAULT_LIMIT } from '@lectern/shared-schema';
import type { Queryable } from '../db/connection';
import { sql } from 'drizzle-orm';
import { cardJson, readArticleCards } from './article-cards';
import { asStoredJson, jsonBytes, storedJson } from '../db/sql-functions';
import { asColumn, orNull, select, selectFirst, type RowOf } from '../db/typed-select';

/**
 * A change as the feed reads it. Its row is the stored JSON (db/sql-functions.ts storedJson): it goes out
 * as it is, never parsed. In a page of cards an article's row is its card (article_cards, joined as `ac`),
 * never the stored change with its body; NULL when the article has no card stored (saved before cards
 * were) or is gone.
 */
function changeSelection(db: Queryable, cards: boolean) {
  const { changeLog } = db.tables;
  return {
    seq: changeLog.seq,
    entity: changeLog.entity,
    entity_id: changeLog.entityId,
    op: changeLog.op,
    row: orNull(
      cards
        ? asStoredJson(
            sql`CASE WHEN entity = 'article' AND op = 'upsert' THEN ${storedJson(db, sql`ac.card`).sql} ELSE ${storedJson(db, sql`row`).sql} END`,
          )
        : storedJson(db, sql`row`),
    ),
  };
}

/** A change in a page: its row as the bytes to send, and its head (changeHead). */
type ChangeRow = Omit<RowOf<ReturnType<typeof changeSelection>>, 'row'> & {
  row: Buffer | null;
  head: Buffer;
};

/**
 * About this much row text goes in one page: rows carry whole article bodies, so a page of 1,000 could be
 * hundreds of megabytes built at once. A page always has at least one row (so a cursor always moves
 * on), and stops before the row that would take it past the budget; hasMore tells the device to ask again.
 */
export const FEED_PAGE_BYTES = 1024 * 1024;

/**
 * The same for a page of cards (a kilobyte each): up to CARDS_MAX_LIMIT of them, a few megabytes. A new
 * device lists its library sooner from a few large pages than from many small ones.
 */
export const CARDS_PAGE_BYTES = 5 * FEED_PAGE_BYTES;

/**
 * An article's change in a page of cards without a stored card gets one from feed-cards.ts after the page
 * is chosen. Counted at about this size against FEED_PAGE_BYTES.
 */
const CARD_BYTES = 1024;

/**
 * A change in its page, less its row: `{"seq":…,"entity":"…","id":"…","op":"…","row":` (its row and a
 * closing brace follow). Counted against the page's budget with the row: a page of 5,000 cards carries
 * about 450 KB of them.
 */
function changeHead(change: Pick<ChangeRow, 'seq' | 'entity' | 'entity_id' | 'op'>): Buffer {
  return Buffer.from(
    `{"seq":${change.seq},"entity":${JSON.stringify(change.entity)},"id":${JSON.stringify(change.entity_id)},"op":${JSON.stringify(change.op)},"row":`,
  );
}

/** Rows read per query: a page is read a few rows at a time, and reading stops once it is full. */
const FEED_READ_ROWS = 16;

/** The same for a page of cards, whose rows are a kilobyte or so rather than whole bodies. */
const CARD_READ_ROWS = 256;

/**
 * The page after `since`, read in small steps (keyset on seq) so that at most FEED_READ_ROWS rows beyond
 * the page are ever read: rows carry whole article bodies, and the rest never leave the database.
 */
async function readPage(db: Queryable, userId: string, since: number, limit: number, cards = false) {
  const selection = changeSelection(db, cards);
  const page: ChangeRow[] = [];
  let bytes = 0;
  const budget = cards ? CARDS_PAGE_BYTES : FEED_PAGE_BYTES;
  let after = since;
  for (;;) {
    const want = Math.min(limit + 1 - page.length, cards ? CARD_READ_ROWS : FEED_READ_ROWS);
    const rows = await select(
      db,
      selection,
      cards
        ? sql`FROM change_log LEFT JOIN article_cards ac ON entity = 'article' AND ac.article_id = entity_id
              WHERE user_id = ${userId} AND seq > ${after} ORDER BY seq LIMIT ${want}`
        : sql`FROM change_log WHERE user_id = ${userId} AND seq > ${after} ORDER BY seq LIMIT ${want}`,
    );
    for (const read of rows) {
      // Bytes to send either way; counted in bytes, whatever the script of the text.
      const row: ChangeRow = {
        ...read,
        row: read.row === null ? null : jsonBytes(read.row),
        head: changeHead(read),
      };
      // The row (or the card it will get), its head, the brace closing it and the comma before the next.
      const size = (row.row?.length ?? (cards && row.op === 'upsert' ? CARD_BYTES : 0)) + row.head.length + 2;
      if (page.length === limit || (page.length > 0 && bytes + size > budget)) return { page, hasMore: true };
      page.push(row);
      bytes += size;
    }
    if (rows.length < want) return { page, hasMore: false };
    after = rows.at(-1)!.seq;
  }
}

/**
 * Puts a card in each article change's row that has none stored: read from the articles, else (deleted
 * meanwhile) from the change less its body.
 */
async function fillCards(db: Queryable, userId: string, page: ChangeRow[]): Promise<void> {
  const articles = page.filter((row) => row.entity === 'article' && row.op === 'upsert' && row.row === null);
  const cards = await readArticleCards(
    db,
    userId,
    articles.map((row) => row.entity_id),
  );
  for (const row of articles) {
    row.row = cards.get(row.entity_id) ?? (await storedCard(db, row.seq));
  }
}

/** An article change's stored row less its body (the article was deleted since), as JSON bytes. */
async function storedCard(db: Queryable, seq: number): Promise<Buffer | null> {
  if (db.dialect === 'sqlite') {
    const stored = await selectFirst(
      db,
      { card: orNull(asStoredJson(sql`CAST(json_remove(row, '$.content') AS BLOB)`)) },
      sql`FROM change_log WHERE seq = ${seq}`,
    );
    return stored?.card ? jsonBytes(stored.card) : null;
  }
  // PostgreSQL's jsonb would reorder the keys: the row is parsed here instead, its keys kept in order.
  const stored = await selectFirst(
    db,
    { row: asColumn(db.tables.changeLog.row, sql`row`) },
    sql`FROM change_log WHERE seq = ${seq}`,
  );
  if (!stored?.row) return null;
  return Buffer.from(cardJson(JSON.parse(stored.row) as Record<string, unknown>));
}

const NULL_ROW = Buffer.from('null');
const COMMA = Buffer.from(',');
const CLOSE_BRACE = Buffer.from('}');

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
  cards = false,
): Promise<Buffer> {
  const { page, hasMore } = await readPage(db, userId, since, limit, cards);
  if (cards) await fillCards(db, userId, page);
  const cursor = page.at(-1)?.seq ?? since;
  const parts: Buffer[] = [Buffer.from(`{"cursor":${cursor},"hasMore":${hasMore},"changes":[`)];
  page.forEach((row, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(row.head, row.row ?? NULL_ROW, CLOSE_BRACE);
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
