// PostgreSQL keeps each article's search vector in a table beside it (article_search_vectors, migrations
// 0011), so that finding a search's newest matches reads a few narrow rows instead of the articles'. What
// this must keep true: every write of an article's searched fields or date is in it at once, a write of
// anything else leaves it alone, a deleted article or reader leaves nothing behind, and a database
// upgraded from the version before holds every article saved before and during the upgrade. Their GIN
// index takes each save's entries at once (0012), so a search never reads a pending list beside it.
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

/** An INSERT of an article of `owner` with `text` as its words, as a node's save writes it. */
function insertArticle(id: string, text: string, owner = 'reader', createdAt = AT): string {
  return `INSERT INTO articles (id, user_id, url, title, article_type, content_text, created_at, updated_at)
    VALUES ('${id}', '${owner}', 'https://example.org/${id}', 'A page', 'web', '${text}', '${createdAt}', '${AT}')`;
}

/** The rows of article_search_vectors, each with whether its vector is the one its article's row makes. */
async function vectorRows(db: Db) {
  return db.all<{ id: string; user_id: string; created_at: string; current: boolean }>(sql`
    SELECT a.id, v.user_id, v.created_at, v.search_vector = lectern_article_match_vector(a) AS current
    FROM article_search_vectors v LEFT JOIN articles a ON a.seq = v.seq ORDER BY v.seq`);
}

describe('the search vectors beside the articles', () => {
  let db: Db;
  beforeEach(async () => {
    db = await openPostgres(await createTestDatabase());
    await db.orm.insert(db.tables.users).values([
      { id: 'reader', email: 'reader@example.com', createdAt: AT },
      { id: 'other', email: 'other@example.com', createdAt: AT },
    ]);
  });
  afterEach(() => db?.close());

  it('follow every write of an article’s words and date, and only those', async () => {
    await db.run(sql.raw(insertArticle('a1', 'A harbour at dawn.')));
    await db.run(
      sql.raw(insertArticle('a2', 'Another harbour, at dusk.', 'reader', '2029-01-01T00:00:00.000Z')),
    );
    await db.run(sql.raw(insertArticle('b1', 'The harbour of another reader.', 'other')));
    expect(await vectorRows(db)).toEqual([
      { id: 'a1', user_id: 'reader', created_at: AT, current: true },
      { id: 'a2', user_id: 'reader', created_at: '2029-01-01T00:00:00.000Z', current: true },
      { id: 'b1', user_id: 'other', created_at: AT, current: true },
    ]);
    // Same rank: the newer first.
    expect(await searchArticleIds(db, 'reader', 'harbour')).toEqual(['a1', 'a2']);

    // A new text: its words match, the old ones don't.
    await db.run(sql`UPDATE articles SET content_text = 'A lighthouse in fog.' WHERE id = 'a1'`);
    expect(await searchArticleIds(db, 'reader', 'harbour')).toEqual(['a2']);
    expect(await searchArticleIds(db, 'reader', 'lightho')).toEqual(['a1']);
    // A new title and tags, each a field of its own.
    await db.run(sql`UPDATE articles SET title = 'Harbour lights', tags_text = 'coast' WHERE id = 'a1'`);
    expect(await searchArticleIds(db, 'reader', 'harbour')).toEqual(['a1', 'a2']);
    expect(await searchArticleIds(db, 'reader', 'coast')).toEqual(['a1']);

    // A URL saved again comes back to the top: its date, which orders equal ranks, moves with it.
    await db.run(
      sql`UPDATE articles SET title = 'A page', tags_text = '', content_text = 'Harbour.' WHERE id = 'a1'`,
    );
    await db.run(sql`UPDATE articles SET created_at = '2031-01-01T00:00:00.000Z' WHERE id = 'a2'`);
    expect(await searchArticleIds(db, 'reader', 'harbour')).toEqual(['a2', 'a1']);

    // Marking read writes nothing beside the article.
    const before = await db.all(sql`SELECT ctid::text FROM article_search_vectors ORDER BY seq`);
    await db.run(sql`UPDATE articles SET is_read = true, reading_progress = 1 WHERE id = 'a2'`);
    expect(await db.all(sql`SELECT ctid::text FROM article_search_vectors ORDER BY seq`)).toEqual(before);
    expect(await vectorRows(db)).toEqual([
      { id: 'a1', user_id: 'reader', created_at: AT, current: true },
      { id: 'a2', user_id: 'reader', created_at: '2031-01-01T00:00:00.000Z', current: true },
      { id: 'b1', user_id: 'other', created_at: AT, current: true },
    ]);

    // A deleted article, then a deleted reader, leave nothing behind.
    await db.run(sql`DELETE FROM articles WHERE id = 'a1'`);
    expect((await vectorRows(db)).map((row) => row.id)).toEqual(['a2', 'b1']);
    await db.run(sql`DELETE FROM users WHERE id = 'other'`);
    expect((await vectorRows(db)).map((row) => row.id)).toEqual(['a2']);
    expect(await searchArticleIds(db, 'reader', 'harbour')).toEqual(['a2']);
  });

  it('are out of the articles’ rows: the articles keep only the ranking’s vector', async () => {
    const columns = await db.all<{
      name: string;
    }>(sql`SELECT column_name AS name FROM information_schema.columns
      WHERE table_name = 'articles' AND column_name LIKE 'search%' ORDER BY 1`);
    expect(columns).toEqual([{ name: 'search_rank_vector' }]);
  });

  it('are in the search index as soon as saved, never in a pending list every search reads (migration 0012)', async () => {
    // Ten articles of a few hundred words, each with a highlight of some of them: well under GIN's default
    // pending list of 4 MB, where each would have waited (and been read by every search) until the list
    // filled.
    const words = (n: number) => Array.from({ length: 300 }, (_, i) => `w${n}x${i.toString(36)}`).join(' ');
    for (let n = 0; n < 10; n += 1) {
      await db.run(sql.raw(insertArticle(`p${n}`, words(n))));
      await db.run(sql`INSERT INTO highlights (id, user_id, article_id, highlighted_text, position_start,
          position_end, created_at, updated_at)
        VALUES (${`h${n}`}, 'reader', ${`p${n}`}, ${words(n).slice(0, 2_000)}, 0, 2000, ${AT}, ${AT})`);
    }
    await db.run(sql`CREATE EXTENSION IF NOT EXISTS pgstattuple`);
    const pending = await db.all<{ index: string; pages: number; fastupdate: boolean }>(sql`
      SELECT c.relname AS index, (pgstatginindex(c.oid)).pending_pages AS pages,
        coalesce('fastupdate=off' <> ALL (c.reloptions), true) AS fastupdate
      FROM pg_class c WHERE c.relname IN ('article_search_vectors_idx', 'highlights_search_idx')
      ORDER BY 1`);
    expect(pending).toEqual([
      { index: 'article_search_vectors_idx', pages: 0, fastupdate: false },
      { index: 'highlights_search_idx', pages: 0, fastupdate: false },
    ]);
    expect(await searchArticleIds(db, 'reader', 'w7x1a')).toEqual(['p7']);
  });
});

describe('upgrading to the vectors beside the articles (migration 0011)', () => {
  it('holds every article saved before and during it, and a node of the version before goes on', async () => {
    // A database as a node before 0011 left it: the migrations up to 0010 only, then articles saved.
    const fresh = await databaseMigratedTo(10);
    // A node of the version before: it saved articles, and saves another while a new node upgrades.
    const saving = new pg.Client({ connectionString: fresh });
    await saving.connect();
    try {
      await saving.query(
        `INSERT INTO users (id, email, created_at) VALUES ('reader', 'r@example.com', '${AT}')`,
      );
      await saving.query(insertArticle('old', 'Saved with a lighthousekeeper at the harbour.'));
      await saving.query(
        insertArticle('older', 'A harbour seen before.', 'reader', '2029-01-01T00:00:00.000Z'),
      );
      await saving.query('BEGIN');
      await saving.query(insertArticle('during', 'Saved by a lighthouseman.'));
      const upgrading = openPostgres(fresh);
      // The upgrade waits for the save: committed before the vectors are copied, not after.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await saving.query('COMMIT');
      const upgraded = await upgrading;
      try {
        expect(await vectorRows(upgraded)).toEqual(
          ['old', 'older', 'during'].map((id) => ({
            id,
            user_id: 'reader',
            created_at: id === 'older' ? '2029-01-01T00:00:00.000Z' : AT,
            current: true,
          })),
        );
        expect(await searchArticleIds(upgraded, 'reader', 'harbour')).toEqual(['old', 'older']);
        expect(new Set(await searchArticleIds(upgraded, 'reader', 'lighthouse'))).toEqual(
          new Set(['old', 'during']),
        );
        // A node of the version before goes on saving and searching through the same functions.
        await saving.query(
          insertArticle('after', 'A harbour after the upgrade.', 'reader', '2031-01-01T00:00:00.000Z'),
        );
        expect(await searchArticleIds(upgraded, 'reader', 'harbour')).toEqual(['after', 'old', 'older']);
      } finally {
        await upgraded.close();
      }
    } finally {
      await saving.end();
    }
  });
});
