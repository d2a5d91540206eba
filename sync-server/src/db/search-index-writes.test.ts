// The FTS5 index is written only when what it holds changed (migration 0013): an UPDATE naming an indexed
// column with the value it had leaves the index alone (it used to drop and add the article's whole body,
// and rewrite the index row of each of its highlights for its title); a real change is found at once.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const migrations = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const AT = '2024-01-01T00:00:00.000Z';
const HIGHLIGHTS = 50;
let db: Database.Database;

beforeEach(() => {
  db = new Database(':memory:');
  migrate(drizzle(db), { migrationsFolder: migrations });
  db.prepare('INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)').run(
    'reader',
    'reader@example.com',
    'x',
    AT,
  );
  db.prepare(
    `INSERT INTO articles (id, user_id, url, title, description, article_type, content_text, created_at, updated_at)
     VALUES ('a1', 'reader', 'https://example.com/bread', 'Sourdough starters', 'Bread at home', 'web',
       'Feed the levain daily.', ?, ?)`,
  ).run(AT, AT);
  const highlight = db.prepare(
    `INSERT INTO highlights (id, user_id, article_id, highlighted_text, context_before, context_after,
       position_start, position_end, color, created_at, updated_at)
     VALUES (?, 'reader', 'a1', ?, '', '', 0, 10, 'yellow', ?, ?)`,
  );
  for (let i = 0; i < HIGHLIGHTS; i += 1) highlight.run(`h${i}`, `passage ${i}`, AT, AT);
});
afterEach(() => db.close());

/** Rows the statement wrote, those its triggers wrote included (the index's among them). */
function rowsWritten(statement: string, ...values: unknown[]): number {
  const total = () => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  const before = total();
  db.prepare(statement).run(...values);
  return total() - before;
}

const articlesFound = (words: string) =>
  db.prepare(`SELECT rowid FROM articles_fts WHERE articles_fts MATCH ?`).all(words).length;
const highlightsFound = (words: string) =>
  db.prepare(`SELECT rowid FROM highlights_fts WHERE highlights_fts MATCH ?`).all(words).length;

/** What a write the index doesn't hold writes: the row, and what other triggers keep with it. */
const untouchedIndex = () => rowsWritten(`UPDATE articles SET updated_at = ? WHERE id = 'a1'`, AT);

describe('the search index on an article written again', () => {
  it('is left alone when every indexed value is the one it had', () => {
    const floor = untouchedIndex();
    expect(
      rowsWritten(
        `UPDATE articles SET title = title, description = description, author = author, url = url,
           content_text = content_text, tags_text = tags_text, updated_at = ? WHERE id = 'a1'`,
        AT,
      ),
    ).toBe(floor);
    expect(articlesFound('levain')).toBe(1);
    expect(highlightsFound('article_title : sourdough')).toBe(HIGHLIGHTS);
  });

  it('follows a new text at once, and leaves the highlights alone when the title stays', () => {
    const floor = untouchedIndex();
    const written = rowsWritten(
      `UPDATE articles SET title = title, content_text = 'Knead the rye dough.' WHERE id = 'a1'`,
    );
    expect(written).toBeGreaterThan(floor);
    expect(written).toBeLessThan(floor + HIGHLIGHTS);
    expect(articlesFound('levain')).toBe(0);
    expect(articlesFound('rye')).toBe(1);
  });

  it('follows a new title in the article and in every highlight of it', () => {
    const floor = untouchedIndex();
    expect(rowsWritten(`UPDATE articles SET title = 'Rye loaves' WHERE id = 'a1'`)).toBeGreaterThan(
      floor + HIGHLIGHTS,
    );
    expect(articlesFound('title : rye')).toBe(1);
    expect(articlesFound('title : sourdough')).toBe(0);
    expect(highlightsFound('article_title : rye')).toBe(HIGHLIGHTS);
    expect(highlightsFound('article_title : sourdough')).toBe(0);
  });
});
