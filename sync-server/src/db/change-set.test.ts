// The change feed is recorded by the transaction, from the writes themselves: a write that names only one
// row still records every row whose GET answer it changed. Here the writes are bare SQL that mention
// nothing but their own table, the way a service that forgot a derived row would write.
import { listArticleKey, newId, SERVER_ERRORS, type Change } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { findArticle } from '../services/article-rows';
import { findReplayedArticle, insertArticle } from '../services/articles';
import { createHighlight, getHighlight } from '../services/highlights';
import { addArticleToList, createList, getList } from '../services/lists';
import { createTag, getTag } from '../services/tags';
import { deleteUser } from '../services/users';
import {
  countRows,
  addReader,
  changesOf,
  feedOf,
  newArticle,
  readerDbPerTest,
  summaries,
} from '../testing/memory-db';
import type { Db, Queryable } from './connection';
import { sql, type SQL } from 'drizzle-orm';

let db: Db;
let reader: string;

readerDbPerTest((fresh) => ({ db, reader } = fresh));

/** The changes one bare SQL write records, in a transaction of its own. */
const bareWrite = (query: SQL) =>
  changesOf(db, reader, async () => await db.transaction(async (tx) => await tx.run(query)));

const save = async (url = `https://example.org/${newId()}`, tags: string[] = []) =>
  (await insertArticle(db, reader, newArticle(url), tags)).article;

const upsert = (entity: Change['entity'], id: string, row: unknown) => ({
  seq: expect.any(Number),
  entity,
  id,
  op: 'upsert',
  row,
});
const tombstone = (entity: Change['entity'], id: string) => ({
  seq: expect.any(Number),
  entity,
  id,
  op: 'delete',
  row: null,
});

/** A highlight row as bare SQL writes it: no article, no feed, nothing else named. */
async function insertHighlightRow(tx: Queryable, articleId: string, id = newId()): Promise<string> {
  await tx.run(sql`INSERT INTO highlights (id, user_id, article_id, highlighted_text, position_start, position_end, created_at, updated_at)
     VALUES (${id}, ${reader}, ${articleId}, 'kale and compost', 0, 16, '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z')`);
  return id;
}

describe('a write forgetting to mention a derived row still produces it in the feed', () => {
  it('a highlight alone brings its article with the new highlights_count', async () => {
    const article = await save();
    let highlightId = '';
    const added = await changesOf(
      db,
      reader,
      async () =>
        await db.transaction(async (tx) => (highlightId = await insertHighlightRow(tx, article.id))),
    );
    const withHighlight = await findArticle(db, reader, article.id);
    expect(withHighlight?.highlights_count).toBe(1);
    expect(added).toEqual([
      upsert('highlight', highlightId, await getHighlight(db, reader, highlightId)),
      upsert('article', article.id, withHighlight),
    ]);

    const removed = await bareWrite(sql`DELETE FROM highlights WHERE id = ${highlightId}`);
    expect(removed).toEqual([
      tombstone('highlight', highlightId),
      upsert('article', article.id, { ...withHighlight, highlights_count: 0 }),
    ]);
  });

  it('a bare tag link brings the article with its tags and the tag with its article_count', async () => {
    const article = await save();
    const tag = await createTag(db, reader, { name: 'Soil' });
    const changes = await bareWrite(
      sql`INSERT INTO article_tags (article_id, tag_id, created_at) VALUES (${article.id}, ${tag.id}, ${'2030-01-01T00:00:00.000Z'})`,
    );
    expect(changes).toEqual([
      upsert('article', article.id, { ...article, tags: ['Soil'] }),
      upsert('tag', tag.id, { ...tag, article_count: 1 }),
    ]);
    expect((await getTag(db, reader, tag.id)).article_count).toBe(1);
  });

  it('a bare list place brings the list with its article_count', async () => {
    const article = await save();
    const list = await createList(db, reader, { name: 'Queue' });
    const changes = await bareWrite(
      sql`INSERT INTO list_articles (list_id, article_id, position, added_at) VALUES (${list.id}, ${article.id}, 0, ${'2030-01-01T00:00:00.000Z'})`,
    );
    const key = listArticleKey(list.id, article.id);
    expect(changes).toEqual([
      upsert('list_article', key, {
        list_id: list.id,
        article_id: article.id,
        position: 0,
        added_at: '2030-01-01T00:00:00.000Z',
      }),
      upsert('list', list.id, { ...list, article_count: 1 }),
    ]);
  });

  it('a bare rename of a tag brings every article carrying it, with the new name', async () => {
    const tagged = await save(undefined, ['Soil']);
    const other = await save(undefined, ['Soil', 'Kale']);
    await save(); // untagged: not touched
    const tagId = (await getTag(db, reader, (await createTag(db, reader, { name: 'soil' })).id)).id;
    const changes = await bareWrite(
      sql`UPDATE tags SET name = 'Dirt', name_key = 'dirt' WHERE id = ${tagId}`,
    );
    expect(summaries(changes).sort()).toEqual(
      [`upsert tag ${tagId}`, `upsert article ${tagged.id}`, `upsert article ${other.id}`].sort(),
    );
    const row = (id: string) => changes.find((change) => change.id === id)?.row;
    expect(row(tagged.id)).toEqual(await findArticle(db, reader, tagged.id));
    expect(row(other.id)).toMatchObject({ tags: ['Dirt', 'Kale'] });
  });

  it('a bare change of an article’s title or image brings its highlights, which carry them', async () => {
    const article = await save();
    const highlightId = await db.transaction(async (tx) => await insertHighlightRow(tx, article.id));
    const changes = await bareWrite(
      sql`UPDATE articles SET title = 'Kale at last', image_url = '/api/images/x/y.png' WHERE id = ${article.id}`,
    );
    expect(summaries(changes).sort()).toEqual(
      [`upsert article ${article.id}`, `upsert highlight ${highlightId}`].sort(),
    );
    expect(changes.find((change) => change.id === highlightId)?.row).toMatchObject({
      article_title: 'Kale at last',
      article_image: '/api/images/x/y.png',
    });
    const unchanged = await bareWrite(sql`UPDATE articles SET is_read = ${true} WHERE id = ${article.id}`);
    expect(summaries(unchanged)).toEqual([`upsert article ${article.id}`]);
  });

  it('a bare article delete brings the deletes of its highlights and places, and its tags’ and lists’ counts', async () => {
    const article = await save(undefined, ['Soil']);
    const kept = await save(undefined, ['Soil']);
    const highlight = await createHighlight(db, reader, {
      articleId: article.id,
      highlightedText: 'kale and compost',
      positionStart: 0,
      positionEnd: 16,
    });
    const list = await createList(db, reader, { name: 'Queue' });
    await addArticleToList(db, reader, list.id, { articleId: article.id });
    await addArticleToList(db, reader, list.id, { articleId: kept.id });
    const soil = await getTag(db, reader, (await createTag(db, reader, { name: 'Soil' })).id);

    const changes = await bareWrite(sql`DELETE FROM articles WHERE id = ${article.id}`);
    expect(changes).toHaveLength(5);
    expect(changes).toEqual(
      expect.arrayContaining([
        tombstone('article', article.id),
        tombstone('highlight', highlight.id),
        tombstone('list_article', listArticleKey(list.id, article.id)),
        upsert('tag', soil.id, { ...soil, article_count: 1 }),
        upsert('list', list.id, await getList(db, reader, list.id)),
      ]),
    );
    expect((await getList(db, reader, list.id)).article_count).toBe(1);
    // The deletes leave tombstones: a replayed create of the article answers 404 and brings nothing back.
    await expect(findReplayedArticle(db, reader, article.id)).rejects.toThrow(SERVER_ERRORS.articleNotFound);
  });
});

describe('the transaction records the feed with the write', () => {
  it('records each entity once, with its state at commit', async () => {
    const article = await save();
    const changes = await changesOf(
      db,
      reader,
      async () =>
        await db.transaction(async (tx) => {
          await insertHighlightRow(tx, article.id);
          await insertHighlightRow(tx, article.id);
          await tx.run(sql`UPDATE articles SET is_read = ${true} WHERE id = ${article.id}`);
        }),
    );
    const articles = changes.filter((change) => change.entity === 'article');
    expect(articles).toEqual([
      upsert('article', article.id, { ...article, is_read: true, highlights_count: 2 }),
    ]);
    expect(changes).toHaveLength(3);
  });

  it('keeps only the newest change of an entity in the log, across transactions', async () => {
    const article = await save();
    for (const flag of ['is_read', 'is_favorite'])
      await db.transaction(
        async (tx) =>
          await tx.run(sql`UPDATE articles SET ${sql.raw(flag)} = ${true} WHERE id = ${article.id}`),
      );
    const entries = (await feedOf(db, reader)).changes.filter((change) => change.id === article.id);
    expect(entries).toEqual([
      upsert('article', article.id, { ...article, is_read: true, is_favorite: true }),
    ]);
  });

  it('records nothing when the transaction fails, and its writes are gone too', async () => {
    const article = await save();
    const before = await feedOf(db, reader);
    await expect(
      db.transaction(async (tx) => {
        await insertHighlightRow(tx, article.id);
        await createTag(tx, reader, { name: 'Never' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await feedOf(db, reader)).toEqual(before);
    expect(await countRows(db, 'highlights')).toBe(0);
    // Nothing is left waiting to be recorded by the next transaction either.
    const next = await changesOf(db, reader, async () => await createList(db, reader, { name: 'Next' }));
    expect(next.map((change) => change.entity)).toEqual(['list']);
  });

  it('records nothing of a savepoint rolled back inside a transaction', async () => {
    let tagId = '';
    const changes = await changesOf(
      db,
      reader,
      async () =>
        await db.transaction(async (tx) => {
          tagId = (await createTag(tx, reader, { name: 'Kept' })).id;
          await expect(
            tx.transaction(async (tx) => {
              await createList(tx, reader, { name: 'Rolled back' });
              throw new Error('inner');
            }),
          ).rejects.toThrow('inner');
        }),
    );
    expect(summaries(changes)).toEqual([`upsert tag ${tagId}`]);
  });

  it('records a tag’s name key being filled as nothing: devices see no change', async () => {
    const tag = await createTag(db, reader, { name: 'Soil' });
    const changes = await bareWrite(sql`UPDATE tags SET name_key = 'soil' WHERE id = ${tag.id}`);
    expect(changes).toEqual([]);
  });

  it('records nothing for an account deleted with all its rows, and the deletion goes through', async () => {
    const article = await save(undefined, ['Soil']);
    const list = await createList(db, reader, { name: 'Queue' });
    await addArticleToList(db, reader, list.id, { articleId: article.id });
    await deleteUser(db, reader);
    expect(await countRows(db, 'change_log')).toBe(0);
    expect(await countRows(db, 'articles')).toBe(0);
    expect(await countRows(db, 'tombstones')).toBe(0);
  });

  it('never records one reader’s rows in another’s feed', async () => {
    const stranger = await addReader(db);
    const theirs = (await insertArticle(db, stranger, newArticle('https://example.org/theirs'), ['Theirs']))
      .article;
    const article = await save();
    await db.transaction(async (tx) => await insertHighlightRow(tx, article.id));
    const mine = JSON.stringify(await feedOf(db, reader));
    expect(mine).not.toContain(theirs.id);
    expect(mine).not.toContain('Theirs');
    expect(summaries((await feedOf(db, stranger)).changes)).toHaveLength(2);
  });
});
