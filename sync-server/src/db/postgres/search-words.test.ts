// PostgreSQL keeps every word of more than 6 letters its articles hold (search_words, migrations/0009), so
// that a long last word typed is matched as the words it begins, each one entry of the GIN index, instead
// of a prefix match that collects every such word of the whole database. What this must keep true: the
// words come from every write of an article and from the articles saved before the table existed; more
// than 64 of them fall back to the prefix; and two saves meeting the same new word never wait for each other.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, stopTestCluster } from '../../testing/postgres-cluster';
import { databaseMigratedTo } from '../../testing/postgres-upgrade';
import type { Db } from '../database';
import { openPostgres } from './connection';
import { searchArticleIds } from './search';

afterAll(stopTestCluster);

const AT = '2030-01-01T00:00:00.000Z';
let url: string;
let db: Db;

beforeEach(async () => {
  url = await createTestDatabase();
  db = await openPostgres(url);
  await db.orm.insert(db.tables.users).values([
    { id: 'reader', email: 'reader@example.com', createdAt: AT },
    { id: 'other', email: 'other@example.com', createdAt: AT },
  ]);
});
afterEach(() => db?.close());

/** Saves an article of `owner` with `text` as its words (title and address hold none of 7 letters). */
async function save(id: string, text: string, owner = 'reader') {
  await db.run(sql`INSERT INTO articles (id, user_id, url, title, article_type, content_text, created_at, updated_at)
    VALUES (${id}, ${owner}, ${`https://example.org/${id}`}, 'A page', 'web', ${text}, ${AT}, ${AT})`);
}

/** The tsquery a search's last word typed becomes, as text. */
async function typedQuery(term: string): Promise<string> {
  const row = await db.get<{ query: string }>(sql`SELECT lectern_search_prefix(${term})::text AS query`);
  return row!.query;
}

describe('a long last word typed', () => {
  it('stands for the words it begins, from every save and every new text of an article', async () => {
    await save('a1', 'The lighthouse and its lighthousekeeper.');
    await save('a2', 'Two lighthouses.', 'other');
    // Another reader's word is among the words (no reader is kept), never among what the search answers.
    expect(await typedQuery('Lighthous')).toBe("'lighthouse' | 'lighthousekeeper' | 'lighthouses'");
    expect(await searchArticleIds(db, 'reader', 'lighthous')).toEqual(['a1']);
    expect(await searchArticleIds(db, 'reader', 'lighthouses')).toEqual([]);

    await db.run(sql`UPDATE articles SET content_text = 'A lighthouseman rowed out.' WHERE id = 'a1'`);
    expect(await typedQuery('lighthousem')).toBe("'lighthouseman'");
    expect(await searchArticleIds(db, 'reader', 'lighthousem')).toEqual(['a1']);
    // The words of the article's old text stay, and match nothing of it any more.
    expect(await searchArticleIds(db, 'reader', 'lighthousek')).toEqual([]);
    // A word no article begins so: nothing to stand for, so the prefix, which finds nothing.
    expect(await typedQuery('lighthousez')).toBe("'lighthousez':*");
    // Accents folded as the index folds them; 6 letters or fewer are a beginning's own lexeme (0003).
    await save('a3', 'Réverbère allumé.');
    expect(await typedQuery('Réverbèr')).toBe("'reverbere'");
    expect(await typedQuery('lighth')).toBe("'lighth*'");
  });

  it('is the prefix again when more than 64 words begin so', async () => {
    const words = (count: number, stem: string) => Array.from({ length: count }, (_, n) => `${stem}${n}x`);
    await save('a1', words(64, 'breakwater').join(' '));
    await save('a2', words(65, 'seawallpost').join(' '));
    const expanded = await typedQuery('breakwater');
    expect(expanded.split(' | ')).toHaveLength(64);
    expect(expanded).toContain("'breakwater63x'");
    expect(await typedQuery('seawallpost')).toBe("'seawallpost':*");
    expect(await searchArticleIds(db, 'reader', 'breakwater')).toEqual(['a1']);
    expect(await searchArticleIds(db, 'reader', 'seawallpost')).toEqual(['a2']);
  });

  it("never makes two saves meeting the same new word wait for each other's commit", async () => {
    const first = new pg.Client({ connectionString: url });
    const second = new pg.Client({ connectionString: url });
    await Promise.all([first.connect(), second.connect()]);
    try {
      const insert = (id: string, owner: string) =>
        `INSERT INTO articles (id, user_id, url, title, article_type, content_text, created_at, updated_at)
          VALUES ('${id}', '${owner}', 'https://example.org/${id}', 'A page', 'web',
            'zanzibarite quartzitic zanzibarites', '${AT}', '${AT}')`;
      await first.query('BEGIN');
      await first.query(insert('a1', 'reader'));
      // The first transaction is still open with the same new words: the second saves them at once.
      await second.query(`SET statement_timeout = '5s'`);
      await second.query('BEGIN');
      await second.query(insert('a2', 'other'));
      await second.query('COMMIT');
      await first.query('COMMIT');
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    // Each word met twice at once is kept twice, and stands once in a query.
    expect(await typedQuery('zanzibari')).toBe("'zanzibarite' | 'zanzibarites'");
    expect(await searchArticleIds(db, 'reader', 'zanzibari')).toEqual(['a1']);
    expect(await searchArticleIds(db, 'other', 'quartziti')).toEqual(['a2']);
  });
});

describe('upgrading to the kept words (migration 0009)', () => {
  it('keeps the words of the articles saved before and during it, so a long word typed finds them', async () => {
    // A database as a node before 0009 left it: the migrations up to 0008 only, then an article saved.
    const fresh = await databaseMigratedTo(8);
    const insert = (id: string, text: string) =>
      `INSERT INTO articles (id, user_id, url, title, article_type, content_text, created_at, updated_at)
        VALUES ('${id}', 'reader', 'https://example.org/${id}', 'A page', 'web', '${text}', '${AT}', '${AT}')`;
    // A node of the version before: it saved an article, and saves another while a new node upgrades.
    const saving = new pg.Client({ connectionString: fresh });
    await saving.connect();
    try {
      await saving.query(
        `INSERT INTO users (id, email, created_at) VALUES ('reader', 'r@example.com', '${AT}')`,
      );
      await saving.query(insert('old', 'Saved with a lighthousekeeper.'));
      await saving.query('BEGIN');
      await saving.query(insert('during', 'Saved by a lighthouseman.'));
      const upgrading = openPostgres(fresh);
      // The upgrade waits for the save: committed before its words are read, not after.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await saving.query('COMMIT');
      const upgraded = await upgrading;
      try {
        const row = await upgraded.get<{ query: string }>(
          sql`SELECT lectern_search_prefix('lighthouse')::text AS query`,
        );
        expect(row!.query).toBe("'lighthousekeeper' | 'lighthouseman'");
        expect(new Set(await searchArticleIds(upgraded, 'reader', 'lighthouse'))).toEqual(
          new Set(['old', 'during']),
        );
        // The prefixes the index keeps are not words.
        expect(await upgraded.all(sql`SELECT word FROM search_words WHERE right(word, 1) = '*'`)).toEqual([]);
      } finally {
        await upgraded.close();
      }
    } finally {
      await saving.end();
    }
  });
});
