// The counts kept with each article write (article-counts.ts) always equal the library counted row by row:
// after every kind of change a reader or a sync makes, and across the schema upgrade that adds them.
import { computeArticleStats, type ArticleSummary } from '@lectern/shared-schema';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { articleSummary } from '../testing/article-summary';
import { openOldDatabase } from '../testing/old-database';
import { offlineDevicePerTest, worldPerFile } from '../testing/per-test';
import { signedInDevice, startWorld, type World } from '../testing/server-fixture';
import type { TestDevice } from '../testing/test-lectern';
import { countAll } from './article-counts';
import { LecternDb } from './lectern-db';
import { listKeysOf } from './list-keys';
import { putArticles, rewriteArticles } from './local-store';

/** The kept counts next to a full recount of the rows and of the tag index: the two must be equal. */
async function expectCountsExact(db: LecternDb) {
  const rows = await db.articles.toArray();
  const kept = await db.articleCounts();
  expect(kept).toEqual(countAll(rows));
  // The same numbers the whole-library computations answer.
  const { read: _read, ...stats } = computeArticleStats(rows);
  expect({
    total: kept.total,
    unread: kept.unread,
    archived: kept.archived,
    favorites: kept.favorites,
  }).toEqual(stats);
  const byIndex: Record<string, number> = {};
  for (const key of await db.articles.orderBy('tag_keys').keys())
    byIndex[String(key)] = (byIndex[String(key)] ?? 0) + 1;
  expect(kept.tags).toEqual(byIndex);
  return kept;
}

describe('the counts kept with local writes', () => {
  let device: TestDevice;
  offlineDevicePerTest((fresh) => (device = fresh));

  it('follow create, read, favorite, archive, tags, tag renames and deletes, delete and wipe', async () => {
    const { articles, tags, db } = device.lectern;
    expect(await expectCountsExact(db)).toMatchObject({ total: 0, tags: {} });
    const { article: first } = await articles.create({
      url: 'https://example.com/1',
      tags: ['Café', 'news'],
    });
    const { article: second } = await articles.create({ url: 'https://example.com/2', tags: ['news'] });
    const { article: third } = await articles.create({ url: 'https://example.com/3' });
    expect(await expectCountsExact(db)).toEqual({
      total: 3,
      unread: 3,
      archived: 0,
      favorites: 0,
      tags: { café: 1, news: 2 },
    });

    await articles.update(first.id, { isRead: true });
    await articles.update(second.id, { isFavorite: true });
    await articles.update(third.id, { isArchived: true, isFavorite: true });
    expect(await expectCountsExact(db)).toMatchObject({ total: 3, unread: 1, archived: 1, favorites: 2 });
    expect(await articles.stats()).toEqual({ total: 3, unread: 1, read: 1, archived: 1, favorites: 2 });

    const { tag: later } = await tags.create({ name: 'Later' });
    await articles.addTag(third.id, { tagId: later.id });
    const news = (await tags.list()).tags.find((tag) => tag.name === 'news')!;
    await articles.removeTag(second.id, news.id);
    expect((await expectCountsExact(db)).tags).toEqual({ café: 1, news: 1, later: 1 });

    await tags.update(news.id, { name: 'World' });
    expect((await expectCountsExact(db)).tags).toEqual({ café: 1, world: 1, later: 1 });
    await tags.remove(later.id);
    expect((await expectCountsExact(db)).tags).toEqual({ café: 1, world: 1 });
    expect((await tags.list()).tags.map((tag) => [tag.name, tag.article_count])).toEqual([
      ['Café', 1],
      ['World', 1],
    ]);

    await articles.update(third.id, { isArchived: false });
    await articles.remove(first.id);
    expect(await expectCountsExact(db)).toMatchObject({ total: 2, unread: 2, archived: 0, favorites: 2 });

    await db.wipe();
    expect(await expectCountsExact(db)).toEqual({ total: 0, unread: 0, archived: 0, favorites: 0, tags: {} });
    // Nothing of the reader stays on a shared device, not even a row of zeros.
    expect(await db.article_counts.count()).toBe(0);
    await articles.create({ url: 'https://example.com/after-wipe', tags: ['again'] });
    expect(await expectCountsExact(db)).toMatchObject({ total: 1, tags: { again: 1 } });
  });

  it('follow the low-level writes: one id twice in a call, writes at once in a transaction, ranges, clear', async () => {
    const { db } = device.lectern;
    const base = (id: string, fields: Partial<ArticleSummary> = {}) => articleSummary(id, fields);
    await putArticles(db, [
      base('a', { tags: ['x', 'X'] }),
      base('b', { is_read: true }),
      base('a', { is_favorite: true }),
    ]);
    await expectCountsExact(db);
    // Two writes started together in one transaction must not both start from the same counts.
    await db.transaction('rw', db.dataTables, async () => {
      await Promise.all([
        putArticles(db, [base('c', { tags: ['y'] })]),
        putArticles(db, [base('d', { is_archived: true, tags: ['y'] })]),
        db.articles.update('b', { is_favorite: true }),
      ]);
    });
    expect(await expectCountsExact(db)).toMatchObject({ total: 4, archived: 1, tags: { y: 2 } });
    const rows = await db.articles.bulkGet(['a', 'c']);
    await rewriteArticles(
      db,
      rows.map((row) => ({ ...row!, tags: ['z'] })),
    );
    await expectCountsExact(db);
    await db.articles.where(':id').between('a', 'c', true, true).delete();
    expect(await expectCountsExact(db)).toMatchObject({ total: 1 });
    await db.articles.bulkDelete(['d', 'd', 'missing']);
    expect(await expectCountsExact(db)).toMatchObject({ total: 0 });
    await putArticles(db, [base('e', { tags: ['x'] })]);
    const stored = (await db.articles.get('e'))!;
    // A failed add (the key is taken) changes nothing; the transaction's other writes stand.
    await db.transaction('rw', db.articles, async () => {
      await db.articles.add({ ...stored, is_archived: true }).catch(() => undefined);
      await db.articles.put({ ...stored, id: 'f', is_favorite: true });
    });
    expect(await expectCountsExact(db)).toMatchObject({
      total: 2,
      archived: 0,
      favorites: 1,
      tags: { x: 2 },
    });
    await db.articles.clear();
    expect(await expectCountsExact(db)).toMatchObject({ total: 0, tags: {} });
  });

  it('follow a large page written at once, new rows and rows it replaces mixed (a sync page)', async () => {
    const { db } = device.lectern;
    const id = (n: number) => `id-${String(n).padStart(3, '0')}`;
    // Every other row first, so the large write's key range holds rows there and rows not there.
    await putArticles(
      db,
      Array.from({ length: 100 }, (_, n) => articleSummary(id(2 * n), { tags: ['old'] })),
    );
    await putArticles(
      db,
      Array.from({ length: 150 }, (_, n) =>
        articleSummary(id(n), { is_read: n % 3 === 0, is_archived: n % 5 === 0, tags: ['new'] }),
      ),
    );
    expect(await expectCountsExact(db)).toMatchObject({ total: 175, tags: { old: 25, new: 150 } });
    // A write spread over a library too large to read the keys between its ends: looked up key by key.
    const many = (n: number) => `many-${String(n).padStart(5, '0')}`;
    await putArticles(
      db,
      Array.from({ length: 2_200 }, (_, n) => articleSummary(many(n), { tags: ['many'] })),
    );
    await putArticles(
      db,
      Array.from({ length: 64 }, (_, n) =>
        articleSummary(many(n * 34), { is_archived: true, tags: ['moved'] }),
      ),
    );
    expect(await expectCountsExact(db)).toMatchObject({
      total: 2_375,
      archived: 30 + 64,
      tags: { many: 2_200 - 64, moved: 64 },
    });
  });
});

describe('the counts kept with sync pulls', () => {
  let world: World;
  worldPerFile(startWorld, (started) => (world = started));
  const devices: TestDevice[] = [];
  afterEach(async () => {
    for (const device of devices.splice(0)) await device.lectern.close();
  });

  it('follow what another device creates, changes, tags and deletes', async () => {
    const phone = await signedInDevice(world);
    devices.push(phone);
    const laptop = await signedInDevice(world, phone.credentials, 'login');
    devices.push(laptop);
    const { articles, tags } = phone.lectern;
    const saved = [];
    for (const path of ['gardening', 'astronomy', 'baking', 'cycling'])
      saved.push((await articles.create({ url: `${world.site.origin}/${path}`, tags: ['Pulled'] })).article);
    await phone.lectern.sync.syncNow();
    await laptop.lectern.sync.syncNow();
    expect(await expectCountsExact(laptop.lectern.db)).toMatchObject({ total: 4, tags: { pulled: 4 } });

    await articles.update(saved[0]!.id, { isArchived: true });
    await articles.update(saved[1]!.id, { isRead: true, isFavorite: true });
    await articles.remove(saved[2]!.id);
    const pulled = (await tags.list()).tags.find((tag) => tag.name === 'Pulled')!;
    await articles.removeTag(saved[3]!.id, pulled.id);
    await phone.lectern.sync.syncNow();
    await laptop.lectern.sync.syncNow();
    expect(await expectCountsExact(laptop.lectern.db)).toEqual({
      total: 3,
      unread: 1,
      archived: 1,
      favorites: 1,
      tags: { pulled: 2 },
    });
    await expectCountsExact(phone.lectern.db);
  });
});

describe('the schema upgrade that adds the counts', () => {
  it('fills them from the rows a version 5 database holds, keeping every row', async () => {
    const indexedDB = new IDBFactory();
    const old = await openOldDatabase('counts-upgrade-test', indexedDB, 5);
    const rows = [
      { ...articleSummary('a', { tags: ['Café', 'news'] }), tag_keys: ['café', 'news'], rev: 1 },
      {
        ...articleSummary('b', { is_read: true, is_favorite: true, tags: ['news'] }),
        tag_keys: ['news'],
        rev: 2,
      },
      { ...articleSummary('c', { is_archived: true }), tag_keys: [], rev: 3 },
    ];
    await old.table('articles').bulkPut(rows);
    old.close();

    const db = new LecternDb('counts-upgrade-test', { indexedDB, IDBKeyRange });
    await db.open();
    // Every row kept, with the list keys of version 7 added.
    expect(await db.articles.toArray()).toEqual(rows.map((row) => ({ ...row, list_keys: listKeysOf(row) })));
    expect(await db.articleCounts()).toEqual({
      total: 3,
      unread: 1,
      archived: 1,
      favorites: 1,
      tags: { café: 1, news: 2 },
    });
    expect(await db.articles.where('updated_at').above('').count()).toBe(3);
    // And they are kept from then on.
    await db.articles.delete('b');
    await expectCountsExact(db);
    db.close();
  });
});
