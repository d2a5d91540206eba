// For the unit tests beside services/ and db/: a fresh database on the run's engine built by the real
// migrations (an in-memory SQLite, or PostgreSQL: testing/test-database.ts), readers to own the rows, and
// the change feed as a device reads it. No server, no HTTP.
import { newId, type Change } from '@lectern/shared-schema';
import { afterEach, beforeEach } from 'vitest';
import { openSqlite, type Db, type Queryable } from '../db/connection';
import type { NewArticle } from '../services/articles';
import { readChangesJson } from '../services/sync';
import { openTestDatabase } from './test-database';
import { sql } from 'drizzle-orm';
import { asNumber, selectFirst } from '../db/typed-select';

export function openMemoryDb(): Db {
  return openSqlite(':memory:');
}

export interface MemoryReader {
  db: Db;
  reader: string;
}

/**
 * Before each test of the file, a new database on the run's engine with one reader, handed to `use` (the test file keeps
 * them in its own variables); the database is closed after the test.
 */
export function readerDbPerTest(use: (fresh: MemoryReader) => void): void {
  let db: Db | undefined;
  beforeEach(async () => {
    db = await openTestDatabase();
    use({ db, reader: await addReader(db) });
  });
  afterEach(() => db?.close());
}

/** A reader's account row; the id is what every service takes as `userId`. */
export async function addReader(db: Queryable): Promise<string> {
  const id = newId();
  await db.run(
    sql`INSERT INTO users (id, email, created_at) VALUES (${id}, ${`${id}@example.com`}, ${new Date().toISOString()})`,
  );
  return id;
}

interface FeedPage {
  cursor: number;
  hasMore: boolean;
  changes: Change[];
}

/** The reader's whole feed after `since`, every page read. */
export async function feedOf(db: Queryable, userId: string, since = 0): Promise<FeedPage> {
  const changes: Change[] = [];
  let page: FeedPage = { cursor: since, hasMore: true, changes: [] };
  while (page.hasMore) {
    page = JSON.parse(await readChangesJson(db, userId, page.cursor)) as FeedPage;
    changes.push(...page.changes);
  }
  return { cursor: page.cursor, hasMore: false, changes };
}

/** What `write` added to the reader's feed. */
export async function changesOf(db: Db, userId: string, write: () => unknown): Promise<Change[]> {
  const before = (await feedOf(db, userId)).cursor;
  await write();
  return (await feedOf(db, userId, before)).changes;
}

/** `op entity id` of each change, the shortest way to say what a write recorded. */
export const summaries = (changes: readonly Change[]): string[] =>
  changes.map((change) => `${change.op} ${change.entity} ${change.id}`);

/** An extracted page as a save stores it (insertArticle), without fetching anything. */
export function newArticle(url: string, fields: Partial<NewArticle> = {}): NewArticle {
  return {
    id: newId(),
    url,
    title: `Page at ${url}`,
    description: 'A page',
    author: null,
    image_url: null,
    screenshot_url: null,
    article_type: 'web',
    content: '<p>Compost and kale</p>',
    content_text: 'Compost and kale',
    excerpt: 'Compost and kale',
    published_date: null,
    site_name: null,
    language: 'en',
    reading_time: 1,
    ...fields,
  };
}

/** How many rows the table holds. */
export async function countRows(db: Queryable, table: string): Promise<number> {
  const row = await selectFirst(db, { n: asNumber(sql`count(*)`) }, sql`FROM ${sql.identifier(table)}`);
  return row?.n ?? 0;
}
