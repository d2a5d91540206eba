// What each queued write does to the device's tables before the server has it: applyOperation on a fresh
// IndexedDB (fake-indexeddb), the rows read back as stored. Every effect must be safe to apply again (the
// outbox is re-applied on top of each pull) and skip what no longer exists.
import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LecternDb } from '../db/lectern-db';
import { listKeysOf } from '../db/list-keys';
import { bodyOf } from '../db/bodies';
import { applyOperation } from './local-effects';
import type { Operation } from './operations';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T11:00:00.000Z';
const T2 = '2026-03-01T12:00:00.000Z';

let db: LecternDb;
let dbCount = 0;

beforeEach(async () => {
  dbCount += 1;
  db = new LecternDb(`local-effects-${dbCount}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.open();
});

afterEach(() => db.close());

const apply = (op: Operation, at = T0) => applyOperation(db, op, at);

async function saveArticle(id: string, tags?: string[]) {
  await apply({ kind: 'createArticle', body: { id, url: `https://example.com/${id}`, tags } });
}

async function listOrder(listId: string) {
  const places = await db.list_articles.where('list_id').equals(listId).toArray();
  return places.sort((a, b) => a.position - b.position).map((p) => [p.article_id, p.position]);
}

describe('saving an article', () => {
  it('shows a placeholder titled with its address until the server has fetched the page', async () => {
    await apply({ kind: 'createArticle', body: { id: 'a1', url: 'https://example.com/post' } });
    const { rev, list_keys: listKeys, ...row } = (await db.articles.get('a1'))!;
    expect(rev).toBeGreaterThan(0);
    // The dashboard's list keys (db/list-keys.ts) come with every row written.
    expect(listKeys).toEqual(listKeysOf(row));
    expect(row).toEqual({
      id: 'a1',
      url: 'https://example.com/post',
      title: 'https://example.com/post',
      article_type: 'web',
      tags: [],
      tag_keys: [],
      description: null,
      author: null,
      image_url: null,
      screenshot_url: null,
      excerpt: null,
      published_date: null,
      site_name: null,
      language: null,
      reading_time: null,
      reading_progress: 0,
      is_read: false,
      is_favorite: false,
      is_archived: false,
      highlights_count: 0,
      created_at: T0,
      updated_at: T0,
    });
    expect(await bodyOf(db, 'a1')).toEqual({ id: 'a1', content: null });
  });

  it('takes an existing tag’s spelling, folds duplicates and tidies spaces in new ones', async () => {
    await apply({ kind: 'createTag', body: { id: 't1', name: 'Résumé' } });
    await saveArticle('a1', ['  RÉSUMÉ ', 'résumé', 'deep   work', 'Deep Work']);
    const row = await db.articles.get('a1');
    expect(row?.tags).toEqual(['deep work', 'Résumé']);
    // The keys are an index: their order doesn't matter.
    expect([...(row?.tag_keys ?? [])].sort()).toEqual(['deep work', 'résumé']);
  });

  it('a second apply (after a pull) keeps the first one’s row and time', async () => {
    await saveArticle('a1');
    await apply({ kind: 'updateArticle', id: 'a1', body: { isFavorite: true } }, T1);
    await apply({ kind: 'createArticle', body: { id: 'a1', url: 'https://example.com/a1' } }, T2);
    expect(await db.articles.get('a1')).toMatchObject({ is_favorite: true, created_at: T0, updated_at: T1 });
    expect(await db.articles.count()).toBe(1);
  });

  it('a screenshot shows as "Screenshot" under its screenshot:// address', async () => {
    await apply({ kind: 'createScreenshot', id: 's1', tags: ['receipts'] });
    expect(await db.articles.get('s1')).toMatchObject({
      url: 'screenshot://s1',
      title: 'Screenshot',
      article_type: 'screenshot',
      tags: ['receipts'],
      created_at: T0,
    });
  });
});

describe('editing and deleting an article', () => {
  it('changes only the fields sent, and the edit time', async () => {
    await saveArticle('a1');
    await apply({ kind: 'updateArticle', id: 'a1', body: { isRead: true, readingProgress: 0.4 } }, T1);
    expect(await db.articles.get('a1')).toMatchObject({
      is_read: true,
      is_favorite: false,
      is_archived: false,
      reading_progress: 0.4,
      updated_at: T1,
    });
  });

  it('an empty update and an update of a missing article change nothing', async () => {
    await saveArticle('a1');
    const before = await db.articles.get('a1');
    await apply({ kind: 'updateArticle', id: 'a1', body: {} }, T1);
    await apply({ kind: 'updateArticle', id: 'gone', body: { isRead: true } }, T1);
    expect(await db.articles.get('a1')).toEqual(before);
    expect(await db.articles.get('gone')).toBeUndefined();
  });

  it('a delete takes its body, highlights and list places with it and closes the gap in the list', async () => {
    await saveArticle('a1');
    await saveArticle('a2');
    await apply({ kind: 'createList', body: { id: 'l1', name: 'Later' } });
    await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: 'a1' } });
    await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: 'a2' } });
    await apply({
      kind: 'createHighlight',
      body: { id: 'h1', articleId: 'a1', highlightedText: 'worth it', positionStart: 0, positionEnd: 8 },
    });
    await apply({ kind: 'deleteArticle', id: 'a1' });
    expect(await db.articles.get('a1')).toBeUndefined();
    expect(await bodyOf(db, 'a1')).toBeUndefined();
    expect(await db.highlights.count()).toBe(0);
    expect(await listOrder('l1')).toEqual([['a2', 0]]);
  });
});

describe('tags', () => {
  it('a new tag is stored trimmed with its folded key; applied again, it stays as first made', async () => {
    await apply({ kind: 'createTag', body: { id: 't1', name: '  Straße  ' } });
    await apply({ kind: 'createTag', body: { id: 't1', name: 'other' } }, T1);
    expect(await db.tags.toArray()).toEqual([
      { id: 't1', name: 'Straße', name_key: 'strasse', created_at: T0 },
    ]);
  });

  it('attach adds the tag’s own spelling once; detach removes it whatever its case', async () => {
    await apply({ kind: 'createTag', body: { id: 't1', name: 'News' } });
    await saveArticle('a1', ['news', 'later']);
    await apply({ kind: 'attachTag', articleId: 'a1', tagId: 't1' }, T1);
    expect(await db.articles.get('a1')).toMatchObject({ tags: ['later', 'News'], updated_at: T1 });
    await apply({ kind: 'detachTag', articleId: 'a1', tagId: 't1' }, T2);
    expect(await db.articles.get('a1')).toMatchObject({ tags: ['later'], tag_keys: ['later'] });
    // A tag that no longer exists: nothing to attach.
    await apply({ kind: 'attachTag', articleId: 'a1', tagId: 'gone' });
    expect((await db.articles.get('a1'))?.tags).toEqual(['later']);
  });

  it('rename and delete reach every article carrying the tag', async () => {
    await apply({ kind: 'createTag', body: { id: 't1', name: 'todo' } });
    await saveArticle('a1', ['TODO', 'x']);
    await saveArticle('a2', ['todo']);
    await apply({ kind: 'renameTag', id: 't1', body: { name: ' Next ' } });
    expect(await db.tags.get('t1')).toMatchObject({ name: 'Next', name_key: 'next' });
    expect((await db.articles.get('a1'))?.tags).toEqual(['Next', 'x']);
    expect((await db.articles.get('a2'))?.tags).toEqual(['Next']);
    await apply({ kind: 'deleteTag', id: 't1' });
    expect(await db.tags.count()).toBe(0);
    expect((await db.articles.get('a1'))?.tags).toEqual(['x']);
    expect((await db.articles.get('a2'))?.tag_keys).toEqual([]);
  });
});

describe('lists', () => {
  it('a new list is trimmed, public unless told, without a share id until the server gives one', async () => {
    await apply({ kind: 'createList', body: { id: 'l1', name: '  Weekend  ', description: '   ' } });
    expect(await db.lists.get('l1')).toEqual({
      id: 'l1',
      name: 'Weekend',
      description: null,
      is_public: true,
      share_id: '',
      created_at: T0,
      updated_at: T0,
    });
  });

  it('an update changes the fields sent; an empty description becomes none', async () => {
    await apply({
      kind: 'createList',
      body: { id: 'l1', name: 'Weekend', description: 'slow reads', isPublic: false },
    });
    await apply({ kind: 'updateList', id: 'l1', body: { description: '  ', isPublic: true } }, T1);
    expect(await db.lists.get('l1')).toMatchObject({
      name: 'Weekend',
      description: null,
      is_public: true,
      updated_at: T1,
    });
    await apply({ kind: 'updateList', id: 'l1', body: {} }, T2);
    expect((await db.lists.get('l1'))?.updated_at).toBe(T1);
  });

  it('adds at the end or at a position, once, and renumbers 0..n-1', async () => {
    for (const id of ['a1', 'a2', 'a3']) await saveArticle(id);
    await apply({ kind: 'createList', body: { id: 'l1', name: 'Later' } });
    await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: 'a1' } });
    await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: 'a2' } });
    await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: 'a3', position: 0 } }, T1);
    await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: 'a2', position: 0 } }, T2);
    expect(await listOrder('l1')).toEqual([
      ['a3', 0],
      ['a1', 1],
      ['a2', 2],
    ]);
    expect((await db.list_articles.get('l1:a3'))?.added_at).toBe(T1);
    expect((await db.lists.get('l1'))?.updated_at).toBe(T1);
  });

  it('a position past the end puts the article last; a missing article or list adds nothing', async () => {
    await saveArticle('a1');
    await saveArticle('a2');
    await apply({ kind: 'createList', body: { id: 'l1', name: 'Later' } });
    await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: 'a1' } });
    await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: 'a2', position: 99 } });
    await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: 'gone' } });
    await apply({ kind: 'addListArticle', listId: 'nope', body: { articleId: 'a1' } });
    expect(await listOrder('l1')).toEqual([
      ['a1', 0],
      ['a2', 1],
    ]);
    expect(await db.list_articles.count()).toBe(2);
  });

  it('remove closes the gap; reorder keeps articles added since at their place', async () => {
    for (const id of ['a1', 'a2', 'a3', 'a4']) await saveArticle(id);
    await apply({ kind: 'createList', body: { id: 'l1', name: 'Later' } });
    for (const id of ['a1', 'a2', 'a3']) {
      await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: id } });
    }
    await apply({ kind: 'removeListArticle', listId: 'l1', articleId: 'a2' }, T1);
    expect(await listOrder('l1')).toEqual([
      ['a1', 0],
      ['a3', 1],
    ]);
    expect((await db.lists.get('l1'))?.updated_at).toBe(T1);
    await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: 'a4' } });
    // The reorder was made before a4 came: a2 is gone, a4 stays where it is.
    await apply({ kind: 'reorderList', listId: 'l1', body: { articles: ['a3', 'a2', 'a1'] } }, T2);
    expect(await listOrder('l1')).toEqual([
      ['a3', 0],
      ['a1', 1],
      ['a4', 2],
    ]);
    expect((await db.lists.get('l1'))?.updated_at).toBe(T2);
  });

  it('deleting a list takes its places with it and leaves the articles', async () => {
    await saveArticle('a1');
    await apply({ kind: 'createList', body: { id: 'l1', name: 'Later' } });
    await apply({ kind: 'addListArticle', listId: 'l1', body: { articleId: 'a1' } });
    await apply({ kind: 'deleteList', id: 'l1' });
    expect(await db.lists.count()).toBe(0);
    expect(await db.list_articles.count()).toBe(0);
    expect(await db.articles.count()).toBe(1);
  });
});

describe('highlights', () => {
  const body = {
    id: 'h1',
    articleId: 'a1',
    highlightedText: 'a passage',
    positionStart: 4,
    positionEnd: 13,
  };

  it('a new highlight is yellow, with empty context when none is sent, and counts on its article', async () => {
    await saveArticle('a1');
    await apply({ kind: 'createHighlight', body });
    const { rev, ...row } = (await db.highlights.get('h1'))!;
    expect(rev).toBeGreaterThan(0);
    expect(row).toEqual({
      id: 'h1',
      article_id: 'a1',
      highlighted_text: 'a passage',
      context_before: '',
      context_after: '',
      position_start: 4,
      position_end: 13,
      color: 'yellow',
      created_at: T0,
      updated_at: T0,
    });
    expect((await db.articles.get('a1'))?.highlights_count).toBe(1);
    await apply({ kind: 'createHighlight', body: { ...body, highlightedText: 'again' } }, T1);
    expect(await db.highlights.get('h1')).toMatchObject({ highlighted_text: 'a passage', created_at: T0 });
    expect((await db.articles.get('a1'))?.highlights_count).toBe(1);
  });

  it('on an article the device no longer has, nothing is stored', async () => {
    await apply({ kind: 'createHighlight', body });
    expect(await db.highlights.count()).toBe(0);
  });

  it('an update changes the fields sent; a delete lowers the count', async () => {
    await saveArticle('a1');
    await apply({ kind: 'createHighlight', body });
    await apply({ kind: 'createHighlight', body: { ...body, id: 'h2' } });
    expect((await db.articles.get('a1'))?.highlights_count).toBe(2);
    await apply({ kind: 'updateHighlight', id: 'h1', body: { contextBefore: 'Read ' } }, T1);
    expect(await db.highlights.get('h1')).toMatchObject({
      highlighted_text: 'a passage',
      context_before: 'Read ',
      updated_at: T1,
    });
    await apply({ kind: 'deleteHighlight', id: 'h1' });
    await apply({ kind: 'deleteHighlight', id: 'h1' });
    expect(await db.highlights.get('h1')).toBeUndefined();
    expect((await db.articles.get('a1'))?.highlights_count).toBe(1);
  });
});
