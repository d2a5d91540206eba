// The reading-list rules on a fresh database of the run's engine (SQLite or PostgreSQL) with the real migrations: placing and renumbering articles,
// the share link, and what the change feed carries (each place, and the list with its article_count).
import { listArticleKey, SERVER_ERRORS, type Article } from '@lectern/shared-schema';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/connection';
import {
  countRows,
  addReader,
  changesOf,
  feedOf,
  newArticle,
  readerDbPerTest,
  summaries,
} from '../testing/memory-db';
import { insertArticle } from './articles';
import {
  addArticleToList,
  createList,
  deleteList,
  getList,
  getListWithArticles,
  getPublicList,
  removeArticleFromList,
  reorderList,
  rotateShareLink,
  updateList,
} from './lists';
import { sql } from 'drizzle-orm';

let db: Db;
let reader: string;
let articles: Article[];

readerDbPerTest((fresh) => ({ db, reader } = fresh));

beforeEach(async () => {
  articles = [];
  for (const name of ['a', 'b', 'c'])
    articles.push((await insertArticle(db, reader, newArticle(`https://example.org/${name}`), [])).article);
});

const ids = (...picked: Article[]) => picked.map((article) => article.id);
const a = () => articles[0]!;
const b = () => articles[1]!;
const c = () => articles[2]!;
const positions = async (listId: string) =>
  (await db.all(
    sql`SELECT article_id, position FROM list_articles WHERE list_id = ${listId} ORDER BY position`,
  )) as { article_id: string; position: number }[];

describe('a list', () => {
  it('is created trimmed, public unless told otherwise, with an empty description as null, and recorded', async () => {
    let listId = '';
    const changes = await changesOf(db, reader, async () => {
      listId = (await createList(db, reader, { name: '  Queue ', description: '   ' })).id;
    });
    const list = await getList(db, reader, listId);
    expect(list).toMatchObject({ name: 'Queue', description: null, is_public: true, article_count: 0 });
    expect(list.share_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(changes).toEqual([
      { seq: expect.any(Number), entity: 'list', id: listId, op: 'upsert', row: list },
    ]);
    expect(await changesOf(db, reader, async () => await updateList(db, reader, listId, {}))).toEqual([]);
    const renamed = await changesOf(
      db,
      reader,
      async () => await updateList(db, reader, listId, { isPublic: false }),
    );
    expect(renamed[0]?.row).toMatchObject({ is_public: false });
  });

  it('hides a private list and a rotated link from the public page', async () => {
    const list = await createList(db, reader, { name: 'Shared' });
    await addArticleToList(db, reader, list.id, { articleId: a().id });
    expect((await getPublicList(db, list.share_id)).list.article_count).toBe(1);
    const rotated = await rotateShareLink(db, reader, list.id);
    expect(rotated.share_id).not.toBe(list.share_id);
    await expect(getPublicList(db, list.share_id)).rejects.toThrow(SERVER_ERRORS.listNotFound);
    expect((await getPublicList(db, rotated.share_id)).articles.map((article) => article.id)).toEqual(
      ids(a()),
    );
    await updateList(db, reader, list.id, { isPublic: false });
    await expect(getPublicList(db, rotated.share_id)).rejects.toThrow(SERVER_ERRORS.listNotFound);
  });
});

describe('placing articles', () => {
  it('adds at the end or at a position, renumbering the places after it, and records each moved place', async () => {
    const list = await createList(db, reader, { name: 'Queue' });
    await addArticleToList(db, reader, list.id, { articleId: a().id });
    await addArticleToList(db, reader, list.id, { articleId: b().id });
    const changes = await changesOf(
      db,
      reader,
      async () => await addArticleToList(db, reader, list.id, { articleId: c().id, position: 0 }),
    );
    expect(await positions(list.id)).toEqual([
      { article_id: c().id, position: 0 },
      { article_id: a().id, position: 1 },
      { article_id: b().id, position: 2 },
    ]);
    expect(summaries(changes).sort()).toEqual(
      [
        `upsert list_article ${listArticleKey(list.id, c().id)}`,
        `upsert list_article ${listArticleKey(list.id, a().id)}`,
        `upsert list_article ${listArticleKey(list.id, b().id)}`,
        `upsert list ${list.id}`,
      ].sort(),
    );
    expect(changes.find((change) => change.entity === 'list')?.row).toEqual(
      await getList(db, reader, list.id),
    );
    expect((await getList(db, reader, list.id)).article_count).toBe(3);
    expect(changes.find((change) => change.id === listArticleKey(list.id, c().id))?.row).toEqual({
      list_id: list.id,
      article_id: c().id,
      position: 0,
      added_at: expect.any(String),
    });
    // Adding an article already there changes nothing and records nothing.
    expect(
      await changesOf(
        db,
        reader,
        async () => await addArticleToList(db, reader, list.id, { articleId: a().id }),
      ),
    ).toEqual([]);
  });

  it('removes a place, closes the gap, and records the removal and the list’s new count', async () => {
    const list = await createList(db, reader, { name: 'Queue' });
    for (const article of articles) await addArticleToList(db, reader, list.id, { articleId: article.id });
    const changes = await changesOf(
      db,
      reader,
      async () => await removeArticleFromList(db, reader, list.id, a().id),
    );
    expect((await positions(list.id)).map((place) => place.position)).toEqual([0, 1]);
    expect(changes).toEqual(
      expect.arrayContaining([
        {
          seq: expect.any(Number),
          entity: 'list_article',
          id: listArticleKey(list.id, a().id),
          op: 'delete',
          row: null,
        },
        expect.objectContaining({ entity: 'list', row: await getList(db, reader, list.id) }),
      ]),
    );
    expect(changes).toHaveLength(4);
    await expect(removeArticleFromList(db, reader, list.id, a().id)).rejects.toThrow(
      SERVER_ERRORS.articleNotFound,
    );
  });

  it('reorders only with every article named once, otherwise 400 and nothing changes', async () => {
    const list = await createList(db, reader, { name: 'Queue' });
    for (const article of articles) await addArticleToList(db, reader, list.id, { articleId: article.id });
    const before = await feedOf(db, reader);
    for (const wrong of [ids(a(), b()), ids(a(), a(), b()), [...ids(a(), b(), c()), 'other']])
      await expect(reorderList(db, reader, list.id, wrong)).rejects.toThrow(SERVER_ERRORS.reorderMismatch);
    expect(await feedOf(db, reader)).toEqual(before);

    const { articles: ordered } = await reorderList(db, reader, list.id, ids(c(), b(), a()));
    expect(ordered.map((article) => article.id)).toEqual(ids(c(), b(), a()));
    expect((await getListWithArticles(db, reader, list.id)).articles.map((article) => article.id)).toEqual(
      ids(c(), b(), a()),
    );
  });

  it('deletes a list with tombstones for it and each of its places; its articles stay', async () => {
    const list = await createList(db, reader, { name: 'Queue' });
    await addArticleToList(db, reader, list.id, { articleId: a().id });
    await addArticleToList(db, reader, list.id, { articleId: b().id });
    const changes = await changesOf(db, reader, async () => await deleteList(db, reader, list.id));
    expect(summaries(changes).sort()).toEqual(
      [
        `delete list ${list.id}`,
        `delete list_article ${listArticleKey(list.id, a().id)}`,
        `delete list_article ${listArticleKey(list.id, b().id)}`,
      ].sort(),
    );
    await expect(getList(db, reader, list.id)).rejects.toThrow(SERVER_ERRORS.listNotFound);
    expect(await countRows(db, 'articles')).toBe(3);
    await expect(createList(db, reader, { id: list.id, name: 'Again' })).rejects.toThrow(
      SERVER_ERRORS.listNotFound,
    );
  });

  it('keeps another reader out with 404', async () => {
    const list = await createList(db, reader, { name: 'Queue' });
    const stranger = await addReader(db);
    await expect(addArticleToList(db, stranger, list.id, { articleId: a().id })).rejects.toThrow(
      SERVER_ERRORS.listNotFound,
    );
    await expect(deleteList(db, stranger, list.id)).rejects.toThrow(SERVER_ERRORS.listNotFound);
    expect((await getList(db, reader, list.id)).article_count).toBe(0);
  });
});
