import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findArticle } from '../services/article-rows';
import { insertArticle } from '../services/articles';
import { newArticle, readerDbPerTest, type MemoryReader } from '../testing/memory-db';
import { preparedWrite } from './prepared-write';

let fresh: MemoryReader;
readerDbPerTest((made) => (fresh = made));

/** A tag of the reader's, its values given at each call; the SQL is built once per engine. */
let builds = 0;
const insertTag = preparedWrite(() => {
  builds += 1;
  return sql`INSERT INTO tags (id, user_id, name, name_key, created_at, updated_at)
    VALUES (${sql.placeholder('id')}, ${sql.placeholder('user')}, ${sql.placeholder('name')},
      ${sql.placeholder('name')}, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`;
});
const markRead = preparedWrite(
  () => sql`UPDATE articles SET is_read = ${sql.placeholder('read')} WHERE id = ${sql.placeholder('id')}`,
);

describe('preparedWrite', () => {
  it('writes each call with its own values, built once, and answers the rows it changed', async () => {
    const { db, reader } = fresh;
    expect(
      await db.transaction(async (tx) => await insertTag(tx, { id: 'tag-a', user: reader, name: 'a' })),
    ).toBe(1);
    // Built by the first call on this engine (or an earlier test's), never again.
    const afterFirst = builds;
    expect(afterFirst).toBeGreaterThan(0);
    await db.transaction(async (tx) => await insertTag(tx, { id: 'tag-b', user: reader, name: 'b' }));
    expect(builds).toBe(afterFirst);
    const names = await db.all<{ name: string }>(
      sql`SELECT name FROM tags WHERE user_id = ${reader} ORDER BY name`,
    );
    expect(names.map((row) => row.name)).toEqual(['a', 'b']);
  });

  it('writes a boolean value on either engine, and changes nothing where nothing matches', async () => {
    const { db, reader } = fresh;
    const { article: saved } = await insertArticle(db, reader, newArticle('https://example.org/kale'), []);
    expect(await db.transaction(async (tx) => await markRead(tx, { read: true, id: saved.id }))).toBe(1);
    expect((await findArticle(db, reader, saved.id))?.is_read).toBe(true);
    expect(
      await db.transaction(async (tx) => await markRead(tx, { read: false, id: 'no-such-article' })),
    ).toBe(0);
    expect((await findArticle(db, reader, saved.id))?.is_read).toBe(true);
  });

  it('fails a write whose values break a rule, and leaves nothing of it', async () => {
    const { db, reader } = fresh;
    const twice = db.transaction(async (tx) => {
      await insertTag(tx, { id: 'tag-c', user: reader, name: 'c' });
      await insertTag(tx, { id: 'tag-c', user: reader, name: 'c again' });
    });
    await expect(twice).rejects.toThrow();
    expect(await db.all(sql`SELECT id FROM tags WHERE user_id = ${reader}`)).toEqual([]);
  });
});
