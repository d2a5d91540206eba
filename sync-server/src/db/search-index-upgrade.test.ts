// Upgrading a library saved before migrations 0008 and 0009: the search index is rebuilt with its 5- and
// 6-letter prefix indexes from the articles already saved, so every one is still found, by whole words and
// by prefixes of any length; and the addresses left to normalise are found through the new partial index.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { searchedIds } from '../testing/searched-ids';
import { openSqlite } from './connection';

const migrations = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lectern-upgrade-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A database as a server before migration 0008 left it: the migrations up to 0007 only. */
function databaseBeforeSearchPrefixes(file: string): Database.Database {
  const older = join(dir, 'migrations');
  cpSync(migrations, older, { recursive: true });
  const journalFile = join(older, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= 7);
  writeFileSync(journalFile, JSON.stringify(journal));
  const sqlite = new Database(file);
  migrate(drizzle(sqlite), { migrationsFolder: older });
  return sqlite;
}

describe('upgrading to the 5- and 6-letter search prefixes', () => {
  it('rebuilds the index from the saved articles and finds them by any prefix', async () => {
    const file = join(dir, 'lectern.sqlite');
    const old = databaseBeforeSearchPrefixes(file);
    const at = '2024-01-01T00:00:00.000Z';
    old
      .prepare('INSERT INTO users (id, email, password_hash, username, created_at) VALUES (?, ?, ?, ?, ?)')
      .run('reader-1', 'reader@example.com', 'x', 'reader', at);
    const insert = old.prepare(
      `INSERT INTO articles (id, user_id, url, normalized_url, title, article_type, content_text, created_at, updated_at)
       VALUES (?, 'reader-1', ?, ?, ?, 'web', ?, ?, ?)`,
    );
    insert.run(
      'a1',
      'https://example.com/bread',
      null,
      'Sourdough starters',
      'Feed the levain daily.',
      at,
      at,
    );
    insert.run(
      'a2',
      'https://example.com/stars',
      'https://example.com/stars',
      'Stargazing',
      'Saturn rings.',
      at,
      at,
    );
    old.close();

    const db = openSqlite(file);
    try {
      const found = async (query: string) => await searchedIds(db, 'reader-1', query);
      for (const query of [
        'sourdough',
        'so',
        'sou',
        'sour',
        'sourd',
        'sourdo',
        'sourdou',
        'levain',
        'saturn',
      ])
        expect(await found(query), query).toEqual([query === 'saturn' ? 'a2' : 'a1']);
      expect(await found('sourdx')).toEqual([]);
      // The address missing before the upgrade was filled in at open, through the partial index.
      expect(db.sqlite.prepare(`SELECT normalized_url FROM articles WHERE id = 'a1'`).pluck().get()).toBe(
        'https://example.com/bread',
      );
      // A save after the upgrade is indexed by the triggers the migration made again.
      db.sqlite
        .prepare(
          `INSERT INTO articles (id, user_id, url, normalized_url, title, article_type, created_at, updated_at)
           VALUES ('a3', 'reader-1', 'https://example.com/kale', 'https://example.com/kale', 'Kale harvest', 'web', ?, ?)`,
        )
        .run(at, at);
      expect(await found('harves')).toEqual(['a3']);
    } finally {
      await db.close();
    }
  });
});
