// The change feed's read side on a fresh database of the run's engine (SQLite or PostgreSQL) with the real migrations: cursors, pages by count and
// by size, one entry per entity, and only the reader's own changes.
import { type Change } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/connection';
import { addReader, feedOf, newArticle, readerDbPerTest, summaries } from '../testing/memory-db';
import { insertArticle, updateArticle } from './articles';
import { createList } from './lists';
import { FEED_PAGE_BYTES, readChangesJson } from './sync';
import { createTag } from './tags';

let db: Db;
let reader: string;

readerDbPerTest((fresh) => ({ db, reader } = fresh));

interface Page {
  cursor: number;
  hasMore: boolean;
  changes: Change[];
}
const read = async (since?: number, limit?: number): Promise<Page> =>
  JSON.parse(await readChangesJson(db, reader, since, limit)) as Page;

describe('the change feed', () => {
  it('is empty for a new reader, with cursor 0', async () => {
    expect(await read()).toEqual({ cursor: 0, hasMore: false, changes: [] });
  });

  it('answers changes in seq order; the cursor yields only newer ones', async () => {
    const first = await createTag(db, reader, { name: 'One' });
    const whole = await read();
    expect(whole.cursor).toBe(whole.changes.at(-1)?.seq);
    expect(await read(whole.cursor)).toEqual({ cursor: whole.cursor, hasMore: false, changes: [] });
    const second = await createTag(db, reader, { name: 'Two' });
    const list = await createList(db, reader, { name: 'Queue' });
    const newer = await read(whole.cursor);
    expect(summaries(newer.changes)).toEqual([`upsert tag ${second.id}`, `upsert list ${list.id}`]);
    expect(summaries(newer.changes)).not.toContain(`upsert tag ${first.id}`);
  });

  it('pages by limit, and the pages add up to the whole feed', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await createTag(db, reader, { name });
    const whole = await read();
    expect(whole.changes).toHaveLength(5);
    const first = await read(0, 3);
    expect(first).toMatchObject({ hasMore: true, cursor: whole.changes[2]?.seq });
    const second = await read(first.cursor, 3);
    expect(second.hasMore).toBe(false);
    expect([...first.changes, ...second.changes]).toEqual(whole.changes);
    expect((await read(0, 5)).hasMore).toBe(false);
  });

  it('pages by size: about FEED_PAGE_BYTES of rows, and at least one row however large', async () => {
    const body = `<p>${'x'.repeat(FEED_PAGE_BYTES * 0.6)}</p>`;
    for (const name of ['a', 'b', 'c'])
      await insertArticle(db, reader, newArticle(`https://example.org/${name}`, { content: body }), []);
    const first = await read();
    expect(first.changes).toHaveLength(1);
    expect(first.hasMore).toBe(true);
    expect((await feedOf(db, reader)).changes).toHaveLength(3);
  });

  it('sends rows in any script as their UTF-8 bytes, and counts the page budget in those bytes', async () => {
    // 0.3 FEED_PAGE_BYTES of characters, 0.6 of bytes: two such rows would fit a budget of characters.
    const title = 'Café 東京 — naïve 🌊';
    const body = `<p>${'é'.repeat(FEED_PAGE_BYTES * 0.3)}</p>`;
    for (const name of ['a', 'b', 'c'])
      await insertArticle(
        db,
        reader,
        newArticle(`https://example.org/${name}`, { title, content: body }),
        [],
      );
    const first = await read();
    expect(first.changes).toHaveLength(1);
    expect(first.hasMore).toBe(true);
    expect(first.changes[0]?.row).toMatchObject({ title, content: body });
  });

  it('keeps one entry per entity, its latest, above the cursors that had not seen it', async () => {
    const article = (await insertArticle(db, reader, newArticle('https://example.org/a'), [])).article;
    const afterSave = (await read()).cursor;
    await updateArticle(db, reader, article.id, { isRead: true });
    await updateArticle(db, reader, article.id, { isFavorite: true });
    const all = (await read()).changes;
    expect(all).toHaveLength(1);
    expect(all[0]?.row).toMatchObject({ is_read: true, is_favorite: true });
    expect(all[0]!.seq).toBeGreaterThan(afterSave);
    expect((await read(afterSave)).changes.map((change) => change.id)).toEqual([article.id]);
  });

  it('never carries another reader’s changes', async () => {
    const stranger = await addReader(db);
    await createTag(db, stranger, { name: 'Theirs' });
    await insertArticle(db, stranger, newArticle('https://example.org/theirs'), ['Theirs']);
    await createTag(db, reader, { name: 'Mine' });
    const mine = await read();
    expect(mine.changes).toHaveLength(1);
    expect(JSON.stringify(mine)).not.toContain('Theirs');
  });
});
