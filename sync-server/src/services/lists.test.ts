// The reading-list rules on an in-memory SQLite with the real migrations: placing and renumbering articles,
// the share link, and what the change feed carries (each place, and the list with its article_count).
import { listArticleKey, SERVER_ERRORS, type Article } from '@lectern/shared-schema';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/connection';
import { addReader, changesOf, feedOf, newArticle, readerDbPerTest, summaries } from '../testing/memory-db';
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

let db: Db;
let reader: string;
let articles: Article[];

readerDbPerTest((fresh) => ({ db, reader } = fresh));

beforeEach(() => {
  articles = ['a', 'b', 'c'].map(
    (name) => insertArticle(db, reader, newArticle(`https://example.org/${name}`), []).article,
  );
});

const ids = (...picked: Article[]) => picked.map((article) => article.id);
const a = () => articles[0]!;
const b = () => articles[1]!;
const c = () => articles[2]!;
const positions = (listId: string) =>
  db
    .statement('SELECT article_id, position FROM list_articles WHERE list_id = ? ORDER BY position')
    .all(listId) as { article_id: string; position: number }[];

describe('a list', () => {
  it('is created trimmed, public unless told otherwise, with an empty description as null, and recorded', () => {
    let listId = '';
    const changes = changesOf(db, reader, () => {
      listId = createList(db, reader, { name: '  Queue ', description: '   ' }).id;
    });
    const list = getList(db, reader, listId);
    expect(list).toMatchObject({ name: 'Queue', description: null, is_public: true, article_count: 0 });
    expect(list.share_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(changes).toEqual([
      { seq: expect.any(Number), entity: 'list', id: listId, op: 'upsert', row: list },
    ]);
    expect(changesOf(db, reader, () => updateList(db, reader, listId, {}))).toEqual([]);
    const renamed = changesOf(db, reader, () => updateList(db, reader, listId, { isPublic: false }));
    expect(renamed[0]?.row).toMatchObject({ is_public: false });
  });

  it('hides a private list and a rotated link from the public page', () => {
    const list = createList(db, reader, { name: 'Shared' });
    addArticleToList(db, reader, list.id, { articleId: a().id });
    expect(getPublicList(db, list.share_id).list.article_count).toBe(1);
    const rotated = rotateShareLink(db, reader, list.id);
    expect(rotated.share_id).not.toBe(list.share_id);
    expect(() => getPublicList(db, list.share_id)).toThrow(SERVER_ERRORS.listNotFound);
    expect(getPublicList(db, rotated.share_id).articles.map((article) => article.id)).toEqual(ids(a()));
    updateList(db, reader, list.id, { isPublic: false });
    expect(() => getPublicList(db, rotated.share_id)).toThrow(SERVER_ERRORS.listNotFound);
  });
});

describe('placing articles', () => {
  it('adds at the end or at a position, renumbering the places after it, and records each moved place', () => {
    const list = createList(db, reader, { name: 'Queue' });
    addArticleToList(db, reader, list.id, { articleId: a().id });
    addArticleToList(db, reader, list.id, { articleId: b().id });
    const changes = changesOf(db, reader, () =>
      addArticleToList(db, reader, list.id, { articleId: c().id, position: 0 }),
    );
    expect(positions(list.id)).toEqual([
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
    expect(changes.find((change) => change.entity === 'list')?.row).toEqual(getList(db, reader, list.id));
    expect(getList(db, reader, list.id).article_count).toBe(3);
    expect(changes.find((change) => change.id === listArticleKey(list.id, c().id))?.row).toEqual({
      list_id: list.id,
      article_id: c().id,
      position: 0,
      added_at: expect.any(String),
    });
    // Adding an article already there changes nothing and records nothing.
    expect(changesOf(db, reader, () => addArticleToList(db, reader, list.id, { articleId: a().id }))).toEqual(
      [],
    );
  });

  it('removes a place, closes the gap, and records the removal and the list’s new count', () => {
    const list = createList(db, reader, { name: 'Queue' });
    for (const article of articles) addArticleToList(db, reader, list.id, { articleId: article.id });
    const changes = changesOf(db, reader, () => removeArticleFromList(db, reader, list.id, a().id));
    expect(positions(list.id).map((place) => place.position)).toEqual([0, 1]);
    expect(changes).toEqual(
      expect.arrayContaining([
        {
          seq: expect.any(Number),
          entity: 'list_article',
          id: listArticleKey(list.id, a().id),
          op: 'delete',
          row: null,
        },
        expect.objectContaining({ entity: 'list', row: getList(db, reader, list.id) }),
      ]),
    );
    expect(changes).toHaveLength(4);
    expect(() => removeArticleFromList(db, reader, list.id, a().id)).toThrow(SERVER_ERRORS.articleNotFound);
  });

  it('reorders only with every article named once, otherwise 400 and nothing changes', () => {
    const list = createList(db, reader, { name: 'Queue' });
    for (const article of articles) addArticleToList(db, reader, list.id, { articleId: article.id });
    const before = feedOf(db, reader);
    for (const wrong of [ids(a(), b()), ids(a(), a(), b()), [...ids(a(), b(), c()), 'other']])
      expect(() => reorderList(db, reader, list.id, wrong)).toThrow(SERVER_ERRORS.reorderMismatch);
    expect(feedOf(db, reader)).toEqual(before);

    const { articles: ordered } = reorderList(db, reader, list.id, ids(c(), b(), a()));
    expect(ordered.map((article) => article.id)).toEqual(ids(c(), b(), a()));
    expect(getListWithArticles(db, reader, list.id).articles.map((article) => article.id)).toEqual(
      ids(c(), b(), a()),
    );
  });

  it('deletes a list with tombstones for it and each of its places; its articles stay', () => {
    const list = createList(db, reader, { name: 'Queue' });
    addArticleToList(db, reader, list.id, { articleId: a().id });
    addArticleToList(db, reader, list.id, { articleId: b().id });
    const changes = changesOf(db, reader, () => deleteList(db, reader, list.id));
    expect(summaries(changes).sort()).toEqual(
      [
        `delete list ${list.id}`,
        `delete list_article ${listArticleKey(list.id, a().id)}`,
        `delete list_article ${listArticleKey(list.id, b().id)}`,
      ].sort(),
    );
    expect(() => getList(db, reader, list.id)).toThrow(SERVER_ERRORS.listNotFound);
    expect(db.statement('SELECT count(*) FROM articles').pluck().get()).toBe(3);
    expect(() => createList(db, reader, { id: list.id, name: 'Again' })).toThrow(SERVER_ERRORS.listNotFound);
  });

  it('keeps another reader out with 404', () => {
    const list = createList(db, reader, { name: 'Queue' });
    const stranger = addReader(db);
    expect(() => addArticleToList(db, stranger, list.id, { articleId: a().id })).toThrow(
      SERVER_ERRORS.listNotFound,
    );
    expect(() => deleteList(db, stranger, list.id)).toThrow(SERVER_ERRORS.listNotFound);
    expect(getList(db, reader, list.id).article_count).toBe(0);
  });
});
