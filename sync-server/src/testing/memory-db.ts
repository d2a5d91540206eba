// For the unit tests beside services/ and db/: an in-memory SQLite built by the real migrations, readers
// to own the rows, and the change feed as a device reads it. No server, no HTTP.
import { newId, type Change } from '@lectern/shared-schema';
import { afterEach, beforeEach } from 'vitest';
import { openDatabase, type Db } from '../db/connection';
import type { NewArticle } from '../services/articles';
import { readChangesJson } from '../services/sync';

export function openMemoryDb(): Db {
  return openDatabase(':memory:');
}

export interface MemoryReader {
  db: Db;
  reader: string;
}

/**
 * Before each test of the file, a new in-memory database with one reader, handed to `use` (the test file keeps
 * them in its own variables); the database is closed after the test.
 */
export function readerDbPerTest(use: (fresh: MemoryReader) => void): void {
  let db: Db | undefined;
  beforeEach(() => {
    db = openMemoryDb();
    use({ db, reader: addReader(db) });
  });
  afterEach(() => db?.close());
}

/** A reader's account row; the id is what every service takes as `userId`. */
export function addReader(db: Db): string {
  const id = newId();
  db.statement('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)').run(
    id,
    `${id}@example.com`,
    new Date().toISOString(),
  );
  return id;
}

interface FeedPage {
  cursor: number;
  hasMore: boolean;
  changes: Change[];
}

/** The reader's whole feed after `since`, every page read. */
export function feedOf(db: Db, userId: string, since = 0): FeedPage {
  const changes: Change[] = [];
  let page: FeedPage = { cursor: since, hasMore: true, changes: [] };
  while (page.hasMore) {
    page = JSON.parse(readChangesJson(db, userId, page.cursor)) as FeedPage;
    changes.push(...page.changes);
  }
  return { cursor: page.cursor, hasMore: false, changes };
}

/** What `write` added to the reader's feed. */
export function changesOf(db: Db, userId: string, write: () => unknown): Change[] {
  const before = feedOf(db, userId).cursor;
  write();
  return feedOf(db, userId, before).changes;
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
