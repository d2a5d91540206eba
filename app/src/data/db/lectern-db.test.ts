import '../testing/install-fake-indexeddb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LecternDb, SCHEMA_VERSIONS } from './lectern-db';
import { listKeysOf } from './list-keys';
import { openOldDatabase } from '../testing/old-database';
import { bodiesOf, bodyIds, bodyIdsWrittenBetween, bodyOf, countBodies, putBodies } from './bodies';

describe('LecternDb', () => {
  it('opens at the last schema version with every table and index', async () => {
    const db = new LecternDb('schema-test', { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSIONS.at(-1)?.version);
    const indexes = Object.fromEntries(
      db.tables.map((table) => [table.name, table.schema.indexes.map((i) => i.name).sort()]),
    );
    expect(indexes).toEqual({
      articles: ['created_at', 'list_keys', 'rev', 'tag_keys', 'updated_at'],
      article_counts: [],
      bodies: ['ids', 'rev', 'revIds'],
      tags: ['name_key'],
      lists: ['created_at'],
      list_articles: ['article_id', 'list_id'],
      highlights: ['article_id', 'created_at', 'rev'],
      outbox: ['ids', 'status'],
      screenshots: [],
      meta: [],
      offline_images: ['[state+created_at]', 'article_id', 'created_at'],
      image_files: [],
      search_index: [],
      search_index_parts: [],
      card_pages: [],
      card_page_ids: [],
    });
    db.close();
  });

  it('opens a version 3 database at the last version with every row kept', async () => {
    const indexedDB = new IDBFactory();
    // The database as the app before the search index left it.
    const old = await openOldDatabase('upgrade-test', indexedDB, 3);
    expect(old.verno).toBe(3);
    const article = {
      id: 'a1',
      created_at: '2026-01-01T00:00:00.000Z',
      rev: 7,
      tags: ['Café'],
      tag_keys: ['café'],
    };
    await old.table('articles').put(article);
    await old.table('article_contents').put({ id: 'a1', content: '<p>x</p>', text: 'x' });
    await old.table('meta').put({ key: 'cursor', value: 42 });
    old.close();

    const db = new LecternDb('upgrade-test', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSIONS.at(-1)?.version);
    // Every row kept, with the list keys of version 7 added.
    expect(await db.articles.get('a1')).toEqual({ ...article, list_keys: listKeysOf(article) });
    expect(await db.articles.where('tag_keys').equals('café').primaryKeys()).toEqual(['a1']);
    expect(await bodyOf(db, 'a1')).toEqual({ id: 'a1', content: '<p>x</p>', text: 'x' });
    expect(await db.getMeta('cursor')).toBe(42);
    expect(await db.search_index.count()).toBe(0);
    db.close();
  });

  it("opens a version 8 database mid first sync with each staged page's ids in a row of their own", async () => {
    const indexedDB = new IDBFactory();
    // The database as the app with the pages' multi-entry index of ids left it, two pages staged.
    const old = await openOldDatabase('upgrade-pages-test', indexedDB, 8);
    const card = (id: string) => ({ id, created_at: '2026-01-01T00:00:00.000Z', rev: 1, tags: [] });
    const first = (await old
      .table('card_pages')
      .add({ rows: [card('a'), card('b')], ids: ['a', 'b'] })) as number;
    const second = (await old.table('card_pages').add({ rows: [card('c')], ids: ['c'] })) as number;
    old.close();

    const db = new LecternDb('upgrade-pages-test', { indexedDB, IDBKeyRange });
    await db.open();
    expect(await db.card_page_ids.toArray()).toEqual([
      { key: first, ids: ['a', 'b'] },
      { key: second, ids: ['c'] },
    ]);
    expect(await db.card_pages.get(second)).toEqual({ key: second, rows: [card('c')] });
    // Still articles to a read by id, and taken out of their page by a delete.
    expect(await db.articles.get('b')).toEqual(card('b'));
    await db.articles.delete('a');
    expect(await db.articles.get('a')).toBeUndefined();
    expect((await db.card_page_ids.toArray()).map((row) => row.ids)).toEqual([['c'], ['b']]);
    db.close();
  });

  it('opens a version 10 database with every body moved into `bodies`, found by id and by rev', async () => {
    const indexedDB = new IDBFactory();
    const old = await openOldDatabase('upgrade-bodies-test', indexedDB, 10);
    // More than the upgrade moves at a time, keyed by id as version 10 kept them; one without a rev (version 4's).
    const ids = Array.from({ length: 450 }, (_, i) => `b${String(i).padStart(3, '0')}`);
    await old
      .table('article_contents')
      .bulkPut(ids.map((id, i) => ({ id, content: `<p>${id}</p>`, rev: 100 + (i % 7) })));
    await old.table('article_contents').put({ id: 'norev', content: '<p>old</p>' });
    old.close();

    const db = new LecternDb('upgrade-bodies-test', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.tables.map((table) => table.name)).not.toContain('article_contents');
    expect(await countBodies(db)).toBe(451);
    expect(await bodyOf(db, 'b123')).toEqual({ id: 'b123', content: '<p>b123</p>', rev: 100 + (123 % 7) });
    expect(await bodyOf(db, 'norev')).toEqual({ id: 'norev', content: '<p>old</p>' });
    expect((await bodyIdsWrittenBetween(db, 105)).sort()).toEqual(ids.filter((_, i) => i % 7 === 6).sort());
    db.close();
  });

  it('opens a version 11 database with each body in a pack of its own, in the order they were written', async () => {
    const indexedDB = new IDBFactory();
    const old = await openOldDatabase('upgrade-packs-test', indexedDB, 11);
    // Written in no order of their ids, as a new device writes them (newest first); one without a rev.
    await old.table('bodies').bulkAdd([
      { id: 'z', content: '<p>z</p>', rev: 3 },
      { id: 'a', content: '<p>a</p>', rev: 3, text: 'a' },
      { id: 'norev', content: '<p>old</p>' },
      { id: 'm', content: null, rev: 4 },
    ]);
    old.close();

    const db = new LecternDb('upgrade-packs-test', { indexedDB, IDBKeyRange });
    await db.open();
    expect((await db.bodies.toArray()).map((pack) => [pack.seq, pack.ids])).toEqual([
      [1, ['z']],
      [2, ['a']],
      [3, ['norev']],
      [4, ['m']],
    ]);
    expect(await bodiesOf(db, ['a', 'norev', 'm'])).toEqual([
      { id: 'a', content: '<p>a</p>', rev: 3, text: 'a' },
      { id: 'norev', content: '<p>old</p>' },
      { id: 'm', content: null, rev: 4 },
    ]);
    expect(await bodyIds(db)).toEqual(['a', 'm', 'norev', 'z']);
    expect(await bodyIdsWrittenBetween(db, 0)).toEqual(['a', 'z', 'm']);
    // The unique index holds: a body written again leaves its pack of one, which goes.
    await putBodies(db, [{ id: 'z', content: '<p>z2</p>', rev: 5 }]);
    expect(await countBodies(db)).toBe(4);
    expect((await db.bodies.toArray()).map((pack) => pack.ids)).toEqual([['a'], ['norev'], ['m'], ['z']]);
    db.close();
  });
  it('wipes every table at once, the schema staying', async () => {
    const db = new LecternDb('wipe-test', { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.setMeta('cursor', 42);
    await db.tags.put({ id: 't', name: 'x', name_key: 'x', created_at: '2026-01-01T00:00:00.000Z' });
    const path = `/api/images/a/${'0'.repeat(64)}.png`;
    const createdAt = '2026-01-01T00:00:00.000Z';
    await db.offline_images.put({ path, article_id: 'a', created_at: createdAt, state: 'stored', size: 3 });
    await db.image_files.put({ path, bytes: new ArrayBuffer(3), type: 'image/png' });
    const snapshot = {
      ids: [],
      signatures: [],
      terms: [],
      offsets: new Uint32Array(1),
      docs: new Uint32Array(0),
      scores: new Float32Array(0),
    };
    await db.search_index.put({ key: 'articles', rev: 1, user: 'u', snapshot });
    await db.wipe();
    expect(await db.getMeta('cursor')).toBeUndefined();
    expect(await db.tags.count()).toBe(0);
    // The images kept for reading offline go with the rest.
    expect(await db.offline_images.count()).toBe(0);
    expect(await db.image_files.count()).toBe(0);
    // And the search index, derived from the articles.
    expect(await db.search_index.count()).toBe(0);
    expect(db.isOpen()).toBe(true);
    db.close();
  });

  it('lets work that outlives a session write its settings only while the reader is on the device', async () => {
    const db = new LecternDb('while-signed-in-test', { indexedDB: new IDBFactory(), IDBKeyRange });
    const reader = { id: 'u', email: 'u@example.com', username: 'u', avatarUrl: null, created_at: '' };
    await db.setMeta('user', reader);
    await db.setMetaWhileSignedIn('offlineImagesRev', 7);
    expect(await db.getMeta('offlineImagesRev')).toBe(7);
    // A scan that finishes after the logout's wipe leaves nothing behind.
    await db.wipe();
    await db.setMetaWhileSignedIn('offlineImagesRev', 9);
    await db.setMetaWhileSignedIn('bodiesWanted', false);
    expect(await db.meta.count()).toBe(0);
    db.close();
  });
});
